//! The GM audit log: who changed what, when, with the values before and after.

use super::error::GameResult;
use crate::db::schema::gm_audit;
use crate::db::{self, DbConnection};
use crate::rules::Pos;
use diesel::prelude::*;
use serde_json::Value;

#[allow(clippy::too_many_arguments)]
pub fn record(
    conn: &mut DbConnection,
    world_id: Option<i32>,
    user_id: i32,
    action: &str,
    target: &str,
    at: Option<Pos>,
    before: Option<Value>,
    after: Option<Value>,
) -> GameResult<()> {
    diesel::insert_into(gm_audit::table)
        .values((
            gm_audit::world_id.eq(world_id),
            gm_audit::user_id.eq(user_id),
            gm_audit::at.eq(db::now()),
            gm_audit::action.eq(action),
            gm_audit::target.eq(target),
            gm_audit::x.eq(at.map(|p| p.x)),
            gm_audit::y.eq(at.map(|p| p.y)),
            gm_audit::old_value.eq(before.map(|v| v.to_string())),
            gm_audit::new_value.eq(after.map(|v| v.to_string())),
        ))
        .execute(conn)?;
    Ok(())
}
