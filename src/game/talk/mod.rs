//! Nations that talk: messages (private, the nation's board, announcements), map markers for a
//! nation, and the game masters' moderation (reports, removal, muting). Settings in
//! `[talk]` of the server's configuration.

pub mod markers;
pub mod messages;
pub mod moderation;
pub mod text;

use crate::db::models::Player;
use crate::db::schema::{blocks, message_reports};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
pub use crate::game::news::unread::recount as recount_unread;
use crate::ids::{MessageId, UserId, WorldId};
use crate::said::Said;
use diesel::prelude::*;

/// Refuses a player a game master muted, saying for how long still.
pub fn now_or_muted(p: &Player, now: i64) -> GameResult<()> {
    match p.muted_until {
        Some(until) if until > now => Err(GameError::Muted(
            Said::new("error-muted")
                .n("minutes", (until - now + 59) / 60)
                .into(),
        )),
        _ => Ok(()),
    }
}

/// A player's writes wait for each other, so that two at once cannot both slip under a limit.
pub fn serialize_writes_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<()> {
    db::serialize_on(conn, &format!("talk:{user_id}"))
}

/// A block, once however many ask at once; it holds in every world (see `messages::block`).
fn insert_block(conn: &mut DbConnection, user: UserId, blocked: UserId) -> QueryResult<()> {
    let row = (
        blocks::user_id.eq(user),
        blocks::blocked_id.eq(blocked),
        blocks::at.eq(db::now()),
    );
    crate::on_backend!(conn, c => diesel::insert_into(blocks::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(())
}

/// A report, once per reader and message however many times it is sent.
fn insert_report(
    conn: &mut DbConnection,
    world_id: WorldId,
    message_id: MessageId,
    reporter: UserId,
    reason: &str,
) -> QueryResult<()> {
    let row = (
        message_reports::world_id.eq(world_id),
        message_reports::message_id.eq(message_id),
        message_reports::reporter_id.eq(reporter),
        message_reports::reason.eq(reason),
        message_reports::at.eq(db::now()),
    );
    crate::on_backend!(conn, c => diesel::insert_into(message_reports::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(())
}
