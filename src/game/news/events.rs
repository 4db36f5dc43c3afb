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
    // Inserted by value: a kind written as its text (`serialize_as`) has no borrowed insert,
    // and the alerts below still read the event.
    let insert = diesel::insert_into(events::table).values(e.clone());
    let id = match conn {
        // SQLite writes a `RETURNING` clause's rows to a temporary table and opens a statement
        // journal for it: a fifth of the time an order spends under the single writer went
        // into the event's insert. The rowid of the insert just made says the same.
        DbConnection::Sqlite(c) => {
            insert.execute(c)?;
            let id: i64 = diesel::select(last_insert_rowid()).get_result(c)?;
            EventId(
                i32::try_from(id)
                    .map_err(|e| diesel::result::Error::DeserializationError(e.into()))?,
            )
        }
        DbConnection::Postgres(c) => insert.returning(events::id).get_result(c)?,
    };
    crate::game::news::alerts::from_event(conn, &e, id)?;
    crate::db::live::note(
        conn,
        Some(e.world_id),
        crate::rules::names::LiveTopic::Event,
        e.target_user_id,
        Some(id.0),
    )?;
    Ok(id)
}
