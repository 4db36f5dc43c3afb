//! Turn tick benchmark: a world of 1,000,000 cells and 100,000 companies. Times one turn tick
//! (`game::ticks::apply`: its `ticks` row, its chunks of companies, each a transaction with its
//! locks, then the rest of the turn and its event) against the same updates as plain SQL
//! statements run as one transaction straight on the database, in the same run, on SQLite and
//! on PostgreSQL, and prints both with their ratio, and the longest the tick held orders up.
//!
//! `cargo bench --bench tick` (add `-- sqlite` or `-- postgres` for one backend). PostgreSQL runs
//! in a throwaway cluster started here, or on `GROGNARD_TEST_PG_URL`.

use db::{Backend, TestDb};
use diesel::RunQueryDsl;
use grognard::db::DbConnection;
use grognard::game::maps::mapfile::{ValidCell, ValidMap};
use grognard::game::time::ticks::{self, TickKind};
use grognard::ids::WorldId;
use grognard::rules::{Bounds, Kind, Pos, Ruleset, Season, Terrain};
use grognard_testkit as db;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

const SIDE: i32 = 1000;
const PLAYERS: i32 = 33_334;
const PER_PLAYER: i32 = 3;
const ROUNDS: usize = 5;

#[derive(diesel::QueryableByName)]
struct Id {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
}

/// The world: plain ground with 2 % mines and 1 % farms owned by two nations.
fn build_world(conn: &mut DbConnection, rng: &mut ChaCha8Rng) -> i32 {
    let mut cells = Vec::new();
    for y in 0..SIDE {
        for x in 0..SIDE {
            let r: f64 = rng.random();
            let terrain = if r < 0.02 {
                Terrain::Mine
            } else if r < 0.03 {
                Terrain::Farm
            } else if r < 0.10 {
                Terrain::Forest
            } else {
                continue;
            };
            let owner = matches!(terrain, Terrain::Mine | Terrain::Farm)
                .then(|| rng.random_range(0..2usize));
            cells.push(ValidCell {
                pos: Pos::new(x, y),
                terrain,
                town: None,
                owner,
                structure: None,
                castle: None,
            });
        }
    }
    let map = ValidMap {
        name: "Bench".into(),
        // `GROGNARD_BENCH_GRID=hex`: the same world on a hex grid.
        bounds: Bounds {
            width: SIDE,
            height: SIDE,
            grid: match std::env::var("GROGNARD_BENCH_GRID").as_deref() {
                Ok("hex") => grognard::rules::Grid::Hex,
                _ => grognard::rules::Grid::Square,
            },
        },
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

/// 33,334 players in two nations, a tenth in regiments with headquarters, 3 companies each.
fn populate(conn: &mut DbConnection, world: i32, rng: &mut ChaCha8Rng) {
    let nation_ids: Vec<i32> = diesel::sql_query("SELECT id FROM nations ORDER BY id")
        .load::<Id>(conn)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    let nation = |i: i32| nation_ids[(i % 2) as usize];
    db::exec(conn, "BEGIN");
    for chunk in (0..PLAYERS).collect::<Vec<_>>().chunks(500) {
        let users: Vec<String> = chunk
            .iter()
            .map(|i| format!("('u{i}', 'u{i}', 'x', 'player', FALSE, 0)"))
            .collect();
        db::exec(conn, &format!("INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES {}", users.join(",")));
    }
    for r in 0..200 {
        let (x, y) = (rng.random_range(0..SIDE), rng.random_range(0..SIDE));
        db::exec(conn, &format!("UPDATE cells SET terrain = 'farm', owner_id = {} WHERE world_id = {world} AND x = {x} AND y = {y}", nation(r)));
        db::exec(conn, &format!("INSERT INTO regiments (world_id, nation_id, name, hq_x, hq_y, created_at) VALUES ({world}, {}, 'R{r}', {x}, {y}, 0)", nation(r)));
    }
    let user_ids: Vec<i32> = diesel::sql_query("SELECT id FROM users ORDER BY id")
        .load::<Id>(conn)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    let regiment_ids: Vec<i32> = diesel::sql_query("SELECT id FROM regiments ORDER BY id")
        .load::<Id>(conn)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    for chunk in (0..PLAYERS).collect::<Vec<_>>().chunks(500) {
        let rows: Vec<String> = chunk
            .iter()
            .map(|&i| {
                // Every tenth player serves in a regiment of its own nation.
                let regiment = if i % 10 == 0 {
                    regiment_ids[((i / 10) as usize * 2 + (i % 2) as usize) % regiment_ids.len()]
                        .to_string()
                } else {
                    "NULL".into()
                };
                format!(
                    "({world}, {}, {}, {}, {regiment}, 0)",
                    user_ids[i as usize],
                    nation(i),
                    rng.random_range(0..100)
                )
            })
            .collect();
        db::exec(conn, &format!("INSERT INTO players (world_id, user_id, nation_id, reserve, regiment_id, joined_at) VALUES {}", rows.join(",")));
    }
    let player_ids: Vec<i32> = diesel::sql_query("SELECT id FROM players ORDER BY id")
        .load::<Id>(conn)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    let mut n = 0;
    let mut values = Vec::new();
    for p in 0..PLAYERS {
        for _ in 0..PER_PLAYER {
            // Companies on distinct cells, row by row.
            let (x, y) = (n % SIDE, n / SIDE * 7 % SIDE + n / (SIDE * 142));
            let kind = Kind::ALL[rng.random_range(0..Kind::ALL.len())];
            values.push(format!(
                "({world}, {}, 'c', '{kind}', {x}, {y}, {}, {}, {}, {}, 0, {}, 0)",
                player_ids[p as usize],
                rng.random_range(1..60),
                rng.random_range(0..30),
                rng.random_range(0..16),
                rng.random_range(0..=10),
                rng.random_range(0..=2)
            ));
            n += 1;
            if values.len() == 500 {
                db::exec(conn, &format!("INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) VALUES {}", values.join(",")));
                values.clear();
            }
        }
    }
    if !values.is_empty() {
        db::exec(conn, &format!("INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) VALUES {}", values.join(",")));
    }
    db::exec(conn, "COMMIT");
    let analyze = if conn.is_sqlite() {
        "ANALYZE"
    } else {
        "VACUUM ANALYZE"
    };
    db::exec(conn, analyze);
}

/// The turn's updates written by hand for the shipped ruleset, as one transaction.
fn plain_sql(sqlite: bool, world: i32) -> String {
    let (least, greatest) = if sqlite {
        ("MIN", "MAX")
    } else {
        ("LEAST", "GREATEST")
    };
    let max_ap = "(CASE kind WHEN 'infantry' THEN 24 WHEN 'voltigeurs' THEN 28 WHEN 'cavalry' THEN 32 WHEN 'artillery' THEN 16 WHEN 'sappers' THEN 24 ELSE 0 END)";
    let per_turn = "(CASE kind WHEN 'infantry' THEN 6 WHEN 'voltigeurs' THEN 7 WHEN 'cavalry' THEN 8 WHEN 'artillery' THEN 4 WHEN 'sappers' THEN 6 ELSE 0 END)";
    let full = "(CASE kind WHEN 'infantry' THEN 200 WHEN 'voltigeurs' THEN 120 WHEN 'cavalry' THEN 120 WHEN 'artillery' THEN 60 WHEN 'sappers' THEN 100 ELSE 0 END)";
    let healed = format!("{least}(wounded, 5, {greatest}({full} - men, 0))");
    let near = format!("WITH near AS (SELECT c.id FROM companies c JOIN players p ON p.id = c.player_id JOIN regiments r ON r.id = p.regiment_id JOIN cells hq ON hq.world_id = r.world_id AND hq.x = r.hq_x AND hq.y = r.hq_y AND hq.owner_id = r.nation_id WHERE c.world_id = {world} AND ABS(r.hq_x - c.x) <= 3 AND ABS(r.hq_y - c.y) <= 3)");
    let hq = "(CASE WHEN id IN (SELECT id FROM near) THEN 1 ELSE 0 END)";
    let begin = if sqlite { "BEGIN IMMEDIATE" } else { "BEGIN" };
    format!(
        "{begin};
         {near} UPDATE companies SET ap = {least}(ap + {per_turn}, {max_ap}), morale = {least}(morale + 1 + {hq}, 10),
           men = men + {healed}, wounded = wounded - {healed}, volley_recency = {greatest}(volley_recency - 1, 0) WHERE world_id = {world};
         UPDATE players SET reserve = reserve + 15 WHERE world_id = {world};
         UPDATE nations SET treasury = treasury + COALESCE((SELECT SUM(10) FROM cells c WHERE c.world_id = nations.world_id AND c.owner_id = nations.id AND c.terrain = 'mine'), 0) WHERE world_id = {world};
         UPDATE worlds SET turn = turn + 1 WHERE id = {world};
         COMMIT;"
    )
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn run(backend: Backend) {
    let name = format!("{backend:?}").to_lowercase();
    let db = TestDb::new(backend);
    let pool = grognard::db::open_pool(&db.url, 2, 30_000).expect("pool");
    let mut conn = pool.get().unwrap();
    grognard::db::migrate(&mut conn).unwrap();
    let rs = Ruleset::shipped();
    let mut rng = ChaCha8Rng::seed_from_u64(1812);
    let t = Instant::now();
    let world = build_world(&mut conn, &mut rng);
    populate(&mut conn, world, &mut rng);
    // A long campaign: its nations' points grow every turn, short of an end while measured.
    db::exec(
        &mut conn,
        &format!("UPDATE worlds SET victory_points = 1000000000000 WHERE id = {world}"),
    );
    let cells = db::count(&mut conn, "SELECT COUNT(*) FROM cells");
    let companies = db::count(&mut conn, "SELECT COUNT(*) FROM companies");
    println!(
        "{name}: built {cells} cells and {companies} companies in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let sql = plain_sql(conn.is_sqlite(), world);
    let (mut tick_times, mut plain_times, mut held) = (Vec::new(), Vec::new(), Vec::new());
    // Warm the caches once each, then alternate so that both see the same conditions.
    db::exec(&mut conn, &sql);
    ticks::apply(&mut conn, &rs, WorldId(world), TickKind::Turn, 1, false).unwrap();
    for round in 0..ROUNDS {
        let t = Instant::now();
        db::exec(&mut conn, &sql);
        plain_times.push(t.elapsed());
        let t = Instant::now();
        let out = ticks::apply(
            &mut conn,
            &rs,
            WorldId(world),
            TickKind::Turn,
            100 + round as i64,
            false,
        )
        .unwrap();
        tick_times.push(t.elapsed());
        held.push(Duration::from_millis(out.orders_held_ms as u64));
        assert!(out.applied && out.rows >= companies);
    }
    if std::env::var("GROGNARD_BENCH_EXPLAIN").is_ok() && !conn.is_sqlite() {
        // The plans of the turn's statements, rolled back, for whoever tunes them.
        for stmt in sql
            .split(';')
            .map(str::trim)
            .filter(|s| s.starts_with("UPDATE") || s.starts_with("WITH"))
        {
            #[derive(diesel::QueryableByName)]
            struct Line {
                #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
                line: String,
            }
            db::exec(&mut conn, "BEGIN");
            let plan: Vec<Line> = diesel::sql_query(format!("EXPLAIN (ANALYZE, BUFFERS) {stmt}"))
                .load(&mut **conn)
                .unwrap();
            db::exec(&mut conn, "ROLLBACK");
            println!(
                "{}",
                plan.iter()
                    .map(|l| l.line.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }
    let (tick, plain, held) = (median(tick_times), median(plain_times), median(held));
    println!(
        "{name}: turn tick {:.0} ms, plain SQL {:.0} ms, ratio {:.2}; orders held up to {:.0} ms (median of {ROUNDS}; goal: orders held under 50 ms)",
        tick.as_secs_f64() * 1000.0,
        plain.as_secs_f64() * 1000.0,
        tick.as_secs_f64() / plain.as_secs_f64(),
        held.as_secs_f64() * 1000.0
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
}
