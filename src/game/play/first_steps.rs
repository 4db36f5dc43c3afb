//! A new player's first day: six steps (join, raise, move, look into the fog, fire a volley,
//! read a report), each ticked by doing it: each leaves a bit in `players.first_steps`, set by
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
use serde::Serialize;

/// Bits of `players.first_steps`.
pub const LOOKED_INTO_FOG: i32 = 1;
pub const READ_A_REPORT: i32 = 2;
pub const ALL_DONE: i32 = 4;
pub const RAISED: i32 = 8;
pub const MOVED: i32 = 16;
pub const FIRED: i32 = 32;

/// The checklist, in the order a player meets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct FirstSteps {
    pub join: bool,
    pub raise: bool,
    #[serde(rename = "move")]
    pub move_: bool,
    pub fog: bool,
    pub volley: bool,
    pub report: bool,
}

impl FirstSteps {
    pub fn done(&self) -> bool {
        self.join && self.raise && self.move_ && self.fog && self.volley && self.report
    }

    /// How many steps the checklist has.
    pub const COUNT: u32 = 6;

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

    /// The steps as the page's template lists them.
    pub fn list(&self) -> Vec<Step> {
        self.steps()
            .into_iter()
            .map(|(step, done)| Step { step, done })
            .collect()
    }

    /// A number below `2^COUNT` for each state of the checklist: bit i for step i done.
    pub fn index(&self) -> u32 {
        self.steps()
            .iter()
            .enumerate()
            .map(|(i, (_, done))| u32::from(*done) << i)
            .sum()
    }

    /// The checklist of [`FirstSteps::index`].
    pub fn from_index(i: u32) -> FirstSteps {
        let done = |bit: u32| i & (1 << bit) != 0;
        FirstSteps {
            join: done(0),
            raise: done(1),
            move_: done(2),
            fog: done(3),
            volley: done(4),
            report: done(5),
        }
    }
}

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

/// One line of the checklist.
#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct Step {
    pub step: &'static str,
    pub done: bool,
}

/// Where the player stands on the checklist; None once it is done. Ticks the last bit the
/// first time every step is seen done.
pub fn of(conn: &mut DbConnection, p: &Player) -> GameResult<Option<FirstSteps>> {
    let bits = p.first_steps;
    if bits & ALL_DONE != 0 {
        return Ok(None);
    }
    let has = |bit: i32| bits & bit != 0;
    let steps = FirstSteps {
        join: true,
        raise: has(RAISED),
        move_: has(MOVED),
        fog: has(LOOKED_INTO_FOG),
        volley: has(FIRED),
        report: has(READ_A_REPORT),
    };
    if steps.done() {
        mark(conn, p, ALL_DONE)?;
        return Ok(None);
    }
    Ok(Some(steps))
}

/// The bit an order of this event kind ticks, if any.
pub fn bit_of_event(kind: EventKind) -> Option<i32> {
    match kind {
        EventKind::Raise => Some(RAISED),
        EventKind::Move => Some(MOVED),
        EventKind::Volley => Some(FIRED),
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

#[cfg(test)]
mod tests {
    use super::FirstSteps;

    #[test]
    fn each_state_of_the_checklist_has_its_own_index() {
        for i in 0..1u32 << FirstSteps::COUNT {
            let steps = FirstSteps::from_index(i);
            assert_eq!(steps.index(), i);
            assert_eq!(
                steps.list().iter().filter(|s| s.done).count(),
                i.count_ones() as usize
            );
        }
        let fresh = FirstSteps {
            join: true,
            ..FirstSteps::default()
        };
        assert_eq!(fresh.index(), 1);
        assert_eq!(fresh.list()[0].step, "join");
    }
}
