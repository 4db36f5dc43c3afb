//! The server as an operator runs it: health and metrics, the demo world on first start, a bad
//! config refused, lost connections replaced, gzip, concurrent writes and a busy database.

use crate::both;
use crate::support::fixtures::*;
use crate::support::{cli, db::TestDb, free_port, Backend, KillOnDrop, TestApp};

both!(healthz_checks_the_database, |b| {
    let app = TestApp::spawn(b);
    let r = app.client().get("/healthz");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["database"], "ok");
});

both!(home_and_world_pages_render_the_demo_map, |b| {
    let app = TestApp::spawn(b);
    let mut c = app.client();
    let home = c.get("/");
    assert_eq!(home.status, 200);
    assert!(home.body.contains("Borodino"));
    assert!(home.body.contains("/worlds/1"));
    // A visitor's landing page shows the game: the demo's map, drawn as the world page draws
    // it (its towns, its nations' ground), leading to it.
    let figure = &home.body[home
        .body
        .find("<figure class=\"preview\">")
        .expect("a picture")..];
    let figure = &figure[..figure.find("</figure>").unwrap()];
    assert!(figure.contains("<a href=\"/worlds/1\"><svg class=\"map preview-map\""));
    assert!(figure.contains("aria-label=\"The map of Borodino, as it stands now\""));
    assert!(figure.contains("class=\"town-label\""));
    assert!(figure.contains("<g class=\"cell "));
    assert!(
        !figure.contains("id=\"map\""),
        "not the world page's map, which scripts drive"
    );
    let page = c.get("/worlds/1");
    assert_eq!(page.status, 200);
    // Plain ground is one pattern under the view; every other cell is drawn on its own.
    assert!(page
        .body
        .contains("<rect class=\"ground\" fill=\"url(#ground)\""));
    assert_eq!(
        page.body.matches("<g class=\"cell ").count() as i64,
        app.count(
            "SELECT COUNT(*) FROM cells WHERE world_id = 1 AND (terrain <> 'plain' \
             OR town_id IS NOT NULL OR owner_id IS NOT NULL OR structure IS NOT NULL)"
        )
    );
    for t in grognard::rules::Terrain::ALL {
        assert!(page.body.contains(&format!("t-{t}")), "{t}");
    }
    for town in ["Vitebsk", "Krasnoi", "Orsha", "Smolensk"] {
        assert!(
            page.body.contains("class=\"town-label\"") && page.body.contains(town),
            "{town}"
        );
    }
    assert!(page.body.contains("Legend"));
    assert!(
        page.body.contains("stroke=\"#2b4c9b\""),
        "France's colour marks its cells"
    );
    let css = c.get("/static/style.css");
    assert_eq!(css.status, 200);
    assert!(css.header("content-type").unwrap().starts_with("text/css"));
});

both!(a_missing_world_is_a_404_page, |b| {
    let app = TestApp::spawn(b);
    let mut c = app.client();
    for path in ["/worlds/999", "/worlds/abc", "/no/such/page"] {
        let r = c.get(path);
        assert_eq!(r.status, 404, "{path}");
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
        assert!(r.body.contains("404"));
    }
    let r = c.get_json("/api/v1/worlds/999");
    assert_eq!(r.status, 404);
    assert_eq!(r.code(), "not_found");
});

both!(
    serve_creates_the_demo_world_on_an_empty_database_only,
    |b| {
        let db = TestDb::new(b);
        let pool = grognard::db::open_pool(&db.url, 1, 5000).unwrap();
        let mut conn = pool.get().unwrap();
        grognard::db::migrate(&mut conn).unwrap();
        let rs = grognard::rules::Ruleset::shipped();
        let demo = grognard::game::maps::worlds::DEMO_MAP;
        assert_eq!(
            grognard::game::maps::worlds::ensure_demo(&mut conn, &rs, demo).unwrap(),
            Some(grognard::ids::WorldId(1))
        );
        assert_eq!(
            grognard::game::maps::worlds::ensure_demo(&mut conn, &rs, demo).unwrap(),
            None
        );
    }
);

#[test]
fn a_bad_config_stops_start_up_naming_the_key() {
    let dir = std::env::temp_dir().join(format!("grognard-badcfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("default.toml"),
        "[scheduler]\nseason = \"0 0 0 31 2 * * *\"\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("--config")
        .arg(&dir)
        .arg("migrate")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("scheduler.season"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = Backend::Sqlite;
}

both!(metrics_are_prometheus_text_for_the_operator_only, |b| {
    // Not served unless configured.
    let plain = TestApp::spawn(b);
    assert_eq!(plain.client().get("/metrics").status, 404);
    let app = TestApp::spawn_with(
        b,
        |s| s.security.metrics_token = "operator-secret-1".into(),
        true,
    );
    assert_eq!(app.client().get("/metrics").status, 401);
    let mut wrong = app.client();
    wrong.bearer = Some("operator-secret-2".into());
    assert_eq!(wrong.get_json("/metrics").status, 401);
    grognard::game::time::ticks::apply(
        &mut app.conn(),
        &app.config.rules,
        grognard::ids::WorldId(1),
        grognard::game::time::ticks::TickKind::Turn,
        1000,
        false,
    )
    .unwrap();
    let mut operator = app.client();
    operator.bearer = Some("operator-secret-1".into());
    let r = operator.get_json("/metrics");
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    assert!(r.body.contains("grognard_worlds 1\n"), "{}", r.body);
    // Counters since start: present, and numbers.
    for counter in [
        "grognard_write_batches_total ",
        "grognard_batched_orders_total ",
    ] {
        let line = r.body.lines().find(|l| l.starts_with(counter));
        assert!(
            line.is_some_and(|l| l[counter.len()..].parse::<u64>().is_ok()),
            "{counter}: {}",
            r.body
        );
    }
    assert!(
        r.body
            .contains("grognard_ticks_total{world=\"1\",kind=\"turn\"} 1\n"),
        "{}",
        r.body
    );
});

/// Has the database server close every other connection to the test's database, as a restart
/// would, and waits until they are gone (terminating is a signal); returns how many.
fn close_other_connections(app: &TestApp) -> usize {
    use diesel::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Backend {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        pid: i32,
    }
    // One connection of its own throughout, outside the server's pool: every pooled one is
    // closed.
    let mut conn = grognard::db::DbConnection::Postgres(
        <diesel::PgConnection as diesel::Connection>::establish(&app.config.settings.database.url)
            .expect("a connection of the test's own"),
    );
    let others: Vec<Backend> = diesel::sql_query(
        "SELECT pid FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .load(&mut conn)
    .unwrap();
    let list = others
        .iter()
        .map(|b| b.pid.to_string())
        .collect::<Vec<_>>()
        .join(",");
    if others.is_empty() {
        return 0;
    }
    diesel::sql_query(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN ({list})"
    ))
    .execute(&mut conn)
    .unwrap();
    let started = std::time::Instant::now();
    let left = format!("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE pid IN ({list})");
    while crate::support::db::count(&mut conn, &left) > 0 {
        assert!(started.elapsed().as_secs() < 10, "the connections end");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    others.len()
}

/// Connections that the database server closed (a restart, an operator) are dropped by the
/// pool: a request that meets one answers 503, never 500, and the next ones are served on
/// fresh connections; whether the request ran in a transaction (a page) or not (`/healthz`).
/// PostgreSQL only: SQLite has no server to lose.
#[test]
fn lost_database_connections_are_replaced() {
    let app = TestApp::spawn(Backend::Postgres);
    let pool_size = app.config.settings.database.pool_size as usize;
    // Requests from many clients at once: every connection of the pool is lent.
    let crowd = |path: &str, rounds: usize| -> Vec<u16> {
        std::thread::scope(|s| {
            let clients: Vec<_> = (0..pool_size * 2)
                .map(|_| {
                    s.spawn(|| {
                        let mut c = app.client();
                        (0..rounds).map(|_| c.get(path).status).collect::<Vec<_>>()
                    })
                })
                .collect();
            clients
                .into_iter()
                .flat_map(|c| c.join().unwrap())
                .collect()
        })
    };
    for path in ["/worlds/1", "/healthz"] {
        assert!(crowd(path, 3).iter().all(|s| *s == 200));
        // One lost connection makes the pool test every other one before lending it: a
        // single player meets the restart once, not once per pooled connection.
        let killed = close_other_connections(&app);
        assert!(
            killed >= 2,
            "the server's connections were closed: {killed}"
        );
        let mut player = app.client();
        let one_by_one: Vec<u16> = (0..pool_size + 2)
            .map(|_| player.get(path).status)
            .collect();
        assert_eq!(one_by_one[0], 503, "{path}: {one_by_one:?}");
        assert!(
            one_by_one[1..].iter().all(|s| *s == 200),
            "{path}: {one_by_one:?}"
        );
        assert!(crowd(path, 2).iter().all(|s| *s == 200));
        // Every other connection to the database is closed by the server.
        let killed = close_other_connections(&app);
        assert!(
            killed >= 2,
            "the server's connections were closed: {killed}"
        );
        let statuses = crowd(path, 3);
        let busy = statuses.iter().filter(|s| **s == 503).count();
        assert!(
            statuses.iter().all(|s| *s == 200 || *s == 503),
            "{path}: {statuses:?}"
        );
        assert!(
            busy >= 1,
            "{path}: a closed connection was met: {statuses:?}"
        );
        assert!(
            busy <= pool_size,
            "{path}: {busy} refusals for {pool_size} connections"
        );
        let after = crowd(path, 2);
        assert!(after.iter().all(|s| *s == 200), "{path}: {after:?}");
    }
    // Connections idle for a while are tested before they are lent: after a quiet moment a
    // restart goes unnoticed.
    close_other_connections(&app);
    std::thread::sleep(grognard::db::TRUSTED_FOR + std::time::Duration::from_millis(500));
    let quiet = crowd("/worlds/1", 2);
    assert!(quiet.iter().all(|s| *s == 200), "{quiet:?}");
}

/// Pages and files are sent gzipped to a client that accepts it, with their length known and
/// `Vary: Accept-Encoding`; not to one that refuses it; small answers never.
#[test]
fn answers_are_gzipped_for_clients_that_accept_it() {
    use crate::support::client::gunzip;
    let app = TestApp::spawn(Backend::Sqlite);
    let browser = "gzip, deflate, br, zstd";
    let mut c = app.client();
    let mut get = |path: &str, accept: &str| c.get_bytes(path, &[("Accept-Encoding", accept)]);
    let (r, page) = get("/worlds/1", browser);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-encoding"), Some("gzip"));
    assert_eq!(r.header("vary"), Some("accept-encoding"));
    assert_eq!(
        r.header("content-length"),
        Some(page.len().to_string().as_str())
    );
    let html = String::from_utf8(gunzip(&page)).unwrap();
    assert!(html.contains("<svg class=\"map\""), "{html}");
    assert!(
        page.len() * 4 < html.len(),
        "{} of {} bytes",
        page.len(),
        html.len()
    );

    let (r, css) = get("/static/style.css", browser);
    assert_eq!(r.header("content-encoding"), Some("gzip"));
    let (r, plain) = get("/static/style.css", "identity");
    assert_eq!(r.header("content-encoding"), None);
    assert_eq!(gunzip(&css), plain);

    let (r, body) = get("/worlds/1", "gzip;q=0, identity");
    assert_eq!(r.header("content-encoding"), None);
    assert!(String::from_utf8(body)
        .unwrap()
        .contains("<svg class=\"map\""));

    let (r, body) = get("/healthz", browser);
    assert_eq!(r.header("content-encoding"), None);
    assert!(body.len() < 1024);
}

// Orders given at once share SQLite's write transactions and still keep apart: one that fails
// undoes only what it wrote, one that panics fails alone in its own thread, every other is
// kept, and each caller gets its own answer.
both!(writes_given_together_keep_apart, |b| {
    use diesel::connection::SimpleConnection;
    use diesel::RunQueryDsl;
    use std::sync::{Arc, Barrier};
    let db = TestDb::new(b);
    let pool = grognard::db::open_pool(&db.url, 8, 5000).unwrap();
    pool.get()
        .unwrap()
        .batch_execute("CREATE TABLE scratch (n INTEGER NOT NULL)")
        .unwrap();
    let start = Arc::new(Barrier::new(8));
    let writes = Arc::new(grognard::db::group::Group::default());
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let (pool, start, writes) = (pool.clone(), start.clone(), writes.clone());
            std::thread::spawn(move || {
                let mut conn = pool.get().unwrap();
                start.wait();
                let mut kept = Vec::new();
                let mut elsewhere = 0;
                for i in 0..10 {
                    let n = t * 100 + i;
                    let caller = std::thread::current().id();
                    let write = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        writes.write(&mut conn, move |c| {
                            diesel::sql_query(format!("INSERT INTO scratch (n) VALUES ({n})"))
                                .execute(c)?;
                            // An order's own work, long enough for others to queue meanwhile.
                            std::thread::sleep(std::time::Duration::from_millis(1));
                            if i % 4 == 3 {
                                return Err(diesel::result::Error::RollbackTransaction);
                            }
                            if t == 7 && i == 5 {
                                panic!("an order that panics");
                            }
                            Ok(std::thread::current().id())
                        })
                    }));
                    match write {
                        Ok(Ok(ran_on)) => {
                            kept.push(n);
                            elsewhere += usize::from(ran_on != caller);
                        }
                        Ok(Err(e)) => assert!(i % 4 == 3, "{n}: {e}"),
                        Err(_) => assert!(t == 7 && i == 5, "{n} panicked"),
                    }
                }
                (kept, elsewhere)
            })
        })
        .collect();
    let mut kept = Vec::new();
    let mut elsewhere = 0;
    for t in threads {
        let (k, e) = t.join().unwrap();
        kept.extend(k);
        elsewhere += e;
    }
    kept.sort();
    // 10 writes in each of 8 threads, less the 2 failures per thread and the one panic.
    assert_eq!(kept.len(), 8 * 8 - 1);
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        n: i32,
    }
    let mut conn = pool.get().unwrap();
    let mut rows: Vec<i32> = diesel::sql_query("SELECT n FROM scratch ORDER BY n")
        .load::<Row>(&mut **conn)
        .unwrap()
        .into_iter()
        .map(|r| r.n)
        .collect();
    rows.sort();
    assert_eq!(rows, kept);
    match b {
        // Some orders were written by another caller's thread, in its transaction.
        Backend::Sqlite => assert!(elsewhere > 0),
        // PostgreSQL writes concurrently: each order in its own transaction.
        Backend::Postgres => assert_eq!(elsewhere, 0),
    }
});

/// SQLite (PostgreSQL has no lock on the whole database): while another process holds the
/// write lock past `busy_timeout`, pages still read, and an order answers 503 with
/// `Retry-After`, not 500, and changes nothing; once the lock is gone the same order goes
/// through.
#[test]
fn a_database_locked_by_another_writer_answers_busy() {
    use diesel::connection::SimpleConnection;
    use diesel::Connection;
    use serde_json::json;
    let app = TestApp::spawn_with(Backend::Sqlite, |s| s.database.busy_timeout_ms = 200, true);
    let mut p = crate::support::api_player(&app, "patient");
    let r = p.post_json("/api/v1/worlds/1/join", json!({"nation": "France"}));
    assert_eq!(r.status, 201, "{}", r.body);
    let r = p.post_json(
        "/api/v1/worlds/1/companies",
        json!({"kind": "infantry", "name": "Patients"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let company = r.json()["id"].as_i64().unwrap();
    let before = p.get_json(&format!("/api/v1/companies/{company}")).json();
    let (x, y) = (before["x"].as_i64().unwrap(), before["y"].as_i64().unwrap());
    let step = json!({"path": [[x + 1, y]]});
    let moved = format!("/api/v1/companies/{company}/move");

    // Another process's writer: a connection of its own to the same file, holding the lock.
    let path = app.db.url.trim_start_matches("sqlite://").to_string();
    let mut other = diesel::sqlite::SqliteConnection::establish(&path).unwrap();
    other.batch_execute("BEGIN IMMEDIATE").unwrap();
    let r = p.post_json(&moved, step.clone());
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.code(), "unavailable");
    assert!(r.header("retry-after").is_some());
    assert_eq!(p.get("/worlds/1").status, 200, "reads go on meanwhile");
    other.batch_execute("ROLLBACK").unwrap();

    let after = p.get_json(&format!("/api/v1/companies/{company}")).json();
    assert_eq!(after, before, "the refused order changed nothing");
    let r = p.post_json(&moved, step);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["x"].as_i64(), Some(x + 1));
}

/// SQLite's log is copied back into the database file by the pool's own thread, not by the
/// writer that commits past SQLite's checkpoint size (here never reached: 4 MB of the 32 MB
/// backstop). Only a checkpoint makes the database file itself grow in write-ahead mode.
#[test]
fn the_pools_own_thread_copies_sqlites_log_back_into_the_file() {
    use diesel::connection::SimpleConnection;
    let db = TestDb::new(Backend::Sqlite);
    let pool = grognard::db::open_pool(&db.url, 2, 5_000).unwrap();
    let mut conn = pool.get().unwrap();
    conn.batch_execute("CREATE TABLE filler (v BLOB)").unwrap();
    let file = std::path::PathBuf::from(db.url.trim_start_matches("sqlite://"));
    let before = std::fs::metadata(&file).unwrap().len();
    grognard::db::write(&mut conn, |c| {
        c.batch_execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) \
             INSERT INTO filler SELECT randomblob(4000) FROM n",
        )
    })
    .unwrap();
    let started = std::time::Instant::now();
    let grown = loop {
        let now = std::fs::metadata(&file).unwrap().len();
        if now >= before + 4_000_000 || started.elapsed().as_secs() >= 10 {
            break now;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(
        grown >= before + 4_000_000,
        "the file stayed at {grown} bytes (from {before})"
    );
    // And the copy is whole: every row reads back from a fresh connection.
    drop(conn);
    drop(pool);
    let mut fresh = grognard::db::open_pool(&db.url, 1, 5_000)
        .unwrap()
        .get()
        .unwrap();
    assert_eq!(
        crate::support::db::count(
            &mut fresh,
            "SELECT COUNT(*) FROM filler WHERE length(v) = 4000"
        ),
        1000
    );
}

both!(a_backup_of_a_live_database_restores_and_serves, |b| {
    let a = arena(b);
    let id = a.raise(&mut a.blue.clone(), "cavalry", "Copied");
    a.put(id, 4, 3);
    let dir = std::env::temp_dir().join(format!("grognard-backup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{b:?}.db"));
    let _ = std::fs::remove_file(&file);
    let path = file.to_str().unwrap();
    let (code, out, err) = cli(&a.app.db.url, &["backup", path], "");
    if b == Backend::Postgres {
        // PostgreSQL has its own tools; the command says which and writes nothing.
        assert_ne!(code, 0);
        assert!(
            err.contains("pg_dump -Fc") && err.contains("pg_restore"),
            "{err}"
        );
        assert!(!file.exists());
        return;
    }
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), path);
    // Never over an existing file.
    let (code, _, err) = cli(&a.app.db.url, &["backup", path], "");
    assert_ne!(code, 0);
    assert!(err.contains("exists"), "{err}");

    // The copy served by the real binary: the company, its cell and the player's token.
    let port = free_port();
    let server = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("--config")
        .arg(crate::support::config_dir())
        .arg("serve")
        .env("DATABASE_URL", format!("sqlite://{path}"))
        .env("GROGNARD__SERVER__BIND", format!("127.0.0.1:{port}"))
        .env("GROGNARD__SCHEDULER__ENABLED", "false")
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let _server = KillOnDrop(server);
    let mut copy = a.blue.at(&format!("http://127.0.0.1:{port}"));
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed().as_secs() < 30, "the copy never served");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(copy.get("/healthz").status, 200);
    let c = copy.get_json(&format!("/api/v1/companies/{id}"));
    assert_eq!(c.status, 200, "{}", c.body);
    let c = c.json();
    assert_eq!(c["name"], "Copied");
    assert_eq!((c["x"].as_i64(), c["y"].as_i64()), (Some(4), Some(3)));
    assert_eq!(c["men"], 120);
    let _ = std::fs::remove_dir_all(&dir);
});

#[test]
fn the_rulebook_in_docs_is_the_one_the_shipped_rules_give() {
    for (lang, file) in [("en", "docs/rules.md"), ("fr", "docs/rules.fr.md")] {
        let (code, out, err) = cli("sqlite://unused.db", &["rules", "--lang", lang], "");
        assert_eq!(code, 0, "{err}");
        let kept =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
                .unwrap_or_default();
        assert!(
            kept == out,
            "{file} is out of date: run `cargo run -- rules --lang {lang} > {file}`"
        );
    }
}

both!(head_requests_are_answered_as_get_without_a_body, |b| {
    let app = TestApp::spawn(b);
    let mut c = app.client();
    for path in ["/healthz", "/", "/worlds/1", "/rules"] {
        let get = c.get(path);
        let head = c.raw("HEAD", path, "text/plain", b"");
        assert_eq!(head.status, get.status, "{path}");
        assert_eq!(head.status, 200, "{path}");
        assert!(
            head.body.is_empty(),
            "{path}: a HEAD answer carries no body"
        );
    }
    // A route that takes no GET is still not found by HEAD.
    assert_eq!(c.raw("HEAD", "/logout", "text/plain", b"").status, 404);
});
