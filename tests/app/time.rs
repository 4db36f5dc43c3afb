//! Issue: the scheduler. Ticks applied exactly once (concurrent attempts, a killed and
//! restarted server), the SQL turn against the rules engine, catch-up cap, pause, seasons.

use crate::both;
use crate::support::fixtures::*;
use crate::support::{cli, Backend, TestApp};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Text};
use grognard::game::time::ticks::{self, TickKind};
use grognard::rules::state::Cell;
use grognard::rules::tick::{
    headquarters_holds, near_headquarters, turn_company, turn_reserve, turn_treasury, CompanyTurn,
};
use grognard::rules::{Kind, Pos, Terrain};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::collections::HashMap;

#[derive(QueryableByName)]
struct HqRow {
    #[diesel(sql_type = Integer)]
    player: i32,
    #[diesel(sql_type = Integer)]
    nation: i32,
    #[diesel(sql_type = Integer)]
    x: i32,
    #[diesel(sql_type = Integer)]
    y: i32,
    #[diesel(sql_type = Text)]
    terrain: String,
    #[diesel(sql_type = diesel::sql_types::Nullable<Integer>)]
    owner: Option<i32>,
}

#[derive(QueryableByName, Debug, Clone, PartialEq)]
struct CompanyRow {
    #[diesel(sql_type = Integer)]
    id: i32,
    #[diesel(sql_type = Integer)]
    player_id: i32,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Integer)]
    x: i32,
    #[diesel(sql_type = Integer)]
    y: i32,
    #[diesel(sql_type = Integer)]
    men: i32,
    #[diesel(sql_type = Integer)]
    wounded: i32,
    #[diesel(sql_type = Integer)]
    ap: i32,
    #[diesel(sql_type = Integer)]
    morale: i32,
    #[diesel(sql_type = Integer)]
    volley_recency: i32,
}

#[derive(QueryableByName, Debug, Clone, PartialEq)]
struct PairRow {
    #[diesel(sql_type = Integer)]
    id: i32,
    #[diesel(sql_type = BigInt)]
    value: i64,
}

fn companies(app: &TestApp, world: i32) -> Vec<CompanyRow> {
    diesel::sql_query(format!(
        "SELECT id, player_id, kind, x, y, men, wounded, ap, morale, volley_recency FROM companies WHERE world_id = {world} ORDER BY id"
    ))
    .load(&mut *app.conn())
    .unwrap()
}

fn pairs(app: &TestApp, sql: &str) -> HashMap<i32, i64> {
    diesel::sql_query(sql)
        .load::<PairRow>(&mut *app.conn())
        .unwrap()
        .into_iter()
        .map(|r| (r.id, r.value))
        .collect()
}

/// A random world: terrain, owned mines and farms, players in regiments with headquarters
/// (some on farms their nation lost), and companies with random figures.
fn random_world(app: &TestApp, seed: u64) -> i32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (w, h) = (24, 18);
    let nations = 3;
    let terrains = [
        Terrain::Plain,
        Terrain::Forest,
        Terrain::Mine,
        Terrain::Farm,
        Terrain::Fields,
        Terrain::Marsh,
        Terrain::Animals,
    ];
    let mut cells = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let t = terrains[rng.random_range(0..terrains.len())];
            let mut c = json!({"x": x, "y": y, "terrain": t.as_str()});
            if matches!(t, Terrain::Mine | Terrain::Farm) && rng.random_bool(0.7) {
                c["owner"] = json!(format!("N{}", rng.random_range(0..nations)));
            }
            cells.push(c);
        }
    }
    let map = json!({
        "name": format!("Random {seed}"), "width": w, "height": h, "rng_seed": seed,
        "nations": (0..nations).map(|i| json!({"name": format!("N{i}"), "color": "#123456", "spawn": [i, 0], "treasury": rng.random_range(0..2000)})).collect::<Vec<_>>(),
        "cells": cells,
    });
    let world = grognard::game::maps::worlds::import_text(
        &mut app.conn(),
        &app.config.rules,
        &map.to_string(),
        None,
    )
    .unwrap();
    let nation_ids: Vec<i64> = (0..nations)
        .map(|i| app.count(&format!("SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = {world} AND name = 'N{i}'")))
        .collect();
    let mut taken = std::collections::HashSet::new();
    for p in 0..12 {
        let name = format!("w{world}p{p}");
        app.exec(&format!("INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES ('{name}', '{name}', 'x', 'player', FALSE, 0)"));
        let user = app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{name}'"
        ));
        let nation = nation_ids[p % nations];
        // Some players on leave at the turn's instant (1,000,000), some back from one.
        let leave = match rng.random_range(0..6) {
            0 => "2000000",
            1 => "999999",
            _ => "NULL",
        };
        app.exec(&format!("INSERT INTO players (world_id, user_id, nation_id, reserve, joined_at, leave_until) VALUES ({world}, {user}, {nation}, {}, 0, {leave})", rng.random_range(0..300)));
        let player = app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM players WHERE user_id = {user}"
        ));
        if rng.random_bool(0.6) {
            let (hx, hy) = (rng.random_range(0..w), rng.random_range(0..h));
            // Most headquarters stand on a farm of their nation; others on ground it lost, or
            // on its own ground that a game master made something other than a farm.
            match rng.random_range(0..10) {
                0..=6 => app.exec(&format!("UPDATE cells SET terrain = 'farm', owner_id = {nation} WHERE world_id = {world} AND x = {hx} AND y = {hy}")),
                7 => app.exec(&format!("UPDATE cells SET terrain = 'village', owner_id = {nation} WHERE world_id = {world} AND x = {hx} AND y = {hy}")),
                _ => {}
            }
            app.exec(&format!("INSERT INTO regiments (world_id, nation_id, name, hq_x, hq_y, created_at) VALUES ({world}, {nation}, 'R{world}_{p}', {hx}, {hy}, 0)"));
            app.exec(&format!("UPDATE players SET regiment_id = (SELECT id FROM regiments WHERE name = 'R{world}_{p}') WHERE id = {player}"));
        }
        for c in 0..3 {
            let kind = Kind::ALL[rng.random_range(0..Kind::ALL.len())];
            let k = app.config.rules.kind(kind);
            let pos = loop {
                let p = (rng.random_range(0..w), rng.random_range(0..h));
                if taken.insert(p) {
                    break p;
                }
            };
            let men = rng.random_range(1..=k.full_strength);
            app.exec(&format!(
                "INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) \
                 VALUES ({world}, {player}, 'c{c}', '{kind}', {}, {}, {men}, {}, {}, {}, 0, {}, 0)",
                pos.0,
                pos.1,
                rng.random_range(0..40),
                rng.random_range(0..=k.max_ap),
                rng.random_range(0..=10),
                rng.random_range(0..=2),
            ));
        }
    }
    world.0
}

both!(the_sql_turn_gives_what_the_rules_engine_computes, |b| {
    let app = TestApp::spawn(b);
    let rs = app.config.rules.clone();
    let mut near_count = 0;
    let mut frozen_count = 0;
    for seed in [1u64, 2, 3, 4, 5] {
        let world = random_world(&app, seed);
        let before = companies(&app, world);
        let reserves = pairs(
            &app,
            &format!(
                "SELECT id, CAST(reserve AS BIGINT) AS value FROM players WHERE world_id = {world}"
            ),
        );
        let treasuries = pairs(
            &app,
            &format!("SELECT id, treasury AS value FROM nations WHERE world_id = {world}"),
        );
        // Headquarters as the rules engine judges them, from each regiment's cell.
        let hq: HashMap<i32, Pos> = diesel::sql_query(format!(
            "SELECT p.id AS player, r.nation_id AS nation, r.hq_x AS x, r.hq_y AS y, c.terrain AS terrain, c.owner_id AS owner \
             FROM players p JOIN regiments r ON r.id = p.regiment_id \
             JOIN cells c ON c.world_id = r.world_id AND c.x = r.hq_x AND c.y = r.hq_y WHERE p.world_id = {world}"
        ))
        .load::<HqRow>(&mut *app.conn())
        .unwrap()
        .into_iter()
        .filter(|r| {
            let cell = Cell {
                terrain: r.terrain.parse().unwrap(),
                town: None,
                owner: r.owner,
                structure: None,
                castle: None,
                siege: None,
            };
            headquarters_holds(&rs, &cell, r.nation)
        })
        .map(|r| (r.player, Pos::new(r.x, r.y)))
        .collect();
        let leaves = pairs(
            &app,
            &format!("SELECT id, COALESCE(leave_until, 0) AS value FROM players WHERE world_id = {world}"),
        );
        let mine_cells = pairs(&app, &format!("SELECT owner_id AS id, COUNT(*) AS value FROM cells WHERE world_id = {world} AND terrain = 'mine' AND owner_id IS NOT NULL GROUP BY owner_id"));
        let out = ticks::apply(
            &mut app.conn(),
            &rs,
            grognard::ids::WorldId(world),
            TickKind::Turn,
            1_000_000,
            false,
        )
        .unwrap();
        assert!(out.applied);
        let after = companies(&app, world);
        assert_eq!(before.len(), after.len());
        for (b, a) in before.iter().zip(&after) {
            let kind: Kind = b.kind.parse().unwrap();
            let near = near_headquarters(
                &rs,
                grognard::rules::Grid::Square,
                Pos::new(b.x, b.y),
                hq.get(&b.player_id).copied(),
            );
            near_count += near as usize;
            let before_turn = CompanyTurn {
                men: b.men,
                wounded: b.wounded,
                ap: b.ap,
                morale: b.morale,
                volley_recency: b.volley_recency,
            };
            let frozen = grognard::rules::leave::on_leave(
                leaves.get(&b.player_id).copied().filter(|t| *t > 0),
                1_000_000,
            );
            frozen_count += frozen as usize;
            let expect = if frozen {
                before_turn
            } else {
                turn_company(&rs, kind, before_turn, near)
            };
            let got = CompanyTurn {
                men: a.men,
                wounded: a.wounded,
                ap: a.ap,
                morale: a.morale,
                volley_recency: a.volley_recency,
            };
            assert_eq!(
                got, expect,
                "company {} ({kind}, near HQ: {near}) from {b:?}",
                b.id
            );
        }
        let reserves_after = pairs(
            &app,
            &format!(
                "SELECT id, CAST(reserve AS BIGINT) AS value FROM players WHERE world_id = {world}"
            ),
        );
        for (id, r) in &reserves {
            assert_eq!(reserves_after[id], turn_reserve(&rs, *r as i32) as i64);
        }
        let treasuries_after = pairs(
            &app,
            &format!("SELECT id, treasury AS value FROM nations WHERE world_id = {world}"),
        );
        let output = rs.terrain(Terrain::Mine).output;
        for (id, t) in &treasuries {
            let mines = mine_cells.get(id).copied().unwrap_or(0) as usize;
            assert_eq!(
                treasuries_after[id],
                turn_treasury(*t, vec![output; mines]),
                "nation {id}"
            );
        }
        assert_eq!(
            app.count(&format!(
                "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = {world}"
            )),
            1
        );
    }
    assert!(
        near_count > 0,
        "some companies stood near their headquarters"
    );
    assert!(frozen_count > 0, "some companies were on leave");
});

both!(four_concurrent_attempts_at_one_tick_apply_it_once, |b| {
    let app = TestApp::spawn(b);
    app.exec("UPDATE nations SET treasury = 0");
    let rs = app.config.rules.clone();
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let pool = app.pool.clone();
            let rs = rs.clone();
            std::thread::spawn(move || {
                ticks::apply(
                    &mut pool.get().unwrap(),
                    &rs,
                    grognard::ids::WorldId(1),
                    TickKind::Turn,
                    1_700_000_000,
                    false,
                )
                .unwrap()
            })
        })
        .collect();
    let applied = handles
        .into_iter()
        .map(|h| h.join().unwrap())
        .filter(|o| o.applied)
        .count();
    assert_eq!(applied, 1);
    assert_eq!(app.count("SELECT COUNT(*) FROM ticks"), 1);
    assert_eq!(
        app.count("SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1"),
        1
    );
    // Mines paid once: France holds 1 mine in the demo, Russia 1.
    assert_eq!(
        app.count("SELECT CAST(SUM(treasury) AS BIGINT) AS n FROM nations"),
        20
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM events WHERE kind = 'turn'"),
        1
    );
});

fn every_second(app_backend: Backend) -> TestApp {
    TestApp::spawn_with(
        app_backend,
        |s| s.scheduler.turn = "* * * * * *".into(),
        true,
    )
}

both!(
    the_season_turns_every_fourteen_days_from_the_world_s_anchor_exactly_once,
    |b| {
        let app = TestApp::spawn(b);
        let day = 86_400;
        let anchor = app.count("SELECT schedule_anchor AS n FROM worlds WHERE id = 1");
        let season = || {
            app.count("SELECT CAST(CASE WHEN season = 'summer' THEN 0 ELSE 1 END AS BIGINT) AS n FROM worlds WHERE id = 1")
        };
        let seasons = || app.count("SELECT COUNT(*) FROM ticks WHERE kind = 'season'");
        let before = season();
        let mut conn = app.conn();
        // 13 days and 23 hours: no season yet (turns do run, every 6 hours).
        grognard::scheduler::run_once(&mut conn, &app.config, anchor + 14 * day - 3600).unwrap();
        assert_eq!((seasons(), season()), (0, before));
        // Day 14: one season tick, at anchor + 14 days exactly.
        grognard::scheduler::run_once(&mut conn, &app.config, anchor + 14 * day).unwrap();
        assert_eq!((seasons(), season()), (1, 1 - before));
        assert_eq!(
            app.count("SELECT MAX(scheduled_for) AS n FROM ticks WHERE kind = 'season'"),
            anchor + 14 * day
        );
        // Two processes finding the same instant due: still once.
        let other = app.config.clone();
        grognard::scheduler::run_once(&mut app.conn(), &other, anchor + 14 * day).unwrap();
        grognard::scheduler::run_once(&mut conn, &app.config, anchor + 28 * day - 1).unwrap();
        assert_eq!(seasons(), 1);
        // Day 28: back again.
        grognard::scheduler::run_once(&mut conn, &app.config, anchor + 28 * day).unwrap();
        assert_eq!((seasons(), season()), (2, before));
        // The world API announces the next one, 14 days on.
        let mut c = app.client();
        let v = c.get_json("/api/v1/worlds/1").json();
        let next = chrono::DateTime::parse_from_rfc3339(v["next_season_at"].as_str().unwrap())
            .unwrap()
            .timestamp();
        assert_eq!(next, anchor + 42 * day);
    }
);

both!(missed_ticks_are_caught_up_in_order_up_to_the_cap, |b| {
    let app = every_second(b);
    let anchor = app.count("SELECT schedule_anchor AS n FROM worlds WHERE id = 1");
    let mut conn = app.conn();
    let n = grognard::scheduler::run_once(&mut conn, &app.config, anchor + 20).unwrap();
    assert_eq!(n, 8, "eight of twenty missed turns");
    let first = app.count("SELECT MIN(scheduled_for) AS n FROM ticks WHERE kind = 'turn'");
    let last = app.count("SELECT MAX(scheduled_for) AS n FROM ticks WHERE kind = 'turn'");
    assert_eq!(
        (first, last),
        (anchor + 13, anchor + 20),
        "the latest eight"
    );
    assert_eq!(
        grognard::scheduler::run_once(&mut conn, &app.config, anchor + 20).unwrap(),
        0,
        "nothing twice"
    );
    assert_eq!(
        grognard::scheduler::run_once(&mut conn, &app.config, anchor + 23).unwrap(),
        3
    );
    assert_eq!(
        app.count("SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1"),
        11
    );
    // Events in order of their instants.
    let order = app.count("SELECT COUNT(*) FROM events e1 JOIN events e2 ON e1.kind = 'turn' AND e2.kind = 'turn' AND e1.id < e2.id AND e1.turn > e2.turn");
    assert_eq!(order, 0);
});

both!(
    a_paused_world_skips_its_ticks_and_does_not_catch_them_up,
    |b| {
        let app = every_second(b);
        let mut gm = api_player(&app, "gm_user");
        app.exec("UPDATE users SET role = 'gm' WHERE username = 'gm_user'");
        let mut player = api_player(&app, "simple");
        assert_eq!(
            player
                .json("PATCH", "/api/v1/worlds/1", Some(json!({"paused": true})))
                .status,
            403
        );
        assert_eq!(
            player
                .post_json("/api/v1/worlds/1/ticks", json!({"kind": "turn"}))
                .status,
            403
        );
        let r = gm.json("PATCH", "/api/v1/worlds/1", Some(json!({"paused": true})));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["paused"], true);
        let anchor = app.count("SELECT schedule_anchor AS n FROM worlds WHERE id = 1");
        let mut conn = app.conn();
        assert_eq!(
            grognard::scheduler::run_once(&mut conn, &app.config, anchor + 30).unwrap(),
            0
        );
        // Paused worlds take no orders either.
        let mut p = crate::support::api_player(&app, "orders");
        p.post_json("/api/v1/worlds/1/join", json!({"nation": "France"}));
        let r = p.post_json(
            "/api/v1/worlds/1/companies",
            json!({"kind": "infantry", "name": "x"}),
        );
        assert_eq!((r.status, r.code().as_str()), (409, "paused"));
        let r = gm.json("PATCH", "/api/v1/worlds/1", Some(json!({"paused": false})));
        assert_eq!(r.json()["paused"], false);
        let resumed = app.count("SELECT schedule_anchor AS n FROM worlds WHERE id = 1");
        assert!(resumed >= anchor);
        assert_eq!(
            grognard::scheduler::run_once(&mut conn, &app.config, resumed).unwrap(),
            0,
            "nothing caught up"
        );
        assert_eq!(
            grognard::scheduler::run_once(&mut conn, &app.config, resumed + 2).unwrap(),
            2
        );
        assert_eq!(
            app.count("SELECT COUNT(*) FROM gm_audit WHERE action IN ('pause', 'resume')"),
            2
        );
        // Bad input changes nothing.
        assert_eq!(
            gm.json(
                "PATCH",
                "/api/v1/worlds/1",
                Some(json!({"season": "autumn", "paused": true}))
            )
            .status,
            422
        );
        assert_eq!(
            gm.json(
                "PATCH",
                "/api/v1/worlds/1",
                Some(json!({"paused": "maybe"}))
            )
            .status,
            422
        );
        assert_eq!(
            app.count("SELECT COUNT(*) FROM worlds WHERE paused = TRUE"),
            0
        );
        assert_eq!(
            gm.post_json("/api/v1/worlds/1/ticks", json!({"kind": "week"}))
                .status,
            422
        );
        assert_eq!(
            gm.post_json("/api/v1/worlds/99/ticks", json!({"kind": "turn"}))
                .status,
            404
        );
    }
);

both!(a_season_flip_changes_the_next_moves_cost, |b| {
    let a = arena(b);
    let mut gm = api_player(&a.app, "season_gm");
    a.exec("UPDATE users SET role = 'gm' WHERE username = 'season_gm'");
    let mut blue = a.blue.clone();
    let id = a.raise(&mut blue, "infantry", "Walkers");
    a.put(id, 5, 5);
    a.paint(6, 5, "forest", None, None);
    a.paint(7, 5, "river", None, None);
    let r = gm.post_json(
        &format!("/api/v1/worlds/{}/ticks", a.world),
        json!({"kind": "season"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["season"], "winter");
    let v = a
        .act(&mut blue, id, "move", json!({"path": [[6, 5], [7, 5]]}))
        .json();
    let costs: Vec<i64> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["cost"].as_i64().unwrap())
        .collect();
    assert_eq!(costs, vec![3, 2], "winter: forest 3, river 2");
    let w = gm.get_json(&format!("/api/v1/worlds/{}", a.world)).json();
    assert_eq!(w["season"], "winter");
    assert!(w["next_turn_at"].as_str().unwrap().ends_with("+00:00"));
    // A turn by hand refills AP by the kind's 6.
    a.set(id, "ap = 10");
    let before = 10;
    assert_eq!(
        gm.post_json(
            &format!("/api/v1/worlds/{}/ticks", a.world),
            json!({"kind": "turn"})
        )
        .status,
        201
    );
    assert_eq!(a.company(&mut blue, id)["ap"].as_i64().unwrap(), before + 6);
    assert_eq!(
        a.app
            .count("SELECT COUNT(*) FROM ticks WHERE manual = TRUE"),
        2
    );
});

both!(the_gm_buttons_on_the_world_page_run_ticks, |b| {
    let app = TestApp::spawn(b);
    let mut gm = user_with_role(&app, "gamemaster", grognard::game::accounts::Role::Gm);
    let page = gm.get("/worlds/1");
    assert!(page.body.contains("id=\"gm-panel\""));
    // The header's links follow the role as the game reads it: the tools, not the users page.
    assert!(page.body.contains("href=\"/gm/worlds\""));
    assert!(!page.body.contains("href=\"/admin/users\""));
    let csrf = page.csrf();
    let r = gm.post_form(
        "/gm/worlds/1/control",
        &[("csrf", &csrf), ("kind", "turn"), ("back", "/worlds/1")],
    );
    assert_eq!(r.status, 303);
    assert_eq!(
        app.count("SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1"),
        1
    );
    // Audited in the transaction that started the turn, with the turn it leads to.
    let audited =
        || app.count("SELECT COUNT(*) FROM gm_audit WHERE action = 'tick' AND target = 'turn'");
    assert_eq!(audited(), 1);
    let after = app.text("SELECT new_value AS t FROM gm_audit WHERE action = 'tick'");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&after).unwrap()["turn"],
        1
    );
    let mut p = crate::support::player(&app, "notgm");
    let page = p.get("/worlds/1").body;
    assert!(!page.contains("gm-panel") && !page.contains("href=\"/gm/worlds\""));
    let mut admin = user_with_role(&app, "overseer", grognard::game::accounts::Role::Admin);
    let page = admin.get("/worlds/1").body;
    assert!(page.contains("gm-panel") && page.contains("href=\"/admin/users\""));
    let csrf = p.get("/worlds/1").csrf();
    assert_eq!(
        p.post_form("/gm/worlds/1/control", &[("csrf", &csrf), ("kind", "turn")])
            .status,
        403
    );
    assert_eq!(
        app.count("SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1"),
        1
    );
    assert_eq!(audited(), 1);
    let _ = PASSWORD;
});

both!(the_tick_command_applies_one_tick, |b| {
    let app = TestApp::spawn(b);
    let (code, out, err) = cli(&app.db.url, &["tick", "1", "--kind", "turn"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("turn 1"), "{out}");
    let (code, _, err) = cli(&app.db.url, &["tick", "1", "--kind", "season"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM worlds WHERE season = 'winter'"),
        1
    );
    let (code, _, err) = cli(&app.db.url, &["tick", "7", "--kind", "turn"], "");
    assert_ne!(code, 0);
    assert!(err.contains("no such world"), "{err}");
});

/// `grognard serve` on `url`, ticking every second; what it says goes to `log`.
fn spawn_serve(url: &str, log: &std::path::Path) -> std::process::Child {
    let err = std::fs::File::create(log).expect("server log");
    std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("--config")
        .arg(crate::support::config_dir())
        .arg("serve")
        .env("DATABASE_URL", url)
        .env("GROGNARD__SCHEDULER__TURN", "* * * * * *")
        .env("GROGNARD__SCHEDULER__SEASON", "0 0 0 1 1 *")
        .env("GROGNARD__SCHEDULER__POLL_MS", "100")
        .env("GROGNARD__SERVER__BIND", "127.0.0.1:0")
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(err)
        .spawn()
        .expect("start grognard serve")
}

/// Waits up to 30 s for `ok`; on failure says what the server logged.
fn wait_until(what: &str, log: &std::path::Path, mut ok: impl FnMut() -> bool) {
    let started = std::time::Instant::now();
    while !ok() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "timed out waiting for {what}; the server said:\n{}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

both!(
    a_server_killed_and_restarted_applies_every_missed_tick_exactly_once,
    |b| {
        use grognard::game::play::access::Actor;
        let db = crate::support::db::TestDb::new(b);
        let config = grognard::config::Config::with_settings(
            &crate::support::config_dir(),
            crate::support::settings(&db.url),
        )
        .unwrap();
        let pool = grognard::commands::open(&config).unwrap();
        let mut conn = pool.get().unwrap();
        grognard::game::maps::worlds::ensure_demo(
            &mut conn,
            &config.rules,
            grognard::game::maps::worlds::DEMO_MAP,
        )
        .unwrap();
        let user = grognard::game::accounts::create_user(
            &mut conn,
            "sleeper",
            PASSWORD,
            grognard::game::accounts::Role::Player,
        )
        .unwrap();
        let actor = Actor::of(&user);
        grognard::game::play::join(&mut conn, &actor, grognard::ids::WorldId(1), "France").unwrap();
        let company = grognard::game::play::raise(
            &mut conn,
            &config.rules,
            &actor,
            grognard::ids::WorldId(1),
            "cavalry",
            "Night riders",
        )
        .unwrap();
        diesel::sql_query(format!(
            "UPDATE companies SET ap = 0 WHERE id = {}",
            company.id
        ))
        .execute(&mut **conn)
        .unwrap();
        let count =
            |conn: &mut grognard::db::DbConnection, sql: &str| crate::support::db::count(conn, sql);

        let logs = std::env::temp_dir().join(format!("grognard-serve-{}", std::process::id()));
        std::fs::create_dir_all(&logs).unwrap();
        let first_log = logs.join(format!("{b:?}-first.log"));
        let mut first = spawn_serve(&db.url, &first_log);
        wait_until("two turns", &first_log, || {
            count(
                &mut conn,
                "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1",
            ) >= 2
        });
        first.kill().unwrap(); // SIGKILL, whatever it was doing
        first.wait().unwrap();
        let down = count(
            &mut conn,
            "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1",
        );
        std::thread::sleep(std::time::Duration::from_secs(3));
        let restarted = grognard::db::now();
        let second_log = logs.join(format!("{b:?}-second.log"));
        let mut second = spawn_serve(&db.url, &second_log);
        wait_until("ticks after the restart", &second_log, || {
            count(
                &mut conn,
                "SELECT MAX(scheduled_for) AS n FROM ticks WHERE kind = 'turn'",
            ) >= restarted + 2
        });
        let term = std::process::Command::new("kill")
            .arg("-TERM")
            .arg(second.id().to_string())
            .status()
            .unwrap();
        assert!(term.success());
        let status = second.wait().unwrap();
        assert!(status.success(), "a clean stop on SIGTERM: {status:?}");

        let n = count(
            &mut conn,
            "SELECT COUNT(*) FROM ticks WHERE world_id = 1 AND kind = 'turn'",
        );
        let distinct = count(&mut conn, "SELECT COUNT(DISTINCT scheduled_for) AS n FROM ticks WHERE world_id = 1 AND kind = 'turn'");
        let lo = count(
            &mut conn,
            "SELECT MIN(scheduled_for) AS n FROM ticks WHERE kind = 'turn'",
        );
        let hi = count(
            &mut conn,
            "SELECT MAX(scheduled_for) AS n FROM ticks WHERE kind = 'turn'",
        );
        assert_eq!(n, distinct);
        assert_eq!(
            n,
            hi - lo + 1,
            "every instant from the first to the last, the missed ones included (down {} s)",
            restarted - lo
        );
        assert!(
            n > down + 2,
            "ticks were missed while down and caught up: {n} after {down}"
        );
        assert_eq!(
            count(
                &mut conn,
                "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = 1"
            ),
            n,
            "one turn per tick row"
        );
        assert_eq!(
            count(
                &mut conn,
                "SELECT CAST(reserve AS BIGINT) AS n FROM players"
            ),
            15 * n
        );
        let k = config.rules.kind(Kind::Cavalry);
        let ap = count(
            &mut conn,
            &format!(
                "SELECT CAST(ap AS BIGINT) AS n FROM companies WHERE id = {}",
                company.id
            ),
        );
        assert_eq!(
            ap,
            (k.ap_per_turn as i64 * n).min(k.max_ap as i64),
            "AP from {n} turns"
        );
        assert_eq!(
            count(&mut conn, "SELECT COUNT(*) FROM events WHERE kind = 'turn'"),
            n
        );
        let _ = std::fs::remove_file(first_log);
        let _ = std::fs::remove_file(second_log);
        let _ = std::fs::remove_dir(logs); // the other backend's run may still be using it
    }
);

both!(
    an_order_sent_while_a_turn_ticks_waits_for_the_turn_and_is_applied,
    |b| {
        let a = arena(b);
        let id = a.raise(&mut a.blue.clone(), "infantry", "Night march");
        a.put(id, 2, 2);
        a.set(id, "ap = 10");
        let theirs = a.raise(&mut a.red.clone(), "infantry", "Not yours");
        a.put(theirs, 9, 6);
        let rs = a.app.config.rules.clone();
        let world = a.world as i32;
        let mut conn = a.app.conn();
        // The turn is applied in a transaction held open until the order waits for it.
        let (order, foreign) =
            grognard::db::write(&mut conn, |c| -> grognard::game::GameResult<_> {
                ticks::apply(
                    c,
                    &rs,
                    grognard::ids::WorldId(world),
                    TickKind::Turn,
                    1_000,
                    false,
                )?;
                let mut blue = a.blue.clone();
                let order = std::thread::spawn(move || {
                    blue.post_json(
                        &format!("/api/v1/companies/{id}/move"),
                        json!({"path": [[3, 2]]}),
                    )
                });
                match b {
                    // The order's backend waits for a lock: the turn's.
                    Backend::Postgres => {
                        let deadline =
                            std::time::Instant::now() + std::time::Duration::from_secs(10);
                        while a.app.count(
                            "SELECT COUNT(*) AS n FROM pg_stat_activity \
                         WHERE wait_event_type = 'Lock' AND datname = current_database()",
                        ) == 0
                        {
                            assert!(
                                std::time::Instant::now() < deadline,
                                "the order never waited"
                            );
                            std::thread::sleep(std::time::Duration::from_millis(10));
                        }
                    }
                    // Nothing shows SQLite's writer waiting; the order's write waits for this one.
                    Backend::Sqlite => std::thread::sleep(std::time::Duration::from_millis(300)),
                }
                // An order for another player's company does not wait for the turn: its timing
                // tells nothing of that company (SQLite's single writer holds every order alike).
                let mut blue = a.blue.clone();
                let foreign = std::thread::spawn(move || {
                    blue.post_json(
                        &format!("/api/v1/companies/{theirs}/move"),
                        json!({"path": [[9, 7]]}),
                    )
                });
                if b == Backend::Postgres {
                    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
                    while !foreign.is_finished() {
                        assert!(
                            std::time::Instant::now() < deadline,
                            "it waited for the turn"
                        );
                        std::thread::sleep(std::time::Duration::from_millis(10));
                    }
                }
                assert!(!order.is_finished(), "the order did not wait for the turn");
                Ok((order, foreign))
            })
            .unwrap();
        assert_eq!(foreign.join().unwrap().status, 404);
        let r = order.join().unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        // The turn's 6 AP came first, then the step's 1.
        assert_eq!(r.json()["ap"], 10 + 6 - 1, "{}", r.body);
        assert_eq!(a.position(id), (3, 2));
    }
);

both!(
    a_turn_stopped_between_chunks_is_finished_once_and_before_the_next,
    |b| {
        let app = TestApp::spawn(b);
        let world = wide_world(&app);
        let ids: Vec<i64> = pairs(
            &app,
            &format!(
                "SELECT id, CAST(id AS BIGINT) AS value FROM companies WHERE world_id = {world}"
            ),
        )
        .into_values()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
        assert_eq!(ids.len(), 5_000);
        const { assert!(5_000 > 2 * ticks::TURN_CHUNK) };
        let ap_counts = || {
            pairs(
                &app,
                &format!("SELECT ap AS id, COUNT(*) AS value FROM companies WHERE world_id = {world} GROUP BY ap"),
            )
        };
        let turn = || {
            app.count(&format!(
                "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = {world}"
            ))
        };
        let reserve = || {
            app.count(&format!(
                "SELECT CAST(reserve AS BIGINT) AS n FROM players WHERE world_id = {world}"
            ))
        };
        let turn_events = || {
            app.count(&format!(
                "SELECT COUNT(*) AS n FROM events WHERE world_id = {world} AND kind = 'turn'"
            ))
        };
        // What a process stopped after the chunks through the 2,500th company leaves: the
        // turn's row pending, those companies with their 6 AP, the others without.
        let (through, last) = (ids[2_499], ids[4_999]);
        app.exec(&format!("INSERT INTO ticks (world_id, kind, scheduled_for, applied_at, pending, companies_through, companies_last) \
             VALUES ({world}, 'turn', 1000, 0, TRUE, {through}, {last})"));
        app.exec(&format!(
            "UPDATE companies SET ap = 6 WHERE world_id = {world} AND id <= {through}"
        ));
        // A company raised after the turn began is not in it.
        app.exec(&format!("INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) \
             SELECT {world}, id, 'late', 'infantry', 0, 59, 100, 0, 0, 10, 0, 0, 0 FROM players WHERE world_id = {world}"));
        let late = app.count("SELECT CAST(id AS BIGINT) AS n FROM companies WHERE name = 'late'");

        // The scheduler's next pass finishes it, though no turn is due yet.
        let anchor = app.count(&format!(
            "SELECT schedule_anchor AS n FROM worlds WHERE id = {world}"
        ));
        let mut conn = app.conn();
        assert_eq!(
            grognard::scheduler::run_once(&mut conn, &app.config, anchor).unwrap(),
            1
        );
        assert_eq!(ap_counts(), HashMap::from([(6, 5_000), (0, 1)]));
        assert_eq!((turn(), reserve(), turn_events()), (1, 15, 1));
        assert_eq!(
            app.count("SELECT COUNT(*) AS n FROM ticks WHERE pending = TRUE"),
            0
        );
        // The 2,500 companies left, the player, the nation (its treasury, its line of the
        // history, its points, the line's points) and the world's number.
        assert_eq!(
            app.count(&format!(
                "SELECT rows_touched AS n FROM ticks WHERE world_id = {world} AND scheduled_for = 1000"
            )),
            2_500 + 1 + 1 + 1 + 1 + 1 + 1
        );
        assert_eq!(
            grognard::scheduler::run_once(&mut conn, &app.config, anchor).unwrap(),
            0,
            "nothing twice"
        );
        assert_eq!(ap_counts(), HashMap::from([(6, 5_000), (0, 1)]));

        // A turn still pending when the next one comes is finished first, then the next.
        let (through, last) = (ids[999], late);
        app.exec(&format!("INSERT INTO ticks (world_id, kind, scheduled_for, applied_at, pending, companies_through, companies_last) \
             VALUES ({world}, 'turn', 2000, 0, TRUE, {through}, {last})"));
        app.exec(&format!(
            "UPDATE companies SET ap = ap + 6 WHERE world_id = {world} AND id <= {through}"
        ));
        let rs = app.config.rules.clone();
        let out = ticks::apply(
            &mut conn,
            &rs,
            grognard::ids::WorldId(world),
            TickKind::Turn,
            3000,
            false,
        )
        .unwrap();
        assert!(out.applied);
        assert_eq!(out.turn, 3);
        assert_eq!(ap_counts(), HashMap::from([(18, 5_000), (12, 1)]));
        assert_eq!((turn(), reserve(), turn_events()), (3, 45, 3));
        for at in [1000, 2000, 3000] {
            let again = ticks::apply(
                &mut conn,
                &rs,
                grognard::ids::WorldId(world),
                TickKind::Turn,
                at,
                false,
            )
            .unwrap();
            assert!(!again.applied, "the turn of {at} again");
        }
        assert_eq!(ap_counts(), HashMap::from([(18, 5_000), (12, 1)]));
        assert_eq!(turn(), 3);
    }
);
