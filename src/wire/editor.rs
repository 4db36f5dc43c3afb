//! The game masters' editor: cells, edges, spawns, worlds made and exported, the audit log.
//!
//! A cell is answered as the audit log records it (`game::gm::editor::CellContent`, with its
//! place beside it): the editor's answer and the log's `before` and `after` are one record.

use crate::game::gm::editor::{CellContent, CellEdit};
use crate::ids::{AuditId, NationId, WorldId};
use crate::rules::names::EdgeFeature;
use crate::rules::{Pos, Side};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// A cell the editor changed, as its answer lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct EditedCell {
    pub x: i32,
    pub y: i32,
    #[serde(flatten)]
    pub content: CellContent,
}

impl EditedCell {
    pub fn of((at, content): (Pos, CellContent)) -> EditedCell {
        EditedCell {
            x: at.x,
            y: at.y,
            content,
        }
    }
}

/// `PUT …/cells`, `POST …/undo`: the cells as they are now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CellsAnswer {
    pub cells: Vec<EditedCell>,
}

impl CellsAnswer {
    pub fn of(cells: Vec<(Pos, CellContent)>) -> CellsAnswer {
        CellsAnswer {
            cells: cells.into_iter().map(EditedCell::of).collect(),
        }
    }
}

/// An edge as the API answers it: under its one name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct EdgeAnswer {
    pub x: i32,
    pub y: i32,
    pub side: Side,
    pub feature: Option<EdgeFeature>,
}

impl EdgeAnswer {
    pub fn of((at, side, feature): (Pos, Side, Option<EdgeFeature>)) -> EdgeAnswer {
        EdgeAnswer {
            x: at.x,
            y: at.y,
            side,
            feature,
        }
    }
}

/// `PUT /api/v1/worlds/{w}/nations/{n}/spawn`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SpawnAnswer {
    #[schema(value_type = i32)]
    pub id: NationId,
    pub name: String,
    pub spawn: [i32; 2],
}

/// A world made by import, generation or creation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Created {
    #[schema(value_type = i32)]
    pub id: WorldId,
}

/// One line of `GET /api/v1/worlds/{w}/audit`; `before` and `after` as recorded.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AuditEntry {
    #[schema(value_type = i32)]
    pub id: AuditId,
    pub at: i64,
    pub user: String,
    pub action: String,
    pub target: String,
    pub x: Option<i32>,
    pub y: Option<i32>,
    #[schema(value_type = Option<Object>)]
    pub before: Option<Box<RawValue>>,
    #[schema(value_type = Option<Object>)]
    pub after: Option<Box<RawValue>>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct AuditAnswer {
    pub entries: Vec<AuditEntry>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EdgeBody {
    /// `rampart`, or null to take the feature off.
    pub feature: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Batch {
    pub cells: Vec<CellEdit>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateBody {
    pub width: i32,
    pub height: i32,
    pub seed: u64,
    #[serde(default = "two")]
    pub nations: usize,
    pub name: Option<String>,
    /// `square` (the default) or `hex`.
    #[serde(default)]
    pub grid: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TiledQuery {
    pub format: Option<String>,
    pub name: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    pub user: Option<String>,
    pub x: Option<i32>,
    pub y: Option<i32>,
    #[param(value_type = Option<i32>)]
    pub before: Option<AuditId>,
}

fn two() -> usize {
    2
}
