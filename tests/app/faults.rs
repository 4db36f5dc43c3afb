//! Faults: the database going away in the middle of a load run and of a turn (a PostgreSQL
//! restart on a cluster of the test's own; on SQLite another process holding the write
//! lock), slow clients, and a flood of requests past what the server can take.

use crate::both;
use crate::support::db::{OwnCluster, TestDb};
use crate::support::fixtures::*;
use crate::support::{Backend, Client, TestApp};
use serde_json::json;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A cluster of the test's own, or why the test cannot have one (printed).
fn own_cluster(part: &str) -> Option<OwnCluster> {
    match OwnCluster::start() {
        Ok(c) => Some(c),
        Err(why) => {
            println!("skipped {part}: {why}");
            None
        }
    }
}

/// What the database going away looks like on each backend: a PostgreSQL server stopped and
/// started again, or on SQLite (which has no server) another process holding the write lock.
enum Away {
    Postgres(OwnCluster),
    Sqlite(String),
    /// A PostgreSQL server the test must not stop.
    Never,
}

impl Away {
    /// Takes the database away for `long`, then brings it back; `gone` is called once it is
    /// away.
    fn for_a_while(&self, long: Duration, gone: impl FnOnce()) {
        match self {
            Away::Postgres(cluster) => {
                cluster.stop();
                gone();
                std::thread::sleep(long);
                cluster.start_again();
            }
            Away::Sqlite(path) => {
                use diesel::connection::SimpleConnection;
                use diesel::Connection;
                let mut other = diesel::sqlite::SqliteConnection::establish(path).unwrap();
                // The server's own writer may hold the lock for a moment: wait for it.
                other
                    .batch_execute("PRAGMA busy_timeout = 10000; BEGIN IMMEDIATE")
                    .unwrap();
                gone();
                std::thread::sleep(long);
                other.batch_execute("ROLLBACK").unwrap();
            }
            Away::Never => {
                gone();
                std::thread::sleep(long)
            }
        }
    }
}

/// A server whose database the test can take away, with the settings `tweak` gives.
fn app_with_away(
    b: Backend,
    tweak: impl FnOnce(&mut grognard::config::Settings),
    demo: bool,
) -> (TestApp, Away) {
    let tweak = |s: &mut grognard::config::Settings| {
        // Requests give up on the database quickly, so that the test does not wait long.
        s.database.pool_wait_ms = 1000;
        s.database.busy_timeout_ms = 200;
        tweak(s)
    };
    match b {
        Backend::Sqlite => {
            let app = TestApp::spawn_with(b, tweak, demo);
            let path = app.db.url.trim_start_matches("sqlite://").to_string();
            (app, Away::Sqlite(path))
        }
        Backend::Postgres => match own_cluster("stopping the PostgreSQL server") {
            Some(cluster) => {
                let app = TestApp::spawn_on(TestDb::on(&cluster), tweak, demo);
                (app, Away::Postgres(cluster))
            }
            None => (TestApp::spawn_with(b, tweak, demo), Away::Never),
        },
    }
}

/// Waits until `ok`, for a minute at most.
fn eventually(what: &str, mut ok: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ok() {
        assert!(started.elapsed() < Duration::from_secs(60), "{what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// One player's orders during the run: each answer's status, and the AP the accepted ones
/// cost as their answers said.
#[derive(Default)]
struct Tally {
    statuses: Vec<u16>,
    accepted_cost: i64,
    unavailable: usize,
    unexpected: Vec<String>,
}

both!(
    a_database_away_in_the_middle_of_a_load_run_loses_no_order,
    |b| {
        let (app, away) = app_with_away(b, |_| {}, true);
        let a = arena_on(app);
        let w = a.world;
        let mut players = vec![a.blue.clone(), a.red.clone()];
        players.push(a.join("blue_two", "Blue"));
        players.push(a.join("red_two", "Red"));
        let mut companies = Vec::new();
        for (i, p) in players.iter_mut().enumerate() {
            let id = a.raise(p, "infantry", &format!("Load {i}"));
            a.put(id, 5, 1 + 2 * i as i32);
            a.set(id, "ap = 1000");
            companies.push(id);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let runs: Vec<_> = players
            .into_iter()
            .zip(companies.iter().copied())
            .enumerate()
            .map(|(i, (mut p, id))| {
                let y = 1 + 2 * i as i32;
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut t = Tally::default();
                    let mut x = 5;
                    while !stop.load(Ordering::SeqCst) {
                        // Back and forth between two cells: the next step depends on the last
                        // answer, so an order lost or applied twice shows in the position.
                        let to = if x == 5 { 6 } else { 5 };
                        let r = p.post_json(
                            &format!("/api/v1/companies/{id}/move"),
                            json!({"to": [to, y]}),
                        );
                        t.statuses.push(r.status);
                        match r.status {
                            200 => {
                                x = to;
                                t.accepted_cost += r.json()["steps"].as_array().map_or(0, |s| {
                                    s.iter().map(|s| s["cost"].as_i64().unwrap()).sum()
                                });
                            }
                            503 if r.header("retry-after").is_some()
                                && r.code() == "unavailable" =>
                            {
                                t.unavailable += 1;
                                // An answer that never came: where did the order end? Ask.
                                let c = p.get_json(&format!("/api/v1/companies/{id}"));
                                if c.status == 200 {
                                    x = c.json()["x"].as_i64().unwrap() as i32;
                                }
                            }
                            _ => t.unexpected.push(format!("{} {}", r.status, r.body)),
                        }
                    }
                    t
                })
            })
            .collect();
        // Rows of their own for the moves: each company's y is fixed by its index.
        for (i, id) in companies.iter().enumerate() {
            assert_eq!(a.position(*id).1, 1 + 2 * i as i32);
        }
        std::thread::sleep(Duration::from_millis(800));
        let mut probe = a.app.client();
        let away_for = Duration::from_secs(2);
        std::thread::scope(|s| {
            let (went, is_away) = std::sync::mpsc::channel();
            let gone = s.spawn(|| away.for_a_while(away_for, move || went.send(()).unwrap()));
            // While it is away, pages and the API answer 503 with Retry-After, never 500.
            is_away.recv_timeout(Duration::from_secs(30)).unwrap();
            if !matches!(away, Away::Never) {
                let page = probe.get(&format!("/worlds/{w}"));
                assert!(
                    page.status == 503 || (b == Backend::Sqlite && page.status == 200),
                    "{}: {}",
                    page.status,
                    page.body
                );
                if page.status == 503 {
                    assert!(page.header("retry-after").is_some());
                }
            }
            gone.join().unwrap();
        });
        // Back: orders go through again without a restart of the server.
        eventually("orders are taken again", || {
            probe.get("/healthz").status == 200
        });
        std::thread::sleep(Duration::from_millis(800));
        stop.store(true, Ordering::SeqCst);
        let tallies: Vec<Tally> = runs.into_iter().map(|r| r.join().unwrap()).collect();
        let unavailable: usize = tallies.iter().map(|t| t.unavailable).sum();
        if !matches!(away, Away::Never) {
            assert!(unavailable > 0, "the database was away for some orders");
        }
        for (t, id) in tallies.iter().zip(&companies) {
            assert!(t.unexpected.is_empty(), "company {id}: {:?}", t.unexpected);
            assert!(
                t.statuses.iter().rev().take(1).all(|s| *s == 200),
                "company {id} takes orders again: {:?}",
                &t.statuses[t.statuses.len().saturating_sub(10)..]
            );
            let spent = 1000
                - a.app.count(&format!(
                    "SELECT CAST(ap AS BIGINT) AS n FROM companies WHERE id = {id}"
                ));
            // Every accepted order is there; none is there twice; an order answered 503 at
            // most once (a commit whose answer the restart cut off).
            assert!(
                spent >= t.accepted_cost,
                "company {id}: an accepted order was lost ({spent} AP spent, {} accepted)",
                t.accepted_cost
            );
            assert!(
                spent <= t.accepted_cost + t.unavailable as i64,
                "company {id}: {spent} AP spent, {} accepted, {} unavailable",
                t.accepted_cost,
                t.unavailable
            );
        }
    }
);

both!(
    a_database_away_in_the_middle_of_a_turn_applies_it_once,
    |b| {
        let (app, away) = app_with_away(
            b,
            |s| {
                s.scheduler.enabled = true;
                s.scheduler.turn = "every 1h".into();
                s.scheduler.poll_ms = 100;
            },
            false,
        );
        let world = wide_world(&app);
        // One turn due: an hour and a little since the world's anchor.
        app.exec(&format!(
            "UPDATE worlds SET schedule_anchor = {} WHERE id = {world}",
            grognard::db::now() - 3600 - 5
        ));
        let third = app.count(&format!(
            "SELECT CAST(MAX(id) AS BIGINT) AS n FROM companies WHERE world_id = {world}"
        )) - 1000;
        let pending_through = |app: &TestApp| {
            app.count(&format!(
                "SELECT CAST(COALESCE(MAX(companies_through), 0) AS BIGINT) AS n FROM ticks \
             WHERE world_id = {world} AND kind = 'turn' AND pending = TRUE"
            ))
        };

        // The turn stops in its middle: its first chunk written, the next held on a company.
        let scheduler;
        match &away {
            Away::Postgres(cluster) => {
                use diesel::connection::SimpleConnection;
                use diesel::Connection;
                let mut holder = diesel::PgConnection::establish(&app.db.url).unwrap();
                holder
                    .batch_execute(&format!(
                        "BEGIN; SELECT id FROM companies WHERE id = {third} FOR UPDATE"
                    ))
                    .unwrap();
                scheduler = grognard::scheduler::start(app.pool.clone(), app.config.clone());
                eventually("the turn's first chunk is written", || {
                    pending_through(&app) > 0
                });
                cluster.stop();
                drop(holder);
                std::thread::sleep(Duration::from_secs(2));
                cluster.start_again();
            }
            Away::Sqlite(_) | Away::Never => {
                // A turn a pass began and could not finish: its first 2,500 companies had it.
                let through = app.count(&format!(
                "SELECT CAST(MIN(id) + 2499 AS BIGINT) AS n FROM companies WHERE world_id = {world}"
            ));
                let last = third + 1000;
                let at = grognard::db::now() - 5;
                app.exec(&format!("INSERT INTO ticks (world_id, kind, scheduled_for, applied_at, pending, companies_through, companies_last) \
                 VALUES ({world}, 'turn', {at}, 0, TRUE, {through}, {last})"));
                app.exec(&format!(
                    "UPDATE companies SET ap = 6 WHERE world_id = {world} AND id <= {through}"
                ));
                scheduler = grognard::scheduler::start(app.pool.clone(), app.config.clone());
                away.for_a_while(Duration::from_secs(2), || {});
            }
        }
        eventually("the turn is finished", || {
            app.count(&format!(
                "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = {world}"
            )) == 1
                && pending_through(&app) == 0
        });
        scheduler.stop();
        // Another pass finds nothing to do.
        assert_eq!(
            grognard::scheduler::run_once(&mut app.conn(), &app.config, grognard::db::now())
                .unwrap(),
            0
        );
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) FROM companies WHERE world_id = {world} AND ap <> 6"
            )),
            0,
            "every company had the turn once"
        );
        assert_eq!(
            app.count(&format!(
                "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = {world}"
            )),
            1
        );
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) FROM ticks WHERE world_id = {world} AND kind = 'turn'"
            )),
            1
        );
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) FROM events WHERE world_id = {world} AND kind = 'turn'"
            )),
            1
        );
        assert_eq!(
            app.count(&format!(
                "SELECT CAST(reserve AS BIGINT) AS n FROM players WHERE world_id = {world}"
            )),
            15
        );
    }
);

both!(
    the_scheduler_comes_back_after_the_database_between_two_passes,
    |b| {
        let (app, away) = app_with_away(
            b,
            |s| {
                s.scheduler.enabled = true;
                s.scheduler.turn = "every 1h".into();
                s.scheduler.poll_ms = 100;
            },
            true,
        );
        // The scheduler idles (no turn due) with its connections in the pool; the database goes
        // away and comes back within the time a connection given back is trusted.
        let scheduler = grognard::scheduler::start(app.pool.clone(), app.config.clone());
        std::thread::sleep(Duration::from_millis(500));
        away.for_a_while(Duration::from_millis(300), || {});
        // Then a turn falls due: the scheduler applies it, without a restart of its own.
        let set_due = format!(
            "UPDATE worlds SET schedule_anchor = {} WHERE id = 1",
            grognard::db::now() - 3600 - 5
        );
        match &away {
            // Through a connection of the test's own: the pool's may be the ones lost.
            Away::Postgres(_) => {
                use diesel::connection::SimpleConnection;
                use diesel::Connection;
                diesel::PgConnection::establish(&app.db.url)
                    .unwrap()
                    .batch_execute(&set_due)
                    .unwrap();
            }
            _ => app.exec(&set_due),
        }
        let turn = || {
            use diesel::Connection;
            let mut conn = match &away {
                Away::Postgres(_) => grognard::db::DbConnection::Postgres(
                    diesel::PgConnection::establish(&app.db.url).unwrap(),
                ),
                _ => return app.count("SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1"),
            };
            crate::support::db::count(
                &mut conn,
                "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1",
            )
        };
        eventually("the scheduler applies the turn", || turn() == 1);
        scheduler.stop();
        assert_eq!(turn(), 1);
    }
);

/// Sends `head` one byte every `gap` on a connection of its own until the server closes it
/// or answers (what it sent back, and true), or until `give_up` (false).
fn trickle(
    addr: &str,
    before: &[u8],
    head: &[u8],
    gap: Duration,
    give_up: Duration,
    started: std::sync::mpsc::Sender<()>,
) -> (String, bool) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    let mut got = Vec::new();
    if !before.is_empty() {
        // A whole request first: the connection is kept alive for the next.
        s.write_all(before).unwrap();
        let started = Instant::now();
        while !String::from_utf8_lossy(&got).contains("\r\n\r\n") {
            let mut buf = [0u8; 4096];
            if let Ok(n) = s.read(&mut buf) {
                got.extend_from_slice(&buf[..n]);
            }
            assert!(started.elapsed() < Duration::from_secs(30), "no answer");
        }
        got.clear();
    }
    let since = Instant::now();
    let mut started = Some(started);
    for byte in head.iter().cycle() {
        if s.write_all(&[*byte]).is_err() {
            return (String::from_utf8_lossy(&got).into_owned(), true);
        }
        // The slow head has begun: the server holds this connection from now on.
        if let Some(tx) = started.take() {
            let _ = tx.send(());
        }
        let mut buf = [0u8; 4096];
        match s.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(n) => {
                got.extend_from_slice(&buf[..n]);
                return (String::from_utf8_lossy(&got).into_owned(), true);
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), true),
        }
        if since.elapsed() > give_up {
            break;
        }
        std::thread::sleep(gap);
    }
    (String::new(), false)
}

both!(slow_clients_do_not_hold_the_server_up, |b| {
    let app = TestApp::spawn_with(
        b,
        |s| {
            // Few workers and a short limit, so that the test is short.
            s.server.workers = 1;
            s.server.client_request_timeout_ms = 1500;
        },
        true,
    );
    let addr = app.base.trim_start_matches("http://").to_string();
    let head =
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let whole = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    std::thread::scope(|s| {
        // Slow clients: a request head one byte every 200 ms, on new connections and on
        // connections that sent a whole request first.
        let (began, beginning) = std::sync::mpsc::channel();
        let slow: Vec<_> = (0..24)
            .map(|i| {
                let addr = addr.clone();
                let began = began.clone();
                s.spawn(move || {
                    let before: &[u8] = if i % 2 == 0 { b"" } else { whole };
                    let give_up = Duration::from_secs(if i % 2 == 0 { 60 } else { 4 });
                    (
                        i,
                        trickle(
                            &addr,
                            before,
                            head,
                            Duration::from_millis(200),
                            give_up,
                            began,
                        ),
                    )
                })
            })
            .collect();
        // Every slow client holds its connection before the others ask.
        for _ in 0..24 {
            beginning.recv_timeout(Duration::from_secs(30)).unwrap();
        }
        // Meanwhile the site answers everyone else, on the one worker it has.
        let mut c = app.client();
        for _ in 0..5 {
            assert_eq!(c.get("/healthz").status, 200);
            assert_eq!(c.get("/worlds/1").status, 200);
        }
        for t in slow {
            let (i, (answer, cut)) = t.join().unwrap();
            if i % 2 == 0 {
                // A new connection's head has its time limit: 408, and the connection closed.
                assert!(cut, "a slow request head is never cut off");
                assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
            }
            // A later request's head on a kept connection is not timed by actix-web (see
            // docs/operations.md): it holds its connection, not a worker, as the answers
            // above show.
        }
    });
});

both!(a_flood_past_capacity_is_shed_with_503, |b| {
    // Two database connections, and a request waits at most 300 ms for one.
    let a = arena_with(b, |s| {
        s.database.pool_size = 2;
        s.database.queue_wait_ms = 300;
        s.database.busy_timeout_ms = 3000;
    });
    let mut blue = a.blue.clone();
    let id = a.raise(&mut blue, "infantry", "Flood");
    a.put(id, 5, 5);
    a.set(id, "ap = 1000");
    // The database is slow to write for a moment: each order holds its connection while it
    // waits (another writer on SQLite; a company's row locked on PostgreSQL).
    use diesel::connection::SimpleConnection;
    use diesel::Connection;
    let mut holder: Box<dyn SimpleConnection> = match b {
        Backend::Sqlite => Box::new(
            diesel::SqliteConnection::establish(a.app.db.url.trim_start_matches("sqlite://"))
                .unwrap(),
        ),
        Backend::Postgres => Box::new(diesel::PgConnection::establish(&a.app.db.url).unwrap()),
    };
    let hold = match b {
        Backend::Sqlite => "BEGIN IMMEDIATE".to_string(),
        Backend::Postgres => format!("BEGIN; SELECT id FROM companies WHERE id = {id} FOR UPDATE"),
    };
    holder.batch_execute(&hold).unwrap();
    let answers: Vec<(u16, Option<String>, String)> = std::thread::scope(|s| {
        let flood: Vec<_> = (0..16)
            .map(|i| {
                let mut c: Client = blue.clone();
                s.spawn(move || {
                    let r = if i % 2 == 0 {
                        c.post_json(
                            &format!("/api/v1/companies/{id}/move"),
                            json!({"to": [6, 5]}),
                        )
                    } else {
                        c.get_json(&format!("/api/v1/companies/{id}"))
                    };
                    (
                        r.status,
                        r.header("retry-after").map(str::to_string),
                        r.body.clone(),
                    )
                })
            })
            .collect();
        // Past the queue's bound, the writer lets go.
        std::thread::sleep(Duration::from_millis(1500));
        holder.batch_execute("ROLLBACK").unwrap();
        flood.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let shed = answers.iter().filter(|(s, _, _)| *s == 503).count();
    assert!(shed >= 1, "{answers:?}");
    for (status, retry, body) in &answers {
        assert!([200, 409, 422, 503].contains(status), "{status} {body}");
        if *status == 503 {
            assert!(retry.is_some(), "{body}");
            assert!(body.contains("\"unavailable\""), "{body}");
        }
    }
    // The server is itself again at once, and the refused orders changed nothing.
    let moved = answers
        .iter()
        .filter(|(s, _, b)| *s == 200 && b.contains("\"steps\""))
        .count();
    let c = a.company(&mut blue, id);
    assert_eq!(c["ap"].as_i64(), Some(1000 - moved as i64), "{c}");
    assert_eq!(c["x"].as_i64(), Some(if moved > 0 { 6 } else { 5 }), "{c}");
});
