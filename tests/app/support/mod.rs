//! The shared harness: fresh databases, a server on port 0, an HTTP client that keeps cookies.

pub mod client;
pub mod fixtures;
pub mod live;
pub mod openapi;
pub mod receiver;
pub mod smtp;
pub mod uploads;
pub mod webdriver;

pub use client::Client;
pub use fixtures::*;
pub use grognard_testkit as db;
pub use grognard_testkit::Backend;

use grognard::config::{Config, Settings};
use grognard::db::Pool;
use grognard::web::{AppState, Application};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

/// Runs the body once on SQLite and once on PostgreSQL, as two tests named after the backend.
#[macro_export]
macro_rules! both {
    ($name:ident, |$b:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            #[test]
            fn sqlite() {
                let $b = $crate::support::Backend::Sqlite;
                $body
            }
            #[test]
            fn postgres() {
                let $b = $crate::support::Backend::Postgres;
                $body
            }
        }
    };
}

/// The repository's config directory.
pub fn config_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config")
}

/// Default settings for tests: the given database, scheduler off unless a test turns it on.
pub fn settings(url: &str) -> Settings {
    let mut s = Settings::load(&config_dir(), None, Some(url)).expect("settings");
    s.scheduler.enabled = false;
    s.server.workers = 2;
    s.database.pool_size = 6;
    // Tests register many players from one address; the limit has a test of its own.
    s.security.registrations_per_hour = 1000;
    s
}

/// A connection of the app's pool, used as the `DbConnection` it is.
pub struct Conn(grognard::db::PooledConn);

impl std::ops::Deref for Conn {
    type Target = grognard::db::DbConnection;
    fn deref(&self) -> &grognard::db::DbConnection {
        &self.0
    }
}

impl std::ops::DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut grognard::db::DbConnection {
        &mut self.0
    }
}

pub struct TestApp {
    pub base: String,
    pub db: db::TestDb,
    pub pool: Pool,
    pub config: Arc<Config>,
    handle: Option<actix_web::dev::ServerHandle>,
}

impl TestApp {
    /// A server on a fresh database with the demo world (world 1).
    pub fn spawn(backend: Backend) -> TestApp {
        Self::spawn_with(backend, |_| {}, true)
    }

    /// A server on a fresh, empty database.
    pub fn spawn_empty(backend: Backend) -> TestApp {
        Self::spawn_with(backend, |_| {}, false)
    }

    pub fn spawn_with(backend: Backend, tweak: impl FnOnce(&mut Settings), demo: bool) -> TestApp {
        Self::spawn_on(db::TestDb::new(backend), tweak, demo)
    }

    /// A server on the given database (one on a cluster of the test's own, say).
    pub fn spawn_on(db: db::TestDb, tweak: impl FnOnce(&mut Settings), demo: bool) -> TestApp {
        // Server errors go to the failing test's captured output.
        let _ = tracing_subscriber::fmt()
            .with_env_filter("warn,grognard=info")
            .with_test_writer()
            .try_init();
        let mut s = settings(&db.url);
        tweak(&mut s);
        let config = Arc::new(Config::with_settings(&config_dir(), s).expect("config"));
        let pool = grognard::commands::open(&config).expect("pool");
        if demo {
            let mut conn = pool.get().unwrap();
            grognard::game::maps::worlds::ensure_demo(
                &mut conn,
                &config.rules,
                grognard::game::maps::worlds::DEMO_MAP,
            )
            .unwrap();
        }
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let state = AppState::new(pool.clone(), config.clone()).expect("templates");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let app = Application::build(state, listener).expect("server");
                tx.send((app.port(), app.handle())).unwrap();
                let _ = app.run_until_stopped().await;
            })
        });
        let (port, handle) = rx.recv().expect("server started");
        TestApp {
            base: format!("http://127.0.0.1:{port}"),
            db,
            pool,
            config,
            handle: Some(handle),
        }
    }

    pub fn client(&self) -> Client {
        Client::new(&self.base)
    }

    pub fn conn(&self) -> Conn {
        Conn(self.pool.get().expect("connection"))
    }

    /// Counts rows with a raw SQL `SELECT COUNT(*) …`.
    pub fn count(&self, sql: &str) -> i64 {
        db::count(&mut self.conn(), sql)
    }

    /// Runs raw SQL (test set-up).
    pub fn exec(&self, sql: &str) {
        db::exec(&mut self.conn(), sql)
    }

    /// Reads one text value with a raw SQL `SELECT … AS t`.
    pub fn text(&self, sql: &str) -> String {
        db::text(&mut self.conn(), sql)
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            actix_web::rt::System::new().block_on(h.stop(false));
        }
    }
}

/// A child process that does not outlive a failing test.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until something listens on `port` (a child server), 30 s at most.
pub fn wait_for(port: u16, what: &str) {
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed().as_secs() < 30, "{what} never listened");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// A `grognard serve` process on the database `url`, listening on `port`, its scheduler off,
/// with more settings as environment variables (`GROGNARD__PUSH__POLL_MS`…); killed (SIGKILL)
/// when dropped.
pub fn serve(url: &str, port: u16, env: &[(&str, &str)]) -> KillOnDrop {
    KillOnDrop(
        std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
            .arg("--config")
            .arg(config_dir())
            .arg("serve")
            .env("DATABASE_URL", url)
            .env("GROGNARD__SERVER__BIND", format!("127.0.0.1:{port}"))
            .env("GROGNARD__SCHEDULER__ENABLED", "false")
            .env("GROGNARD__DEMO__BOT", "false")
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("serve"),
    )
}

/// A free local port (bound then released, for a child server).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Runs the `grognard` binary with a database URL; returns (status, stdout, stderr).
pub fn cli(url: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("--config")
        .arg(config_dir())
        .args(args)
        .env("DATABASE_URL", url)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run grognard");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Counts the statements a connection runs from now on.
pub fn counting(
    conn: &mut grognard::db::DbConnection,
) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    use diesel::connection::{Connection, InstrumentationEvent};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let n = std::sync::Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    let count = move |e: InstrumentationEvent<'_>| {
        if matches!(e, InstrumentationEvent::StartQuery { .. }) {
            seen.fetch_add(1, Ordering::SeqCst);
        }
    };
    match conn {
        grognard::db::DbConnection::Sqlite(c) => c.set_instrumentation(count),
        grognard::db::DbConnection::Postgres(c) => c.set_instrumentation(count),
    }
    n
}

/// Keeps the text of every statement a connection runs from now on (`… -- binds: […]`).
pub fn recording(
    conn: &mut grognard::db::DbConnection,
) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
    use diesel::connection::{Connection, InstrumentationEvent};
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = seen.clone();
    let record = move |e: InstrumentationEvent<'_>| {
        if let InstrumentationEvent::StartQuery { query, .. } = e {
            if let Ok(mut v) = keep.lock() {
                v.push(query.to_string());
            }
        }
    };
    match conn {
        grognard::db::DbConnection::Sqlite(c) => c.set_instrumentation(record),
        grognard::db::DbConnection::Postgres(c) => c.set_instrumentation(record),
    }
    seen
}

/// The query plan of a statement as diesel logged it (`… -- binds: [WorldId(2), "n3", 31]`), its
/// parameters put back in as literals, as the database words it.
pub fn plan_of(conn: &mut grognard::db::DbConnection, logged: &str) -> String {
    use diesel::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Sqlite {
        #[diesel(sql_type = diesel::sql_types::Text)]
        detail: String,
    }
    let (sql, binds) = logged
        .split_once(" -- binds: [")
        .expect("a logged statement");
    let binds: Vec<String> = binds
        .trim_end_matches(']')
        .split(", ")
        .map(|b| match b.strip_prefix('"') {
            Some(s) => format!("'{}'", s.trim_end_matches('"')),
            // A typed id is logged as `WorldId(3)`.
            None => b
                .split_once('(')
                .map_or(b, |(_, n)| n.trim_end_matches(')'))
                .to_string(),
        })
        .collect();
    let mut literal = String::new();
    let mut rest = sql;
    let mut i = 0;
    // `?` on SQLite, `$1`, `$2`… on PostgreSQL: in order either way.
    while let Some(at) = rest.find(['?', '$']) {
        literal.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        literal.push_str(&binds[i]);
        i += 1;
        rest = &after[digits..];
    }
    literal.push_str(rest);
    match conn {
        grognard::db::DbConnection::Sqlite(c) => {
            diesel::sql_query(format!("EXPLAIN QUERY PLAN {literal}"))
                .load::<Sqlite>(c)
                .unwrap()
                .into_iter()
                .map(|r| r.detail)
                .collect::<Vec<_>>()
                .join(" | ")
        }
        grognard::db::DbConnection::Postgres(c) => pg_plan(c, &format!("EXPLAIN {literal}")),
    }
}

/// A line of PostgreSQL's `EXPLAIN`.
#[derive(diesel::QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
    line: String,
}

fn pg_plan(c: &mut diesel::PgConnection, explain: &str) -> String {
    use diesel::RunQueryDsl;
    diesel::sql_query(explain)
        .load::<PlanLine>(c)
        .unwrap()
        .into_iter()
        .map(|r| r.line)
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The plan PostgreSQL makes for a statement as diesel logged it when prepared, for any values
/// of its parameters (as a server's prepared statement comes to), with scans ruled out: its
/// parameters, `params`, only run it.
pub fn generic_plan_of(c: &mut diesel::PgConnection, logged: &str, params: &str) -> String {
    use diesel::RunQueryDsl;
    let sql = logged
        .split_once(" -- binds:")
        .expect("a logged statement")
        .0;
    for s in [
        "SET plan_cache_mode = force_generic_plan",
        "SET enable_seqscan = off",
        &format!("PREPARE planned AS {sql}"),
    ] {
        diesel::sql_query(s).execute(c).unwrap();
    }
    let plan = pg_plan(c, &format!("EXPLAIN EXECUTE planned({params})"));
    for s in [
        "DEALLOCATE planned",
        "RESET plan_cache_mode",
        "RESET enable_seqscan",
    ] {
        diesel::sql_query(s).execute(c).unwrap();
    }
    plan
}
