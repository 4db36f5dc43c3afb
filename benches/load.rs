//! Load benchmark: the requests players make at the turn change, over real HTTP, against the
//! references measured in the same run.
//!
//! It builds a 120×120 generated world with 60 players in two nations and 180 companies, starts
//! the server as `serve` does (default settings, scheduler off), then drives each request with
//! 64 keep-alive connections for a few seconds, from a small HTTP/1.1 client on plain sockets.
//! Pages are asked for as a browser does (accepting gzip), the API as a script does.
//! References: `GET /healthz` for the reads, and raw write transactions on the same database
//! with the same connection settings (read one company row, update it, commit) for the move.
//! Each line runs in one-second slices alternating with slices of its reference, and is read
//! against the reference measured in those slices.
//! The last lines run the move load again while a turn ticks over a world of 100,000
//! companies, to show how long a tick holds the orders back: first on the bench's world, then
//! on the ticking world itself; and last on that world, without turns, while one of its cells
//! changes four times a second (as captures change them).
//!
//! `cargo bench --bench load` (add `-- sqlite` or `-- postgres` for one backend;
//! `GROGNARD_BENCH_SECS` sets the seconds per line, 5 by default; `GROGNARD_BENCH_BIG=0` skips
//! the lines on the big world). PostgreSQL runs in a throwaway cluster started here, or on
//! `GROGNARD_TEST_PG_URL`.

use db::{Backend, TestDb};
use diesel::connection::SimpleConnection;
use diesel::RunQueryDsl;
use grognard::config::{Config, Settings};
use grognard::db::group::Group;
use grognard::db::{DbConnection, Pool};
use grognard::game::accounts::{self, Role};
use grognard::game::maps::generate::{self, Options};
use grognard::game::play::access::Actor;
use grognard::game::time::ticks::{self, TickKind};
use grognard::game::{accounts::sessions, accounts::tokens, maps::cells, maps::worlds, play};
use grognard::ids::{UserId, WorldId};
use grognard::web::{AppState, Application};
use grognard_testkit as db;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const SIDE: i32 = 120;
const PLAYERS: usize = 60;
const PER_PLAYER: usize = 3;
const CONNECTIONS: usize = 64;
/// Companies each connection moves in turn on the big world: enough that a line of 8,000
/// moves a second does not spend their AP (24 at most, 6 a turn) before it ends.
const PER_MOVER: usize = 15;

fn config_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config")
}

fn seconds() -> Duration {
    let s: f64 = std::env::var("GROGNARD_BENCH_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5.0);
    Duration::from_secs_f64(s)
}

#[derive(diesel::QueryableByName)]
struct Id {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
}

/// One keep-alive HTTP/1.1 connection.
struct Http {
    addr: String,
    stream: Option<BufReader<TcpStream>>,
}

impl Http {
    fn new(addr: &str) -> Http {
        Http {
            addr: addr.into(),
            stream: None,
        }
    }

    /// Sends one request; returns the status and the body's size on the wire.
    fn send(&mut self, req: &[u8]) -> std::io::Result<(u16, usize)> {
        if self.stream.is_none() {
            let s = TcpStream::connect(&self.addr)?;
            s.set_nodelay(true)?;
            self.stream = Some(BufReader::new(s));
        }
        let r = self.exchange(req);
        if r.is_err() {
            self.stream = None;
        }
        r
    }

    fn exchange(&mut self, req: &[u8]) -> std::io::Result<(u16, usize)> {
        let s = self.stream.as_mut().expect("connected");
        s.get_mut().write_all(req)?;
        let mut line = String::new();
        s.read_line(&mut line)?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let (mut length, mut chunked, mut close) = (0usize, false, false);
        loop {
            line.clear();
            s.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (k, v) = l.split_once(':').unwrap_or((l, ""));
            let v = v.trim();
            if k.eq_ignore_ascii_case("content-length") {
                length = v.parse().unwrap_or(0);
            } else if k.eq_ignore_ascii_case("transfer-encoding") {
                chunked = v.eq_ignore_ascii_case("chunked");
            } else if k.eq_ignore_ascii_case("connection") {
                close = v.eq_ignore_ascii_case("close");
            }
        }
        let mut body = 0;
        if chunked {
            loop {
                line.clear();
                s.read_line(&mut line)?;
                let n = usize::from_str_radix(line.trim(), 16)
                    .map_err(|_| std::io::Error::other("bad chunk size"))?;
                let mut buf = vec![0; n + 2];
                s.read_exact(&mut buf)?;
                body += n;
                if n == 0 {
                    break;
                }
            }
        } else {
            let mut buf = vec![0; length];
            s.read_exact(&mut buf)?;
            body = length;
        }
        if close {
            self.stream = None;
        }
        Ok((status, body))
    }
}

/// A page request as a browser sends it (accepting gzip).
fn page(path: &str, auth: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: bench\r\nAccept-Encoding: gzip\r\n{auth}\r\n")
        .into_bytes()
}

/// An API request as a script sends it (no compression asked for).
fn get(path: &str, auth: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: bench\r\n{auth}\r\n").into_bytes()
}

fn post_json(path: &str, auth: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: bench\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// What one line of load measured.
struct Measure {
    /// Each answered request's latency, in order.
    lat: Vec<Duration>,
    errors: usize,
    secs: f64,
    /// Bytes of all the bodies on the wire.
    bytes: usize,
    /// CPU time this process (server and load client) spent during the line: steadier than
    /// the rates on a machine shared with others, for comparing two builds.
    cpu: Duration,
}

impl Measure {
    fn of(mut lat: Vec<Duration>, errors: usize, secs: f64, bytes: usize) -> Measure {
        lat.sort();
        Measure {
            lat,
            errors,
            secs,
            bytes,
            cpu: Duration::ZERO,
        }
    }

    /// The two measures as one.
    fn and(mut self, other: &Measure) -> Measure {
        self.lat.extend(&other.lat);
        self.lat.sort();
        Measure {
            errors: self.errors + other.errors,
            secs: self.secs + other.secs,
            bytes: self.bytes + other.bytes,
            cpu: self.cpu + other.cpu,
            ..self
        }
    }

    fn rate(&self) -> f64 {
        self.lat.len() as f64 / self.secs
    }

    fn at(&self, q: f64) -> Duration {
        let i = ((self.lat.len() as f64 * q) as usize).min(self.lat.len().saturating_sub(1));
        self.lat.get(i).copied().unwrap_or_default()
    }
}

/// How long each slice of [`alternating`] runs.
const SLICE: Duration = Duration::from_secs(1);

/// Runs a line and its reference in alternating slices of about a second, `dur` each in all.
/// On a shared machine either rate moves by a third from one second to the next; measured
/// seconds apart, the ratio moved with it.
fn alternating(
    dur: Duration,
    mut reference: impl FnMut(Duration) -> Measure,
    mut line: impl FnMut(Duration) -> Measure,
) -> (Measure, Measure) {
    let n = (dur.as_secs_f64() / SLICE.as_secs_f64()).round().max(1.0) as u32;
    let slice = dur / n;
    let (mut r, mut l) = (reference(slice), line(slice));
    for _ in 1..n {
        r = r.and(&reference(slice));
        l = l.and(&line(slice));
    }
    (r, l)
}

/// Runs `CONNECTIONS` closed loops for `dur`; connection `i` sends `requests(i)` in turn.
fn load(addr: &str, dur: Duration, requests: impl Fn(usize) -> Vec<Vec<u8>>) -> Measure {
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let cpu_before = db::process_cpu();
    let handles: Vec<_> = (0..CONNECTIONS)
        .map(|i| {
            let reqs = requests(i);
            let stop = stop.clone();
            let mut http = Http::new(addr);
            std::thread::spawn(move || {
                let (mut lat, mut errors, mut bytes) = (Vec::new(), 0, 0);
                let mut k = 0;
                while !stop.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    match http.send(&reqs[k % reqs.len()]) {
                        Ok((status, n)) if status < 400 => {
                            lat.push(t.elapsed());
                            bytes += n;
                        }
                        Ok((status, _)) => {
                            errors += 1;
                            if errors == 1 {
                                eprintln!("connection {i}: HTTP {status}");
                            }
                        }
                        Err(e) => {
                            errors += 1;
                            if errors == 1 {
                                eprintln!("connection {i}: {e}");
                            }
                        }
                    }
                    k += 1;
                }
                (lat, errors, bytes)
            })
        })
        .collect();
    std::thread::sleep(dur);
    stop.store(true, Ordering::Relaxed);
    let (mut lat, mut errors, mut bytes) = (Vec::new(), 0, 0);
    for h in handles {
        let (l, e, b) = h.join().expect("load thread");
        lat.extend(l);
        errors += e;
        bytes += b;
    }
    let cpu = db::process_cpu().saturating_sub(cpu_before);
    Measure {
        cpu,
        ..Measure::of(lat, errors, started.elapsed().as_secs_f64(), bytes)
    }
}

/// Raw write transactions on the database: read one company row, update it, commit, with the
/// server's connection settings: on one connection for SQLite (it admits one writer at a
/// time), on as many as the server's pool for PostgreSQL (which commits them side by side).
fn raw_writes(pool: &Pool, ids: &[i32], dur: Duration) -> Measure {
    let sqlite = pool.get().expect("connection").is_sqlite();
    let threads = if sqlite { 1 } else { pool.max_size() as usize };
    let started = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let pool = pool.clone();
            let ids: Vec<i32> = ids.iter().skip(t).step_by(threads).copied().collect();
            std::thread::spawn(move || {
                let mut conn = pool.get().expect("connection");
                let begin = if sqlite { "BEGIN IMMEDIATE" } else { "BEGIN" };
                let mut lat = Vec::new();
                let mut k = 0;
                while started.elapsed() < dur {
                    let t = Instant::now();
                    let id = ids[k % ids.len()];
                    conn.batch_execute(begin).expect("begin");
                    let _: Vec<Id> =
                        diesel::sql_query(format!("SELECT id FROM companies WHERE id = {id}"))
                            .load(&mut **conn)
                            .expect("read");
                    conn.batch_execute(&format!(
                        "UPDATE companies SET morale = morale WHERE id = {id}; COMMIT"
                    ))
                    .expect("update");
                    lat.push(t.elapsed());
                    k += 1;
                }
                lat
            })
        })
        .collect();
    let lat: Vec<Duration> = handles
        .into_iter()
        .flat_map(|h| h.join().expect("raw writer"))
        .collect();
    Measure::of(lat, 0, started.elapsed().as_secs_f64(), 0)
}

struct World {
    id: i32,
    /// (session cookie, API token) per player.
    players: Vec<(String, String)>,
    /// (company id, x, y, owner index) per company; x + 1 is free plain ground.
    companies: Vec<(i32, i32, i32, usize)>,
}

/// The bench world's grid: `GROGNARD_BENCH_GRID=hex` for a hex world of the same size.
fn bench_grid() -> grognard::rules::Grid {
    match std::env::var("GROGNARD_BENCH_GRID").as_deref() {
        Ok("hex") => grognard::rules::Grid::Hex,
        _ => grognard::rules::Grid::Square,
    }
}

/// A generated world, its players with sessions and tokens, and companies on plain cells whose
/// east neighbour is plain and free, so that a move there and back is always allowed.
fn build(conn: &mut DbConnection, config: &Config) -> World {
    let rs = &config.rules;
    let map = generate::generate(
        rs,
        &Options {
            width: SIDE,
            height: SIDE,
            seed: 11,
            nations: 2,
            name: Some("Load".into()),
            grid: bench_grid(),
        },
    )
    .expect("generate");
    let valid = map.validate(rs).expect("valid map");
    let wid = worlds::import(conn, &valid, None).expect("import");
    endless(conn, wid.0);
    let nations = worlds::nations_of(conn, wid).expect("nations");
    let mut not_plain: HashSet<(i32, i32)> = HashSet::new();
    for c in cells::all_cells(conn, wid).expect("cells") {
        if c.terrain != grognard::rules::Terrain::Plain
            || c.town_id.is_some()
            || c.owner_id.is_some()
        {
            not_plain.insert((c.x, c.y));
        }
    }
    // Plain pairs on a lattice, so that no two companies ever meet.
    let mut spots = Vec::new();
    for gy in 0..(SIDE / 6) {
        for gx in 0..(SIDE / 6) {
            let (x, y) = (gx * 6 + 1, gy * 6 + 2);
            if !not_plain.contains(&(x, y)) && !not_plain.contains(&(x + 1, y)) {
                spots.push((x, y));
            }
        }
    }
    assert!(
        spots.len() >= PLAYERS * PER_PLAYER,
        "not enough plain spots"
    );
    // Spread the companies over the whole map.
    let stride = spots.len() / (PLAYERS * PER_PLAYER);
    let hash = accounts::hash_password("bench password 1").expect("hash");
    let mut players = Vec::new();
    let mut companies = Vec::new();
    for i in 0..PLAYERS {
        conn.batch_execute(&format!(
            "INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES ('player{i}', 'player{i}', '{hash}', '{}', FALSE, 0)",
            Role::Player.as_str()
        ))
        .expect("user");
        let user = accounts::find_by_name(conn, &format!("player{i}"))
            .expect("find")
            .expect("user");
        let actor = Actor::of(&user);
        let nation = &nations[i % nations.len()];
        play::join(conn, &actor, wid, &nation.name).expect("join");
        conn.batch_execute(&format!(
            "UPDATE nations SET treasury = 1000000 WHERE id = {}",
            nation.id
        ))
        .expect("treasury");
        for k in 0..PER_PLAYER {
            let c = play::raise(conn, rs, &actor, wid, "infantry", &format!("C{i}-{k}"))
                .expect("raise");
            let n = companies.len();
            let (x, y) = spots[n * stride];
            conn.batch_execute(&format!(
                "UPDATE companies SET x = {x}, y = {y}, ap = 1000000000 WHERE id = {}",
                c.id
            ))
            .expect("place");
            companies.push((c.id.0, x, y, i));
        }
        let session = sessions::create(conn, user.id).expect("session");
        let (_, token) = tokens::create(conn, user.id, "bench").expect("token");
        players.push((session, token));
    }
    World {
        id: wid.0,
        players,
        companies,
    }
}

/// Puts 100,000 more companies on a second 1000×1000 world for the tick line.
/// A long campaign: the turns the bench applies count points and never end it.
fn endless(conn: &mut DbConnection, wid: i32) {
    conn.batch_execute(&format!(
        "UPDATE worlds SET victory_points = 1000000000000 WHERE id = {wid}"
    ))
    .expect("victory");
}

fn build_big(conn: &mut DbConnection) -> i32 {
    let wid: i32 = {
        conn.batch_execute(
            "INSERT INTO worlds (name, width, height, season, turn, paused, rng_seed, rng_word_pos, created_at, schedule_anchor) \
             VALUES ('Big', 1000, 1000, 'summer', 0, FALSE, 3, 0, 0, 0)",
        )
        .expect("world");
        diesel::sql_query("SELECT MAX(id) AS id FROM worlds")
            .get_result::<Id>(conn)
            .expect("id")
            .id
    };
    conn.batch_execute(&format!(
        "INSERT INTO nations (world_id, name, color, spawn_x, spawn_y, treasury) VALUES ({wid}, 'Big', '#000000', 0, 0, 0)"
    ))
    .expect("nation");
    endless(conn, wid);
    let nation = diesel::sql_query("SELECT MAX(id) AS id FROM nations")
        .get_result::<Id>(conn)
        .expect("id")
        .id;
    conn.batch_execute("BEGIN").expect("begin");
    for y in 0..1000 {
        let row: Vec<String> = (0..1000)
            .map(|x| format!("({wid}, {x}, {y}, 'plain')"))
            .collect();
        conn.batch_execute(&format!(
            "INSERT INTO cells (world_id, x, y, terrain) VALUES {}",
            row.join(",")
        ))
        .expect("cells");
    }
    for chunk in (0..33_334).collect::<Vec<i32>>().chunks(500) {
        let users: Vec<String> = chunk
            .iter()
            .map(|i| format!("('b{i}', 'b{i}', 'x', 'player', FALSE, 0)"))
            .collect();
        conn.batch_execute(&format!("INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES {}", users.join(",")))
            .expect("users");
    }
    conn.batch_execute(&format!(
        "INSERT INTO players (world_id, user_id, nation_id, reserve, joined_at) \
         SELECT {wid}, id, {nation}, 0, 0 FROM users WHERE username LIKE 'b%'"
    ))
    .expect("players");
    conn.batch_execute(&format!(
        "INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) \
         SELECT {wid}, p.id, 'C', 'infantry', (p.id * 3 + k.k) % 1000, ((p.id * 3 + k.k) / 1000) % 1000, 150, 20, 5, 4, 0, 0, 0 \
         FROM players p CROSS JOIN (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) k WHERE p.world_id = {wid}"
    ))
    .expect("companies");
    conn.batch_execute("COMMIT").expect("commit");
    // As the database's own statistics job would: the turn's plan depends on them.
    conn.batch_execute("ANALYZE").expect("analyze");
    wid
}

#[derive(diesel::QueryableByName)]
struct Mover {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    x: i32,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    y: i32,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    user_id: i32,
}

/// Companies of the big world with free ground south of them, each with a token of its owner:
/// `PER_MOVER` for each connection, so that the turn's AP (at most 24 a company) outlasts the
/// moves between two turns.
fn big_movers(conn: &mut DbConnection, wid: i32) -> Vec<(i32, i32, i32, String)> {
    let movers: Vec<Mover> = diesel::sql_query(format!(
        "SELECT c.id, c.x, c.y, p.user_id FROM companies c JOIN players p ON p.id = c.player_id \
         WHERE c.world_id = {wid} AND c.y < 999 AND NOT EXISTS (SELECT 1 FROM companies o \
           WHERE o.world_id = {wid} AND o.x = c.x AND o.y = c.y + 1) \
         ORDER BY c.id LIMIT {}",
        CONNECTIONS * PER_MOVER
    ))
    .load(conn)
    .expect("movers");
    assert_eq!(
        movers.len(),
        CONNECTIONS * PER_MOVER,
        "companies with room to move"
    );
    let mut tokens = std::collections::HashMap::new();
    movers
        .into_iter()
        .map(|m| {
            conn.batch_execute(&format!("UPDATE companies SET ap = 24 WHERE id = {}", m.id))
                .expect("ap");
            let token = tokens
                .entry(m.user_id)
                .or_insert_with(|| {
                    tokens::create(conn, UserId(m.user_id), "bench")
                        .expect("token")
                        .1
                })
                .clone();
            (m.id, m.x, m.y, token)
        })
        .collect()
}

fn row(name: &str, m: &Measure, reference: &str, ratio: f64) {
    println!(
        "| {name} | {:.0} req/s, p50 {:.1} ms, p99 {:.1} ms, {} B{}{} | {reference} | {ratio:.3} |",
        m.rate(),
        m.at(0.50).as_secs_f64() * 1e3,
        m.at(0.99).as_secs_f64() * 1e3,
        m.bytes / m.lat.len().max(1),
        if m.cpu > Duration::ZERO && !m.lat.is_empty() {
            format!(
                ", CPU {:.0} µs/req",
                m.cpu.as_secs_f64() * 1e6 / m.lat.len() as f64
            )
        } else {
            String::new()
        },
        if m.errors > 0 {
            format!(", {} errors", m.errors)
        } else {
            String::new()
        }
    );
}

/// The orders per transaction since `before` (SQLite's group commit), if any were grouped.
fn per_commit(writes: &Group, before: (u64, u64)) -> String {
    let (batches, orders) = writes.written();
    let (batches, orders) = (batches - before.0, orders - before.1);
    if batches == 0 {
        return String::new();
    }
    format!(", {:.1} orders per commit", orders as f64 / batches as f64)
}

fn run(backend: Backend) -> Vec<f64> {
    let db = TestDb::new(backend);
    let mut s = Settings::load(&config_dir(), None, Some(&db.url)).expect("settings");
    s.scheduler.enabled = false;
    if let Ok(n) = std::env::var("GROGNARD_BENCH_POOL") {
        s.database.pool_size = n.parse().expect("pool size");
    }
    let config = Arc::new(Config::with_settings(&config_dir(), s).expect("config"));
    let pool = grognard::commands::open(&config).expect("pool");
    let w = {
        let mut conn = pool.get().expect("connection");
        build(&mut conn, &config)
    };
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr").to_string();
    let state = AppState::new(pool.clone(), config.clone()).expect("templates");
    let writes = state.writes.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let app = Application::build(state, listener).expect("server");
            tx.send(app.handle()).expect("handle");
            let _ = app.run_until_stopped().await;
        })
    });
    let handle = rx.recv().expect("server started");
    let dur = seconds();
    let bearer = |i: usize| format!("Authorization: Bearer {}\r\n", w.players[i % PLAYERS].1);
    let cookie = |i: usize| {
        format!(
            "Cookie: {}={}\r\n",
            grognard::web::auth::SESSION,
            w.players[i % PLAYERS].0
        )
    };
    let company = |i: usize| w.companies[i % w.companies.len()];
    println!(
        "\n{backend:?}: {SIDE}×{SIDE} world, {PLAYERS} players, {} companies, {CONNECTIONS} connections, {:.0} s per line\n",
        w.companies.len(),
        dur.as_secs_f64()
    );
    let healthz = |d: Duration| load(&addr, d, |_| vec![get("/healthz", "")]);
    let (h_page, page) = alternating(dur, healthz, |d| {
        load(&addr, d, |i| {
            vec![page(&format!("/worlds/{}", w.id), &cookie(i))]
        })
    });
    let (h_map, map) = alternating(dur, healthz, |d| {
        load(&addr, d, |i| {
            let (_, x, y, owner) = company(i);
            vec![get(
                &format!(
                    "/api/v1/worlds/{}/map?x0={}&y0={}&x1={}&y1={}",
                    w.id,
                    x - 15,
                    y - 10,
                    x + 15,
                    y + 10
                ),
                &bearer(owner),
            )]
        })
    });
    let (h_read, read) = alternating(dur, healthz, |d| {
        load(&addr, d, |i| {
            let (id, _, _, owner) = company(i);
            vec![get(&format!("/api/v1/companies/{id}"), &bearer(owner))]
        })
    });
    let ids: Vec<i32> = w.companies.iter().map(|c| c.0).collect();
    // Each connection moves its own company one step east and back.
    let moves = |i: usize| {
        let (id, x, y, owner) = company(i);
        let path = format!("/api/v1/companies/{id}/move");
        vec![
            post_json(
                &path,
                &bearer(owner),
                &format!("{{\"path\": [[{}, {y}]]}}", x + 1),
            ),
            post_json(
                &path,
                &bearer(owner),
                &format!("{{\"path\": [[{x}, {y}]]}}"),
            ),
        ]
    };
    // Every company starts a move line at home, so that the first step (east) is allowed.
    let home = |pool: &Pool| {
        let mut conn = pool.get().expect("connection");
        for (id, x, y, _) in &w.companies {
            conn.batch_execute(&format!(
                "UPDATE companies SET x = {x}, y = {y} WHERE id = {id}"
            ))
            .expect("home");
        }
    };
    let before = writes.written();
    let (raw, mv) = alternating(
        dur,
        |d| raw_writes(&pool, &ids, d),
        |d| {
            home(&pool);
            load(&addr, d, moves)
        },
    );
    let moved = per_commit(&writes, before);
    println!("| request | measured | reference | ratio |\n|---|---|---|---|");
    let alongside = |h: &Measure| format!("healthz alongside: {:.0} req/s", h.rate());
    let health = Measure::of(Vec::new(), 0, 0.0, 0)
        .and(&h_page)
        .and(&h_map)
        .and(&h_read);
    row("`GET /healthz` (all its slices)", &health, "—", 1.0);
    row(
        "`GET /worlds/{w}` (logged in, default view)",
        &page,
        &alongside(&h_page),
        page.rate() / h_page.rate(),
    );
    row(
        "`GET /api/v1/worlds/{w}/map` 31×21",
        &map,
        &alongside(&h_map),
        map.rate() / h_map.rate(),
    );
    row(
        "`GET /api/v1/companies/{c}`",
        &read,
        &alongside(&h_read),
        read.rate() / h_read.rate(),
    );
    row(
        "raw write transaction (read + update one row)",
        &raw,
        "—",
        1.0,
    );
    row(
        &format!("`POST /api/v1/companies/{{c}}/move` one step{moved}"),
        &mv,
        "raw write tx alongside",
        mv.rate() / raw.rate(),
    );
    let mut ratios = vec![
        page.rate() / h_page.rate(),
        map.rate() / h_map.rate(),
        read.rate() / h_read.rate(),
        mv.rate() / raw.rate(),
    ];
    let big = std::env::var("GROGNARD_BENCH_BIG").map_or(true, |v| v != "0");
    if big {
        let big_world = {
            let mut conn = pool.get().expect("connection");
            build_big(&mut conn)
        };
        // Moves while a turn ticks over the big world every 0.7 s: a row, and its ratio.
        let during_turns = |what: &str, requests: &dyn Fn(usize) -> Vec<Vec<u8>>| {
            let ticking = Arc::new(AtomicBool::new(true));
            let ticker = tick_every(&pool, &config, big_world, ticking.clone());
            let before = writes.written();
            let m = load(&addr, dur, requests);
            ticking.store(false, Ordering::Relaxed);
            let (n, took) = ticker.join().expect("ticker");
            row(
                &format!(
                    "{what} ({n} turns, {:.0} ms each){}",
                    took.as_secs_f64() * 1e3 / n.max(1) as f64,
                    per_commit(&writes, before)
                ),
                &m,
                "raw write tx",
                m.rate() / raw.rate(),
            );
            m.rate() / raw.rate()
        };
        home(&pool);
        ratios.push(during_turns(
            "move one step while a turn ticks over 100,000 companies every 0.7 s",
            &moves,
        ));
        // The same, on the world whose turn is being applied: an order there waits for the turn.
        let movers = {
            let mut conn = pool.get().expect("connection");
            big_movers(&mut conn, big_world)
        };
        let on_big = |i: usize| -> Vec<Vec<u8>> {
            let mine = movers.iter().skip(i * PER_MOVER).take(PER_MOVER);
            mine.flat_map(|(id, x, y, token)| {
                let (path, auth) = (
                    format!("/api/v1/companies/{id}/move"),
                    format!("Authorization: Bearer {token}\r\n"),
                );
                [
                    post_json(&path, &auth, &format!("{{\"path\": [[{x}, {}]]}}", y + 1)),
                    post_json(&path, &auth, &format!("{{\"path\": [[{x}, {y}]]}}")),
                ]
            })
            .collect()
        };
        // The first order on a world reads its cells into memory (about a second for its
        // 1,000,000 cells); a server that has been up has them already.
        let mut http = Http::new(&addr);
        for r in on_big(0).iter().take(2) {
            http.send(r).expect("the first order on the big world");
        }
        ratios.push(during_turns(
            "move one step on the world whose turn ticks",
            &on_big,
        ));
        // The same world, no turn, while a cell of it changes four times a second, as a
        // capture does: each change leaves the server's copy of its cells behind. The movers'
        // AP are topped up as often, in place of the turns.
        let changing = Arc::new(AtomicBool::new(true));
        let ids: Vec<String> = movers.iter().map(|m| m.0.to_string()).collect();
        let top_up = format!(
            "UPDATE companies SET ap = 24 WHERE world_id = {big_world} AND id IN ({})",
            ids.join(", ")
        );
        // Each mover back home (the last line stopped some a step south), its AP topped up.
        let homes: String = movers
            .iter()
            .map(|(id, x, y, _)| format!("UPDATE companies SET x = {x}, y = {y} WHERE id = {id};"))
            .collect();
        grognard::db::write(&mut pool.get().expect("connection"), |c| {
            c.batch_execute(&homes)?;
            c.batch_execute(&top_up)
        })
        .expect("movers home");
        let changer = {
            let (pool, changing) = (pool.clone(), changing.clone());
            std::thread::spawn(move || {
                let mut conn = pool.get().expect("connection");
                let mut n = 0u32;
                while changing.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(250));
                    let change = format!(
                        "UPDATE cells SET terrain = CASE terrain WHEN 'plain' THEN 'forest' ELSE 'plain' END \
                         WHERE world_id = {big_world} AND x = 999 AND y = 999"
                    );
                    // As the server writes: in turn with its orders, for SQLite's one writer.
                    for sql in [&change, &top_up] {
                        grognard::db::write(&mut conn, |c| c.batch_execute(sql))
                            .expect("change a cell, top up AP");
                    }
                    n += 1;
                }
                n
            })
        };
        let m = load(&addr, dur, on_big);
        changing.store(false, Ordering::Relaxed);
        let n = changer.join().expect("changer");
        row(
            &format!(
                "move one step on that world while a cell of it changes every 0.25 s ({n} changes)"
            ),
            &m,
            "raw write tx",
            m.rate() / raw.rate(),
        );
        ratios.push(m.rate() / raw.rate());
    }
    actix_web::rt::System::new().block_on(handle.stop(false));
    ratios
}

/// Applies a turn to `world` every 0.7 s while `ticking`; answers how many and how long they took.
fn tick_every(
    pool: &Pool,
    config: &Arc<Config>,
    world: i32,
    ticking: Arc<AtomicBool>,
) -> std::thread::JoinHandle<(u32, Duration)> {
    let (pool, cfg) = (pool.clone(), config.clone());
    std::thread::spawn(move || {
        let mut conn = pool.get().expect("connection");
        let (mut n, mut busy) = (0, Duration::ZERO);
        // Each run goes on from a later instant than any before: a tick is applied once.
        static AT: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(1_000_000);
        while ticking.load(Ordering::Relaxed) {
            // A turn a second: far more often than any schedule, to catch its effect.
            std::thread::sleep(Duration::from_millis(700));
            let t = Instant::now();
            let at = AT.fetch_add(1, Ordering::Relaxed);
            ticks::apply(
                &mut conn,
                &cfg.rules,
                WorldId(world),
                TickKind::Turn,
                at,
                false,
            )
            .expect("tick");
            busy += t.elapsed();
            n += 1;
        }
        (n, busy)
    })
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let want = |b: &str| args.is_empty() || args.iter().any(|a| a == b);
    let mut results = Vec::new();
    if want("sqlite") {
        results.push(("SQLite", run(Backend::Sqlite)));
    }
    if want("postgres") {
        results.push(("PostgreSQL", run(Backend::Postgres)));
    }
    if let [(_, s), (_, p)] = &results[..] {
        println!(
            "\nPostgreSQL against SQLite, ratio by ratio (world, map, company, move): {}",
            s.iter()
                .zip(p)
                .map(|(a, b)| format!("{:.2}", b / a))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}
