//! Moderation: a reader reports a message to the game masters; a game master sees the open
//! reports of a world, removes a message, mutes a player for a time, or dismisses a report.
//! Every removal and mute goes to the world's audit log.

use super::messages;
use super::text::Body;
use crate::db::schema::{message_reports, messages as msgs, players, users};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::gm::audit;
use crate::game::play::access::Actor;
use crate::ids::{MessageId, PlayerId, ReportId, UserId, WorldId};
use crate::said::Said;
use diesel::prelude::*;

/// The longest reason a reader may give, in characters.
pub const REASON_CHARS: usize = 500;

/// Reports a message the actor may read; reporting it again changes nothing.
pub fn report(
    conn: &mut DbConnection,
    actor: &Actor,
    message_id: MessageId,
    reason: Option<&str>,
) -> GameResult<()> {
    let reason = match reason.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => Body::parse(r, REASON_CHARS)?.as_str().to_string(),
        None => String::new(),
    };
    db::write(conn, |conn| {
        let (world_id, from, _) = messages::readable(conn, actor, message_id)?;
        if from == actor.user_id {
            return Err(GameError::Invalid(Said::new("error-report-own").into()));
        }
        super::insert_report(conn, world_id, message_id, actor.user_id, &reason)
            .map_err(GameError::from)
    })
}

diesel::alias!(users as reporters: Reporters);

/// An open report, as the game masters' queue reads it: report, message, author, channel (as
/// the message's row names it: `messages::Channel::of`), body, reporter, reason, at, and until when
/// the author is muted.
pub type ReportRow = (
    ReportId,
    MessageId,
    String,
    String,
    String,
    String,
    String,
    i64,
    Option<i64>,
);

/// A world's open reports, oldest first (game masters only).
pub fn open_reports(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
) -> GameResult<Vec<ReportRow>> {
    actor.require_gm()?;
    messages::world_exists(conn, world_id)?;
    let now = db::now();
    let rows: Vec<ReportRow> = message_reports::table
        .inner_join(msgs::table)
        .inner_join(users::table.on(users::id.eq(msgs::from_user_id)))
        .inner_join(reporters.on(reporters.field(users::id).eq(message_reports::reporter_id)))
        .left_join(
            players::table.on(players::user_id
                .eq(msgs::from_user_id)
                .and(players::world_id.eq(message_reports::world_id))),
        )
        .filter(message_reports::world_id.eq(world_id))
        .filter(message_reports::settled_at.is_null())
        .order(message_reports::id)
        .limit(200)
        .select((
            message_reports::id,
            message_reports::message_id,
            users::username,
            msgs::channel,
            msgs::body,
            reporters.field(users::username),
            message_reports::reason,
            message_reports::at,
            players::muted_until.nullable(),
        ))
        .load(conn)?;
    // A mute that has run out is no mute.
    Ok(rows
        .into_iter()
        .map(|mut r| {
            r.8 = r.8.filter(|until| *until > now);
            r
        })
        .collect())
}

/// Removes a message (game masters only): nobody sees it again; its reports are settled.
/// Returns its world.
pub fn remove_message(
    conn: &mut DbConnection,
    actor: &Actor,
    message_id: MessageId,
) -> GameResult<WorldId> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        let row: Option<(WorldId, String, String, Option<UserId>)> = msgs::table
            .inner_join(users::table.on(users::id.eq(msgs::from_user_id)))
            .filter(msgs::id.eq(message_id))
            .filter(msgs::removed_at.is_null())
            .select((
                msgs::world_id,
                users::username,
                msgs::body,
                msgs::to_user_id,
            ))
            .first(conn)
            .optional()?;
        let Some((world_id, from, body, to)) = row else {
            return Err(GameError::not_found("message"));
        };
        let now = db::now();
        // Once, however many game masters remove it at once.
        let n = diesel::update(
            msgs::table
                .filter(msgs::id.eq(message_id))
                .filter(msgs::removed_at.is_null()),
        )
        .set(msgs::removed_at.eq(Some(now)))
        .execute(conn)?;
        if n == 0 {
            return Err(GameError::not_found("message"));
        }
        if let Some(to) = to {
            super::recount_unread(conn, to)?;
        }
        diesel::update(
            message_reports::table
                .filter(message_reports::message_id.eq(message_id))
                .filter(message_reports::settled_at.is_null()),
        )
        .set((
            message_reports::settled_at.eq(Some(now)),
            message_reports::settled_by.eq(Some(actor.user_id)),
        ))
        .execute(conn)?;
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "remove_message".into(),
                target: format!("message {message_id}"),
                before: Some(serde_json::json!({ "from": from, "body": body })),
                ..audit::Entry::default()
            },
        )?;
        Ok(world_id)
    })
}

/// Dismisses one open report of a world (game masters only).
pub fn dismiss(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    report_id: ReportId,
) -> GameResult<()> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        let n = diesel::update(
            message_reports::table
                .filter(message_reports::id.eq(report_id))
                .filter(message_reports::world_id.eq(world_id))
                .filter(message_reports::settled_at.is_null()),
        )
        .set((
            message_reports::settled_at.eq(Some(db::now())),
            message_reports::settled_by.eq(Some(actor.user_id)),
        ))
        .execute(conn)?;
        if n == 0 {
            return Err(GameError::not_found("report"));
        }
        Ok(())
    })
}

/// Mutes a player of a world for `hours` (0 lifts it), at most `max_hours` (game masters
/// only). Returns the instant the mute ends.
pub fn mute(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    name: &str,
    hours: i64,
    max_hours: i64,
) -> GameResult<Option<i64>> {
    actor.require_gm()?;
    if !(0..=max_hours).contains(&hours) {
        return Err(GameError::Invalid(
            Said::new("error-mute-hours").n("max", max_hours).into(),
        ));
    }
    db::write(conn, |conn| {
        messages::world_exists(conn, world_id)?;
        let (user_id, username) = messages::player_named(conn, world_id, name)?;
        let (player_id, before): (PlayerId, Option<i64>) = players::table
            .filter(players::world_id.eq(world_id))
            .filter(players::user_id.eq(user_id))
            .select((players::id, players::muted_until))
            .first(conn)?;
        let until = (hours > 0).then(|| db::now() + hours * 3600);
        diesel::update(players::table.find(player_id))
            .set(players::muted_until.eq(until))
            .execute(conn)?;
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "mute".into(),
                target: format!("player {username}"),
                before: Some(serde_json::json!({ "muted_until": before })),
                after: Some(serde_json::json!({ "muted_until": until, "hours": hours })),
                ..audit::Entry::default()
            },
        )?;
        Ok(until)
    })
}
