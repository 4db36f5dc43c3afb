//! PostgreSQL's advisory locks of ticks: one per world and kind of tick, so that attempts in
//! other processes wait instead of racing for its row, and one on a world's companies, taken
//! alone by a turn's chunk and shared by orders. SQLite's single writer does both by itself.

use crate::db::DbConnection;
use crate::game::time::ticks::TickKind;
use crate::ids::{CompanyId, UserId, WorldId};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer};

/// The first key of the ticks' advisory locks on PostgreSQL: every transaction of a world's
/// tick of a kind locks `TICK_LOCK_BASE + world * 2 + kind`, so that attempts in other
/// processes wait instead of racing for its row.
const TICK_LOCK_BASE: i64 = 0x4752_0000_0000;

/// The first key of the locks on a world's companies: `COMPANIES_LOCK_BASE + world`, taken
/// by each chunk of a turn, and shared by orders, which so wait for a chunk being applied but
/// not for the rest of the turn, nor for one another.
const COMPANIES_LOCK_BASE: i64 = 0x4743_0000_0000;

fn advisory_lock(conn: &mut DbConnection, key: i64) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock($1)")
            .bind::<BigInt, _>(key)
            .execute(pg)?;
    }
    Ok(())
}

pub(super) fn tick_lock(
    conn: &mut DbConnection,
    world_id: WorldId,
    kind: TickKind,
) -> QueryResult<()> {
    advisory_lock(
        conn,
        TICK_LOCK_BASE + i64::from(world_id.0) * 2 + kind as i64,
    )
}

pub(super) fn companies_lock(conn: &mut DbConnection, world_id: WorldId) -> QueryResult<()> {
    advisory_lock(conn, world_orders_key(world_id))
}

/// The key of the lock [`hold_world_orders`] takes, for a statement that takes it along with
/// other work (a bot's chunk written ahead, with its seat's lock).
pub fn world_orders_key(world_id: WorldId) -> i64 {
    COMPANIES_LOCK_BASE + i64::from(world_id.0)
}

/// Holds every order to the companies of `world_id` off until this transaction ends, as a
/// chunk of a turn does (PostgreSQL; SQLite's single writer does it by itself): what the
/// transaction reads of them stays true (a bot's chunk of orders on a board).
pub fn hold_world_orders(conn: &mut DbConnection, world_id: WorldId) -> QueryResult<()> {
    companies_lock(conn, world_id)
}

/// [`hold_off_turn`] for orders to companies of `world_id`, all of them the caller's to give
/// (a bot's chunk): asked once for them all.
pub fn hold_off_world_turn(conn: &mut DbConnection, world_id: WorldId) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock_shared($1)")
            .bind::<BigInt, _>(COMPANIES_LOCK_BASE + i64::from(world_id.0))
            .execute(pg)?;
    }
    Ok(())
}

/// Waits while a chunk of a turn is being given to the companies of the company's world, and
/// holds the next one off until this transaction ends (PostgreSQL; SQLite's single writer
/// does both by itself). Without it an order read its company before a running turn's update
/// and wrote after it, and was refused as changed meanwhile: at the turn change, when every
/// player acts.
/// Only for a company of `user_id`'s: an order for another's answers at once, so that its
/// timing does not tell that the company exists or that its world is turning.
pub fn hold_off_turn(
    conn: &mut DbConnection,
    user_id: UserId,
    company_id: CompanyId,
) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query(
            "SELECT pg_advisory_xact_lock_shared($1 + c.world_id::bigint) FROM companies c \
             JOIN players p ON p.id = c.player_id WHERE c.id = $2 AND p.user_id = $3",
        )
        .bind::<BigInt, _>(COMPANIES_LOCK_BASE)
        .bind::<Integer, _>(company_id)
        .bind::<Integer, _>(user_id)
        .execute(pg)?;
    }
    Ok(())
}
