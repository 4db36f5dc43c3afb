//! Turn and season ticks, each one transaction that records its `ticks` row with its effects:
//! a second attempt at the same instant hits the primary key and changes nothing. Turn effects
//! are a handful of set-based statements built from the ruleset (RULES.md §8).

use super::error::{GameError, GameResult};
use super::events;
use crate::db::models::NewEvent;
use crate::db::schema::{companies, players, ticks, worlds};
use crate::db::{self, DbConnection};
use crate::rules::ruleset::{Flag, Ruleset};
use crate::rules::{Kind, Season, Terrain};
use crate::said::Said;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer};
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TickKind {
    Turn,
    Season,
}

impl TickKind {
    pub const ALL: [TickKind; 2] = [TickKind::Turn, TickKind::Season];

    pub fn as_str(self) -> &'static str {
        match self {
            TickKind::Turn => "turn",
            TickKind::Season => "season",
        }
    }

    pub fn parse(s: &str) -> GameResult<TickKind> {
        match s {
            "turn" => Ok(TickKind::Turn),
            "season" => Ok(TickKind::Season),
            other => Err(GameError::Invalid(
                format!("unknown tick kind `{other}` (turn or season)").into(),
            )),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TickOutcome {
    /// False when this instant had already been applied (by another process or attempt).
    pub applied: bool,
    pub rows: i64,
    pub duration_ms: i64,
    pub turn: i32,
    pub season: String,
}

/// The SQL spelling of n-ary min/max on each backend.
struct Dialect {
    least: &'static str,
    greatest: &'static str,
}

fn dialect(conn: &DbConnection) -> Dialect {
    if conn.is_sqlite() {
        Dialect {
            least: "MIN",
            greatest: "MAX",
        }
    } else {
        Dialect {
            least: "LEAST",
            greatest: "GREATEST",
        }
    }
}

/// `CASE kind WHEN 'infantry' THEN <f(infantry)> … END`, from the ruleset. Kind names come from
/// the closed enum and numbers from the validated ruleset, so inlining them is safe.
fn by_kind(rs: &Ruleset, f: impl Fn(&crate::rules::ruleset::KindRules) -> i32) -> String {
    let arms: String = Kind::ALL
        .iter()
        .map(|k| format!(" WHEN '{}' THEN {}", k.as_str(), f(rs.kind(*k))))
        .collect();
    format!("(CASE kind{arms} ELSE 0 END)")
}

/// Terrain names as an SQL list; `NULL` when there are none, which matches nothing.
fn quoted<'a>(terrains: impl Iterator<Item = &'a Terrain>) -> String {
    let names: Vec<String> = terrains.map(|t| format!("'{}'", t.as_str())).collect();
    if names.is_empty() {
        "NULL".into()
    } else {
        names.join(", ")
    }
}

/// The statement that turns a world's companies whose ids lie in `($2, $3]`, for the instant
/// `at`; `on_leave`: whether some player of the world is on leave then (their companies are
/// frozen).
pub fn companies_turn_statement(
    rs: &Ruleset,
    conn: &DbConnection,
    at: i64,
    on_leave: bool,
) -> String {
    let d = dialect(conn);
    let t = &rs.turn;
    let max_ap = by_kind(rs, |k| k.max_ap);
    let per_turn = by_kind(rs, |k| k.ap_per_turn);
    let full = by_kind(rs, |k| k.full_strength);
    let healed = format!(
        "{least}(wounded, {heal}, {greatest}({full} - men, 0))",
        least = d.least,
        greatest = d.greatest,
        heal = t.wounded_healed
    );
    // Companies of a regiment within its radius of a headquarters on a farm the regiment's
    // nation still owns: one set computed up front, so the update probes a hash, not a join.
    // `rules::tick::headquarters_holds` in SQL: a terrain that can hold one, owned by the nation.
    let hq_terrains = quoted(
        Terrain::ALL
            .iter()
            .filter(|tr| rs.terrain(**tr).has(Flag::Headquarters)),
    );
    let near = format!(
        // The few headquarters that hold come first, on their own: a terrain test inside the
        // companies' join led PostgreSQL to scan every cell by terrain (a turn took 4× longer).
        "WITH hq AS MATERIALIZED (SELECT r.id, r.hq_x, r.hq_y FROM regiments r \
           JOIN cells c ON c.world_id = r.world_id AND c.x = r.hq_x AND c.y = r.hq_y \
           WHERE r.world_id = $1 AND c.owner_id = r.nation_id AND c.terrain IN ({hq_terrains})), \
         near AS (SELECT c.id FROM companies c JOIN players p ON p.id = c.player_id \
           JOIN hq ON hq.id = p.regiment_id \
           WHERE c.world_id = $1 AND c.id > $2 AND c.id <= $3 \
           AND ABS(hq.hq_x - c.x) <= {radius} AND ABS(hq.hq_y - c.y) <= {radius}) ",
        radius = t.regiment_radius,
    );
    let near_hq = format!(
        "(CASE WHEN id IN (SELECT id FROM near) THEN {} ELSE 0 END)",
        t.regiment_morale_bonus
    );
    // Companies of players on leave at the turn's instant are frozen: the turn passes them by.
    // The test costs a lookup per company, so it is written only when someone is on leave.
    let frozen = if on_leave {
        format!(" AND player_id NOT IN (SELECT id FROM players WHERE world_id = $1 AND leave_until > {at})")
    } else {
        String::new()
    };
    format!(
        "{near}UPDATE companies SET \
           ap = {least}(ap + {per_turn}, {max_ap}), \
           morale = {least}(morale + {gain} + {near_hq}, {morale_max}), \
           men = men + {healed}, \
           wounded = wounded - {healed}, \
           volley_recency = {greatest}(volley_recency - 1, 0) \
         WHERE world_id = $1 AND id > $2 AND id <= $3{frozen}",
        least = d.least,
        greatest = d.greatest,
        gain = t.morale_gain,
        morale_max = rs.combat.morale_max,
    )
}

/// The statements that end a turn over the world `$1` once its companies have had it:
/// reserves, the mines' output, the turn's number.
pub fn world_turn_statements(rs: &Ruleset) -> Vec<String> {
    let t = &rs.turn;
    let outputs: Vec<(Terrain, i32)> = Terrain::ALL
        .iter()
        .map(|tr| (*tr, rs.terrain(*tr).output))
        .filter(|(_, o)| *o > 0)
        .collect();
    let mut stmts = vec![format!(
        "UPDATE players SET reserve = reserve + {} WHERE world_id = $1",
        t.reserve_gain
    )];
    if !outputs.is_empty() {
        let case: String = outputs
            .iter()
            .map(|(tr, o)| format!(" WHEN '{}' THEN {o}", tr.as_str()))
            .collect();
        let names = quoted(outputs.iter().map(|(tr, _)| tr));
        stmts.push(format!(
            "UPDATE nations SET treasury = treasury + COALESCE((SELECT SUM(CASE c.terrain{case} ELSE 0 END) \
               FROM cells c WHERE c.world_id = nations.world_id AND c.owner_id = nations.id \
               AND c.terrain IN ({names})), 0) WHERE world_id = $1"
        ));
    }
    stmts.push("UPDATE worlds SET turn = turn + 1 WHERE id = $1".into());
    stmts
}

/// SQLite spells numbered bind parameters `?1`; the statements are written with `$1`.
fn numbered_binds(conn: &DbConnection, sql: &str) -> String {
    if conn.is_sqlite() {
        sql.replace('$', "?")
    } else {
        sql.to_string()
    }
}

/// The first key of the ticks' advisory locks on PostgreSQL: a world's tick of a kind locks
/// `LOCK_BASE + world * 2 + kind`.
const LOCK_BASE: i64 = 0x4752_0000_0000;

fn advisory_lock(conn: &mut DbConnection, world_id: i32, kind: TickKind) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        // A per-(world, kind) key: other processes wait here instead of racing for the row.
        let key: i64 = LOCK_BASE + i64::from(world_id) * 2 + kind as i64;
        diesel::sql_query("SELECT pg_advisory_xact_lock($1)")
            .bind::<BigInt, _>(key)
            .execute(pg)?;
    }
    Ok(())
}

/// Waits while a turn of the company's world is being applied, and holds the next one off
/// until this transaction ends (PostgreSQL; SQLite's single writer does both by itself).
/// Without it an order read its company before a running turn's update and wrote after it,
/// and was refused as changed meanwhile: at the turn change, when every player acts.
/// Only for a company of `user_id`'s: an order for another's answers at once, so that its
/// timing does not tell that the company exists or that its world is turning.
pub fn hold_off_turn(conn: &mut DbConnection, user_id: i32, company_id: i32) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        // The same key as `advisory_lock`'s for the company's world's turn, shared: orders
        // do not wait for one another.
        diesel::sql_query(
            "SELECT pg_advisory_xact_lock_shared($1 + 2 * c.world_id::bigint) FROM companies c \
             JOIN players p ON p.id = c.player_id WHERE c.id = $2 AND p.user_id = $3",
        )
        .bind::<BigInt, _>(LOCK_BASE + TickKind::Turn as i64)
        .bind::<Integer, _>(company_id)
        .bind::<Integer, _>(user_id)
        .execute(pg)?;
    }
    Ok(())
}

/// How many companies a turn gives its effects in one transaction. Orders wait for one chunk
/// at most, not for the whole turn: about 10 ms on a 2-core machine (see the README's
/// Performance section).
pub const TURN_CHUNK: usize = 2048;

/// Applies one tick of `kind` for the instant `scheduled_for` (UNIX seconds), exactly once.
/// A turn left pending in the world (a process stopped in the middle of it, or another is
/// applying it) is finished first.
pub fn apply(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: i32,
    kind: TickKind,
    scheduled_for: i64,
    manual: bool,
) -> GameResult<TickOutcome> {
    let started = Instant::now();
    let result = match kind {
        TickKind::Season => apply_season(conn, world_id, scheduled_for, manual, started),
        TickKind::Turn => apply_turn(conn, rs, world_id, scheduled_for, manual, started),
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
            turn: 0,
            season: String::new(),
        }),
        other => other,
    }
}

fn apply_turn(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: i32,
    at: i64,
    manual: bool,
    started: Instant,
) -> GameResult<TickOutcome> {
    loop {
        let first = begin_turn(conn, world_id, at, manual)?;
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
    world_id: i32,
) -> GameResult<Option<TickOutcome>> {
    match pending_turn(conn, world_id)? {
        Some(at) => finish_turn(conn, rs, world_id, at, Instant::now()),
        None => Ok(None),
    }
}

/// The instant of the world's turn being applied, if one is.
fn pending_turn(conn: &mut DbConnection, world_id: i32) -> QueryResult<Option<i64>> {
    ticks::table
        .filter(ticks::world_id.eq(world_id))
        .filter(ticks::kind.eq(TickKind::Turn.as_str()))
        .filter(ticks::pending.eq(true))
        .select(ticks::scheduled_for)
        .first(conn)
        .optional()
}

fn already_applied() -> GameError {
    GameError::Conflict("this tick was already applied".into())
}

/// Whether a tick of this world, kind and instant is stored already, pending or not.
fn stored(
    conn: &mut DbConnection,
    world_id: i32,
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

fn current_turn(conn: &mut DbConnection, world_id: i32) -> GameResult<(i32, String)> {
    worlds::table
        .find(world_id)
        .select((worlds::turn, worlds::season))
        .first(conn)
        .optional()?
        .ok_or_else(|| GameError::not_found("world"))
}

fn insert_row(
    conn: &mut DbConnection,
    world_id: i32,
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
    world_id: i32,
    scheduled_for: i64,
    manual: bool,
    started: Instant,
) -> GameResult<TickOutcome> {
    db::write(conn, |conn| {
        advisory_lock(conn, world_id, TickKind::Season)?;
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
        let next = season.parse::<Season>().unwrap_or(Season::Summer).flipped();
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
            turn,
            season: next.as_str().to_string(),
        })
    })
}

/// Starts the turn of `at` (its `ticks` row, pending, covering the companies that exist now),
/// unless one is pending in the world already: returns the instant of the turn to finish.
fn begin_turn(conn: &mut DbConnection, world_id: i32, at: i64, manual: bool) -> GameResult<i64> {
    db::write(conn, |conn| {
        advisory_lock(conn, world_id, TickKind::Turn)?;
        if let Some(first) = pending_turn(conn, world_id)? {
            return Ok(first);
        }
        if stored(conn, world_id, TickKind::Turn, at)? {
            return Err(already_applied());
        }
        current_turn(conn, world_id)?;
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
fn progress(conn: &mut DbConnection, world_id: i32, at: i64) -> QueryResult<Option<(i32, i32)>> {
    ticks::table
        .find((world_id, TickKind::Turn.as_str(), at))
        .filter(ticks::pending.eq(true))
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
    world_id: i32,
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
    for chunk in ids.chunks(TURN_CHUNK) {
        let upto = chunk[chunk.len() - 1];
        let began = Instant::now();
        let going = db::write(conn, |c| -> GameResult<bool> {
            advisory_lock(c, world_id, TickKind::Turn)?;
            match progress(c, world_id, at)? {
                None => Ok(false),
                Some((through, _)) if through >= upto => Ok(true),
                Some((through, _)) => {
                    turn_companies(c, rs, world_id, at, through, upto)?;
                    Ok(true)
                }
            }
        })?;
        if !going {
            return Ok(None);
        }
        // The writer is free for a quarter of the time the chunk held it: SQLite's writers
        // queue on a mutex that a thread taking it straight back would keep to itself.
        std::thread::sleep(began.elapsed() / 4);
    }
    db::write(conn, |c| {
        advisory_lock(c, world_id, TickKind::Turn)?;
        let Some((through, last)) = progress(c, world_id, at)? else {
            return Ok(None);
        };
        // Companies committed after the ids were read (PostgreSQL's ids are not given in
        // commit order) are within the turn's range still.
        if through < last {
            turn_companies(c, rs, world_id, at, through, last)?;
        }
        let (turn, season) = current_turn(c, world_id)?;
        let mut rows = 0i64;
        for sql in world_turn_statements(rs) {
            rows += diesel::sql_query(numbered_binds(c, &sql))
                .bind::<Integer, _>(world_id)
                .execute(c)? as i64;
        }
        super::dice::next_turn(c, world_id, turn)?;
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
            turn: turn + 1,
            season,
        }))
    })
}

/// Gives the turn of `at` to the world's companies with ids in `(through, upto]` and records
/// that they have had it.
fn turn_companies(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: i32,
    at: i64,
    through: i32,
    upto: i32,
) -> GameResult<()> {
    let on_leave: bool = diesel::select(diesel::dsl::exists(
        players::table
            .filter(players::world_id.eq(world_id))
            .filter(players::leave_until.gt(at)),
    ))
    .get_result(conn)?;
    let sql = numbered_binds(conn, &companies_turn_statement(rs, conn, at, on_leave));
    let rows = diesel::sql_query(sql)
        .bind::<Integer, _>(world_id)
        .bind::<Integer, _>(through)
        .bind::<Integer, _>(upto)
        .execute(conn)? as i64;
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
    (world_id, kind, at): (i32, TickKind, i64),
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
            world_id,
            turn,
            at: db::now(),
            kind: kind.as_str().into(),
            data: serde_json::json!({"scheduled_for": at, "manual": manual, "rows": rows})
                .to_string(),
            ..Default::default()
        }
        .saying(said),
    )?;
    Ok(rows)
}

/// A tick asked for by hand (CLI, GM page, API): the instant is now.
pub fn apply_now(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: i32,
    kind: TickKind,
) -> GameResult<TickOutcome> {
    let out = apply(conn, rs, world_id, kind, db::now(), true)?;
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
