//! The header's badge of private messages not yet read (`users.unread_messages`), counted
//! again from the messages whatever changed them: a reading, a removal, retention, a block.
//! A blocked author's messages are never shown to the blocker, so they never count.

use crate::db::DbConnection;
use crate::ids::UserId;
use diesel::prelude::*;

/// Sets each user's badge to their unread private messages; a `WHERE` follows.
const UNREAD_COUNT: &str = "UPDATE users SET unread_messages = (SELECT CAST(COUNT(*) AS INTEGER) \
     FROM messages m WHERE m.to_user_id = users.id AND m.read_at IS NULL AND m.removed_at IS NULL \
     AND NOT EXISTS (SELECT 1 FROM blocks b \
     WHERE b.user_id = users.id AND b.blocked_id = m.from_user_id))";

/// Counts a user's unread private messages again, in the caller's transaction.
pub fn recount(conn: &mut DbConnection, user_id: UserId) -> QueryResult<()> {
    let sql = conn.numbered(&format!("{UNREAD_COUNT} WHERE id = $1"));
    diesel::sql_query(sql)
        .bind::<diesel::sql_types::Integer, _>(user_id)
        .execute(conn)?;
    crate::db::live::note(
        conn,
        None,
        crate::rules::names::LiveTopic::Message,
        Some(user_id),
        None,
    )
}

/// Counts again the badges that show anything (after messages were deleted).
pub fn recount_shown(conn: &mut DbConnection) -> QueryResult<usize> {
    diesel::sql_query(format!("{UNREAD_COUNT} WHERE unread_messages > 0")).execute(conn)
}
