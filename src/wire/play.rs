//! Playing: joining, raising, orders, the map, events, nations, leave and regiments.

use crate::game::play::{self, views};
use crate::rules::movement::{Capture, Step};
use crate::wire::views::EventView;
use serde_json::Value;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, utoipa::ToSchema)]
pub struct JoinBody {
    pub nation: Value,
}

/// `POST /api/v1/worlds/{w}/join`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Joined {
    pub player: i32,
    pub world: i32,
    pub nation: i32,
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
    pub event_id: i32,
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
    pub since: Option<i32>,
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
