//! The game masters' world controls.
use serde::{Deserialize, Serialize};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WorldPatch {
    pub paused: Option<bool>,
    pub season: Option<String>,
    /// The world's own victory settings (docs/rules.md §11).
    pub victory: Option<crate::game::maps::mapfile::MapVictory>,
}

/// `POST /api/v1/worlds/{w}/tick`: where the world stands after the tick and what it cost.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TickAnswer {
    pub turn: i32,
    pub season: Option<crate::rules::Season>,
    pub rows: i64,
    pub duration_ms: i64,
    pub orders_held_ms: i64,
}
