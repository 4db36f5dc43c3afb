//! The game masters' editor: cells, edges, spawns, worlds made and exported, the audit log.

use crate::game::gm::editor::{self, CellEdit};
use crate::ids::{AuditId, NationId, WorldId};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// `PUT …/cells`, `POST …/undo`: the cells as they are now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CellsAnswer {
    pub cells: Vec<editor::EditedCell>,
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
