//! What outlives its use and is purged by the scheduler: ended sessions, expired API tokens,
//! throttle counts past their window, events and messages older than the configured ages, and
//! markers past their last turn. Every
//! process may run it; deleting twice is harmless.

use crate::config::Config;
use crate::db::schema::{
    api_tokens, events, login_failures, markers, message_reports, messages, sessions, worlds,
};
use crate::db::DbConnection;
use crate::game::accounts::sessions::Expiry;
use crate::game::error::GameResult;
use diesel::prelude::*;

/// Throttle counts are kept for at least this long (the registration window).
const THROTTLE_KEEP: i64 = 3600;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Purged {
    pub sessions: usize,
    pub tokens: usize,
    pub throttle: usize,
    pub events: usize,
    pub messages: usize,
    pub markers: usize,
    pub live: usize,
}

pub fn purge(conn: &mut DbConnection, config: &Config, now: i64) -> GameResult<Purged> {
    let sec = &config.settings.security;
    let expiry = Expiry {
        idle: sec.session_idle_minutes * 60,
        absolute: sec.session_absolute_hours * 3600,
    };
    let mut p = Purged {
        sessions: diesel::delete(
            sessions::table.filter(
                sessions::last_seen_at
                    .lt(now - expiry.idle)
                    .or(sessions::created_at.lt(now - expiry.absolute)),
            ),
        )
        .execute(conn)?,
        ..Purged::default()
    };
    if let Some(before) = token_cutoff(config, now) {
        p.tokens = diesel::delete(api_tokens::table.filter(api_tokens::created_at.lt(before)))
            .execute(conn)?;
    }
    let keep = sec.login_window_seconds.max(THROTTLE_KEEP);
    p.throttle = diesel::delete(login_failures::table.filter(login_failures::at.lt(now - keep)))
        .execute(conn)?;
    let days = config.settings.scheduler.keep_events_days;
    if days > 0 {
        p.events = diesel::delete(events::table.filter(events::at.lt(now - days * 86_400)))
            .execute(conn)?;
    }
    let days = config.settings.talk.keep_messages_days;
    if days > 0 {
        let old = messages::table
            .filter(messages::at.lt(now - days * 86_400))
            .select(messages::id);
        diesel::delete(message_reports::table.filter(message_reports::message_id.eq_any(old)))
            .execute(conn)?;
        p.messages = diesel::delete(messages::table.filter(messages::at.lt(now - days * 86_400)))
            .execute(conn)?;
        if p.messages > 0 {
            // Unread messages may have gone with them.
            crate::game::news::unread::recount_shown(conn)?;
        }
    }
    // A marker is gone once its world reaches its last turn; the rows follow here.
    let gone = worlds::table
        .filter(worlds::id.eq(markers::world_id))
        .filter(worlds::turn.ge(markers::expires_turn));
    p.markers = diesel::delete(markers::table.filter(diesel::dsl::exists(gone))).execute(conn)?;
    p.live = crate::db::live::prune(conn, now - config.settings.live.keep_minutes * 60)?;
    Ok(p)
}

/// API tokens made before this instant no longer work (None: tokens never expire).
pub fn token_cutoff(config: &Config, now: i64) -> Option<i64> {
    let days = config.settings.security.api_token_days;
    (days > 0).then(|| now - days * 86_400)
}
