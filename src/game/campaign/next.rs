//! The next campaign on the same map (docs/rules.md §11): once a campaign has ended, a game
//! master starts a new world from the map as it was drawn when the ended one began (terrain,
//! towns, owners, structures), with the victory settings in force at its end, and no players,
//! companies or scores.
//! The ended world stays as the record of its campaign.

use crate::db::schema::{campaign_maps, worlds};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::gm::audit;
use crate::game::maps::{mapfile, worlds as world_rows};
use crate::game::play::access::Actor;
use crate::ids::WorldId;
use crate::rules::Ruleset;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DbError};

/// The next campaign as the audit log keeps it.
// Serialize: the audit log's stored record, not a view.
#[derive(serde::Serialize)]
struct NextAudit<'a> {
    world: WorldId,
    name: &'a str,
}

/// Longest chain of campaigns followed back to name the next one.
const MAX_CHAIN: usize = 10_000;

/// Starts the campaign that follows `world_id`; returns the new world's id. `name` None: the
/// first campaign's name with the new one's number ("Borodino II").
pub fn start(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
    name: Option<&str>,
) -> GameResult<WorldId> {
    actor.require_gm()?;
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    if name.is_some_and(|n| n.chars().count() > 80) {
        return Err(GameError::Invalid(
            "a world needs a name of 1 to 80 characters".into(),
        ));
    }
    db::write(conn, |conn| {
        let w = world_rows::get(conn, world_id)?;
        if !w.ended() {
            return Err(GameError::Conflict(
                "this campaign is still running: end it before starting the next".into(),
            ));
        }
        if let Some(next) = following(conn, world_id)? {
            return Err(already(next));
        }
        let drawn: Option<String> = campaign_maps::table
            .find(world_id)
            .select(campaign_maps::map)
            .first(conn)
            .optional()?;
        let mut file = match drawn {
            Some(text) => mapfile::parse(&text).map_err(|e| GameError::Internal(e.to_string()))?,
            // A world older than the kept maps: its map as it stands.
            None => world_rows::export(conn, world_id)?,
        };
        // A fresh stream of dice for the new campaign; the victory settings in force at the
        // end (a game master may have changed them since the start).
        file.rng_seed = None;
        file.victory = Some(mapfile::MapVictory {
            points: w.victory_points,
            end_turn: w.victory_end_turn,
            towns_share: w.victory_towns_share,
        })
        .filter(|v| *v != mapfile::MapVictory::default());
        let (first, number) = first_of_chain(conn, world_id)?;
        let name = name.map_or_else(|| format!("{first} {}", roman(number + 1)), str::to_string);
        file.name = name.clone();
        // Checked against the ruleset in use, which may have changed since.
        let valid = file
            .validate(rs)
            .map_err(|e| GameError::Invalid(e.to_string().into()))?;
        let id = world_rows::import_following(conn, &valid, Some(&name), Some(world_id)).map_err(
            |e| match e {
                GameError::Db(DbError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
                    GameError::Conflict("the next campaign has already begun".into())
                }
                other => other,
            },
        )?;
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "next_campaign".into(),
                target: format!("world {}", w.name),
                after: audit::value(&NextAudit {
                    world: id,
                    name: &name,
                }),
                ..Default::default()
            },
        )?;
        Ok(id)
    })
}

/// The campaign that follows this one, if one does.
pub fn following(
    conn: &mut DbConnection,
    world_id: WorldId,
) -> GameResult<Option<(WorldId, String)>> {
    Ok(worlds::table
        .filter(worlds::follows_id.eq(world_id))
        .select((worlds::id, worlds::name))
        .first(conn)
        .optional()?)
}

fn already((id, name): (WorldId, String)) -> GameError {
    GameError::Conflict(format!("the next campaign has already begun: {name} (world {id})").into())
}

/// The first campaign of the chain this world ends, and how many campaigns the chain has.
fn first_of_chain(conn: &mut DbConnection, world_id: WorldId) -> GameResult<(String, usize)> {
    let mut at = world_rows::get(conn, world_id)?;
    let mut n = 1;
    while let Some(before) = at.follows_id.filter(|_| n < MAX_CHAIN) {
        match worlds::table
            .find(before)
            .select(crate::db::models::World::as_select())
            .first(conn)
            .optional()?
        {
            Some(w) => {
                at = w;
                n += 1;
            }
            None => break,
        }
    }
    Ok((at.name, n))
}

/// 2 → "II", 14 → "XIV".
pub fn roman(mut n: usize) -> String {
    const DIGITS: [(usize, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut s = String::new();
    for (value, digits) in DIGITS {
        while n >= value {
            s.push_str(digits);
            n -= value;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn campaigns_are_numbered_in_roman() {
        let cases = [
            (1, "I"),
            (2, "II"),
            (4, "IV"),
            (9, "IX"),
            (14, "XIV"),
            (1999, "MCMXCIX"),
        ];
        for (n, s) in cases {
            assert_eq!(super::roman(n), s);
        }
    }
}
