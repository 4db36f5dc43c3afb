//! Fresh databases for tests: a temporary SQLite file, or a new database in a throwaway
//! PostgreSQL cluster that this harness starts itself (once per test process) on a free port
//! with its own socket directory, or on the server named by `GROGNARD_TEST_PG_URL`. A test
//! that stops and starts its database server (a restart in the middle of a run) gets a
//! cluster of its own, [`OwnCluster`], so that the other tests' databases stay up.

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

/// User and system processor time of this process so far, all its threads, from
/// `/proc/self/stat` (zero elsewhere): for benches, steadier than the wall clock on a shared
/// machine.
pub fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    // The kernel reports in clock ticks, 100 a second on Linux.
    Duration::from_millis(ticks * 10)
}

impl TestDb {
    /// A new database on a cluster of the test's own.
    pub fn on(cluster: &OwnCluster) -> TestDb {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let name = format!("grognard_{}_{n}", std::process::id());
        let mut admin =
            PgConnection::establish(&cluster.url_for("postgres")).expect("admin connection");
        diesel::sql_query(format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .expect("create database");
        TestDb {
            url: cluster.url_for(&name),
            backend: Backend::Postgres,
            dir: None,
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

/// Makes a cluster's data directory in `dir` (`dir/data`, with `dir/sock` for its socket),
/// owned by the `postgres` user when we are root; returns the binaries' directory, whether we
/// are root and the cluster's superuser.
fn init_cluster(dir: &Path) -> (PathBuf, bool, String) {
    let bin = pg_bin_dir();
    let root = is_root();
    let _ = std::fs::remove_dir_all(dir);
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
    (bin, root, user)
}

/// The shared cluster of the tests and benches. Its shared buffers hold the bots bench's world
/// of 1,000,000 cells with its indexes, as an operator would size them for a world that large
/// (PostgreSQL's own default is 128 MB): with 64 MB each cell a bot took was read from the
/// operating system and a dirty page written out, 29–35 µs a cell against 24–26.
const SHARED_BUFFERS: &str = "512MB";

fn start_cluster() -> PgServer {
    let dir = std::env::temp_dir().join(format!("grognard-pg-{}", std::process::id()));
    let (bin, root, user) = init_cluster(&dir);
    let data = dir.join("data");
    let sock = dir.join("sock");
    let port = free_port();
    let postgres = format!(
        "{} -D {} -p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers={SHARED_BUFFERS}",
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
    // The watchdog outlives this process to stop the cluster after it.
    detached(&script, "start postgres");
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

/// A PostgreSQL cluster of one test's own, which the test may stop and start again on the
/// same port and data (a restart of the database server in the middle of a run). Removed when
/// dropped, or by a watchdog when the test process ends.
pub struct OwnCluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    user: String,
    root: bool,
}

impl OwnCluster {
    /// A new cluster, started; `Err` with the reason when the tests use a server of their own
    /// (`GROGNARD_TEST_PG_URL`), which a test must not stop.
    pub fn start() -> Result<OwnCluster, String> {
        if std::env::var("GROGNARD_TEST_PG_URL").is_ok_and(|u| !u.is_empty()) {
            return Err("GROGNARD_TEST_PG_URL names the PostgreSQL server: a test does not \
                        stop a server it did not start"
                .into());
        }
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("grognard-pg-{}-own-{n}", std::process::id()));
        let (bin, root, user) = init_cluster(&dir);
        let cluster = OwnCluster {
            bin,
            dir,
            port: free_port(),
            user,
            root,
        };
        // The watchdog: stops and removes the cluster after this process, however it ends.
        let stop = cluster.pg_ctl(&["stop", "-m", "immediate"]);
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {stop} >/dev/null 2>&1; rm -rf {dir}",
            pid = std::process::id(),
            dir = cluster.dir.display()
        );
        detached(&script, "start the watchdog");
        cluster.start_again();
        Ok(cluster)
    }

    pub fn url_for(&self, db: &str) -> String {
        format!("postgres://{}@127.0.0.1:{}/{db}", self.user, self.port)
    }

    /// The `pg_ctl` command line (as the `postgres` user when we are root), for `sh -c`.
    fn pg_ctl(&self, args: &[&str]) -> String {
        let cmd = format!(
            "{} -D {} {}",
            self.bin.join("pg_ctl").display(),
            self.dir.join("data").display(),
            args.join(" ")
        );
        if self.root {
            format!("runuser -u postgres -- {cmd}")
        } else {
            cmd
        }
    }

    fn run(&self, args: &[&str]) {
        let out = Command::new("sh")
            .arg("-c")
            .arg(self.pg_ctl(args))
            .stdin(Stdio::null())
            .output()
            .expect("run pg_ctl");
        assert!(
            out.status.success(),
            "pg_ctl {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Stops the server as an operator's restart does: sessions are ended, transactions in
    /// flight roll back, what was committed stays (`pg_ctl stop -m fast`).
    pub fn stop(&self) {
        self.run(&["stop", "-m", "fast", "-w"]);
    }

    /// Starts the server (again), on the same port and data, and waits until it answers.
    pub fn start_again(&self) {
        let options = format!(
            "\"-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=100 -c shared_buffers=32MB\"",
            self.port,
            self.dir.join("sock").display()
        );
        let log = self.dir.join("log").display().to_string();
        self.run(&["start", "-w", "-t", "60", "-l", &log, "-o", &options]);
        let started = Instant::now();
        while PgConnection::establish(&self.url_for("postgres")).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "PostgreSQL did not start; see {log}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for OwnCluster {
    fn drop(&mut self) {
        let _ = Command::new("sh")
            .arg("-c")
            .arg(self.pg_ctl(&["stop", "-m", "immediate"]))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs a shell script in a session of its own, detached on purpose: it outlives this process
/// to stop and remove what the tests started.
#[allow(clippy::zombie_processes)]
fn detached(script: &str, what: &str) {
    Command::new("setsid")
        .arg("sh")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect(what);
}
