//! What the live stream of a world (`GET /api/v1/worlds/{w}/live`) says: one payload per event
//! name of DESIGN.md §4, each the `data:` of its message as one JSON object.

use crate::ids::{CompanyId, EventId};
use crate::rules::names::EventKind;
use crate::rules::Season;
use crate::wire::views::SeenCompany;
use serde::Serialize;

/// `turn`: the world's turn and season, and when the next turn is due.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct TurnNews {
    pub turn: i32,
    pub season: Season,
    /// RFC 3339; none while no turn is due (a paused or ended world).
    pub next_turn_at: Option<String>,
}

/// `company`: one of the player's own companies as it stands now.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct CompanyNews {
    #[schema(value_type = i32)]
    pub id: CompanyId,
    pub x: i32,
    pub y: i32,
    pub ap: i32,
    pub men: i32,
    pub wounded: i32,
    pub morale: i32,
}

/// `seen`: what the player's nation sees changed: companies that came into sight or moved in
/// it (as the map shows them), and those it no longer sees. With `all`, `companies` is
/// everything it sees and any other company shown should go.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SeenNews {
    pub companies: Vec<SeenCompany>,
    #[schema(value_type = Vec<i32>)]
    pub gone: Vec<CompanyId>,
    pub all: bool,
    /// A long change comes in several messages: all but the last say `more`.
    pub more: bool,
}

/// `report`: an event the player gave or suffered, read at `/api/v1/worlds/{w}/events`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct ReportNews {
    #[schema(value_type = i32)]
    pub id: EventId,
    pub kind: EventKind,
}

/// `message`: the player's unread private messages.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct MessageNews {
    pub unread: i32,
}

/// Whether a world's campaign runs, stands paused, or has ended.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WorldStatus {
    Running,
    Paused,
    Ended,
}

/// `world`: whether the world takes orders.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct WorldNews {
    pub paused: bool,
    pub status: WorldStatus,
}

/// `resync`: the stream cannot tell what was missed; read everything again (reload the page).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct ResyncNews {
    /// What the client resumed from is older than what the server keeps, or unknown to it.
    pub reason: ResyncReason,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResyncReason {
    TooOld,
    Unknown,
}

/// Where a stream resumes: the last event id the client had (as `Last-Event-ID` says it; the
/// header wins), so that what it missed since is sent first.
#[derive(Clone, Copy, Debug, serde::Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct LiveQuery {
    pub from: Option<i64>,
}
