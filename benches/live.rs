//! Live streams benchmark: 10,000 streams held open by one `serve` process (the release binary,
//! a child of this one) on a world where their players all play, while a turn ticks.
//!
//! It builds a 200×200 generated world with 2,500 players in two nations, one company each,
//! and opens four streams per player (the default limit per user) from this process: plain
//! sockets on a tokio runtime, each reading its stream's events. It prints:
//! - the time from the turn's order (a game master's `POST /ticks`, answered once the turn is
//!   committed) to each stream's `turn` event, p50, p99 and the last; and the tick's own time,
//!   which the order's answer reports;
//! - the server's resident memory per idle stream (its `VmRSS` before and after the streams
//!   opened, over their count);
//! - a read line (`GET /api/v1/worlds/{w}`, 16 keep-alive connections) without the streams and
//!   with them open, and its ratio: the same requests, the same process, the same run.
//!
//! `cargo bench --bench live` (`-- postgres` for PostgreSQL, in a throwaway cluster or on
//! `GROGNARD_TEST_PG_URL`; `GROGNARD_BENCH_STREAMS` sets the streams, 10,000 by default). The
//! open-files limit must allow the streams on both sides (`ulimit -n` 20,000 does).

use db::{Backend, TestDb};
use diesel::connection::SimpleConnection;
use grognard::config::{Config, Settings};
use grognard::db::DbConnection;
use grognard::game::accounts::{self, tokens, Role};
use grognard::game::maps::generate::{self, Options};
use grognard::game::maps::{cells, worlds};
use grognard::game::play::{self, access::Actor};
use grognard_testkit as db;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::Mutex;

const SIDE: i32 = 200;
const PLAYERS: usize = 2500;
const PER_PLAYER: usize = 4;

fn config_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config")
}

fn streams() -> usize {
    std::env::var("GROGNARD_BENCH_STREAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PLAYERS * PER_PLAYER)
}

/// The world: its id, each player's token, a game master's token.
struct World {
    id: i32,
    tokens: Vec<String>,
    gm: String,
}

fn build(conn: &mut DbConnection, config: &Config, players: usize) -> World {
    let rs = &config.rules;
    let map = generate::generate(
        rs,
        &Options {
            width: SIDE,
            height: SIDE,
            seed: 5,
            nations: 2,
            name: Some("Live".into()),
            grid: grognard::rules::Grid::Square,
        },
    )
    .expect("generate");
    let valid = map.validate(rs).expect("valid map");
    let wid = worlds::import(conn, &valid, None).expect("import");
    conn.batch_execute(&format!(
        "UPDATE worlds SET victory_points = 1000000000000 WHERE id = {}",
        wid.0
    ))
    .expect("endless");
    let nations = worlds::nations_of(conn, wid).expect("nations");
    for n in &nations {
        conn.batch_execute(&format!(
            "UPDATE nations SET treasury = 1000000000 WHERE id = {}",
            n.id
        ))
        .expect("treasury");
    }
    let mut plain = Vec::new();
    for c in cells::all_cells(conn, wid).expect("cells") {
        if c.terrain == grognard::rules::Terrain::Plain
            && c.town_id.is_none()
            && c.owner_id.is_none()
            && c.x % 2 == 0
            && c.y % 2 == 0
        {
            plain.push((c.x, c.y));
        }
    }
    assert!(plain.len() >= players, "not enough plain cells");
    let stride = plain.len() / players;
    let hash = accounts::hash_password("bench password 1").expect("hash");
    let mut tokens_of = Vec::with_capacity(players);
    let mut used = HashSet::new();
    for i in 0..players {
        conn.batch_execute(&format!(
            "INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES ('live{i}', 'live{i}', '{hash}', '{}', FALSE, 0)",
            Role::Player.as_str()
        ))
        .expect("user");
        let user = accounts::find_by_name(conn, &format!("live{i}"))
            .expect("find")
            .expect("user");
        let actor = Actor::of(&user);
        play::join(conn, &actor, wid, &nations[i % nations.len()].name).expect("join");
        let c = play::raise(conn, rs, &actor, wid, "infantry", &format!("L{i}")).expect("raise");
        let (x, y) = plain[i * stride];
        assert!(used.insert((x, y)));
        conn.batch_execute(&format!(
            "UPDATE companies SET x = {x}, y = {y}, ap = 0 WHERE id = {}",
            c.id
        ))
        .expect("place");
        tokens_of.push(tokens::create(conn, user.id, "bench").expect("token").1);
    }
    conn.batch_execute(&format!(
        "INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES ('livegm', 'livegm', '{hash}', '{}', FALSE, 0)",
        Role::Gm.as_str()
    ))
    .expect("gm");
    let gm = accounts::find_by_name(conn, "livegm").unwrap().unwrap();
    World {
        id: wid.0,
        tokens: tokens_of,
        gm: tokens::create(conn, gm.id, "bench").expect("token").1,
    }
}

/// The server's resident memory, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// One stream: opened, its first burst read; then each `turn` event's arrival is recorded.
async fn hold(addr: String, path: String, token: String, turns: Arc<Mutex<Vec<Instant>>>) {
    let mut socket = loop {
        match TcpStream::connect(&addr).await {
            Ok(s) => break s,
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    };
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.expect("send");
    let mut reader = BufReader::new(socket);
    let mut line = String::new();
    let mut ready = false;
    loop {
        line.clear();
        match reader.read_line(&mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if !ready && line.starts_with("HTTP/1.1 ") && !line.contains(" 200 ") {
            panic!("stream refused: {line}");
        }
        if line.starts_with("event: turn") {
            if ready {
                turns.lock().await.push(Instant::now());
            }
        } else if line.starts_with("event: message") {
            ready = true;
            READY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

static READY: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// One request on a keep-alive connection; the answer read whole (Content-Length).
async fn ask(
    reader: &mut BufReader<TcpStream>,
    request: &[u8],
) -> Result<(u16, String), std::io::Error> {
    reader.get_mut().write_all(request).await?;
    let mut line = String::new();
    reader.read_line(&mut line).await?;
    let status: u16 = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut len = 0usize;
    loop {
        line.clear();
        reader.read_line(&mut line).await?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            len = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; len];
    reader.read_exact(&mut body).await?;
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}

/// Requests a second of `GET path` over 16 keep-alive connections for `dur`.
async fn load(addr: &str, path: &str, token: &str, dur: Duration) -> f64 {
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n\r\n")
            .into_bytes();
    let end = Instant::now() + dur;
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let (addr, request) = (addr.to_string(), request.clone());
        tasks.push(tokio::spawn(async move {
            let mut reader = BufReader::new(TcpStream::connect(&addr).await.expect("connect"));
            let mut n = 0u64;
            while Instant::now() < end {
                let (status, _) = ask(&mut reader, &request).await.expect("answer");
                assert_eq!(status, 200);
                n += 1;
            }
            n
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t.await.unwrap();
    }
    total as f64 / dur.as_secs_f64()
}

fn run(backend: Backend) {
    let n_streams = streams();
    let players = n_streams.div_ceil(PER_PLAYER).max(2);
    let db = TestDb::new(backend);
    let mut settings = Settings::load(&config_dir(), None, Some(&db.url)).expect("settings");
    settings.scheduler.enabled = false;
    let config = Config::with_settings(&config_dir(), settings).expect("config");
    let pool = grognard::commands::open(&config).expect("pool");
    let started = Instant::now();
    let world = build(&mut pool.get().unwrap(), &config, players);
    println!(
        "{backend:?}: world of {players} players built in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    drop(pool);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // `GROGNARD_BENCH_WRAP="heaptrack -o /tmp/live"` (or `perf record -g`) runs the server
    // under a profiler.
    let wrap = std::env::var("GROGNARD_BENCH_WRAP").unwrap_or_default();
    let mut wrap = wrap.split_whitespace();
    let mut server = match wrap.next() {
        Some(program) => {
            let mut c = std::process::Command::new(program);
            c.args(wrap).arg(env!("CARGO_BIN_EXE_grognard"));
            c
        }
        None => std::process::Command::new(env!("CARGO_BIN_EXE_grognard")),
    };
    let mut server = server
        .arg("--config")
        .arg(config_dir())
        .arg("serve")
        .env("DATABASE_URL", &db.url)
        .env("GROGNARD__SERVER__BIND", format!("127.0.0.1:{port}"))
        .env("GROGNARD__SCHEDULER__ENABLED", "false")
        .env("GROGNARD__SERVER__MAX_CONNECTIONS", "50000")
        .env("RUST_LOG", "warn")
        .spawn()
        .expect("serve");
    let addr = format!("127.0.0.1:{port}");
    while std::net::TcpStream::connect(&addr).is_err() {
        std::thread::sleep(Duration::from_millis(100));
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let w = world.id;
    let read_path = format!("/api/v1/worlds/{w}");
    let secs = Duration::from_secs(5);
    rt.block_on(async {
        // Warm: the first requests read the world's cells.
        load(&addr, &read_path, &world.tokens[0], Duration::from_secs(1)).await;
        let without = load(&addr, &read_path, &world.tokens[0], secs).await;
        let rss_before = rss_kib(server.id());
        let turns = Arc::new(Mutex::new(Vec::new()));
        let opened = Instant::now();
        for i in 0..n_streams {
            let token = world.tokens[i / PER_PLAYER].clone();
            tokio::spawn(hold(
                addr.clone(),
                format!("/api/v1/worlds/{w}/live"),
                token,
                turns.clone(),
            ));
        }
        while READY.load(std::sync::atomic::Ordering::Relaxed) < n_streams {
            assert!(
                opened.elapsed() < Duration::from_secs(600),
                "streams open: {}",
                READY.load(std::sync::atomic::Ordering::Relaxed)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        println!(
            "{n_streams} streams open in {:.1} s",
            opened.elapsed().as_secs_f64()
        );
        tokio::time::sleep(Duration::from_secs(2)).await;
        let rss_after = rss_kib(server.id());
        let with = load(&addr, &read_path, &world.tokens[0], secs).await;
        // The turn.
        let mut gm = BufReader::new(TcpStream::connect(&addr).await.unwrap());
        let body = r#"{"kind":"turn"}"#;
        let request = format!(
            "POST /api/v1/worlds/{w}/ticks HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            world.gm,
            body.len()
        );
        let sent = Instant::now();
        let (status, answer) = ask(&mut gm, request.as_bytes()).await.unwrap();
        let answered = Instant::now();
        assert_eq!(status, 201, "{answer}");
        let tick_ms: f64 = serde_json::from_str::<serde_json::Value>(&answer).unwrap()["duration_ms"]
            .as_f64()
            .unwrap_or(0.0);
        while turns.lock().await.len() < n_streams {
            assert!(sent.elapsed() < Duration::from_secs(120), "turn events: {}", turns.lock().await.len());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // From the ask, less the tick's own time: from about its commit (its answer may come
        // after the first events).
        let mut after: Vec<f64> = turns
            .lock()
            .await
            .iter()
            .map(|t| t.saturating_duration_since(sent).as_secs_f64() * 1000.0 - tick_ms)
            .collect();
        after.sort_by(f64::total_cmp);
        let at = |q: f64| after[((after.len() as f64 * q) as usize).min(after.len() - 1)];
        println!(
            "turn → {n_streams} streams' `turn` event, from the tick's commit: p50 {:.0} ms, p99 {:.0} ms, last {:.0} ms (the tick itself: {tick_ms:.0} ms, answered {:.0} ms after it was asked)",
            at(0.5),
            at(0.99),
            after[after.len() - 1],
            answered.duration_since(sent).as_secs_f64() * 1000.0
        );
        println!(
            "server memory: {:.1} MiB without streams, {:.1} MiB with {n_streams}: {:.1} KiB per idle stream",
            rss_before as f64 / 1024.0,
            rss_after as f64 / 1024.0,
            (rss_after.saturating_sub(rss_before)) as f64 / n_streams as f64
        );
        println!(
            "GET /api/v1/worlds/{{w}}: {without:.0} req/s without streams, {with:.0} req/s with {n_streams} open: ratio {:.2}",
            with / without
        );
    });
    let _ = server.kill();
    let _ = server.wait();
    rt.shutdown_timeout(Duration::from_secs(1));
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if args.is_empty() || args.iter().any(|a| a == "sqlite") {
        run(Backend::Sqlite);
    }
    if args.iter().any(|a| a == "postgres") {
        run(Backend::Postgres);
    }
}
