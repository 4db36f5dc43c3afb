//! Events: who did what, where, with which dice and outcome. Reports are views over them.

use crate::db::models::NewEvent;
use crate::db::schema::events;
use crate::db::DbConnection;
use diesel::prelude::*;

pub fn record(conn: &mut DbConnection, e: NewEvent) -> QueryResult<i32> {
    diesel::insert_into(events::table)
        .values(&e)
        .returning(events::id)
        .get_result(conn)
}
