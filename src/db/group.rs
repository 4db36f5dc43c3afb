//! Group commit for SQLite's single writer. At the turn change many players give orders at
//! once, and one at a time each of them paid for its own `BEGIN IMMEDIATE` and commit, and
//! for waking the next writer's thread. Here the orders that arrive while a batch is written
//! wait in a queue; one waiting thread (the leader) then runs the whole queue on its own
//! connection in one transaction, each order in its own savepoint (a refused order undoes
//! only itself), commits once, hands the lead to the first order that queued meanwhile and
//! tells every order of its batch how it ended. An order is answered only after the commit
//! that holds it: nothing is reported done that could still be lost. One [`Group`] per
//! database: its leader writes every order of the queue on its own connection.

use super::{begin_sqlite_write, end_level, DbConnection, Tm};
use diesel::connection::TransactionManager;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use std::any::Any;
use std::collections::VecDeque;
use std::panic;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

/// Orders written in one transaction at most: a leader's own answer waits for its batch.
const BATCH: usize = 32;

/// What a queued order's thread is told.
enum Msg<T, E> {
    Done(Result<T, E>),
    /// The order panicked: the panic goes on in its own thread, as it would have unbatched.
    Panicked(Box<dyn Any + Send>),
    /// Write the queue now.
    Lead,
}

trait Job: Send {
    /// Runs the order in the open transaction, in a savepoint of its own.
    fn run(&mut self, conn: &mut DbConnection);
    /// Tells the order's thread how it ended: its own result once the batch is committed.
    fn finish(self: Box<Self>, committed: &Result<(), String>);
    fn lead(&self);
}

enum Ran<T, E> {
    Waiting,
    Finished(Result<T, E>),
    Panicked(Box<dyn Any + Send>),
}

struct Pending<T, E, F> {
    f: Option<F>,
    ran: Ran<T, E>,
    tx: Sender<Msg<T, E>>,
}

impl<T, E, F> Job for Pending<T, E, F>
where
    T: Send,
    E: Send + From<DieselError>,
    F: FnOnce(&mut DbConnection) -> Result<T, E> + Send,
{
    fn run(&mut self, conn: &mut DbConnection) {
        let Some(f) = self.f.take() else { return };
        if let Err(e) = Tm::begin_transaction(conn) {
            self.ran = Ran::Finished(Err(e.into()));
            return;
        }
        self.ran = match end_level(conn, f) {
            Ok(r) => Ran::Finished(r),
            Err(p) => Ran::Panicked(p),
        };
    }

    fn finish(self: Box<Self>, committed: &Result<(), String>) {
        let msg = match (self.ran, committed) {
            (Ran::Panicked(p), _) => Msg::Panicked(p),
            // Refused orders keep their own answer: they changed nothing either way.
            (Ran::Finished(Err(e)), _) => Msg::Done(Err(e)),
            (Ran::Finished(Ok(v)), Ok(())) => Msg::Done(Ok(v)),
            (Ran::Finished(Ok(_)) | Ran::Waiting, Err(why)) => Msg::Done(Err(failed(why))),
            (Ran::Waiting, Ok(())) => Msg::Done(Err(failed("the order was not run"))),
        };
        // The thread only stops listening once it has its answer.
        let _ = self.tx.send(msg);
    }

    fn lead(&self) {
        let _ = self.tx.send(Msg::Lead);
    }
}

fn failed<E: From<DieselError>>(why: &str) -> E {
    DieselError::DatabaseError(DatabaseErrorKind::Unknown, Box::new(why.to_string())).into()
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Box<dyn Job>>,
    /// A thread is writing a batch, or has been told to.
    leading: bool,
}

/// The orders waiting for one database's writer.
#[derive(Default)]
pub struct Group {
    queue: Mutex<Queue>,
    /// Batches written, and the orders in them (their ratio is the mean batch).
    batches: AtomicU64,
    batched: AtomicU64,
}

/// Batches that were not committed, in any group. Whatever was read inside one (a world's
/// cells after an earlier order of the batch changed them) may never have existed: caches
/// keyed on what a transaction read compare this before trusting what they kept.
static LOST_BATCHES: AtomicU64 = AtomicU64::new(0);

pub fn lost_batches() -> u64 {
    LOST_BATCHES.load(Ordering::Acquire)
}

/// Says that a transaction of several orders, written outside a group (a bot's chunk), was not
/// committed: what was read inside it may never have existed.
pub fn note_lost_batch() {
    LOST_BATCHES.fetch_add(1, Ordering::AcqRel);
}

impl Group {
    /// Runs `f` in a write transaction shared with the orders queued beside it (SQLite,
    /// outside any transaction), or alone as `db::write` does. `f` must use only the
    /// connection it is given, which may be another thread's (of the same database).
    pub fn write<T, E, F>(&self, conn: &mut DbConnection, f: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: Send + 'static + From<DieselError>,
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
    {
        let depth = Tm::transaction_manager_status_mut(conn)
            .transaction_depth()
            .map_err(E::from)?;
        if !conn.is_sqlite() || depth.is_some() {
            return super::write(conn, f);
        }
        let (tx, rx) = channel();
        let lead_now = {
            let mut q = self.queue();
            q.jobs.push_back(Box::new(Pending {
                f: Some(f),
                ran: Ran::Waiting,
                tx,
            }));
            !std::mem::replace(&mut q.leading, true)
        };
        if lead_now {
            self.lead(conn);
        }
        loop {
            match rx.recv() {
                Ok(Msg::Done(r)) => return r,
                Ok(Msg::Panicked(p)) => panic::resume_unwind(p),
                Ok(Msg::Lead) => self.lead(conn),
                Err(_) => return Err(failed("the order's batch was lost")),
            }
        }
    }

    /// Writes one batch from the front of the queue (this thread's own order is in it), then
    /// passes the lead on.
    fn lead(&self, conn: &mut DbConnection) {
        let begun = match conn {
            DbConnection::Sqlite(c) => begin_sqlite_write(c).map_err(|e| e.to_string()),
            DbConnection::Postgres(_) => Err("group commit is for SQLite".to_string()),
        };
        // Orders that queued while this thread waited for the writer join the batch.
        let mut batch: Vec<Box<dyn Job>> = {
            let mut q = self.queue();
            let n = q.jobs.len().min(BATCH);
            q.jobs.drain(..n).collect()
        };
        let committed = begun.and_then(|_writer| {
            for job in batch.iter_mut() {
                job.run(conn);
            }
            Tm::commit_transaction(conn).map_err(|e| {
                let _ = Tm::rollback_transaction(conn);
                e.to_string()
            })
        });
        super::transaction_ended(committed.is_ok());
        if committed.is_err() {
            LOST_BATCHES.fetch_add(1, Ordering::AcqRel);
        }
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.batched
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        {
            let mut q = self.queue();
            match q.jobs.front() {
                Some(next) => next.lead(),
                None => q.leading = false,
            }
        }
        for job in batch {
            job.finish(&committed);
        }
    }

    /// Batches written since start, and the orders they held.
    pub fn written(&self) -> (u64, u64) {
        (
            self.batches.load(Ordering::Relaxed),
            self.batched.load(Ordering::Relaxed),
        )
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}
