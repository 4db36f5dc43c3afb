//! Bots benchmark (docs/rules.md §14). Two measures, each printed with what it is weighed
//! against in the same run:
//! - a world of 1,000,000 cells with 10,000 bot companies (two bots, 5,000 companies each,
//!   spread over the map among its mines): the bots' turn (`game::bots::play_world`: every
//!   company's orders through the order code, in chunks) against the turn tick that precedes
//!   it, and the longest chunk, which players' orders may wait for (goal: under 1 s for the
//!   bots' turn, under 50 ms a chunk);
//! - `grognard simulate` of a 200-turn campaign of two `normal` bots on a generated 100×100
//!   world (goal: under 60 s), against the same campaign's turn ticks alone.
//!
//! `cargo bench --bench bots` (`-- sqlite` or `-- postgres` for the first; the simulator runs
//! on its own SQLite file). `GROGNARD_BENCH_BOT_COMPANIES` sets the companies.

use db::{Backend, TestDb};
use grognard::config::{Config, Settings};
use grognard::db::DbConnection;
use grognard::game::maps::mapfile::{ValidCell, ValidMap};
use grognard::game::time::ticks::{self, TickKind};
use grognard::ids::WorldId;
use grognard::rules::{Bounds, Kind, Pos, Season, Terrain};
use grognard_testkit as db;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

const SIDE: i32 = 1000;

/// Turns measured (their medians are printed): `GROGNARD_BENCH_ROUNDS`, 3 unless set.
fn rounds() -> usize {
    std::env::var("GROGNARD_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(3)
}

fn companies() -> usize {
    std::env::var("GROGNARD_BENCH_BOT_COMPANIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

#[derive(diesel::QueryableByName)]
struct Id {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
}

/// Plain ground with 2 % free mines and 7 % forest.
fn build_world(conn: &mut DbConnection, rng: &mut ChaCha8Rng) -> i32 {
    let mut cells = Vec::new();
    for y in 0..SIDE {
        for x in 0..SIDE {
            let r: f64 = rng.random();
            let terrain = if r < 0.02 {
                Terrain::Mine
            } else if r < 0.09 {
                Terrain::Forest
            } else {
                continue;
            };
            cells.push(ValidCell {
                pos: Pos::new(x, y),
                terrain,
                town: None,
                owner: None,
                structure: None,
                castle: None,
            });
        }
    }
    let map = ValidMap {
        name: "Bots".into(),
        bounds: Bounds::square(SIDE, SIDE),
        season: Season::Summer,
        rng_seed: Some(1),
        nations: vec![
            ("France".into(), "#2b4c9b".into(), Pos::new(0, 0), 1000),
            (
                "Russia".into(),
                "#2e7d32".into(),
                Pos::new(SIDE - 1, SIDE - 1),
                1000,
            ),
        ],
        towns: vec![],
        cells,
        victory: Default::default(),
        castles: vec![],
        sections: vec![],
        edges: vec![],
    };
    grognard::game::maps::worlds::import(conn, &map, None)
        .expect("import")
        .0
}

/// A bot in each nation, half the companies each, France's in the west half of the map and
/// Russia's in the east, on distinct cells.
fn populate(conn: &mut DbConnection, world: i32, n: usize, rng: &mut ChaCha8Rng) {
    for nation in ["France", "Russia"] {
        grognard::game::bots::seat(
            conn,
            WorldId(world),
            nation,
            grognard::rules::bot::BotLevel::Normal,
        )
        .expect("seat");
    }
    let players: Vec<i32> = {
        use diesel::RunQueryDsl;
        diesel::sql_query("SELECT player_id AS id FROM bots ORDER BY player_id")
            .load::<Id>(conn)
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect()
    };
    let mut taken = HashSet::new();
    let mut values = Vec::new();
    db::exec(conn, "BEGIN");
    for i in 0..n {
        let side = i % 2;
        let (x, y) = loop {
            let x = rng.random_range(0..SIDE / 2) + side as i32 * SIDE / 2;
            let y = rng.random_range(0..SIDE);
            if taken.insert((x, y)) {
                break (x, y);
            }
        };
        let kind = [Kind::Infantry, Kind::Cavalry, Kind::Voltigeurs][rng.random_range(0..3)];
        values.push(format!(
            "({world}, {}, 'c{i}', '{kind}', {x}, {y}, 100, 0, 12, 5, 0, 0, 0)",
            players[side]
        ));
        if values.len() == 500 {
            db::exec(conn, &format!("INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) VALUES {}", values.join(",")));
            values.clear();
        }
    }
    if !values.is_empty() {
        db::exec(conn, &format!("INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) VALUES {}", values.join(",")));
    }
    db::exec(conn, "COMMIT");
    db::exec(
        conn,
        if conn.is_sqlite() {
            "ANALYZE"
        } else {
            "VACUUM ANALYZE"
        },
    );
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn run(backend: Backend) {
    let name = format!("{backend:?}").to_lowercase();
    let n = companies();
    let db = TestDb::new(backend);
    let config_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config");
    let s = Settings::load(&config_dir, None, Some(&db.url)).expect("settings");
    let mut config = Config::with_settings(&config_dir, s).expect("config");
    // Thousands of companies a bot: far past a person's limit, to weigh the bots' turn.
    config.rules.limits.max_companies_per_player = 1_000_000;
    let config = Arc::new(config);
    let pool = grognard::commands::open(&config).expect("pool");
    let mut conn = pool.get().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1812);
    let t = Instant::now();
    let world = build_world(&mut conn, &mut rng);
    populate(&mut conn, world, n, &mut rng);
    db::exec(
        &mut conn,
        &format!("UPDATE worlds SET victory_points = 1000000000000 WHERE id = {world}"),
    );
    println!(
        "{name}: {n} bot companies on {SIDE}×{SIDE} built in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let wid = WorldId(world);
    // The bots' first turn (turn 0) warms the caches; the measured ones follow turns.
    grognard::game::bots::play_world(&mut conn, &config, wid).expect("bots");
    let (mut turns, mut plays, mut chunks, mut orders, mut cpus) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let rounds = rounds();
    for round in 0..rounds {
        let t = Instant::now();
        let out = ticks::apply(
            &mut conn,
            &config.rules,
            wid,
            TickKind::Turn,
            1000 + round as i64,
            false,
        )
        .expect("turn");
        assert!(out.applied);
        turns.push(t.elapsed());
        let (t, cpu) = (Instant::now(), db::process_cpu());
        let played = grognard::game::bots::play_world(&mut conn, &config, wid).expect("bots");
        plays.push(t.elapsed());
        cpus.push(db::process_cpu() - cpu);
        chunks.push(Duration::from_millis(played.longest_chunk_ms as u64));
        orders.push((
            played.orders,
            played.refused,
            played.chunks,
            played.kept,
            played.undone,
            played.ahead,
        ));
    }
    println!(
        "{name}: each bots' turn, ms: {:?}",
        plays
            .iter()
            .map(|d| ms(*d).round() as i64)
            .collect::<Vec<_>>()
    );
    let (turn, play, chunk, cpu) = (median(turns), median(plays), median(chunks), median(cpus));
    println!(
        "{name}: bots' turn {:.0} ms ({:.0} ms of this process's processor time) for {n} companies ({:?} orders, refused, chunks, chunks on the board kept, chunks given ahead and never written, runs given ahead), turn tick {:.0} ms, ratio {:.2}; longest chunk {:.0} ms (median of {rounds}; goals: under 1,000 ms, chunks under 50 ms)",
        ms(play),
        ms(cpu),
        orders,
        ms(turn),
        play.as_secs_f64() / turn.as_secs_f64(),
        ms(chunk)
    );
}

/// The simulator's 200-turn campaign on a generated 100×100 world, against its turns alone
/// (the same world and turns with no bot seated).
fn simulate() {
    use grognard::game::bots::simulate::{run, MapSource, Options};
    let config_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config");
    let config = Config::load(&config_dir).expect("config");
    let options = Options {
        map: MapSource::Generate {
            width: 100,
            height: 100,
        },
        nations: 2,
        turns: 200,
        seed: 1,
        levels: vec![grognard::rules::bot::BotLevel::Normal],
        runs: 1,
        points: Some(1_000_000_000),
    };
    let mut out = Vec::new();
    let t = Instant::now();
    let ending = run(&config, &options, &mut out).expect("simulate");
    let whole = t.elapsed();
    // The turns alone: the generated world imported and its 200 turns applied, no bots.
    let db = TestDb::new(Backend::Sqlite);
    let pool = grognard::db::open_pool(&db.url, 1, 30_000).expect("pool");
    let mut conn = pool.get().unwrap();
    grognard::db::migrate(&mut conn).unwrap();
    let map = grognard::game::maps::generate::generate(
        &config.rules,
        &grognard::game::maps::generate::Options {
            width: 100,
            height: 100,
            seed: 1,
            nations: 2,
            name: None,
            grid: grognard::rules::Grid::Square,
        },
    )
    .unwrap();
    let t = Instant::now();
    let valid = map.validate(&config.rules).unwrap();
    let world = grognard::game::maps::worlds::import(&mut conn, &valid, None).unwrap();
    db::exec(
        &mut conn,
        &format!(
            "UPDATE worlds SET victory_points = 1000000000000 WHERE id = {}",
            world.0
        ),
    );
    for turn in 1..=ending[0].turn {
        ticks::apply(
            &mut conn,
            &config.rules,
            world,
            TickKind::Turn,
            i64::from(turn) * 21_600,
            false,
        )
        .unwrap();
    }
    let bare = t.elapsed();
    println!(
        "simulate: {} turns of two normal bots on a generated 100×100 world in {:.2} s ({}), the turns alone {:.2} s, ratio {:.1} (goal: 200 turns under 60 s)",
        ending[0].turn,
        whole.as_secs_f64(),
        String::from_utf8_lossy(&out).lines().last().unwrap_or(""),
        bare.as_secs_f64(),
        whole.as_secs_f64() / bare.as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let want = |b: &str| args.is_empty() || args.iter().any(|a| a == b);
    if want("sqlite") {
        run(Backend::Sqlite);
    }
    if want("postgres") {
        run(Backend::Postgres);
    }
    if want("simulate") {
        simulate();
    }
}
