//! The live log: one row per change an open event stream may need to hear of, written in the
//! change's own transaction, so that a stream hears of what was committed and of nothing
//! rolled back. Rows hold ids only; what a stream sends is read from the tables by the same
//! code the pages use, as its player may see it. On PostgreSQL the row's transaction also says
//! `NOTIFY grognard_live` (delivered to every server process at its commit); on SQLite the
//! commit wakes this process's reader (`db::LIVE_COMMITS`).

use super::schema::live_log;
use super::{self as db, DbConnection};
use crate::ids::{UserId, WorldId};
use crate::rules::names::LiveTopic;
use diesel::prelude::*;

/// The PostgreSQL channel of the live log's notifications.
/// Notifications with the same payload in one transaction are delivered once. (Written out
/// in [`LiveInsert`]'s text too.)
pub const CHANNEL: &str = "grognard_live";

/// One row of the live log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub id: i64,
    /// None: it concerns `user` in every world.
    pub world: Option<WorldId>,
    pub topic: LiveTopic,
    pub user: Option<UserId>,
    /// When it was written (UNIX milliseconds).
    pub at: i64,
    /// The event's id for [`LiveTopic::Event`].
    pub reference: Option<i32>,
}

/// Writes a row of the live log in the caller's transaction.
pub fn note(
    conn: &mut DbConnection,
    world: Option<WorldId>,
    topic: LiveTopic,
    user: Option<UserId>,
    reference: Option<i32>,
) -> QueryResult<()> {
    note_all(conn, topic, &[(world, user, reference)])
}

/// Writes rows of the live log of one topic, one per (world, user, reference), in the
/// caller's transaction: one statement, and one notification (a bot's chunk of orders sent a
/// row and a `NOTIFY` for each of its events, two of a move's dozen round trips).
pub fn note_all(
    conn: &mut DbConnection,
    topic: LiveTopic,
    rows: &[(Option<WorldId>, Option<UserId>, Option<i32>)],
) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let at = now_ms();
    match conn {
        DbConnection::Sqlite(c) => {
            let values: Vec<LiveRow> = rows
                .iter()
                .map(|&(world, user, reference)| LiveRow {
                    world,
                    at,
                    topic: topic.as_str(),
                    user,
                    reference,
                })
                .collect();
            crate::db::fixed::insert_rows(c, &values)?;
            db::announce_on_commit();
        }
        DbConnection::Postgres(c) => {
            LiveInsert {
                at,
                topic: topic.as_str(),
                world: rows.iter().map(|(w, _, _)| w.map(|w| w.0)).collect(),
                user: rows.iter().map(|(_, u, _)| u.map(|u| u.0)).collect(),
                reference: rows.iter().map(|(_, _, r)| *r).collect(),
            }
            .execute(c)?;
        }
    }
    Ok(())
}

crate::fixed_statement! {
    /// Rows of the live log of one topic and instant, their other columns in arrays, and the
    /// notification on [`CHANNEL`] (PostgreSQL: one text for any count, planned once, and one
    /// round trip with its `NOTIFY`).
    struct LiveInsert {
        "WITH written AS (INSERT INTO live_log (world_id, at, topic, user_id, ref_id) SELECT w, " at: diesel::sql_types::BigInt = i64,
        ", " topic: diesel::sql_types::Text = &'static str,
        ", u, r FROM unnest(" world: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Integer>> = Vec<Option<i32>>,
        ", " user: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Integer>> = Vec<Option<i32>>,
        ", " reference: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Integer>> = Vec<Option<i32>>,
        ; ") AS v(w, u, r)) SELECT pg_notify('grognard_live', '')"
    }
}

/// A row of the live log, as SQLite's insert of many rows binds it.
struct LiveRow {
    world: Option<WorldId>,
    at: i64,
    topic: &'static str,
    user: Option<UserId>,
    reference: Option<i32>,
}

impl crate::db::fixed::SqliteRow for LiveRow {
    const HEAD: &'static str =
        "INSERT INTO live_log (world_id, at, topic, user_id, ref_id) VALUES ";
    type Id = LiveRow;
    fn walk<'b>(
        &'b self,
        out: &mut diesel::query_builder::AstPass<'_, 'b, diesel::sqlite::Sqlite>,
    ) -> QueryResult<()> {
        use crate::db::fixed::bind;
        use diesel::sql_types::{BigInt, Integer, Nullable, Text};
        bind::<Nullable<Integer>, _>(out, true, &self.world)?;
        bind::<BigInt, _>(out, false, &self.at)?;
        bind::<Text, _>(out, false, self.topic)?;
        bind::<Nullable<Integer>, _>(out, false, &self.user)?;
        bind::<Nullable<Integer>, _>(out, false, &self.reference)
    }
}

/// Milliseconds since the UNIX epoch: when a row is written, and the streams' event ids.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Says to a world's streams that the world or its map changed (a game master's edit).
pub fn world_changed(conn: &mut DbConnection, world: WorldId, topic: LiveTopic) -> QueryResult<()> {
    note(conn, Some(world), topic, None, None)
}

type Row = (i64, Option<i32>, String, Option<i32>, i64, Option<i32>);

/// The columns a [`Row`] reads.
const COLUMNS: (
    live_log::id,
    live_log::world_id,
    live_log::topic,
    live_log::user_id,
    live_log::at,
    live_log::ref_id,
) = (
    live_log::id,
    live_log::world_id,
    live_log::topic,
    live_log::user_id,
    live_log::at,
    live_log::ref_id,
);

fn change((id, world, topic, user, at, reference): Row) -> Option<Change> {
    Some(Change {
        id,
        at,
        world: world.map(WorldId),
        // A topic this build does not know (written by a newer one) is passed by.
        topic: topic.parse().ok()?,
        user: user.map(UserId),
        reference,
    })
}

/// The rows after `after`, oldest first, at most `limit`.
pub fn since(conn: &mut DbConnection, after: i64, limit: i64) -> QueryResult<Vec<Change>> {
    let rows: Vec<Row> = live_log::table
        .filter(live_log::id.gt(after))
        .order(live_log::id)
        .limit(limit)
        .select(COLUMNS)
        .load(conn)?;
    Ok(rows.into_iter().filter_map(change).collect())
}

/// The rows of one world (and its user-wide rows of `user`) written after `since` (UNIX ms)
/// and read by now (ids up to `upto`), oldest first: what a stream resuming from `since` missed.
pub fn missed(
    conn: &mut DbConnection,
    world: WorldId,
    user: UserId,
    since: i64,
    upto: i64,
) -> QueryResult<Vec<Change>> {
    let rows: Vec<Row> = live_log::table
        .filter(live_log::at.gt(since))
        .filter(live_log::id.le(upto))
        .filter(
            live_log::world_id.eq(world.0).or(live_log::world_id
                .is_null()
                .and(live_log::user_id.eq(user.0))),
        )
        .order(live_log::id)
        .select(COLUMNS)
        .load(conn)?;
    Ok(rows.into_iter().filter_map(change).collect())
}

/// The newest id the log holds (None when it is empty).
pub fn newest(conn: &mut DbConnection) -> QueryResult<Option<i64>> {
    live_log::table
        .select(diesel::dsl::max(live_log::id))
        .first(conn)
}

/// Deletes the rows written before `before` (UNIX seconds), always keeping the newest (where
/// the readers start).
pub fn prune(conn: &mut DbConnection, before: i64) -> QueryResult<usize> {
    let Some(newest) = newest(conn)? else {
        return Ok(0);
    };
    diesel::delete(
        live_log::table
            .filter(live_log::at.lt(before.saturating_mul(1000)))
            .filter(live_log::id.lt(newest)),
    )
    .execute(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_logs_rows_are_notified_on_its_channel() {
        let rows = LiveInsert {
            at: 0,
            topic: LiveTopic::Event.as_str(),
            world: Vec::new(),
            user: Vec::new(),
            reference: Vec::new(),
        };
        let sql = diesel::debug_query::<diesel::pg::Pg, _>(&rows).to_string();
        assert!(
            sql.contains(&format!("pg_notify('{CHANNEL}', '')")),
            "{sql}"
        );
    }
}
