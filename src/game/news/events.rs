//! Events: who did what, where, with which dice and outcome. Reports are views over them.

use crate::db::models::NewEvent;
use crate::db::schema::events;
use crate::db::DbConnection;
use crate::ids::EventId;
use diesel::prelude::*;

diesel::define_sql_function! {
    /// SQLite: the rowid the connection's last `INSERT` gave, which is an event's id.
    fn last_insert_rowid() -> BigInt;
}

/// Stores an event and, in the same transaction, the alerts it calls for.
pub fn record(conn: &mut DbConnection, e: NewEvent) -> QueryResult<EventId> {
    let ids = record_all(conn, vec![e])?;
    ids.first().copied().ok_or(diesel::result::Error::NotFound)
}

/// Stores events in the order given, with the alerts they call for and their
/// rows of the live log, in the caller's transaction; their ids in the same order. On
/// PostgreSQL in one statement (a bot's chunk of orders wrote each of its events in a round
/// trip of its own).
pub fn record_all(conn: &mut DbConnection, all: Vec<NewEvent>) -> QueryResult<Vec<EventId>> {
    if all.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<EventId> = match conn {
        // SQLite writes a `RETURNING` clause's rows to a temporary table and opens a statement
        // journal for it: a fifth of the time an order spends under the single writer went
        // into the event's insert. The rowid of each insert just made says the same.
        DbConnection::Sqlite(c) => {
            let mut ids = Vec::with_capacity(all.len());
            for e in &all {
                // Inserted by value: a kind written as its text (`serialize_as`) has no
                // borrowed insert.
                diesel::insert_into(events::table)
                    .values(e.clone())
                    .execute(c)?;
                let id: i64 = diesel::select(last_insert_rowid()).get_result(c)?;
                ids.push(EventId(i32::try_from(id).map_err(|e| {
                    diesel::result::Error::DeserializationError(e.into())
                })?));
            }
            ids
        }
        // The rows of a multi-row `INSERT … RETURNING` come back in the order of its values
        // (PostgreSQL's own order, not the standard's promise: checked by the count below and
        // by the bots' tests, which read each event's alerts and live rows). Slices keep each
        // statement far under PostgreSQL's 65,535 bound values (some fifteen an event).
        DbConnection::Postgres(c) => {
            let mut ids = Vec::with_capacity(all.len());
            for slice in all.chunks(1_000) {
                let got: Vec<EventId> = diesel::insert_into(events::table)
                    .values(slice.to_vec())
                    .returning(events::id)
                    .get_results(c)?;
                if got.len() != slice.len() {
                    return Err(diesel::result::Error::DeserializationError(
                        "an insert of events returned another number of ids".into(),
                    ));
                }
                ids.extend(got);
            }
            ids
        }
    };
    for (e, id) in all.iter().zip(&ids) {
        crate::game::news::alerts::from_event(conn, e, *id)?;
    }
    let rows: Vec<_> = all
        .iter()
        .zip(&ids)
        .map(|(e, id)| (Some(e.world_id), e.target_user_id, Some(id.0)))
        .collect();
    crate::db::live::note_all(conn, crate::rules::names::LiveTopic::Event, &rows)?;
    Ok(ids)
}
