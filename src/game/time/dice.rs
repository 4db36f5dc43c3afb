//! The world's dice seeds: one per turn. While a turn runs, only the commitment to its seed
//! is published (SHA-256 of the seed's decimal text); at the turn tick the seed is kept in
//! `dice_seeds`, revealed, and a fresh one drawn. A report names its turn, its company's
//! stream and the position in it: with the revealed seed anyone can replay its draws, and no
//! one can compute the draws still to come.

use crate::db::schema::{dice_seeds, worlds};
use crate::db::DbConnection;
use crate::game::accounts::secret::sha256_hex;
use crate::game::error::{GameError, GameResult};
use crate::ids::WorldId;
use diesel::prelude::*;

/// The commitment to a seed.
pub fn commitment(seed: i64) -> String {
    sha256_hex(&seed.to_string())
}

/// At a turn tick (inside its transaction): the ending turn's seed is kept for all to see,
/// and the world rolls a new one.
pub fn next_turn(conn: &mut DbConnection, world_id: WorldId, ending_turn: i32) -> GameResult<()> {
    let seed: i64 = worlds::table
        .find(world_id)
        .select(worlds::rng_seed)
        .first(conn)?;
    diesel::insert_into(dice_seeds::table)
        .values((
            dice_seeds::world_id.eq(world_id),
            dice_seeds::turn.eq(ending_turn),
            dice_seeds::seed.eq(seed),
        ))
        .execute(conn)?;
    diesel::update(worlds::table.find(world_id))
        .set(worlds::rng_seed.eq(rand::random::<i64>()))
        .execute(conn)?;
    Ok(())
}

/// The seed of a turn that has ended; a turn still running (or to come) is not found.
pub fn revealed(conn: &mut DbConnection, world_id: WorldId, turn: i32) -> GameResult<i64> {
    let seed: i64 = dice_seeds::table
        .find((world_id, turn))
        .select(dice_seeds::seed)
        .first(conn)
        .optional()?
        .ok_or_else(|| {
            GameError::NotFound(
                format!("the seed of turn {turn} is revealed when that turn has ended").into(),
            )
        })?;
    Ok(seed)
}
