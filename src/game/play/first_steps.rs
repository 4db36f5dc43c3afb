//! A new player's first day: six steps (join, raise, move, look into the fog, fight with a
//! volley or a charge, read a report), each ticked by doing it: each leaves a bit in `players.first_steps`, set by
//! the order in its own transaction or by the use case that showed the fog (`views::player_map`)
//! or the reports (`reports::read`), so that a player of the API ticks them as one of the pages
//! does, and the world page reads the checklist from the player's row with no query of its own.
//! Once all six are done a last bit says so and the page asks nothing more.

use crate::db::models::Player;
use crate::db::schema::players;
use crate::db::{self, DbConnection};
use crate::game::error::GameResult;
use crate::ids::PlayerId;
use crate::rules::names::EventKind;
use diesel::prelude::*;

/// Bits of `players.first_steps`.
pub const LOOKED_INTO_FOG: i32 = 1;
pub const READ_A_REPORT: i32 = 2;
pub const ALL_DONE: i32 = 4;
pub const RAISED: i32 = 8;
pub const MOVED: i32 = 16;
pub const FIRED: i32 = 32;

/// The bits of the steps after joining: with all of them the checklist is done.
const STEPS: i32 = RAISED | MOVED | LOOKED_INTO_FOG | FIRED | READ_A_REPORT;

/// A player's row as the checklist ticks it: its id and the bits it held when read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub player_id: PlayerId,
    pub bits: i32,
}

impl From<&Player> for Row {
    fn from(p: &Player) -> Row {
        Row {
            player_id: p.id,
            bits: p.first_steps,
        }
    }
}

/// Where the player stands on the checklist: the bits of the steps done; None once they are
/// all done. Ticks the last bit the first time every step is seen done.
pub fn of(conn: &mut DbConnection, p: &Player) -> GameResult<Option<i32>> {
    let bits = p.first_steps;
    if bits & ALL_DONE != 0 {
        return Ok(None);
    }
    if bits & STEPS == STEPS {
        mark(conn, p, ALL_DONE)?;
        return Ok(None);
    }
    Ok(Some(bits))
}

/// The bit an order of this event kind ticks, if any.
pub fn bit_of_event(kind: EventKind) -> Option<i32> {
    match kind {
        EventKind::Raise => Some(RAISED),
        EventKind::Move => Some(MOVED),
        // Cavalry fights by charging: either attack is the step.
        EventKind::Volley | EventKind::Melee => Some(FIRED),
        _ => None,
    }
}

/// Ticks a step inside the caller's transaction (an order's); nothing is written when the
/// player's row says it is ticked already, so a player's later orders cost nothing more.
pub fn tick(conn: &mut DbConnection, p: impl Into<Row>, bit: i32) -> QueryResult<()> {
    let p = p.into();
    if p.bits & bit == bit {
        return Ok(());
    }
    // OR-ed in the database: two requests at once must not undo each other's bit. `bit` is one
    // of the constants above, never input.
    let or_bit = diesel::dsl::sql::<diesel::sql_types::Integer>(&format!("first_steps | {bit}"));
    diesel::update(players::table.find(p.player_id))
        .set(players::first_steps.eq(or_bit))
        .execute(conn)?;
    Ok(())
}

/// Records a step that leaves no other trace, in a transaction of its own.
pub fn mark(conn: &mut DbConnection, p: impl Into<Row>, bit: i32) -> GameResult<()> {
    let p = p.into();
    if p.bits & bit == bit {
        return Ok(());
    }
    db::write(conn, |c| tick(c, p, bit))?;
    Ok(())
}
