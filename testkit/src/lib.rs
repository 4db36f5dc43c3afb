//! Fresh databases for tests: a temporary SQLite file, or a new database in a throwaway
//! PostgreSQL cluster that this harness starts itself (once per test process) on a free port
//! with its own socket directory, or on the server named by `GROGNARD_TEST_PG_URL`.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use grognard::db::DbConnection;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

pub struct TestDb {
    pub url: String,
    pub backend: Backend,
    dir: Option<PathBuf>,
}

impl TestDb {
    pub fn new(backend: Backend) -> TestDb {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        match backend {
            Backend::Sqlite => {
                let dir =
                    std::env::temp_dir().join(format!("grognard-test-{}-{n}", std::process::id()));
                std::fs::create_dir_all(&dir).unwrap();
                TestDb {
                    url: format!("sqlite://{}", dir.join("test.db").display()),
                    backend,
                    dir: Some(dir),
                }
            }
            Backend::Postgres => {
                let server = pg_server();
                let name = format!("grognard_{}_{n}", std::process::id());
                let mut admin =
                    PgConnection::establish(&server.url_for("postgres")).expect("admin connection");
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(&mut admin)
                    .expect("create database");
                TestDb {
                    url: server.url_for(&name),
                    backend,
                    dir: None,
                }
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(d) = &self.dir {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// Runs raw SQL (test set-up), naming the statement when it fails.
pub fn exec(conn: &mut DbConnection, sql: &str) {
    conn.batch_execute(sql)
        .unwrap_or_else(|e| panic!("{e}: {}", &sql[..sql.len().min(200)]));
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// `sql` must select one BIGINT-compatible column named `n`, or be a `SELECT COUNT(*) …`.
pub fn count(conn: &mut DbConnection, sql: &str) -> i64 {
    let sql = if sql.contains(" AS n") {
        sql.to_string()
    } else {
        sql.replacen("COUNT(*)", "COUNT(*) AS n", 1)
    };
    diesel::sql_query(sql)
        .get_result::<Count>(conn)
        .expect("count query")
        .n
}

#[derive(diesel::QueryableByName)]
struct TextRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    t: String,
}

/// `sql` must select one text column named `t`, in one row.
pub fn text(conn: &mut DbConnection, sql: &str) -> String {
    diesel::sql_query(sql)
        .get_result::<TextRow>(conn)
        .expect("text query")
        .t
}

pub struct PgServer {
    /// `postgres://user@host:port/` prefix; a database name completes it.
    base: String,
}

impl PgServer {
    pub fn url_for(&self, db: &str) -> String {
        format!("{}{db}", self.base)
    }
}

fn pg_server() -> &'static PgServer {
    static SERVER: OnceLock<PgServer> = OnceLock::new();
    SERVER.get_or_init(|| match std::env::var("GROGNARD_TEST_PG_URL") {
        Ok(url) if !url.is_empty() => {
            // Keep everything up to the last '/', the database name is ours to choose.
            let cut = url.rfind('/').map_or(url.len(), |i| i + 1);
            PgServer {
                base: url[..cut].to_string(),
            }
        }
        _ => start_cluster(),
    })
}

fn pg_bin_dir() -> PathBuf {
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if dir.join("initdb").exists() {
            return dir;
        }
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path().join("bin"))
                .filter(|p| p.join("initdb").exists())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs.pop()
        .expect("PostgreSQL server binaries (initdb, postgres) are not installed")
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Runs a PostgreSQL binary, as the `postgres` user when we are root (initdb refuses root).
fn pg_command(bin: &Path, args: &[String], as_postgres: bool) -> Command {
    if as_postgres {
        let mut c = Command::new("runuser");
        c.arg("-u").arg("postgres").arg("--").arg(bin).args(args);
        c
    } else {
        let mut c = Command::new(bin);
        c.args(args);
        c
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_cluster() -> PgServer {
    let bin = pg_bin_dir();
    let root = is_root();
    let dir = std::env::temp_dir().join(format!("grognard-pg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("data");
    let sock = dir.join("sock");
    std::fs::create_dir_all(&sock).unwrap();
    if root {
        let ok = Command::new("chown")
            .arg("-R")
            .arg("postgres:postgres")
            .arg(&dir)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "cannot give {} to the postgres user", dir.display());
    }
    let user = if root {
        "postgres".to_string()
    } else {
        std::env::var("USER").unwrap_or_else(|_| "postgres".into())
    };
    let init = pg_command(
        &bin.join("initdb"),
        &[
            "-D".into(),
            data.display().to_string(),
            "-A".into(),
            "trust".into(),
            "-U".into(),
            user.clone(),
            "--no-sync".into(),
            "-E".into(),
            "UTF8".into(),
        ],
        root,
    )
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .output()
    .expect("run initdb");
    assert!(
        init.status.success(),
        "initdb failed: {}",
        String::from_utf8_lossy(&init.stderr)
    );
    let port = free_port();
    let postgres = format!(
        "{} -D {} -p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB",
        bin.join("postgres").display(),
        data.display(),
        sock.display()
    );
    let stop = format!(
        "{} -D {} stop -m immediate",
        bin.join("pg_ctl").display(),
        data.display()
    );
    let (run, stop) = if root {
        (
            format!("runuser -u postgres -- {postgres}"),
            format!("runuser -u postgres -- {stop}"),
        )
    } else {
        (postgres, stop)
    };
    // A watchdog: the cluster lives as long as this test process, then stops and is removed.
    let script = format!(
        "{run} >{log} 2>&1 & pg=$!; while kill -0 {pid} 2>/dev/null && kill -0 $pg 2>/dev/null; do sleep 0.5; done; {stop} >/dev/null 2>&1; wait $pg; rm -rf {dir}",
        log = dir.join("log").display(),
        pid = std::process::id(),
        dir = dir.display()
    );
    // Detached on purpose: the watchdog outlives this process to stop the cluster after it.
    #[allow(clippy::zombie_processes)]
    Command::new("setsid")
        .arg("sh")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start postgres");
    let server = PgServer {
        base: format!("postgres://{user}@127.0.0.1:{port}/"),
    };
    let started = Instant::now();
    loop {
        if PgConnection::establish(&server.url_for("postgres")).is_ok() {
            return server;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "PostgreSQL did not start; see {}",
            dir.join("log").display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
