//! Hostile input that used to reach the database as typed: a clear 4xx, never a 500, and
//! nothing written.

use crate::both;
use crate::support::fixtures::*;
use serde_json::json;

both!(
    names_with_nul_bytes_or_no_end_are_refused_not_crashed_on,
    |b| {
        let a = arena(b);
        let failures =
            |a: &crate::support::Arena| a.app.count("SELECT COUNT(*) FROM login_failures");
        let before = a.app.count("SELECT COUNT(*) FROM api_tokens");
        let mut c = a.app.client();
        let r = c.post_json(
            "/api/v1/tokens",
            json!({"username": "blue_player", "password": PASSWORD, "name": "bad\u{0}name"}),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["error"]["code"], "invalid");
        assert_eq!(a.app.count("SELECT COUNT(*) FROM api_tokens"), before);
        let r = a.blue.clone().post_json(
            &format!("/api/v1/worlds/{}/regiments", a.world),
            json!({"name": "Garde\u{0}"}),
        );
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM regiments"), 0);
        for name in ["blue\u{0}player", &"x".repeat(10_000), "blue_player\u{0}"] {
            let r = c.post_json(
                "/api/v1/tokens",
                json!({"username": name, "password": PASSWORD}),
            );
            // Refused, or throttled once the address has failed too often: never a 500.
            assert!([401, 429].contains(&r.status), "{}", r.body);
            let form = c.get("/login");
            let csrf = form.csrf();
            let r = c.post_form(
                "/login",
                &[("csrf", &csrf), ("username", name), ("password", PASSWORD)],
            );
            assert!((400..500).contains(&r.status), "{}: {}", r.status, r.body);
        }
        // Failed logins are still counted (against the address), under a name no account has.
        assert!(failures(&a) > 0);
    }
);

both!(
    players_racing_for_one_regiment_name_get_one_201_and_409s,
    |b| {
        let a = arena(b);
        let world = a.world;
        let players: Vec<_> = (0..8)
            .map(|i| {
                let mut p = api_player(&a.app, &format!("racer_{i}"));
                let r = p.post_json(
                    &format!("/api/v1/worlds/{world}/join"),
                    json!({"nation": if i % 2 == 0 { "Blue" } else { "Red" }}),
                );
                assert_eq!(r.status, 201, "{}", r.body);
                p
            })
            .collect();
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(players.len()));
        let handles: Vec<_> = players
            .into_iter()
            .map(|mut p| {
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    p.post_json(
                        &format!("/api/v1/worlds/{world}/regiments"),
                        json!({"name": "Vieille Garde"}),
                    )
                    .status
                })
            })
            .collect();
        let mut statuses: Vec<u16> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        statuses.sort();
        assert_eq!(statuses, vec![201, 409, 409, 409, 409, 409, 409, 409]);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM regiments"), 1);
    }
);

both!(
    bodies_are_limited_per_route_and_big_ones_are_for_game_masters,
    |b| {
        let a = arena(b);
        let id = a.raise(&mut a.blue.clone(), "infantry", "Heavy");
        a.put(id, 2, 2);
        // An order with 120 KB of path: refused, nothing moved.
        let steps: Vec<[i32; 2]> = (0..20_000).map(|_| [3, 2]).collect();
        let r = a.act(&mut a.blue.clone(), id, "move", json!({ "path": steps }));
        assert_eq!(r.status, 422, "{}", &r.body[..r.body.len().min(300)]);
        assert_eq!(r.code(), "invalid");
        assert!(r.body.contains("larger than"), "{}", r.body);
        assert_eq!(a.company(&mut a.blue.clone(), id)["x"], 2);
        // A whole map (well over the 64 KB of other routes) is refused to a player before it is read...
        let mut gm = crate::support::gm_api(&a.app, "mapmaker");
        let r = gm.post_json(
            "/api/v1/worlds/generate",
            json!({"width": 200, "height": 200, "seed": 3}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let big = gm.get_json(&format!("/api/v1/worlds/{}/export", r.json()["id"]));
        assert!(big.body.len() > 2 * 65_536, "{}", big.body.len());
        let worlds = a.app.count("SELECT COUNT(*) FROM worlds");
        let r = a.blue.clone().post_json("/api/v1/worlds", big.json());
        assert_eq!((r.status, r.code()), (403, "forbidden".to_string()));
        let r = a
            .blue
            .clone()
            .post_raw("/api/v1/worlds/import-tiled", "text/plain", &big.body);
        assert_eq!((r.status, r.code()), (403, "forbidden".to_string()));
        assert_eq!(a.app.count("SELECT COUNT(*) FROM worlds"), worlds);
        // ...and taken from a game master.
        let mut copy = big.json();
        copy["name"] = json!("Copy");
        let r = gm.post_json("/api/v1/worlds", copy);
        assert_eq!(r.status, 201, "{}", &r.body[..r.body.len().min(300)]);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM worlds"), worlds + 1);
    }
);

both!(
    a_server_out_of_connections_answers_503_with_retry_after,
    |b| {
        let app = crate::support::TestApp::spawn_with(
            b,
            |s| {
                s.database.pool_size = 1;
                s.database.pool_wait_ms = 200;
            },
            true,
        );
        let mut c = app.client();
        let held = app.conn();
        let r = c.get_json("/api/v1/worlds");
        assert_eq!(r.status, 503, "{}", r.body);
        assert_eq!(r.code(), "unavailable");
        assert_eq!(r.header("retry-after"), Some("2"));
        let page = c.get("/worlds/1");
        assert_eq!(page.status, 503);
        drop(held);
        assert_eq!(c.get_json("/api/v1/worlds").status, 200);
    }
);

both!(
    coordinates_at_the_ends_of_the_integers_are_refused_not_crashed_on,
    |b| {
        let a = arena(b);
        let id = a.raise(&mut a.blue.clone(), "sappers", "Far");
        a.put(id, 2, 2);
        let mut web = crate::support::player(&a.app, "edgewalker");
        let ends = [i32::MAX, i32::MIN, i32::MAX - 1, i32::MIN + 1];
        for &x in &ends {
            for &y in &ends {
                for (action, body) in [
                    ("move", json!({"path": [[x, y]]})),
                    ("move", json!({"path": [[3, 2], [x, y]]})),
                    ("move", json!({"to": [x, y]})),
                    ("bombard", json!({"at": [x, y]})),
                    ("repair", json!({"at": [x, y]})),
                    ("build-bridge", json!({"at": [x, y]})),
                ] {
                    let r = a.act(&mut a.blue.clone(), id, action, body.clone());
                    assert!(
                        (400..500).contains(&r.status),
                        "{action} {body}: {} {}",
                        r.status,
                        r.body
                    );
                }
                let r = a.blue.clone().get_json(&format!(
                    "/api/v1/worlds/{}/map?x0={x}&y0={y}&x1={y}&y1={x}",
                    a.world
                ));
                assert!(r.status < 500, "map {x} {y}: {}", r.body);
                let page = web.get(&format!("/worlds/{}?x={x}&y={y}&cell={x},{y}", a.world));
                assert!(page.status < 500, "page {x} {y}: {}", page.status);
            }
        }
        assert_eq!(a.company(&mut a.blue.clone(), id)["x"], 2);
    }
);

both!(registrations_are_limited_per_address, |b| {
    let app =
        crate::support::TestApp::spawn_with(b, |s| s.security.registrations_per_hour = 3, true);
    let mut c = app.client();
    for i in 0..3 {
        let r = c.post_json(
            "/api/v1/users",
            json!({"username": format!("recruit_{i}"), "password": PASSWORD}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
    }
    // The page and the API count together; refused registrations change nothing.
    let users = app.count("SELECT COUNT(*) FROM users");
    let r = c.post_json(
        "/api/v1/users",
        json!({"username": "recruit_3", "password": PASSWORD}),
    );
    assert_eq!((r.status, r.code()), (429, "rate_limited".to_string()));
    assert!(r.header("retry-after").is_some());
    let csrf = c.get("/register").csrf();
    let r = c.post_form(
        "/register",
        &[
            ("csrf", &csrf),
            ("username", "recruit_4"),
            ("password", PASSWORD),
        ],
    );
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(app.count("SELECT COUNT(*) FROM users"), users);
    // A refused name does not use up the address's registrations.
    let app2 =
        crate::support::TestApp::spawn_with(b, |s| s.security.registrations_per_hour = 1, true);
    let mut c2 = app2.client();
    let r = c2.post_json(
        "/api/v1/users",
        json!({"username": "x", "password": PASSWORD}),
    );
    assert_eq!(r.status, 422);
    let r = c2.post_json(
        "/api/v1/users",
        json!({"username": "valid_name", "password": PASSWORD}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
});

both!(an_attacker_cannot_lock_a_player_out_of_their_account, |b| {
    let app = crate::support::TestApp::spawn_with(
        b,
        |s| {
            s.security.trust_forwarded_for = true;
            s.security.login_account_cap = 3;
        },
        true,
    );
    let _ = crate::support::player(&app, "victim");
    let from = |addr: &str| {
        let mut c = app.client();
        c.forwarded_for = Some(addr.into());
        c
    };
    let guess = |c: &mut crate::support::Client, password: &str| {
        c.post_json(
            "/api/v1/tokens",
            json!({"username": "victim", "password": password}),
        )
    };
    // Guesses from four addresses put the account over its cap.
    for i in 1..=4 {
        let r = guess(&mut from(&format!("192.0.2.{i}")), "wrong password!");
        assert_eq!(r.status, 401, "{}", r.body);
    }
    // An address that has failed on it is shut out at once; a new one gets one guess.
    let r = guess(&mut from("192.0.2.1"), "wrong password!");
    assert_eq!((r.status, r.code()), (429, "rate_limited".to_string()));
    let mut fresh = from("192.0.2.9");
    assert_eq!(guess(&mut fresh, "wrong password!").status, 401);
    assert_eq!(guess(&mut fresh, "wrong password!").status, 429);
    // The owner, from an address of their own, still gets in with the right password.
    let r = guess(&mut from("198.51.100.7"), PASSWORD);
    assert_eq!(r.status, 201, "{}", r.body);
    // Five failures from one address on one account shut that pair out, whatever the cap.
    let relaxed =
        crate::support::TestApp::spawn_with(b, |s| s.security.trust_forwarded_for = true, true);
    let _ = crate::support::player(&relaxed, "victim");
    let mut one = relaxed.client();
    one.forwarded_for = Some("192.0.2.77".into());
    for _ in 0..5 {
        let r = one.post_json(
            "/api/v1/tokens",
            json!({"username": "victim", "password": "wrong password!"}),
        );
        assert_eq!(r.status, 401);
    }
    let r = one.post_json(
        "/api/v1/tokens",
        json!({"username": "victim", "password": PASSWORD}),
    );
    assert_eq!(
        r.status, 429,
        "even the right password waits on that address"
    );
    let mut other = relaxed.client();
    other.forwarded_for = Some("198.51.100.8".into());
    let r = other.post_json(
        "/api/v1/tokens",
        json!({"username": "victim", "password": PASSWORD}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
});

both!(parallel_guesses_cannot_slip_under_the_limit, |b| {
    let app = crate::support::TestApp::spawn(b);
    let _ = crate::support::player(&app, "target");
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(12));
    let handles: Vec<_> = (0..12)
        .map(|_| {
            let mut c = app.client();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                c.post_json(
                    "/api/v1/tokens",
                    json!({"username": "target", "password": "wrong password!"}),
                )
                .status
            })
        })
        .collect();
    let statuses: Vec<u16> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 401).count(),
        5,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        7,
        "{statuses:?}"
    );
});

both!(what_outlives_its_use_is_purged_and_old_tokens_expire, |b| {
    let a = crate::support::TestApp::spawn_with(b, |s| s.security.api_token_days = 30, true);
    let mut api = crate::support::api_player(&a, "keeper");
    let _web = crate::support::player(&a, "stayer");
    assert_eq!(api.get_json("/api/v1/me").status, 200);
    let exec = |sql: &str| {
        diesel::RunQueryDsl::execute(diesel::sql_query(sql), &mut *a.conn()).unwrap();
    };
    let now = grognard::db::now();
    // One of each kind made long ago, next to fresh ones.
    let user = a.count("SELECT CAST(MIN(id) AS BIGINT) AS n FROM users");
    exec(&format!(
        "INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at) VALUES ('old', {user}, 'x', {}, {})",
        now - 40 * 86_400,
        now - 40 * 86_400
    ));
    exec(&format!(
        "INSERT INTO login_failures (bucket, at) VALUES ('addr:old', {})",
        now - 7200
    ));
    exec(&format!(
        "INSERT INTO events (world_id, turn, at, kind, summary, data) VALUES (1, 0, {}, 'move', 'old', '{{}}')",
        now - 400 * 86_400
    ));
    exec(&format!(
        "INSERT INTO events (world_id, turn, at, kind, summary, data) VALUES (1, 0, {now}, 'move', 'new', '{{}}')"
    ));
    let sessions = a.count("SELECT COUNT(*) FROM sessions");
    let purged = grognard::game::time::retention::purge(&mut a.conn(), &a.config, now).unwrap();
    assert_eq!(
        (
            purged.sessions,
            purged.tokens,
            purged.throttle,
            purged.events
        ),
        (1, 0, 1, 1)
    );
    assert_eq!(a.count("SELECT COUNT(*) FROM sessions"), sessions - 1);
    assert_eq!(
        a.count("SELECT COUNT(*) FROM events WHERE summary = 'new'"),
        1
    );
    // A token older than api_token_days stops working, then is purged.
    exec(&format!(
        "UPDATE api_tokens SET created_at = {}",
        now - 31 * 86_400
    ));
    let r = api.get_json("/api/v1/me");
    assert_eq!((r.status, r.code()), (401, "unauthorized".to_string()));
    let purged = grognard::game::time::retention::purge(&mut a.conn(), &a.config, now).unwrap();
    assert_eq!(purged.tokens, 1);
    assert_eq!(a.count("SELECT COUNT(*) FROM api_tokens"), 0);
});

both!(
    a_tiled_map_that_would_blow_up_in_memory_is_refused_first,
    |b| {
        let a = arena(b);
        let mut gm = crate::support::gm_api(&a.app, "bomber");
        let worlds = a.app.count("SELECT COUNT(*) FROM worlds");
        let huge = r#"<?xml version="1.0"?>
<map version="1.10" width="1000000" height="1000000" tilewidth="32" tileheight="32" infinite="0">
 <layer id="1" name="ground" width="1000000" height="1000000"><data encoding="base64" compression="zlib">eJzt</data></layer>
</map>"#;
        let r = gm.post_raw("/api/v1/worlds/import-tiled?format=tmx", "text/plain", huge);
        assert_eq!(
            (r.status, r.code()),
            (422, "invalid".to_string()),
            "{}",
            r.body
        );
        assert!(r.body.contains("cells on each side"), "{}", r.body);
        let zipped = huge.replace("1000000", "10");
        let r = gm.post_raw(
            "/api/v1/worlds/import-tiled?format=tmx",
            "text/plain",
            &zipped,
        );
        // Compressed layers are read, and a broken one is named.
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            r.body.contains("layer `ground`: bad Zlib data"),
            "{}",
            r.body
        );
        assert_eq!(a.app.count("SELECT COUNT(*) FROM worlds"), worlds);
    }
);
