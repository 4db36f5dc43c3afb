//! When ticks are due: the last instant applied of each kind, counted from the world's anchor
//! (its creation or last resume) by the config's schedules.

use crate::config::Config;
use crate::db::models::World;
use crate::db::schema::ticks;
use crate::db::DbConnection;
use crate::game::time::ticks::TickKind;
use crate::game::GameResult;
use crate::ids::WorldId;
use crate::schedule::Schedule;
use diesel::prelude::*;

/// The last applied instant of each kind for a world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LastTicks {
    pub turn: Option<i64>,
    pub season: Option<i64>,
}

pub fn last_ticks(conn: &mut DbConnection, world_id: WorldId) -> GameResult<LastTicks> {
    Ok(LastTicks {
        turn: last_of(conn, world_id, TickKind::Turn)?,
        season: last_of(conn, world_id, TickKind::Season)?,
    })
}

/// The last scheduled (not manual) instant of one kind of tick applied to a world.
pub fn last_of(
    conn: &mut DbConnection,
    world_id: WorldId,
    kind: TickKind,
) -> GameResult<Option<i64>> {
    Ok(crate::on_backend!(conn, c => ticks::table
        .filter(ticks::world_id.eq(world_id))
        .filter(ticks::kind.eq(kind.as_str()))
        .filter(ticks::manual.eq(false))
        .select(diesel::dsl::max(ticks::scheduled_for))
        .first(c))?)
}

/// The first instant of `schedule` after the later of the last applied tick and the anchor
/// (world creation or resume).
pub fn next_due(schedule: &Schedule, last: Option<i64>, anchor: i64) -> Option<i64> {
    let from = last.map_or(anchor, |l| l.max(anchor));
    schedule.next_after(from, anchor)
}

/// When a world's next turn and next season are due by the config's schedules.
pub fn next_ticks(conn: &mut DbConnection, config: &Config, w: &World) -> GameResult<LastTicks> {
    let last = last_ticks(conn, w.id)?;
    Ok(LastTicks {
        turn: next_due(&config.turn_schedule, last.turn, w.schedule_anchor),
        season: next_due(&config.season_schedule, last.season, w.schedule_anchor),
    })
}

/// When a world's next turn is due (one query: what the world page counts down to).
pub fn next_turn(conn: &mut DbConnection, config: &Config, w: &World) -> GameResult<Option<i64>> {
    let last = last_of(conn, w.id, TickKind::Turn)?;
    Ok(next_due(&config.turn_schedule, last, w.schedule_anchor))
}
