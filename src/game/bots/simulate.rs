//! A whole campaign of bots on a throwaway database (`grognard simulate`, docs/maps.md): one
//! bot seated in each nation, turns applied one after another by the very turn code the
//! scheduler runs, each followed by the bots' orders, until the campaign ends by its rules (or
//! at the last turn asked for, which the world is given as its `end_turn`). Everything comes
//! from the arguments (the map, the seed), so the same arguments print the same lines.

use crate::config::Config;
use crate::db::schema::{nation_turns, nations, worlds};
use crate::db::DbConnection;
use crate::game::error::{GameError, GameResult};
use crate::game::maps::{generate, mapfile, worlds as world_rows};
use crate::game::time::ticks::{self, TickKind};
use crate::ids::WorldId;
use crate::rules::bot::BotLevel;
use crate::rules::Grid;
use diesel::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

/// Where the map of a simulation comes from.
#[derive(Clone, Debug)]
pub enum MapSource {
    /// A map file's text.
    File(String),
    /// A generated map of this size.
    Generate { width: i32, height: i32 },
}

#[derive(Clone, Debug)]
pub struct Options {
    pub map: MapSource,
    /// Nations of a generated map.
    pub nations: usize,
    pub turns: i32,
    pub seed: u64,
    /// The level of each nation's bot in the map's order; the last one plays the rest.
    pub levels: Vec<BotLevel>,
    pub runs: usize,
    /// The points that win, in place of the map's or the ruleset's.
    pub points: Option<i64>,
}

/// How one campaign ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winning nation's name; none for a draw.
    pub winner: Option<String>,
    pub reason: String,
    pub turn: i32,
}

/// Turns between two seasons (the shipped schedules: a season on the 1st and the 15th, a turn
/// every six hours).
const SEASON_EVERY: i32 = 56;
/// Seconds between two simulated turns.
const TURN_SECONDS: i64 = 6 * 3600;

/// Runs `o.runs` campaigns, seeds `o.seed`, `o.seed + 1`…, printing to `out`; returns how
/// each ended.
pub fn run(config: &Config, o: &Options, out: &mut impl Write) -> GameResult<Vec<Ending>> {
    if o.turns < 1 || o.runs < 1 || o.levels.is_empty() {
        return Err(GameError::Invalid(
            "a simulation needs at least one turn, one run and one level".into(),
        ));
    }
    let mut endings = Vec::with_capacity(o.runs);
    for run in 0..o.runs {
        let seed = o.seed.wrapping_add(run as u64);
        let db = Scratch::new(run)?;
        let mut settings = config.settings.clone();
        settings.database.url = format!("sqlite://{}", db.0.display());
        let config = Arc::new(Config {
            settings,
            ..config.clone()
        });
        let pool = crate::db::open_pool(&config.settings.database.url, 1, 30_000)
            .map_err(|e| GameError::Internal(e.to_string()))?;
        let mut conn = pool.get().map_err(|e| GameError::Internal(e.to_string()))?;
        crate::db::migrate(&mut conn).map_err(|e| GameError::Internal(e.to_string()))?;
        if o.runs > 1 {
            write_line(out, &format!("run {} seed {seed}", run + 1))?;
        }
        let ending = campaign(&mut conn, &config, o, seed, out)?;
        write_line(
            out,
            &format!(
                "result: winner={} reason={} turn={}",
                ending.winner.as_deref().unwrap_or("draw"),
                ending.reason,
                ending.turn
            ),
        )?;
        endings.push(ending);
    }
    if o.runs > 1 {
        summary(&endings, out)?;
    }
    Ok(endings)
}

fn write_line(out: &mut impl Write, line: &str) -> GameResult<()> {
    writeln!(out, "{line}").map_err(|e| GameError::Internal(e.to_string()))
}

fn campaign(
    conn: &mut DbConnection,
    config: &Arc<Config>,
    o: &Options,
    seed: u64,
    out: &mut impl Write,
) -> GameResult<Ending> {
    let rs = &config.rules;
    let map = match &o.map {
        MapSource::File(text) => {
            let mut m =
                mapfile::parse(text).map_err(|e| GameError::Invalid(e.to_string().into()))?;
            m.rng_seed = Some(seed as i64);
            m
        }
        MapSource::Generate { width, height } => generate::generate(
            rs,
            &generate::Options {
                width: *width,
                height: *height,
                seed,
                nations: o.nations,
                name: None,
                grid: Grid::Square,
            },
        )?,
    };
    let valid = map
        .validate(rs)
        .map_err(|e| GameError::Invalid(e.to_string().into()))?;
    let world_id = world_rows::import(conn, &valid, None)?;
    // The last turn asked for ends the campaign by the rules' own verdict (last_turn).
    diesel::update(worlds::table.find(world_id))
        .set(worlds::victory_end_turn.eq(Some(o.turns)))
        .execute(conn)?;
    if let Some(points) = o.points {
        diesel::update(worlds::table.find(world_id))
            .set(worlds::victory_points.eq(Some(points)))
            .execute(conn)?;
    }
    let nations = world_rows::nations_of(conn, world_id)?;
    for (i, n) in nations.iter().enumerate() {
        let level = o.levels[i.min(o.levels.len() - 1)];
        super::seat(conn, world_id, &n.name, level)?;
    }
    let anchor = world_rows::get(conn, world_id)?.schedule_anchor;
    super::play_world(conn, config, world_id)?;
    for turn in 1..=o.turns {
        let at = anchor + i64::from(turn) * TURN_SECONDS;
        if turn % SEASON_EVERY == 0 {
            ticks::apply(conn, rs, world_id, TickKind::Season, at, false)?;
        }
        ticks::apply(conn, rs, world_id, TickKind::Turn, at, false)?;
        // A served world draws each turn's dice seed at random (`time::dice`); a simulation
        // draws it from the run's seed, so that the same arguments replay.
        diesel::update(worlds::table.find(world_id))
            .set(worlds::rng_seed.eq(turn_seed(seed, turn)))
            .execute(conn)?;
        write_line(out, &turn_line(conn, world_id, turn)?)?;
        let w = world_rows::get(conn, world_id)?;
        if w.ended() {
            let winner = match w.winner_id {
                Some(id) => Some(
                    nations::table
                        .find(id)
                        .select(nations::name)
                        .first::<String>(conn)?,
                ),
                None => None,
            };
            return Ok(Ending {
                winner,
                reason: w.ended_reason.unwrap_or_default(),
                turn: w.ended_turn.unwrap_or(turn),
            });
        }
        super::play_world(conn, config, world_id)?;
    }
    Err(GameError::Internal(format!(
        "the campaign did not end at its last turn {}",
        o.turns
    )))
}

/// The dice seed of a simulated turn: SplitMix64 of the run's seed and the turn.
fn turn_seed(seed: u64, turn: i32) -> i64 {
    let mut z =
        seed.wrapping_add(u64::from(turn.unsigned_abs()).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as i64
}

/// `turn N  France 30 pts 1 towns 3 mines 0 sections 1200 men | Russia …`
fn turn_line(conn: &mut DbConnection, world_id: WorldId, turn: i32) -> GameResult<String> {
    let rows: Vec<(String, i64, i64, i64, i64, i64)> = nation_turns::table
        .inner_join(nations::table.on(nations::id.eq(nation_turns::nation_id)))
        .filter(nation_turns::world_id.eq(world_id))
        .filter(nation_turns::turn.eq(turn))
        .order(nations::id)
        .select((
            nations::name,
            nation_turns::points,
            nation_turns::towns,
            nation_turns::mines,
            nation_turns::sections,
            nation_turns::men,
        ))
        .load(conn)?;
    let parts: Vec<String> = rows
        .into_iter()
        .map(|(n, points, towns, mines, sections, men)| {
            format!("{n} {points} pts {towns} towns {mines} mines {sections} sections {men} men")
        })
        .collect();
    Ok(format!("turn {turn:>3}  {}", parts.join(" | ")))
}

fn summary(endings: &[Ending], out: &mut impl Write) -> GameResult<()> {
    let n = endings.len() as f64;
    let mut wins: BTreeMap<&str, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for e in endings {
        *wins
            .entry(e.winner.as_deref().unwrap_or("draw"))
            .or_default() += 1;
        *reasons.entry(e.reason.as_str()).or_default() += 1;
    }
    let mean = endings.iter().map(|e| f64::from(e.turn)).sum::<f64>() / n;
    let rates: Vec<String> = wins
        .iter()
        .map(|(w, c)| format!("{w} {c} ({:.0} %)", *c as f64 * 100.0 / n))
        .collect();
    let why: Vec<String> = reasons.iter().map(|(r, c)| format!("{r} {c}")).collect();
    write_line(
        out,
        &format!(
            "runs: {}  wins: {}  mean length: {mean:.1} turns  reasons: {}",
            endings.len(),
            rates.join(", "),
            why.join(", ")
        ),
    )
}

/// A throwaway SQLite file, removed (with its journal) when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(run: usize) -> GameResult<Scratch> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "grognard-sim-{}-{nanos}-{run}.db",
            std::process::id()
        ));
        Ok(Scratch(path))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::env::var_os("GROGNARD_SIM_KEEP").is_some() {
            eprintln!("kept {}", self.0.display());
            return;
        }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut p = self.0.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}
