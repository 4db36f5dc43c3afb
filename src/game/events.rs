//! Events: who did what, where, with which dice and outcome. Reports are views over them.

use crate::db::models::NewEvent;
use crate::db::schema::events;
use crate::db::DbConnection;
use diesel::prelude::*;

/// Stores an event and, in the same transaction, the alerts it calls for.
pub fn record(conn: &mut DbConnection, e: NewEvent) -> QueryResult<i32> {
    let insert = diesel::insert_into(events::table)
        .values(&e)
        .returning(events::id);
    let id = crate::on_backend!(conn, c => insert.get_result(c))?;
    super::alerts::from_event(conn, &e, id)?;
    Ok(id)
}
