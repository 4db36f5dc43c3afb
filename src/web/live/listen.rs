//! PostgreSQL's side of the live log: a connection of its own `LISTEN`s on the log's channel
//! and wakes this process's reader at each notification (sent by the writing transaction at its
//! commit, by whichever process wrote). Lost, it is opened again, and the reader woken to
//! catch up on what was committed meanwhile.

use crate::db::live::CHANNEL;
use diesel::pg::PgConnection;
use diesel::{Connection, RunQueryDsl};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the connection is looked at for notifications: diesel reads them without
/// blocking (libpq's `PQconsumeInput`), a system call that finds nothing most of the time.
const POLL: Duration = Duration::from_millis(20);
/// A connection quiet this long is asked whether it is still there.
const PING: Duration = Duration::from_secs(30);

pub fn spawn(url: String, stopped: Arc<AtomicBool>) {
    let spawned = std::thread::Builder::new()
        .name("live-listen".into())
        .spawn(move || {
            while !stopped.load(Ordering::Acquire) {
                match PgConnection::establish(&url) {
                    Ok(mut conn) => {
                        if diesel::sql_query(format!("LISTEN {CHANNEL}"))
                            .execute(&mut conn)
                            .is_ok()
                        {
                            // What was committed while no one listened.
                            crate::db::LIVE_COMMITS.notify_one();
                            listen(&mut conn, &stopped);
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "the live streams' listener cannot connect")
                    }
                }
                if !stopped.load(Ordering::Acquire) {
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "the live streams' listener did not start");
    }
}

/// Wakes the reader at each notification until the connection is lost or the server stops.
fn listen(conn: &mut PgConnection, stopped: &AtomicBool) {
    let mut pinged = Instant::now();
    while !stopped.load(Ordering::Acquire) {
        let mut heard = false;
        for n in conn.notifications_iter() {
            match n {
                Ok(_) => heard = true,
                Err(e) => {
                    tracing::warn!(error = %e, "the live streams' listener lost its connection");
                    return;
                }
            }
        }
        if heard {
            crate::db::LIVE_COMMITS.notify_one();
            pinged = Instant::now();
        } else if pinged.elapsed() >= PING {
            if diesel::sql_query("SELECT 1").execute(conn).is_err() {
                return;
            }
            pinged = Instant::now();
        }
        std::thread::sleep(POLL);
    }
}
