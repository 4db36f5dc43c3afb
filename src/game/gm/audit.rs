//! The GM audit log: who changed what, when, with the values before and after.

use crate::db::models::AuditRow;
use crate::db::schema::{gm_audit, users};
use crate::db::{self, DbConnection};
use crate::game::error::GameResult;
use crate::ids::{AuditId, UserId, WorldId};
use crate::rules::Pos;
use diesel::prelude::*;
use serde_json::Value;

/// One change to record.
#[derive(Clone, Debug)]
pub struct Entry {
    pub world_id: Option<WorldId>,
    pub user_id: UserId,
    pub action: String,
    pub target: String,
    pub at: Option<Pos>,
    pub before: Option<Value>,
    pub after: Option<Value>,
    /// Changes made together (one edit of many cells) share a batch, undone together.
    pub batch: Option<String>,
}

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            world_id: None,
            user_id: UserId(0),
            action: String::new(),
            target: String::new(),
            at: None,
            before: None,
            after: None,
            batch: None,
        }
    }
}

pub fn record(conn: &mut DbConnection, e: Entry) -> GameResult<()> {
    diesel::insert_into(gm_audit::table)
        .values((
            gm_audit::world_id.eq(e.world_id),
            gm_audit::user_id.eq(e.user_id),
            gm_audit::at.eq(db::now()),
            gm_audit::action.eq(&e.action),
            gm_audit::target.eq(&e.target),
            gm_audit::x.eq(e.at.map(|p| p.x)),
            gm_audit::y.eq(e.at.map(|p| p.y)),
            gm_audit::old_value.eq(e.before.map(|v| v.to_string())),
            gm_audit::new_value.eq(e.after.map(|v| v.to_string())),
            gm_audit::batch.eq(e.batch),
        ))
        .execute(conn)?;
    // What a game master changed in a world may change what its players see.
    if let Some(world) = e.world_id {
        crate::db::live::world_changed(conn, world, crate::rules::names::LiveTopic::Map)?;
    }
    Ok(())
}

/// A filter over a world's audit log.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub user: Option<String>,
    pub at: Option<Pos>,
    pub before_id: Option<AuditId>,
}

/// A world's audit entries, newest first, with the GM's name.
pub fn list(
    conn: &mut DbConnection,
    world_id: WorldId,
    f: &Filter,
    limit: i64,
) -> GameResult<Vec<(AuditRow, String)>> {
    let mut q = gm_audit::table
        .inner_join(users::table)
        .filter(gm_audit::world_id.eq(world_id))
        .into_boxed();
    if let Some(name) = f.user.as_deref().filter(|n| !n.trim().is_empty()) {
        q = q.filter(users::username_key.eq(name.trim().to_lowercase()));
    }
    if let Some(p) = f.at {
        q = q.filter(gm_audit::x.eq(p.x)).filter(gm_audit::y.eq(p.y));
    }
    if let Some(b) = f.before_id {
        q = q.filter(gm_audit::id.lt(b));
    }
    Ok(q.order(gm_audit::id.desc())
        .limit(limit)
        .select((AuditRow::as_select(), users::username))
        .load(conn)?)
}

/// A typed record as an entry's `before` or `after`.
pub fn value<T: serde::Serialize>(t: &T) -> Option<Value> {
    serde_json::to_value(t).ok()
}
