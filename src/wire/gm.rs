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

/// `POST /api/v1/worlds/{w}/bots`: seat a bot in a nation (its name or id).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewBot {
    pub nation: String,
    /// `easy`, `normal` (the default) or `hard`.
    #[serde(default = "normal")]
    pub level: String,
}

fn normal() -> String {
    "normal".into()
}

/// A bot seated in a world: a player of its nation played by the server.
#[derive(Serialize, utoipa::ToSchema)]
pub struct BotView {
    /// Its account's name.
    pub name: String,
    pub nation: String,
    #[schema(value_type = i32)]
    pub nation_id: crate::ids::NationId,
    pub level: crate::rules::bot::BotLevel,
    pub companies: i64,
    /// Always true: a bot, as every list of players marks it.
    pub bot: bool,
}

impl From<crate::game::bots::Seated> for BotView {
    fn from(s: crate::game::bots::Seated) -> BotView {
        BotView {
            name: s.name,
            nation: s.nation,
            nation_id: s.nation_id,
            level: s.level,
            companies: s.companies,
            bot: true,
        }
    }
}

/// `GET /api/v1/worlds/{w}/bots`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct BotList {
    pub bots: Vec<BotView>,
}
