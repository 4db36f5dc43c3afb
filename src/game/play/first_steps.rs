//! A new player's first day: six steps (join, raise, move, look into the fog, fire a volley,
//! read a report), each ticked by doing it. Orders leave their events; looking into the fog
//! and reading a report leave a bit in `players.first_steps`. Once all six are done a last
//! bit says so and the world page asks nothing more.

use crate::db::models::Player;
use crate::db::schema::{events, players};
use crate::db::{self, DbConnection};
use crate::game::error::GameResult;
use diesel::prelude::*;
use serde::Serialize;

/// Bits of `players.first_steps`.
pub const LOOKED_INTO_FOG: i32 = 1;
pub const READ_A_REPORT: i32 = 2;
pub const ALL_DONE: i32 = 4;

/// The checklist, in the order a player meets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FirstSteps {
    pub join: bool,
    pub raise: bool,
    pub move_: bool,
    pub fog: bool,
    pub volley: bool,
    pub report: bool,
}

impl FirstSteps {
    pub fn done(&self) -> bool {
        self.join && self.raise && self.move_ && self.fog && self.volley && self.report
    }

    /// `(step, done)` in order, as the page lists them.
    pub fn steps(&self) -> [(&'static str, bool); 6] {
        [
            ("join", self.join),
            ("raise", self.raise),
            ("move", self.move_),
            ("fog", self.fog),
            ("volley", self.volley),
            ("report", self.report),
        ]
    }
}

/// Where the player stands on the checklist; None once it is done (no query then). Ticks the
/// last bit the first time every step is seen done.
pub fn of(conn: &mut DbConnection, p: &Player) -> GameResult<Option<FirstSteps>> {
    if p.first_steps & ALL_DONE != 0 {
        return Ok(None);
    }
    let kinds: Vec<String> = events::table
        .filter(events::world_id.eq(p.world_id))
        .filter(events::actor_user_id.eq(p.user_id))
        .filter(events::kind.eq_any(["raise", "move", "volley"]))
        .select(events::kind)
        .distinct()
        .load(conn)?;
    let has = |k: &str| kinds.iter().any(|x| x == k);
    let steps = FirstSteps {
        join: true,
        raise: has("raise"),
        move_: has("move"),
        fog: p.first_steps & LOOKED_INTO_FOG != 0,
        volley: has("volley"),
        report: p.first_steps & READ_A_REPORT != 0,
    };
    if steps.done() {
        mark(conn, p, ALL_DONE)?;
        return Ok(None);
    }
    Ok(Some(steps))
}

/// Records a step that leaves no other trace; nothing is written when it is recorded already.
pub fn mark(conn: &mut DbConnection, p: &Player, bit: i32) -> GameResult<()> {
    if p.first_steps & bit == bit {
        return Ok(());
    }
    // OR-ed in the database: two pages at once must not undo each other's bit. `bit` is one
    // of the constants above, never input.
    let or_bit = diesel::dsl::sql::<diesel::sql_types::Integer>(&format!("first_steps | {bit}"));
    db::write(conn, |c| {
        diesel::update(players::table.find(p.id))
            .set(players::first_steps.eq(or_bit))
            .execute(c)
    })?;
    Ok(())
}
