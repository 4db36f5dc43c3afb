//! Web Push benchmark: 10,000 players, each with a browser subscribed to pushes and the
//! full-action-points reminder asked for, alerted by one turn, and a local push service that
//! takes every push (HTTP keep-alive, 201). It prints, in the same run:
//! - the turn's own time with no browser subscribed (the same 10,000 alerts, nothing queued),
//!   with every browser subscribed (10,000 pushes queued in the turn's transactions), and with
//!   the previous turn's 10,000 pushes being delivered beside it; and their ratios;
//! - pushes per second through the delivery threads of one server process (`[push] senders`),
//!   and the time until the last push is received.
//!
//! `cargo bench --bench push` (`-- sqlite` or `-- postgres`; PostgreSQL runs in a throwaway
//! cluster or on `GROGNARD_TEST_PG_URL`). `GROGNARD_BENCH_PLAYERS` sets the players.

use db::{Backend, TestDb};
use grognard::config::{Config, Settings};
use grognard::db::DbConnection;
use grognard::game::maps::mapfile::ValidMap;
use grognard::game::time::ticks::{self, TickKind};
use grognard::ids::WorldId;
use grognard::rules::{Bounds, Pos, Season};
use grognard::webpush::BrowserKeys;
use grognard_testkit as db;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const SIDE: i32 = 200;
const ROUNDS: usize = 3;

fn players() -> usize {
    std::env::var("GROGNARD_BENCH_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

#[derive(diesel::QueryableByName)]
struct Id {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
}

fn ids(conn: &mut DbConnection, sql: &str) -> Vec<i32> {
    use diesel::RunQueryDsl;
    diesel::sql_query(sql)
        .load::<Id>(conn)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect()
}

/// A push service on this machine: keeps connections open, answers 201, counts, and keeps the
/// first push to open it.
struct PushService {
    port: u16,
    received: Arc<AtomicUsize>,
    last: Arc<Mutex<Option<Instant>>>,
    first: Arc<Mutex<Option<Pushed>>>,
}

/// A push as received: its path and body.
type Pushed = (String, Vec<u8>);

impl PushService {
    fn start() -> PushService {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(AtomicUsize::new(0));
        let last = Arc::new(Mutex::new(None));
        let first = Arc::new(Mutex::new(None));
        let (r, l, f) = (received.clone(), last.clone(), first.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(mut conn) = conn else { continue };
                let (r, l, f) = (r.clone(), l.clone(), f.clone());
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(conn.try_clone().unwrap());
                    loop {
                        let mut line = String::new();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let path = line.split(' ').nth(1).unwrap_or("").to_string();
                        let mut len = 0usize;
                        loop {
                            line.clear();
                            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                                return;
                            }
                            let h = line.trim_end();
                            if h.is_empty() {
                                break;
                            }
                            if let Some((k, v)) = h.split_once(':') {
                                if k.eq_ignore_ascii_case("content-length") {
                                    len = v.trim().parse().unwrap_or(0);
                                }
                            }
                        }
                        let mut body = vec![0; len];
                        if reader.read_exact(&mut body).is_err() {
                            return;
                        }
                        {
                            let mut first = f.lock().unwrap();
                            if first.is_none() {
                                *first = Some((path, body));
                            }
                        }
                        r.fetch_add(1, Ordering::SeqCst);
                        *l.lock().unwrap() = Some(Instant::now());
                        if conn
                            .write_all(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
                            .is_err()
                        {
                            return;
                        }
                    }
                });
            }
        });
        PushService {
            port,
            received,
            last,
            first,
        }
    }
}

/// The world and its players: each a company one point short of its most, the reminder asked.
fn build(conn: &mut DbConnection, players: usize) -> i32 {
    let map = ValidMap {
        name: "Push".into(),
        bounds: Bounds {
            width: SIDE,
            height: SIDE,
            grid: grognard::rules::Grid::Square,
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
        cells: vec![],
        victory: Default::default(),
        castles: vec![],
        sections: vec![],
        edges: vec![],
    };
    let world = grognard::game::maps::worlds::import(conn, &map, None)
        .expect("import")
        .0;
    db::exec(
        conn,
        &format!("UPDATE worlds SET victory_points = 1000000000000 WHERE id = {world}"),
    );
    let nations = ids(conn, "SELECT id FROM nations ORDER BY id");
    let all: Vec<usize> = (0..players).collect();
    db::exec(conn, "BEGIN");
    for chunk in all.chunks(500) {
        let rows: Vec<String> = chunk
            .iter()
            .map(|i| format!("('p{i}', 'p{i}', 'x', 'player', FALSE, 0)"))
            .collect();
        db::exec(conn, &format!("INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES {}", rows.join(",")));
    }
    let users = ids(conn, "SELECT id FROM users ORDER BY id");
    for chunk in all.chunks(500) {
        let rows: Vec<String> = chunk
            .iter()
            .map(|&i| format!("({world}, {}, {}, 0, NULL, 0)", users[i], nations[i % 2]))
            .collect();
        db::exec(conn, &format!("INSERT INTO players (world_id, user_id, nation_id, reserve, regiment_id, joined_at) VALUES {}", rows.join(",")));
        let rows: Vec<String> = chunk
            .iter()
            .map(|&i| format!("({}, TRUE, 200)", users[i]))
            .collect();
        db::exec(
            conn,
            &format!(
                "INSERT INTO push_settings (user_id, full_ap, daily_cap) VALUES {}",
                rows.join(",")
            ),
        );
    }
    let player_ids = ids(conn, "SELECT id FROM players ORDER BY id");
    for chunk in all.chunks(500) {
        let rows: Vec<String> = chunk
            .iter()
            .map(|&i| {
                let (x, y) = (i as i32 % SIDE, i as i32 / SIDE);
                format!(
                    "({world}, {}, 'c{i}', 'infantry', {x}, {y}, 200, 0, 23, 5, 0, 0, 0)",
                    player_ids[i]
                )
            })
            .collect();
        db::exec(conn, &format!("INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) VALUES {}", rows.join(",")));
    }
    db::exec(conn, "COMMIT");
    world
}

/// Every player's browser subscribed to the local push service.
fn subscribe(conn: &mut DbConnection, port: u16, keys: &[BrowserKeys]) {
    let users = ids(conn, "SELECT id FROM users ORDER BY id");
    db::exec(conn, "BEGIN");
    for (n, chunk) in keys.chunks(500).enumerate() {
        let rows: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(j, k)| {
                let i = n * 500 + j;
                format!(
                    "({}, 'http://127.0.0.1:{port}/push/{i}', '{}', '{}', 0)",
                    users[i],
                    k.p256dh(),
                    k.auth()
                )
            })
            .collect();
        db::exec(conn, &format!("INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES {}", rows.join(",")));
    }
    db::exec(conn, "COMMIT");
}

/// Each company one point short of its most again, the alerts and the day's count cleared.
fn reset(conn: &mut DbConnection, world: i32) {
    for sql in [
        format!("UPDATE companies SET ap = 23 WHERE world_id = {world}"),
        "DELETE FROM deliveries".into(),
        "DELETE FROM alerts".into(),
        "UPDATE push_settings SET sent = 0".into(),
    ] {
        db::exec(conn, &sql);
    }
    // The rows deleted each round would otherwise pile up in PostgreSQL's tables.
    if !conn.is_sqlite() && std::env::var("GROGNARD_BENCH_VACUUM").is_ok() {
        db::exec(conn, "VACUUM ANALYZE");
    }
}

fn turn(conn: &mut DbConnection, rs: &grognard::rules::Ruleset, world: i32, at: i64) -> Duration {
    let t = Instant::now();
    let out = ticks::apply(conn, rs, WorldId(world), TickKind::Turn, at, false).unwrap();
    assert!(out.applied);
    t.elapsed()
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
    let players = players();
    let db = TestDb::new(backend);
    let config_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config");
    let mut s = Settings::load(&config_dir, None, Some(&db.url)).expect("settings");
    s.push.allow_private = true;
    s.push.poll_ms = 10;
    s.database.pool_size = 4;
    let config = Arc::new(Config::with_settings(&config_dir, s).expect("config"));
    let pool = grognard::commands::open(&config).expect("pool");
    let mut conn = pool.get().unwrap();
    let rs = config.rules.clone();
    let t = Instant::now();
    let world = build(&mut conn, players);
    let keys: Vec<BrowserKeys> = (0..players).map(|_| BrowserKeys::generate()).collect();
    let service = PushService::start();
    println!(
        "{name}: {players} players built in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let count = |sql: &str| db::count(&mut pool.get().unwrap(), sql);
    let (mut bare, mut queued, mut beside, mut rates, mut lasts) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut at = 1000;
    for round in 0..ROUNDS {
        // The turn with no browser subscribed: the same alerts, nothing queued.
        db::exec(&mut conn, "DELETE FROM push_subscriptions");
        reset(&mut conn, world);
        at += 10;
        bare.push(turn(&mut conn, &rs, world, at));
        assert_eq!(count("SELECT COUNT(*) FROM deliveries"), 0);
        assert_eq!(
            count("SELECT COUNT(*) FROM alerts WHERE kind = 'full_ap'"),
            players as i64
        );

        // Every browser subscribed: the turn queues a push for each.
        subscribe(&mut conn, service.port, &keys);
        reset(&mut conn, world);
        at += 10;
        queued.push(turn(&mut conn, &rs, world, at));
        assert_eq!(count("SELECT COUNT(*) FROM deliveries"), players as i64);

        // One delivery thread sends them; the next turn (the same work) runs beside it.
        db::exec(
            &mut conn,
            &format!("UPDATE companies SET ap = 23 WHERE world_id = {world}"),
        );
        db::exec(&mut conn, "UPDATE push_settings SET sent = 0");
        let before = service.received.load(Ordering::SeqCst);
        let started = Instant::now();
        let threads = grognard::delivery::start(pool.clone(), config.clone());
        at += 10;
        beside.push(turn(&mut conn, &rs, world, at));
        // Both turns' pushes: the first turn's are timed from when delivery began.
        let want = before + 2 * players;
        while service.received.load(Ordering::SeqCst) < want {
            assert!(
                started.elapsed() < Duration::from_secs(600),
                "pushes stalled"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let last = service.last.lock().unwrap().unwrap() - started;
        threads.stop();
        rates.push(2.0 * players as f64 / last.as_secs_f64());
        lasts.push(last);
        println!(
            "{name}: round {round}: turn {:.0} ms bare, {:.0} ms queueing, {:.0} ms beside delivery; {} pushes in {:.2} s",
            ms(bare[round]),
            ms(queued[round]),
            ms(beside[round]),
            2 * players,
            last.as_secs_f64()
        );
    }
    // What was pushed opens with its browser's keys.
    let (path, body) = service.first.lock().unwrap().clone().unwrap();
    let i: usize = path.rsplit('/').next().unwrap().parse().unwrap();
    let text =
        grognard::webpush::decrypt(&keys[i].secret, &keys[i].auth, &body).expect("the push opens");
    let shown: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(shown["kind"], "full_ap");
    let (bare, queued, beside) = (median(bare), median(queued), median(beside));
    rates.sort_by(f64::total_cmp);
    let rate = rates[rates.len() / 2];
    println!(
        "{name}: turn alerting {players} players: {:.0} ms with no browser, {:.0} ms queueing their pushes (ratio {:.2}), {:.0} ms beside their delivery (ratio {:.2} to queueing); {} delivery threads: {rate:.0} pushes/s, the last of {} after {:.1} s (medians of {ROUNDS})",
        ms(bare),
        ms(queued),
        queued.as_secs_f64() / bare.as_secs_f64(),
        ms(beside),
        beside.as_secs_f64() / queued.as_secs_f64(),
        config.settings.push.senders,
        2 * players,
        median(lasts).as_secs_f64(),
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
