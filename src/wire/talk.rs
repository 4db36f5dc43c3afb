//! Talking: messages, reports, mutes, blocks and markers.

use crate::game::talk::{markers::MarkerView, messages::MessageView, moderation::OpenReport};
use crate::ids::MessageId;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendBody {
    /// A player's name, `nation` or (game masters) `world`.
    pub to: String,
    pub body: String,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SinceQuery {
    #[param(value_type = Option<i32>)]
    pub since: Option<MessageId>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct MessagesAnswer {
    pub messages: Vec<MessageView>,
}

#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportBody {
    pub reason: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ReportAnswer {
    #[schema(value_type = i32)]
    pub reported: MessageId,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ReportsAnswer {
    pub reports: Vec<OpenReport>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MuteBody {
    pub player: String,
    /// 0 lifts the mute.
    pub hours: i64,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct MuteAnswer {
    pub player: String,
    pub muted_until: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockBody {
    pub player: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct BlockedAnswer {
    pub blocked: Vec<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerBody {
    /// `[x, y]` or `"x,y"`.
    pub at: crate::wire::input::CellRef,
    pub label: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct MarkersAnswer {
    pub markers: Vec<MarkerView>,
}
