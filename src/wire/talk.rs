//! Talking: messages, reports, mutes, blocks and markers.

use crate::game::talk::markers::Marker;
use crate::game::talk::messages::{Channel, Message, Thread};
use crate::game::talk::moderation::ReportRow;
use crate::ids::{MarkerId, MessageId, ReportId};
use serde::{Deserialize, Serialize};

/// One message as its readers get it (the API and the pages).
#[derive(Clone, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct MessageView {
    #[schema(value_type = i32)]
    pub id: MessageId,
    pub from: String,
    /// A player's name, `nation` (the board) or `world` (an announcement).
    pub to: String,
    pub body: String,
    pub at: i64,
}

impl From<Message> for MessageView {
    fn from(m: Message) -> MessageView {
        MessageView {
            id: m.id,
            from: m.from,
            to: m.to.as_str().to_string(),
            body: m.body,
            at: m.at,
        }
    }
}

// A conversation in the reader's list, as the messages page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct ThreadView {
    pub with: String,
    pub last_at: i64,
    pub unread: i64,
}

impl From<Thread> for ThreadView {
    fn from(t: Thread) -> ThreadView {
        ThreadView {
            with: t.with,
            last_at: t.last_at,
            unread: t.unread,
        }
    }
}

/// An open report, as the game masters' queue shows it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct OpenReport {
    #[schema(value_type = i32)]
    pub id: ReportId,
    #[schema(value_type = i32)]
    pub message_id: MessageId,
    pub from: String,
    pub channel: Channel,
    pub body: String,
    pub reporter: String,
    pub reason: String,
    pub at: i64,
    /// Whether the message's author is muted now.
    pub muted_until: Option<i64>,
}

impl From<ReportRow> for OpenReport {
    fn from(row: ReportRow) -> OpenReport {
        let (id, message_id, from, channel, body, reporter, reason, at, muted_until) = row;
        OpenReport {
            id,
            message_id,
            from,
            channel: Channel::of(&channel),
            body,
            reporter,
            reason,
            at,
            muted_until,
        }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct MarkerView {
    #[schema(value_type = i32)]
    pub id: MarkerId,
    pub at: [i32; 2],
    pub label: String,
    pub by: String,
    /// The marker is gone when the world reaches this turn.
    pub expires_turn: i32,
}

impl From<&Marker> for MarkerView {
    fn from(m: &Marker) -> MarkerView {
        MarkerView {
            id: m.id,
            at: [m.at.x, m.at.y],
            label: m.label.clone(),
            by: m.by.clone(),
            expires_turn: m.expires_turn,
        }
    }
}

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
