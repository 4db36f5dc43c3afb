//! Playing: joining, raising, orders, the map, events, nations, leave and regiments.

use crate::game::play::{self, views};
use crate::ids::{EventId, NationId, PlayerId, WorldId};
use crate::rules::movement::{Capture, Step};
use crate::wire::input::{CellRef, PathRef, Whole};
use crate::wire::views::EventView;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct JoinBody {
    /// Read by the handler, which says what was wrong with another shape.
    #[schema(value_type = NationRef)]
    pub nation: Value,
}

/// A nation: its name (any case) or its id.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum NationRef {
    Id(i32),
    Name(String),
}

/// The fields of any order, as the API's JSON or a page's form sends them; `order_input`
/// makes the order of an action's name and these.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct OrderFields {
    pub path: Option<PathRef>,
    pub to: Option<CellRef>,
    pub target: Option<Whole>,
    pub at: Option<CellRef>,
    pub men: Option<Whole>,
}

/// `POST /api/v1/companies/{c}/move`: `path` or `to`, not both.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct MoveBody {
    pub path: Option<PathRef>,
    pub to: Option<CellRef>,
}

/// `volley` and `melee`: the company attacked.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct TargetBody {
    pub target: Whole,
}

/// The orders and edits aimed at one cell (`at` left out is refused by name).
#[derive(Deserialize, utoipa::ToSchema)]
pub struct AtBody {
    #[schema(required = true, value_type = CellRef)]
    pub at: Option<CellRef>,
}

/// `reinforce`: how many men of the reserve join.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ReinforceBody {
    pub men: Whole,
}

/// `POST /api/v1/worlds/{w}/ticks`.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct TickBody {
    /// `turn` or `season`.
    pub kind: String,
}

/// `POST /api/v1/worlds/{w}/join`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Joined {
    #[schema(value_type = i32)]
    pub player: PlayerId,
    #[schema(value_type = i32)]
    pub world: WorldId,
    #[schema(value_type = i32)]
    pub nation: NationId,
    pub reserve: i32,
}

/// `GET /api/v1/worlds/{w}/events`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct EventList {
    pub events: Vec<EventView>,
}

/// `GET /api/v1/worlds/{w}/nations`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NationList {
    pub nations: Vec<views::NationStanding>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct RaiseBody {
    pub kind: String,
    pub name: String,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OptionsQuery {
    /// A cell, `x,y`: the orders aimed at it are judged too.
    pub at: Option<String>,
}

/// `POST /api/v1/companies/{c}/move`: the company afterwards and the move's report beside it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MoveAnswer {
    #[serde(flatten)]
    pub company: Option<play::CompanyView>,
    pub steps: Vec<Step>,
    pub cost: i32,
    pub captures: Vec<Capture>,
    #[schema(value_type = i32)]
    pub event_id: EventId,
    pub summary: String,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Rect {
    pub x0: Option<i32>,
    pub y0: Option<i32>,
    pub x1: Option<i32>,
    pub y1: Option<i32>,
}

/// `GET /api/v1/worlds/{w}/map`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MapAnswer {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    pub cells: Vec<views::MapCell>,
    pub companies: Vec<views::SeenCompany>,
    /// `square` or `hex`.
    pub grid: crate::rules::Grid,
    pub edges: Vec<views::EdgeView>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Since {
    #[param(value_type = Option<i32>)]
    pub since: Option<EventId>,
    pub limit: Option<i64>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct LeaveBody {
    pub days: i32,
}

/// `POST /api/v1/worlds/{w}/leave`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct LeaveAnswer {
    pub days: i32,
    pub leave_until: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct RegimentBody {
    pub name: String,
}
