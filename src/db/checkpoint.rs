//! SQLite's write-ahead log copied back into the database file by a thread of its own.
//!
//! Left to SQLite, the commit that takes the log past its size copies it back itself, under
//! the writer's lock: a tenth of a bots' turn went into those copies and their syncs, and the
//! players' orders waiting behind that commit waited for it too. A passive checkpoint needs
//! neither the writer's lock nor the readers' to stop: it copies what no reader still needs.
//! Writers keep SQLite's own checkpoint as a backstop for a log that grew past
//! [`BACKSTOP_PAGES`] all the same (a reader holding an old snapshot, a checkpoint failing).

use diesel::sqlite::SqliteConnection;
use diesel::Connection;
use diesel::RunQueryDsl;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

/// How often the log is copied back while it grows: often enough that a writer's backstop, when
/// it comes, finds little left to copy and sync (with a pass every 100 ms a bots' turn stalled
/// its writer for 100–150 ms at each backstop, the choosing thread idle meanwhile).
const WHILE_WRITTEN: Duration = Duration::from_millis(20);

/// How often the log is looked at while no one writes.
const WHILE_QUIET: Duration = Duration::from_millis(100);

/// The log's size, in pages, past which a committing writer copies it back itself.
pub const BACKSTOP_PAGES: u32 = 8_000;

/// The log's file is cut back to this size when it starts over (SQLite leaves it at the
/// largest it ever was).
pub const LOG_LIMIT_BYTES: u64 = 64 << 20;

/// The checkpointing thread of a pool: it ends when this is dropped (with the pool).
pub struct Checkpointer {
    _stop: mpsc::Sender<()>,
}

impl std::fmt::Debug for Checkpointer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Checkpointer")
    }
}

impl Checkpointer {
    /// Starts checkpointing the database file at `path` every [`EVERY`] on a connection of its
    /// own; none when the thread cannot start (the writers' backstop still copies the log).
    pub fn start(path: PathBuf) -> Option<Checkpointer> {
        let (stop, stopped) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || run(&path, &stopped))
            .map_err(|e| tracing::warn!(error = %e, "no checkpointing thread"))
            .ok()?;
        Some(Checkpointer { _stop: stop })
    }
}

/// What a passive checkpoint answers: the frames in the log.
#[derive(diesel::QueryableByName)]
struct Pass {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    log: i32,
}

fn run(path: &std::path::Path, stopped: &mpsc::Receiver<()>) {
    let mut conn: Option<SqliteConnection> = None;
    let mut every = WHILE_QUIET;
    // The log's frames at the last pass: they change only when someone wrote since.
    let mut frames = -1;
    // Until the pool is dropped (its end of the channel with it).
    while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
        if conn.is_none() {
            // The file may not exist yet: the pool's first connection creates it.
            if !path.exists() {
                continue;
            }
            conn = SqliteConnection::establish(&path.to_string_lossy()).ok();
        }
        let Some(c) = conn.as_mut() else { continue };
        // A passive checkpoint with nothing to copy only reads the log's index.
        match diesel::sql_query("PRAGMA wal_checkpoint(PASSIVE)").get_result::<Pass>(c) {
            Ok(p) => {
                every = match p.log == frames {
                    true => WHILE_QUIET,
                    false => WHILE_WRITTEN,
                };
                frames = p.log;
            }
            Err(e) => {
                tracing::debug!(error = %e, "checkpoint failed; tried again");
                conn = None;
            }
        }
    }
}
