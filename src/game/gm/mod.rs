//! Game masters' world controls: pause and resume, the season, ticks by hand (every change is
//! written to the audit log in the same transaction); the map editor and the audit log.

pub mod audit;
pub mod edges;
pub mod editor;

use crate::db::models::World;
use crate::db::schema::worlds as worlds_t;
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::maps::worlds;
use crate::game::play::access::Actor;
use crate::game::time::ticks::{self, TickOutcome};
use crate::ids::WorldId;
use crate::rules::{Ruleset, Season};
use crate::said::Said;
use diesel::prelude::*;
use serde_json::json;

/// Pauses or resumes a world. Resuming restarts the schedule from now, so that the ticks a
/// paused world skipped are not caught up.
pub fn set_paused(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    paused: bool,
) -> GameResult<World> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        let before = worlds::get(conn, world_id)?;
        if before.paused != paused {
            let now = db::now();
            let anchor = if paused { before.schedule_anchor } else { now };
            diesel::update(worlds_t::table.find(world_id))
                .set((
                    worlds_t::paused.eq(paused),
                    worlds_t::schedule_anchor.eq(anchor),
                ))
                .execute(conn)?;
            audit::record(
                conn,
                audit::Entry {
                    world_id: Some(world_id),
                    user_id: actor.user_id,
                    action: (if paused { "pause" } else { "resume" }).to_string(),
                    target: format!("world {}", before.name),
                    at: None,
                    before: Some(json!({"paused": before.paused})),
                    after: Some(json!({"paused": paused})),
                    batch: None,
                },
            )?;
        }
        worlds::get(conn, world_id)
    })
}

pub fn set_season(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    season: &str,
) -> GameResult<World> {
    actor.require_gm()?;
    let season: Season = season
        .parse()
        .map_err(|_| GameError::Invalid(Said::new("error-season").s("season", season).into()))?;
    db::write(conn, |conn| {
        let before = worlds::get(conn, world_id)?;
        if before.season != season {
            diesel::update(worlds_t::table.find(world_id))
                .set(worlds_t::season.eq(season.as_str()))
                .execute(conn)?;
            audit::record(
                conn,
                audit::Entry {
                    world_id: Some(world_id),
                    user_id: actor.user_id,
                    action: ("season").to_string(),
                    target: format!("world {}", before.name),
                    at: None,
                    before: Some(json!({"season": before.season})),
                    after: Some(json!({"season": season.as_str()})),
                    batch: None,
                },
            )?;
        }
        worlds::get(conn, world_id)
    })
}

/// A tick now, by hand (it counts once like any other and is audited).
pub fn run_tick(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
    kind: &str,
) -> GameResult<TickOutcome> {
    actor.require_gm()?;
    let kind = crate::game::time::ticks::parse_kind(kind)?;
    worlds::get(conn, world_id)?;
    // The audit row is written in the transaction that starts the tick: both or neither. (A
    // turn runs in several transactions, so that orders are not held for all of it; once
    // started it is finished, by the scheduler if this process stops.)
    let mut audit = |conn: &mut DbConnection, start: &ticks::TickStart| {
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: ("tick").to_string(),
                target: (kind.as_str()).to_string(),
                at: None,
                before: None,
                after: Some(json!({"turn": start.turn, "season": start.season})),
                batch: None,
            },
        )
    };
    let out = ticks::apply_now(conn, rs, world_id, kind, Some(&mut audit))?;
    tracing::info!(
        world = world_id.0,
        kind = kind.as_str(),
        duration_ms = out.duration_ms,
        rows = out.rows,
        turn = out.turn,
        "manual tick applied"
    );
    Ok(out)
}
