//! Turn and season ticks, each recorded by its `ticks` row: a second attempt at the same
//! instant finds it and changes nothing. A season is one transaction. A turn gives its
//! companies their turn in chunks, each a transaction that records in the row how far it has
//! gone, so that orders wait for a chunk rather than the whole turn and a stopped turn is taken
//! up where it stood; the rest of the turn comes last, in one. Turn effects are set-based
//! statements built from the ruleset (docs/rules.md §8).

use crate::db::models::NewEvent;
use crate::db::schema::{companies, players, ticks, worlds};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::news::events;
use crate::game::news::reminders;
use crate::ids::WorldId;
use crate::rules::ruleset::Ruleset;
use crate::rules::Season;
use crate::said::Said;
use diesel::prelude::*;
use diesel::sql_types::Integer;
use std::time::{Duration, Instant};

mod locks;
mod statements;

use locks::{companies_lock, tick_lock};
pub use locks::{hold_off_turn, hold_off_world_turn, hold_world_orders, world_orders_key};
pub use statements::{companies_turn_statement, world_turn_statements};

pub use crate::rules::names::TickKind;

/// A tick kind named by a game master or on the command line.
pub fn parse_kind(s: &str) -> GameResult<TickKind> {
    s.parse()
        .map_err(|_| GameError::Invalid(format!("unknown tick kind `{s}` (turn or season)").into()))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TickOutcome {
    /// False when this instant had already been applied (by another process or attempt).
    pub applied: bool,
    pub rows: i64,
    pub duration_ms: i64,
    /// The longest it held orders on its world up: its longest chunk of companies on
    /// PostgreSQL; on SQLite, where every write waits for the writer, its longest transaction.
    pub orders_held_ms: i64,
    pub turn: i32,
    /// The world's season after the tick; none when it was not applied.
    pub season: Option<Season>,
}

/// How many companies a turn gives its effects in one transaction. Orders wait for one chunk
/// at most, not for the whole turn: up to 33–37 ms on a 2-core machine, against 213 ms
/// (SQLite) and 603 ms (PostgreSQL) for the whole turn of 100,000 companies in one (the
/// README's Performance section).
pub const TURN_CHUNK: usize = 2048;

/// Applies one tick of `kind` for the instant `scheduled_for` (UNIX seconds), exactly once.
/// A turn left pending in the world (a process stopped in the middle of it, or another is
/// applying it) is finished first.
pub fn apply(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
    kind: TickKind,
    scheduled_for: i64,
    manual: bool,
) -> GameResult<TickOutcome> {
    apply_noting(conn, rs, world_id, kind, scheduled_for, manual, None)
}

/// The turn and season a tick leaves its world in, told to whoever asked for it in the
/// transaction that starts it: from then on it will be applied, whatever stops meanwhile.
pub struct TickStart {
    pub turn: i32,
    pub season: Season,
}

/// Writes what the asker of a tick keeps of it (a game master's audit row) in that transaction.
pub type Note<'a> = &'a mut dyn FnMut(&mut DbConnection, &TickStart) -> GameResult<()>;

fn apply_noting(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
    kind: TickKind,
    scheduled_for: i64,
    manual: bool,
    note: Option<Note>,
) -> GameResult<TickOutcome> {
    let started = Instant::now();
    let result = match kind {
        TickKind::Season => apply_season(conn, world_id, scheduled_for, manual, started, note),
        TickKind::Turn => apply_turn(conn, rs, world_id, scheduled_for, manual, started, note),
    };
    match result {
        Err(GameError::Conflict(_))
        | Err(GameError::Db(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        ))) => Ok(TickOutcome {
            applied: false,
            rows: 0,
            duration_ms: started.elapsed().as_millis() as i64,
            orders_held_ms: 0,
            turn: 0,
            season: None,
        }),
        other => other,
    }
}

fn apply_turn(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
    at: i64,
    manual: bool,
    started: Instant,
    mut note: Option<Note>,
) -> GameResult<TickOutcome> {
    loop {
        let first = begin_turn(conn, world_id, at, manual, &mut note)?;
        match finish_turn(conn, rs, world_id, first, started)? {
            Some(out) if first == at => return Ok(out),
            // Another attempt finished it meanwhile.
            None if first == at => return Err(already_applied()),
            // An earlier turn, finished (by this attempt or another): now this one.
            _ => continue,
        }
    }
}

/// Finishes the turn left pending in the world, if any (the scheduler calls it on every pass,
/// so that a turn a stopped process left half-applied does not wait for the next one).
pub fn finish_pending(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
) -> GameResult<Option<TickOutcome>> {
    match pending_turn(conn, world_id)? {
        Some(at) => finish_turn(conn, rs, world_id, at, Instant::now()),
        None => Ok(None),
    }
}

/// Refuses, while a turn of the world is being applied, a change that the turn reads for its
/// chunks (a player going on leave, whose companies it passes by): the turn would pass some of
/// them by and not others, and it asks whether anyone is on leave once, before its first
/// chunk (`finish_turn`). Holds the turn off until the caller's transaction ends.
pub fn refuse_during_turn(conn: &mut DbConnection, world_id: WorldId) -> GameResult<()> {
    tick_lock(conn, world_id, TickKind::Turn)?;
    if pending_turn(conn, world_id)?.is_some() {
        return Err(GameError::Conflict(Said::new("error-turn-running").into()));
    }
    Ok(())
}

/// Whether a turn of the world is being applied (or was left half-applied by a stopped process).
pub fn turn_running(conn: &mut DbConnection, world_id: WorldId) -> GameResult<bool> {
    Ok(pending_turn(conn, world_id)?.is_some())
}

/// The instant of the world's turn being applied, if one is.
fn pending_turn(conn: &mut DbConnection, world_id: WorldId) -> QueryResult<Option<i64>> {
    pending_turns(world_id)
        .select(ticks::scheduled_for)
        .first(conn)
        .optional()
}

/// The world's turn being applied, as a query (to ask it together with other things).
#[diesel::dsl::auto_type]
pub fn pending_turns(world_id: WorldId) -> _ {
    let turn: &'static str = TickKind::Turn.as_str();
    ticks::table
        .filter(ticks::world_id.eq(world_id))
        .filter(ticks::kind.eq(turn))
        .filter(ticks::pending)
}

fn already_applied() -> GameError {
    GameError::Conflict("this tick was already applied".into())
}

/// Whether a tick of this world, kind and instant is stored already, pending or not.
fn stored(
    conn: &mut DbConnection,
    world_id: WorldId,
    kind: TickKind,
    scheduled_for: i64,
) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(ticks::table.find((
        world_id,
        kind.as_str(),
        scheduled_for,
    ))))
    .get_result(conn)
}

fn current_turn(conn: &mut DbConnection, world_id: WorldId) -> GameResult<(i32, Season)> {
    let (turn, season, ended): (i32, String, Option<i32>) = worlds::table
        .find(world_id)
        .select((worlds::turn, worlds::season, worlds::ended_turn))
        .first(conn)
        .optional()?
        .ok_or_else(|| GameError::not_found("world"))?;
    // An ended campaign has no more ticks: any attempt finds nothing to do.
    if ended.is_some() {
        return Err(already_applied());
    }
    let season = season
        .parse::<Season>()
        .map_err(|e| GameError::Internal(format!("world {world_id}: {e}")))?;
    Ok((turn, season))
}

fn insert_row(
    conn: &mut DbConnection,
    world_id: WorldId,
    kind: TickKind,
    scheduled_for: i64,
    manual: bool,
    companies_last: Option<i32>,
) -> QueryResult<usize> {
    diesel::insert_into(ticks::table)
        .values((
            ticks::world_id.eq(world_id),
            ticks::kind.eq(kind.as_str()),
            ticks::scheduled_for.eq(scheduled_for),
            ticks::applied_at.eq(db::now()),
            ticks::manual.eq(manual),
            ticks::pending.eq(companies_last.is_some()),
            ticks::companies_last.eq(companies_last.unwrap_or(0)),
        ))
        .execute(conn)
}

/// The season flips in one transaction with its `ticks` row.
fn apply_season(
    conn: &mut DbConnection,
    world_id: WorldId,
    scheduled_for: i64,
    manual: bool,
    started: Instant,
    note: Option<Note>,
) -> GameResult<TickOutcome> {
    db::write(conn, |conn| {
        tick_lock(conn, world_id, TickKind::Season)?;
        if stored(conn, world_id, TickKind::Season, scheduled_for)? {
            return Err(already_applied());
        }
        let (turn, season) = current_turn(conn, world_id)?;
        insert_row(
            conn,
            world_id,
            TickKind::Season,
            scheduled_for,
            manual,
            None,
        )?;
        let next = season.flipped();
        if let Some(note) = note {
            note(conn, &TickStart { turn, season: next })?;
        }
        let rows = diesel::update(worlds::table.find(world_id))
            .set(worlds::season.eq(next.as_str()))
            .execute(conn)? as i64;
        let said = Said::new("said-season").s("season", next.as_str());
        record_end(
            conn,
            (world_id, TickKind::Season, scheduled_for),
            turn,
            rows,
            &said,
            started,
        )?;
        Ok(TickOutcome {
            applied: true,
            rows,
            duration_ms: started.elapsed().as_millis() as i64,
            // Orders wait for it only for SQLite's writer.
            orders_held_ms: if conn.is_sqlite() {
                started.elapsed().as_millis() as i64
            } else {
                0
            },
            turn,
            season: Some(next),
        })
    })
}

/// Starts the turn of `at` (its `ticks` row, pending, covering the companies that exist now),
/// unless one is pending in the world already: returns the instant of the turn to finish.
fn begin_turn(
    conn: &mut DbConnection,
    world_id: WorldId,
    at: i64,
    manual: bool,
    note: &mut Option<Note>,
) -> GameResult<i64> {
    db::write(conn, |conn| {
        tick_lock(conn, world_id, TickKind::Turn)?;
        if let Some(first) = pending_turn(conn, world_id)? {
            return Ok(first);
        }
        if stored(conn, world_id, TickKind::Turn, at)? {
            return Err(already_applied());
        }
        let (turn, season) = current_turn(conn, world_id)?;
        if let Some(note) = note {
            note(
                conn,
                &TickStart {
                    turn: turn + 1,
                    season,
                },
            )?;
        }
        let last: Option<i32> = companies::table
            .filter(companies::world_id.eq(world_id))
            .select(diesel::dsl::max(companies::id))
            .first(conn)?;
        insert_row(
            conn,
            world_id,
            TickKind::Turn,
            at,
            manual,
            Some(last.unwrap_or(0)),
        )?;
        Ok(at)
    })
}

/// Where a pending turn stands: the companies through this id have had it, up to the last.
fn progress(
    conn: &mut DbConnection,
    world_id: WorldId,
    at: i64,
) -> QueryResult<Option<(i32, i32)>> {
    ticks::table
        .find((world_id, TickKind::Turn.as_str(), at))
        .filter(ticks::pending)
        .select((ticks::companies_through, ticks::companies_last))
        .first(conn)
        .optional()
}

/// Gives the pending turn of `at` to its companies chunk by chunk, then ends it. `None` when
/// another attempt ended it first. Each chunk is a transaction that moves the turn's
/// `companies_through` with its effects, so a company has the turn exactly once however
/// often this is stopped and started again, or run by several processes at once.
fn finish_turn(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
    at: i64,
    started: Instant,
) -> GameResult<Option<TickOutcome>> {
    let Some((through, last)) = progress(conn, world_id, at)? else {
        return Ok(None);
    };
    let ids: Vec<i32> = companies::table
        .filter(companies::world_id.eq(world_id))
        .filter(companies::id.gt(through))
        .filter(companies::id.le(last))
        .select(companies::id)
        .order(companies::id)
        .load(conn)?;
    // The regiments' radius is counted on the world's grid, which never changes.
    let grid: crate::rules::Grid = worlds::table
        .find(world_id)
        .select(worlds::grid)
        .first(conn)?;
    // Whose companies' full action points are told of (most turns: nobody's).
    let askers = reminders::askers(conn, world_id, crate::game::news::push::Reminder::FullAp)?;
    // Whether anyone is on leave at the turn's instant, asked once for all chunks (a scan of
    // the players, 4 ms a chunk on PostgreSQL): nobody goes on leave while a turn is pending
    // (`refuse_during_turn`). When someone is, each chunk tests each company's player.
    let on_leave: bool = diesel::select(diesel::dsl::exists(
        players::table
            .filter(players::world_id.eq(world_id))
            .filter(players::leave_until.gt(at)),
    ))
    .get_result(conn)?;
    let mut longest = Duration::ZERO;
    // Up to the last id the turn covers, in case that company is gone: the rest of the turn
    // is then left with no company to turn.
    let mut bounds: Vec<i32> = ids.chunks(TURN_CHUNK).map(|c| c[c.len() - 1]).collect();
    if bounds.last().is_none_or(|b| *b < last) {
        bounds.push(last);
    }
    for upto in bounds {
        let began = Instant::now();
        let going = db::write(conn, |c| -> GameResult<bool> {
            tick_lock(c, world_id, TickKind::Turn)?;
            companies_lock(c, world_id)?;
            match progress(c, world_id, at)? {
                None => Ok(false),
                Some((through, _)) if through >= upto => Ok(true),
                Some((through, last)) => {
                    let span = (through, upto, last);
                    turn_companies(c, rs, (world_id, grid), (&askers, on_leave), at, span)?;
                    Ok(true)
                }
            }
        })?;
        if !going {
            return Ok(None);
        }
        let held = began.elapsed();
        longest = longest.max(held);
        db::leave_writer(conn, held);
    }
    let strength = crate::game::time::verdict::strength(conn, world_id)?;
    let ended = Instant::now();
    db::write(conn, |c| {
        // The rest of the turn: the chunks have covered every company, so orders go on.
        tick_lock(c, world_id, TickKind::Turn)?;
        if progress(c, world_id, at)?.is_none() {
            return Ok(None);
        }
        let (turn, season) = current_turn(c, world_id)?;
        let held = reminders::holders(c, world_id)?;
        let mut rows = 0i64;
        for sql in world_turn_statements(rs) {
            rows += diesel::sql_query(c.numbered(&sql))
                .bind::<Integer, _>(world_id)
                .execute(c)? as i64;
        }
        // The sections' holders just moved: those who asked are told of their nation's losses.
        let now_held = reminders::holders(c, world_id)?;
        reminders::sections_lost(c, world_id, &held, &now_held, at)?;
        // Who saw the sections' holders just written: told to them until the next turn.
        crate::game::maps::castles::record_sightings(c, rs, world_id, grid)?;
        crate::game::time::dice::next_turn(c, world_id, turn)?;
        crate::game::time::verdict::record_strength(c, world_id, turn + 1, &strength)?;
        crate::game::time::verdict::after_turn(c, rs, world_id, turn + 1)?;
        let said = Said::new("said-turn").n("turn", turn + 1);
        let rows = record_end(
            c,
            (world_id, TickKind::Turn, at),
            turn + 1,
            rows,
            &said,
            started,
        )?;
        Ok(Some(TickOutcome {
            applied: true,
            rows,
            duration_ms: started.elapsed().as_millis() as i64,
            orders_held_ms: if c.is_sqlite() {
                longest.max(ended.elapsed())
            } else {
                longest
            }
            .as_millis() as i64,
            turn: turn + 1,
            season: Some(season),
        }))
    })
}

/// Gives the turn of `at` to the world's companies with ids in `(through, upto]` and records
/// that they have had it.
fn turn_companies(
    conn: &mut DbConnection,
    rs: &Ruleset,
    (world_id, grid): (WorldId, crate::rules::Grid),
    (askers, on_leave): (&[crate::ids::PlayerId], bool),
    at: i64,
    (through, upto, last): (i32, i32, i32),
) -> GameResult<()> {
    // Who reach full action points with this turn: told once, by the turn's first chunk,
    // for every company the turn covers, as their points stand when it begins.
    let reached = if through == 0 {
        reminders::reaching_full_ap(conn, rs, world_id, askers, (0, last), at)?
    } else {
        Default::default()
    };
    let sql = conn.numbered(&companies_turn_statement(rs, conn, grid, at, on_leave));
    let rows = diesel::sql_query(sql)
        .bind::<Integer, _>(world_id)
        .bind::<Integer, _>(through)
        .bind::<Integer, _>(upto)
        .execute(conn)? as i64;
    reminders::tell_full_ap(conn, world_id, reached, at)?;
    diesel::update(ticks::table.find((world_id, TickKind::Turn.as_str(), at)))
        .set((
            ticks::companies_through.eq(upto),
            ticks::rows_touched.eq(ticks::rows_touched + rows),
        ))
        .execute(conn)?;
    Ok(())
}
/// Ends the tick `(world, kind, instant)` that touched `rows` more rows: no longer pending,
/// its duration and rows in all, and its event. Returns the rows in all.
fn record_end(
    conn: &mut DbConnection,
    (world_id, kind, at): (WorldId, TickKind, i64),
    turn: i32,
    rows: i64,
    said: &Said,
    started: Instant,
) -> GameResult<i64> {
    let row = ticks::table.find((world_id, kind.as_str(), at));
    diesel::update(row)
        .set((
            ticks::pending.eq(false),
            ticks::duration_ms.eq(started.elapsed().as_millis() as i64),
            ticks::rows_touched.eq(ticks::rows_touched + rows),
        ))
        .execute(conn)?;
    let (manual, rows): (bool, i64) = row
        .select((ticks::manual, ticks::rows_touched))
        .first(conn)?;
    events::record(
        conn,
        NewEvent {
            data: serde_json::json!({"scheduled_for": at, "manual": manual, "rows": rows})
                .to_string(),
            ..NewEvent::new(world_id, turn, db::now(), kind.into())
        }
        .saying(said),
    )?;
    Ok(rows)
}

/// A tick asked for by hand (CLI, GM page, API): the instant is now. `note` writes what the
/// asker keeps of it in the transaction that starts it.
pub fn apply_now(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
    kind: TickKind,
    note: Option<Note>,
) -> GameResult<TickOutcome> {
    let out = apply_noting(conn, rs, world_id, kind, db::now(), true, note)?;
    if !out.applied {
        return Err(GameError::Conflict(
            format!(
                "a {} tick was applied to this world this very second; try again",
                kind.as_str()
            )
            .into(),
        ));
    }
    Ok(out)
}
