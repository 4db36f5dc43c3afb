//! Storage: one connection type over SQLite or PostgreSQL (chosen from the URL), the pool,
//! embedded migrations and the write-transaction helper.

pub mod checkpoint;
pub mod direct;
pub mod fixed;
pub mod group;
pub mod live;
pub mod models;
pub mod names;
pub mod quiet;
pub mod schema;

use diesel::connection::{AnsiTransactionManager, SimpleConnection, TransactionManager};
use diesel::pg::PgConnection;
use diesel::r2d2::{self, CustomizeConnection, ManageConnection};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, RunQueryDsl};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// A connection to either backend; every query in the game is written once against it.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Postgres(PgConnection),
    Sqlite(SqliteConnection),
}

impl DbConnection {
    pub fn is_sqlite(&self) -> bool {
        matches!(self, DbConnection::Sqlite(_))
    }

    /// Hand-written statements are written with PostgreSQL's numbered binds (`$1`); SQLite
    /// spells them `?1`.
    pub fn numbered(&self, sql: &str) -> String {
        if self.is_sqlite() {
            sql.replace('$', "?")
        } else {
            sql.to_string()
        }
    }
}

/// Which database a URL names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Target {
    /// `postgres://…` or `postgresql://…` → PostgreSQL; `sqlite://path`, `sqlite:path` or a bare
    /// path → SQLite (`sqlite:///abs` is an absolute path).
    pub fn parse(url: &str) -> Target {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Target::Postgres(url.to_string());
        }
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(url);
        Target::Sqlite(PathBuf::from(path))
    }

    pub fn describe(&self) -> String {
        match self {
            Target::Sqlite(p) => format!("SQLite {}", p.display()),
            Target::Postgres(url) => format!("PostgreSQL {}", redact(url)),
        }
    }
}

/// The URL without its password, for logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &creds[..c], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// Opens connections of the configured backend for r2d2.
pub struct Manager {
    target: Target,
    /// How many lost connections were given back: one lost connection means the others may
    /// be gone too (the server restarted), so every connection given back before it is
    /// tested again before it is lent.
    losses: AtomicU64,
    /// SQLite's log copier, which lives as long as the pool.
    _checkpointer: Option<checkpoint::Checkpointer>,
}

/// A pooled connection, when it was last given back and how many losses the pool knew then.
pub struct Pooled {
    conn: DbConnection,
    returned: Instant,
    losses: u64,
    lost: bool,
}

impl Pooled {
    /// Marks the connection as gone: it is dropped when given back, and the pool tests the
    /// others before it lends them again.
    pub fn mark_lost(&mut self) {
        self.lost = true;
    }
}

impl std::ops::Deref for Pooled {
    type Target = DbConnection;
    fn deref(&self) -> &DbConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Pooled {
    fn deref_mut(&mut self) -> &mut DbConnection {
        &mut self.conn
    }
}

/// A connection given back within this long is lent again without a test query: under load
/// every request would otherwise pay a round trip to the database server for `SELECT 1`
/// (measured on PostgreSQL, three interleaved runs each: `/healthz` +41 %, reads +23–43 %).
/// One that sat idle longer (the database may have restarted meanwhile), or any given back
/// before a lost connection was met, is tested first.
pub const TRUSTED_FOR: Duration = Duration::from_secs(5);

/// Whether a query error means the connection is gone (the server closed it or restarted).
/// Such a connection is not lent again: diesel marks its transaction state broken, which
/// `has_broken` reads when it is given back.
pub fn is_lost(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    matches!(
        e,
        Error::DatabaseError(
            DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
            _
        ) | Error::BrokenTransactionManager
    )
}

/// Whether a query error means SQLite's write lock stayed taken past `busy_timeout` (another
/// process writing: the CLI's tick, a second server): nothing was done, and the same request
/// may be sent again a moment later.
pub fn is_busy(e: &diesel::result::Error) -> bool {
    match e {
        diesel::result::Error::DatabaseError(_, info) => {
            let m = info.message();
            m.contains("database is locked") || m.contains("database is busy")
        }
        _ => false,
    }
}

impl ManageConnection for Manager {
    type Connection = Pooled;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<Pooled, r2d2::Error> {
        match &self.target {
            Target::Postgres(url) => PgConnection::establish(url).map(DbConnection::Postgres),
            Target::Sqlite(path) => {
                SqliteConnection::establish(&path.to_string_lossy()).map(DbConnection::Sqlite)
            }
        }
        .map(|conn| Pooled {
            conn,
            returned: Instant::now(),
            losses: self.losses.load(Ordering::Acquire),
            lost: false,
        })
        .map_err(r2d2::Error::ConnectionError)
    }

    fn is_valid(&self, conn: &mut Pooled) -> Result<(), r2d2::Error> {
        if conn.returned.elapsed() < TRUSTED_FOR
            && conn.losses == self.losses.load(Ordering::Acquire)
        {
            return Ok(());
        }
        conn.batch_execute("SELECT 1")
            .map_err(r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut Pooled) -> bool {
        // A connection returned in the middle of a transaction (a panic), or lost (diesel
        // marks its transaction state broken then), must not be lent again.
        let broken = conn.lost
            || !matches!(
                <DbConnection as Connection>::TransactionManager::transaction_manager_status_mut(
                    &mut conn.conn
                )
                .transaction_depth(),
                Ok(None)
            );
        if broken {
            self.losses.fetch_add(1, Ordering::AcqRel);
        } else {
            conn.returned = Instant::now();
            conn.losses = self.losses.load(Ordering::Acquire);
        }
        broken
    }
}

/// Per-connection settings: SQLite pragmas, PostgreSQL session settings.
#[derive(Debug)]
struct SqlitePragmas {
    busy_timeout_ms: u32,
}

impl CustomizeConnection<Pooled, r2d2::Error> for SqlitePragmas {
    fn on_acquire(&self, conn: &mut Pooled) -> Result<(), r2d2::Error> {
        configure(conn, self.busy_timeout_ms).map_err(r2d2::Error::QueryError)
    }
}

/// The settings every connection of the game starts with.
fn configure(conn: &mut DbConnection, busy_timeout_ms: u32) -> diesel::QueryResult<()> {
    if !conn.is_sqlite() {
        // The game's statements are short or set-based; compiling them costs more than
        // it saves (measured: 180 ms of JIT in a 100,000-company turn).
        conn.batch_execute("SET jit = off")?;
    }
    if conn.is_sqlite() {
        // temp_store: the journals of statements and savepoints inside a transaction are
        // kept in memory; in a file, they were a fifth of a bots' chunk's writes.
        // wal_autocheckpoint and journal_size_limit: the log is copied back by the pool's
        // own thread (`db::checkpoint`); these are the writers' backstop.
        conn.batch_execute(&format!(
            "PRAGMA busy_timeout = {}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = {}; PRAGMA journal_size_limit = {};",
            busy_timeout_ms,
            checkpoint::BACKSTOP_PAGES,
            checkpoint::LOG_LIMIT_BYTES,
        ))?;
    }
    Ok(())
}

#[derive(diesel::QueryableByName)]
struct DatabaseFile {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    file: String,
}

#[derive(diesel::QueryableByName)]
struct Backend {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pid: i32,
    #[diesel(sql_type = diesel::sql_types::Text)]
    started: String,
}

#[derive(diesel::QueryableByName)]
struct Seen {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

/// A connection of its own to the database `conn` is on, set as the pool's are, outside the
/// pool: for work beside `conn` on another thread (a bot's chunk written while its next is
/// given). None when `url`, the configured database, is not the one `conn` is on (a
/// simulation's own file), or cannot be opened.
pub fn sibling(conn: &mut DbConnection, url: &str, busy_timeout_ms: u32) -> Option<DbConnection> {
    let spare = SPARE_SIBLING.lock().ok().and_then(|mut s| s.take());
    if let Some((on, mut other)) = spare {
        if on == url && same_database(conn, &mut other) {
            return Some(other);
        }
    }
    let mut other = match (Target::parse(url), &mut *conn) {
        (Target::Postgres(u), DbConnection::Postgres(_)) => {
            DbConnection::Postgres(PgConnection::establish(&u).ok()?)
        }
        (Target::Sqlite(p), DbConnection::Sqlite(c)) => {
            // Opened only if it is the file `conn` is on: opening creates a missing file.
            if std::fs::canonicalize(&p).ok() != sqlite_file(c) {
                return None;
            }
            DbConnection::Sqlite(SqliteConnection::establish(&p.to_string_lossy()).ok()?)
        }
        _ => return None,
    };
    configure(&mut other, busy_timeout_ms).ok()?;
    same_database(conn, &mut other).then_some(other)
}

/// The sibling connection last given back, and the URL it was opened on: the next bot turn
/// writes on a server process whose statements are prepared and whose caches are warm,
/// instead of starting one (on PostgreSQL a new process, which plans every statement again).
static SPARE_SIBLING: std::sync::Mutex<Option<(String, DbConnection)>> =
    std::sync::Mutex::new(None);

/// Gives back a [`sibling`] of `url` whose work ended well, for the next one (not when it is
/// left in a transaction or broken).
pub fn keep_sibling(url: &str, mut other: DbConnection) {
    let clean = matches!(
        Tm::transaction_manager_status_mut(&mut other).transaction_depth(),
        Ok(None)
    );
    if !clean {
        return;
    }
    if let Ok(mut spare) = SPARE_SIBLING.lock() {
        *spare = Some((url.to_string(), other));
    }
}

/// The file a SQLite connection is on; none in memory (never another connection's).
fn sqlite_file(c: &mut SqliteConnection) -> Option<PathBuf> {
    let list: Vec<DatabaseFile> = diesel::sql_query("PRAGMA database_list").load(c).ok()?;
    let main = list.into_iter().find(|d| d.name == "main")?;
    (!main.file.is_empty())
        .then(|| std::fs::canonicalize(&main.file).ok())
        .flatten()
}

/// Whether two connections are on the same database: SQLite's same file; PostgreSQL's other
/// connection seeing the first's backend in its own database.
fn same_database(a: &mut DbConnection, b: &mut DbConnection) -> bool {
    match (a, b) {
        (DbConnection::Sqlite(a), DbConnection::Sqlite(b)) => {
            matches!((sqlite_file(a), sqlite_file(b)), (Some(x), Some(y)) if x == y)
        }
        (DbConnection::Postgres(a), DbConnection::Postgres(b)) => {
            let me: Option<Backend> = diesel::sql_query(
                "SELECT pid, backend_start::text AS started FROM pg_stat_activity \
                 WHERE pid = pg_backend_pid()",
            )
            .get_result(a)
            .ok();
            let Some(me) = me else { return false };
            let seen: Option<Seen> = diesel::sql_query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1 \
                 AND backend_start::text = $2 AND datname = current_database()",
            )
            .bind::<diesel::sql_types::Integer, _>(me.pid)
            .bind::<diesel::sql_types::Text, _>(me.started)
            .get_result(b)
            .ok();
            seen.is_some_and(|s| s.n == 1)
        }
        _ => false,
    }
}

pub type Pool = r2d2::Pool<Manager>;
pub type PooledConn = r2d2::PooledConnection<Manager>;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database {target}: {message}")]
    Open { target: String, message: String },
    #[error("migrations failed: {0}")]
    Migrate(String),
}

/// Opens a pool on `url` (creating the SQLite file's directory if needed), waiting up to
/// 10 s for a free connection.
pub fn open_pool(url: &str, size: u32, busy_timeout_ms: u32) -> Result<Pool, DbError> {
    open_pool_waiting(url, size, busy_timeout_ms, 10_000)
}

/// `open_pool`, waiting at most `wait_ms` for a free connection before giving up.
pub fn open_pool_waiting(
    url: &str,
    size: u32,
    busy_timeout_ms: u32,
    wait_ms: u64,
) -> Result<Pool, DbError> {
    let target = Target::parse(url);
    let described = target.describe();
    if let Target::Sqlite(path) = &target {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| DbError::Open {
                target: described.clone(),
                message: e.to_string(),
            })?;
        }
    }
    let checkpointer = match &target {
        Target::Sqlite(path) => checkpoint::Checkpointer::start(path.clone()),
        Target::Postgres(_) => None,
    };
    r2d2::Pool::builder()
        .max_size(size)
        .connection_timeout(Duration::from_millis(wait_ms.max(1)))
        .connection_customizer(Box::new(SqlitePragmas { busy_timeout_ms }))
        .build(Manager {
            target,
            losses: AtomicU64::new(0),
            _checkpointer: checkpointer,
        })
        .map_err(|e| DbError::Open {
            target: described,
            message: e.to_string(),
        })
}

/// Runs the pending migrations of the connection's backend; a no-op when all have run.
pub fn migrate(conn: &mut DbConnection) -> Result<usize, DbError> {
    let applied = match conn {
        DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        DbConnection::Postgres(c) => c
            .run_pending_migrations(POSTGRES_MIGRATIONS)
            .map(|v| v.len()),
    };
    applied.map_err(|e| DbError::Migrate(e.to_string()))
}

/// SQLite admits one writer at a time. Writers of this process queue here rather than in
/// SQLite's busy handler, which sleeps in steps of up to 100 ms and, with a few dozen orders
/// at once, made most of them wait far longer than the writes in front of them took.
/// (`busy_timeout` still covers writers in other processes: the CLI, a second server.)
static SQLITE_WRITER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// This process's writers waiting for [`SQLITE_WRITER`].
static SQLITE_WAITING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

type Tm = <DbConnection as Connection>::TransactionManager;

/// Takes this process's turn as SQLite's writer and opens a write transaction on `c`
/// (`BEGIN IMMEDIATE`, so two writers never deadlock upgrading read locks). The transaction
/// must end before the guard is dropped.
fn begin_sqlite_write(
    c: &mut SqliteConnection,
) -> diesel::QueryResult<std::sync::MutexGuard<'static, ()>> {
    SQLITE_WAITING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let guard = SQLITE_WRITER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    SQLITE_WAITING.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")?;
    Ok(guard)
}

/// Ends the transaction level just opened on `conn` with `f`'s outcome: commits it on `Ok`,
/// rolls it back on `Err` or on a panic, which is handed back for the caller to carry on with
/// (a panic undoes what it wrote too, and leaves the connection fit for the next write).
fn end_level<T, E, F>(
    conn: &mut DbConnection,
    f: F,
) -> Result<Result<T, E>, Box<dyn std::any::Any + Send>>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(conn)));
    Ok(match outcome {
        Ok(Ok(v)) => match Tm::commit_transaction(conn) {
            Ok(()) => Ok(v),
            Err(e) => {
                let _ = Tm::rollback_transaction(conn);
                Err(e.into())
            }
        },
        // The closure's error is the one worth reporting; a failed rollback leaves the
        // connection marked broken and the pool discards it.
        Ok(Err(e)) => {
            let _ = Tm::rollback_transaction(conn);
            Err(e)
        }
        Err(p) => {
            let _ = Tm::rollback_transaction(conn);
            return Err(p);
        }
    })
}

/// Runs `f` in one write transaction: `BEGIN IMMEDIATE` on SQLite, a plain `BEGIN` on
/// PostgreSQL. Commits on `Ok`, rolls back on `Err` or a panic. Nested calls run inside the
/// outer transaction.
pub fn write<T, E, F>(conn: &mut DbConnection, f: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    let depth = Tm::transaction_manager_status_mut(conn)
        .transaction_depth()
        .map_err(E::from)?;
    if depth.is_some() {
        return f(conn);
    }
    // Held until the transaction ends, whichever way.
    let _writer = match conn {
        DbConnection::Sqlite(c) => Some(begin_sqlite_write(c)?),
        DbConnection::Postgres(c) => {
            AnsiTransactionManager::begin_transaction(c)?;
            None
        }
    };
    let ended = end_level(conn, f);
    transaction_ended(matches!(ended, Ok(Ok(_))));
    ended.unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// Runs `f` in a savepoint of the open transaction (a transaction of its own outside one): an
/// `Err` undoes what `f` wrote and nothing else. For work that goes on after a refusal, such as
/// a bot giving its companies' orders one after another in one transaction.
pub fn savepoint<T, E, F>(conn: &mut DbConnection, f: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    if !in_transaction(conn) {
        return write(conn, f);
    }
    Tm::begin_transaction(conn).map_err(E::from)?;
    end_level(conn, f).unwrap_or_else(|p| std::panic::resume_unwind(p))
}

thread_local! {
    /// This thread's open transaction wrote to the live log (`db::live`).
    static ANNOUNCED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Woken after each commit that wrote to the live log in this process: the live streams read
/// the log then (on PostgreSQL a `NOTIFY` says the same to every process).
pub static LIVE_COMMITS: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Says that the current transaction wrote to the live log: its commit wakes [`LIVE_COMMITS`].
pub fn announce_on_commit() {
    ANNOUNCED.set(true);
}

/// The transaction of this thread ended: a committed announcement wakes the streams' reader.
pub(crate) fn transaction_ended(committed: bool) {
    if ANNOUNCED.take() && committed {
        LIVE_COMMITS.notify_one();
    }
}

/// Whether `conn` is inside a transaction, where `write` runs its work in the outer one.
/// Between the chunks of a long write (a turn's, a bot's), each of which held SQLite's writer
/// for `held`: leaves the writer for a quarter of that time to this process's writers waiting
/// for it. A thread taking the mutex straight back would keep it to itself (p99 of orders
/// during a turn 190–240 ms without the pause, 35–41 ms with it); with no one waiting there is
/// no one to leave it to (a second process's writer has `busy_timeout`). PostgreSQL queues its
/// locks' waiters in turn, and inside a caller's transaction nothing is freed.
pub fn leave_writer(conn: &mut DbConnection, held: std::time::Duration) {
    if conn.is_sqlite()
        && !in_transaction(conn)
        && SQLITE_WAITING.load(std::sync::atomic::Ordering::Relaxed) > 0
    {
        std::thread::sleep(held / 4);
    }
}

pub fn in_transaction(conn: &mut DbConnection) -> bool {
    Tm::transaction_manager_status_mut(conn)
        .transaction_depth()
        .is_ok_and(|d| d.is_some())
}

/// Whether the database answers.
pub fn ping(conn: &mut DbConnection) -> bool {
    diesel::sql_query("SELECT 1").execute(conn).is_ok()
}

/// Seconds since the UNIX epoch.
/// Inside a transaction, waits for any other transaction holding `key` (released at its end):
/// on PostgreSQL an advisory lock on the key's hash; SQLite's single writer serializes write
/// transactions already.
pub fn serialize_on(conn: &mut DbConnection, key: &str) -> diesel::QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext($1))")
            .bind::<diesel::sql_types::Text, _>(key)
            .execute(pg)?;
    }
    Ok(())
}

pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_scheme_chooses_the_backend() {
        assert_eq!(
            Target::parse("sqlite://data/g.db"),
            Target::Sqlite("data/g.db".into())
        );
        assert_eq!(
            Target::parse("sqlite:///var/g.db"),
            Target::Sqlite("/var/g.db".into())
        );
        assert_eq!(Target::parse("g.db"), Target::Sqlite("g.db".into()));
        assert_eq!(
            Target::parse("postgres://u@h/db"),
            Target::Postgres("postgres://u@h/db".into())
        );
        assert_eq!(
            Target::parse("postgresql://u@h/db"),
            Target::Postgres("postgresql://u@h/db".into())
        );
    }

    #[test]
    fn passwords_are_kept_out_of_logs() {
        assert_eq!(
            redact("postgres://bob:secret@host/db"),
            "postgres://bob:***@host/db"
        );
        assert_eq!(redact("postgres://bob@host/db"), "postgres://bob@host/db");
    }
}
