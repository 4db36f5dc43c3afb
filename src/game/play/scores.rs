//! The players' scores (docs/rules.md §11), kept by each order in its own transaction: enemy
//! men put out of action, own men lost, ground captured, experience gained, and the turns in
//! which the player gave an order. The rankings read them (`game::campaign::scores`).

use crate::db::models::{Player, World};
use crate::db::DbConnection;
use crate::game::error::GameResult;
use crate::game::play::report::Report;
use crate::ids::{PlayerId, UserId};
use diesel::sql_types::{BigInt, Integer};
use diesel::RunQueryDsl;
use std::collections::BTreeMap;

/// What one order adds to one player's scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gain {
    pub inflicted: i64,
    pub lost: i64,
    pub captures: i32,
    pub xp: i64,
}

impl Gain {
    fn is_zero(&self) -> bool {
        *self == Gain::default()
    }

    fn add(&mut self, g: Gain) {
        self.inflicted += g.inflicted;
        self.lost += g.lost;
        self.captures += g.captures;
        self.xp += g.xp;
    }
}

/// What an order's report adds to the acting player's scores and, for a fight, to the
/// defending player's.
pub fn gains(report: &Report) -> (Gain, Gain) {
    match report {
        Report::Battle(b) => (
            Gain {
                inflicted: b.defender.losses as i64,
                lost: b.attacker.losses as i64,
                captures: 0,
                xp: b.attacker.xp_gained as i64,
            },
            Gain {
                inflicted: b.attacker.losses as i64,
                lost: b.defender.losses as i64,
                captures: 0,
                xp: b.defender.xp_gained as i64,
            },
        ),
        Report::Move(m) => (
            Gain {
                captures: m.captures.len() as i32,
                ..Gain::default()
            },
            Gain::default(),
        ),
        _ => (Gain::default(), Gain::default()),
    }
}

crate::fixed_statement! {
    /// Gains of the nation's bot holding a player's companies, added to the player's.
    struct AddGains {
        "UPDATE players SET inflicted = inflicted + " inflicted: BigInt = i64,
        ", lost = lost + " lost: BigInt = i64,
        ", captures = captures + " captures: Integer = i32,
        ", xp = xp + " xp: BigInt = i64,
        " WHERE id = " player: Integer = i32,
    }
}

crate::fixed_statement! {
    /// A player's own gains, counting the turn as played the first time.
    struct AddGainsAndTurn {
        "UPDATE players SET inflicted = inflicted + " inflicted: BigInt = i64,
        ", lost = lost + " lost: BigInt = i64,
        ", captures = captures + " captures: Integer = i32,
        ", xp = xp + " xp: BigInt = i64,
        ", turns_played = turns_played + CASE WHEN played_turn = " turn: Integer = i32,
        " THEN 0 ELSE 1 END, played_turn = " turn_again: Integer = i32,
        " WHERE id = " player: Integer = i32,
    }
}

crate::fixed_statement! {
    /// The defender's gains from a fight, found by its user in the world.
    struct AddDefenderGains {
        "UPDATE players SET inflicted = inflicted + " inflicted: BigInt = i64,
        ", lost = lost + " lost: BigInt = i64,
        ", xp = xp + " xp: BigInt = i64,
        " WHERE world_id = " world: Integer = i32,
        " AND user_id = " user: Integer = i32,
    }
}

/// Adds an order's gains: to the actor's row (counting this turn as played the first time it
/// orders in it, unless the order is the nation's bot's holding the player's companies: `held`)
/// and to the defender's, found by its user in the world. A move that captures nothing in a
/// turn already counted writes nothing.
pub fn record(
    conn: &mut DbConnection,
    w: &World,
    actor: (&Player, bool),
    defender_user: Option<UserId>,
    report: &Report,
) -> GameResult<()> {
    let mut tally = Tally::default();
    tally.add(w, actor, defender_user, report);
    tally.write(conn, w)
}

/// The gains of orders given together, added up per row and written at once
/// ([`Tally::write`]): a bot's chunk of orders writes each player's row once.
#[derive(Debug, Default)]
pub struct Tally {
    /// Per player, and whether the bot held their companies: the gains, and whether the row
    /// is written at all (a player's own order counts the turn as played).
    actors: BTreeMap<(PlayerId, bool), Gain>,
    /// The defenders' gains, per user in the world.
    defenders: BTreeMap<UserId, Gain>,
}

impl Tally {
    /// An order's gains, as [`record`] writes them.
    pub fn add(
        &mut self,
        w: &World,
        (player, held): (&Player, bool),
        defender_user: Option<UserId>,
        report: &Report,
    ) {
        let (mine, theirs) = gains(report);
        // Held, the row is written only for gains; else also to count the turn as played.
        if !mine.is_zero() || (!held && player.played_turn != w.turn) {
            self.actors.entry((player.id, held)).or_default().add(mine);
        }
        if let (Some(user), false) = (defender_user, theirs.is_zero()) {
            self.defenders.entry(user).or_default().add(theirs);
        }
    }

    /// Writes the gains added, a statement per row; the tally is empty afterwards.
    pub fn write(&mut self, conn: &mut DbConnection, w: &World) -> GameResult<()> {
        for ((player, held), mine) in std::mem::take(&mut self.actors) {
            if held {
                // The nation's bot holding the player's companies: its gains are the player's,
                // but the turn is not counted as played, and the columns that say so are left
                // alone (a player's own order may be writing them at this very moment).
                let add = AddGains {
                    inflicted: mine.inflicted,
                    lost: mine.lost,
                    captures: mine.captures,
                    xp: mine.xp,
                    player: player.0,
                };
                crate::on_backend!(conn, c => add.execute(c))?;
            } else {
                // The turn is counted against the row as it is when written: two orders of
                // the same player at once count it once.
                let add = AddGainsAndTurn {
                    inflicted: mine.inflicted,
                    lost: mine.lost,
                    captures: mine.captures,
                    xp: mine.xp,
                    turn: w.turn,
                    turn_again: w.turn,
                    player: player.0,
                };
                crate::on_backend!(conn, c => add.execute(c))?;
            }
        }
        for (user, theirs) in std::mem::take(&mut self.defenders) {
            let add = AddDefenderGains {
                inflicted: theirs.inflicted,
                lost: theirs.lost,
                xp: theirs.xp,
                world: w.id.0,
                user: user.0,
            };
            crate::on_backend!(conn, c => add.execute(c))?;
        }
        Ok(())
    }
}
