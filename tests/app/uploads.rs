//! Uploads as an attacker sends them (nesting, bombs, prefixes, castles by the thousand) are
//! refused with 422 and a code, write nothing and leave the server standing; Tiled's own
//! example maps import through the API.

use crate::both;
use crate::support::uploads::*;
use crate::support::*;
use grognard::game::accounts::Role;

both!(
    hostile_uploads_are_refused_with_a_code_and_the_server_stays_up,
    |b| {
        let app = TestApp::spawn(b);
        let mut gm = gm_api(&app, "mapper");
        let worlds = app.count("SELECT COUNT(*) FROM worlds");
        for u in hostile_uploads() {
            let r = gm.post_raw(u.path, u.content_type, &u.body);
            assert_eq!(r.status, 422, "{}: {}", u.what, r.body);
            assert_eq!(r.code(), u.code, "{}: {}", u.what, r.body);
        }
        // A body past 16 MB is refused in JSON, naming the limit, on both routes.
        let huge = "a".repeat((16 << 20) + 1);
        for (path, kind) in [
            ("/api/v1/worlds", "application/json"),
            ("/api/v1/worlds/import-tiled?format=tmx", "application/xml"),
        ] {
            let r = gm.post_raw(path, kind, &huge);
            assert_eq!(
                (r.status, r.code().as_str()),
                (422, "invalid"),
                "{path}: {}",
                r.body
            );
            assert!(r.body.contains("16 MB"), "{}", r.body);
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM worlds"), worlds);
        assert_eq!(app.client().get("/healthz").status, 200);
        // The game masters' page takes the same path.
        let mut page = user_with_role(&app, "drawer", Role::Gm);
        let csrf = page.get("/gm/worlds").csrf();
        for (body, says) in [
            (nested_groups(5000), "deep"),
            (tmx_bomb("x:compression", "zlib", 64 << 20), "inflates past"),
        ] {
            let r = page.post_form(
                "/gm/worlds",
                &[
                    ("csrf", &csrf),
                    ("how", "tiled"),
                    ("format", "tmx"),
                    ("map", &body),
                ],
            );
            assert_eq!(r.status, 422, "{}", r.body);
            assert!(r.body.contains(says), "{}", r.body);
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM worlds"), worlds);
        // And the command line.
        let dir = std::env::temp_dir().join(format!("grognard-deep-{}-{b:?}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("deep.tmx"), nested_groups(5000)).unwrap();
        let (code, _, err) = cli(
            &app.db.url,
            &[
                "world",
                "import-tiled",
                dir.join("deep.tmx").to_str().unwrap(),
            ],
            "",
        );
        assert_ne!(code, 0);
        assert!(err.contains("deep"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(app.count("SELECT COUNT(*) FROM worlds"), worlds);
    }
);

both!(tiled_example_maps_import_through_the_api, |b| {
    let app = TestApp::spawn(b);
    let mut gm = gm_api(&app, "mapper");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiled");
    for (file, grid, cells, forest) in [
        ("hexagonal-mini.tmx", "hex", 400, 94),
        ("orthogonal-outside.tmx", "square", 45 * 31, 6),
        ("csvmap.tmx", "square", 100 * 100, 22),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let r = gm.post_raw(
            "/api/v1/worlds/import-tiled?format=tmx",
            "application/xml",
            &text,
        );
        assert_eq!(r.status, 201, "{file}: {}", r.body);
        let w = r.json()["id"].as_i64().unwrap();
        assert_eq!(
            app.text(&format!("SELECT grid AS t FROM worlds WHERE id = {w}")),
            grid
        );
        assert_eq!(
            app.count(&format!("SELECT COUNT(*) FROM cells WHERE world_id = {w}")),
            cells,
            "{file}"
        );
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) FROM cells WHERE world_id = {w} AND terrain = 'forest'"
            )),
            forest,
            "{file}"
        );
    }
});

/// The process's peak resident memory in MB, from the kernel.
fn peak_rss_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb / 1024
}

both!(
    the_server_s_memory_stays_bounded_through_every_hostile_upload,
    |b| {
        use std::process::{Command, Stdio};
        let db = db::TestDb::new(b);
        let (code, _, err) = cli(
            &db.url,
            &["user", "add", "keeper", "--role", "gm"],
            "a long secret\n",
        );
        assert_eq!(code, 0, "{err}");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut server = Command::new(env!("CARGO_BIN_EXE_grognard"))
            .arg("--config")
            .arg(config_dir())
            .arg("serve")
            .env("DATABASE_URL", &db.url)
            .env("GROGNARD__SERVER__BIND", format!("127.0.0.1:{port}"))
            .env("GROGNARD__SCHEDULER__ENABLED", "false")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run grognard serve");
        let base = format!("http://127.0.0.1:{port}");
        let mut c = Client::new(&base);
        let up = (0..300).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
                && c.get("/healthz").status == 200
        });
        assert!(up, "the server did not start");
        let r = c.post_json(
            "/api/v1/tokens",
            serde_json::json!({"username": "keeper", "password": "a long secret"}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let mut gm = Client::new(&base);
        gm.bearer = Some(r.json()["token"].as_str().unwrap().to_string());
        let before = peak_rss_mb(server.id());
        for round in 0..3 {
            for u in hostile_uploads() {
                let r = gm.post_raw(u.path, u.content_type, &u.body);
                assert_eq!(r.code(), u.code, "{} (round {round}): {}", u.what, r.body);
                if round == 0 {
                    println!("{}: peak {} MB", u.what, peak_rss_mb(server.id()));
                }
            }
        }
        let peak = peak_rss_mb(server.id());
        assert_eq!(c.get("/healthz").status, 200);
        let _ = server.kill();
        let _ = server.wait();
        println!("peak resident memory: {before} MB before the uploads, {peak} MB after");
        assert!(peak < 200, "peak resident memory {peak} MB");
    }
);
