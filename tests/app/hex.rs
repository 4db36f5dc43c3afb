//! Hex worlds and cell edges (docs/rules.md §13) through the server: map files with `grid` and
//! `edges` (import, export, refusals), the edge editor's route, the map API, and orders that
//! follow the hex grid and the ramparts.

use crate::both;
use crate::support::fixtures::*;
use crate::support::{Client, TestApp};
use serde_json::{json, Value};

/// A 10×8 hex world: Blue west, Red east, a rampart line down the middle (the east sides of
/// column 4, given from both kinds of names).
fn hex_map() -> Value {
    json!({
        "name": "Hexfield", "width": 10, "height": 8, "grid": "hex", "rng_seed": 7,
        "nations": [{"name": "Blue", "color": "#0000ff", "spawn": [0, 0], "treasury": 1000},
                    {"name": "Red", "color": "#ff0000", "spawn": [9, 7], "treasury": 1000}],
        "cells": [{"x": 2, "y": 2, "terrain": "forest"}],
        "edges": [{"x": 4, "y": 3, "side": "E", "feature": "rampart"},
                  {"x": 5, "y": 4, "side": "W", "feature": "rampart"},
                  {"x": 4, "y": 5, "side": "NE", "feature": "rampart"}]
    })
}

fn import(gm: &mut Client, map: &Value) -> crate::support::client::Resp {
    gm.post_json("/api/v1/worlds", map.clone())
}

fn worlds(app: &TestApp) -> i64 {
    app.count("SELECT COUNT(*) FROM worlds")
}

both!(a_hex_world_with_edges_goes_out_and_back_the_same, |b| {
    let app = TestApp::spawn(b);
    let mut gm = gm_api(&app, "cartographer");
    let r = import(&mut gm, &hex_map());
    assert_eq!(r.status, 201, "{}", r.body);
    let w = r.json()["id"].as_i64().unwrap();
    let first = gm.get_json(&format!("/api/v1/worlds/{w}/export"));
    assert_eq!(first.status, 200);
    let out = first.json();
    assert_eq!(out["grid"], "hex");
    // Each edge once, under its one name: (5, 4) W is (4, 4) E.
    let edges = out["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 3);
    assert!(edges.contains(&json!({"x": 4, "y": 4, "side": "E", "feature": "rampart"})));
    assert!(edges.contains(&json!({"x": 4, "y": 5, "side": "NE", "feature": "rampart"})));
    let r = import(&mut gm, &out);
    assert_eq!(r.status, 201, "{}", r.body);
    let again = r.json()["id"].as_i64().unwrap();
    let second = gm
        .get_json(&format!("/api/v1/worlds/{again}/export"))
        .json();
    assert_eq!(
        second, out,
        "import → export → import → export changed the map"
    );
    // A square world's export says no grid and no edges.
    let square = gm.get_json("/api/v1/worlds/1/export").json();
    assert!(square.get("grid").is_none() && square.get("edges").is_none());
});

both!(
    bad_edges_and_grids_are_refused_by_entry_and_import_nothing,
    |b| {
        let app = TestApp::spawn(b);
        let mut gm = gm_api(&app, "cartographer");
        let before = worlds(&app);
        let with = |grid: &str, edges: Value| {
            let mut m = hex_map();
            m["grid"] = json!(grid);
            m["edges"] = edges;
            m
        };
        for (map, entry, says) in [
            (
                with(
                    "hex",
                    json!([{"x": 1, "y": 1, "side": "N", "feature": "rampart"}]),
                ),
                "edges[0] (1, 1, N)",
                "no side of a hex cell",
            ),
            (
                with(
                    "square",
                    json!([{"x": 1, "y": 1, "side": "NE", "feature": "rampart"}]),
                ),
                "edges[0] (1, 1, NE)",
                "no side of a square cell",
            ),
            (
                with(
                    "hex",
                    json!([{"x": 0, "y": 3, "side": "W", "feature": "rampart"}]),
                ),
                "edges[0] (0, 3, W)",
                "border",
            ),
            (
                with(
                    "hex",
                    json!([{"x": 9, "y": 0, "side": "NE", "feature": "rampart"}]),
                ),
                "edges[0] (9, 0, NE)",
                "border",
            ),
            (
                with(
                    "hex",
                    json!([{"x": 12, "y": 0, "side": "E", "feature": "rampart"}]),
                ),
                "edges[0] (12, 0, E)",
                "outside",
            ),
            (
                with(
                    "hex",
                    json!([{"x": 2, "y": 2, "side": "E", "feature": "moat"}]),
                ),
                "edges[0] (2, 2, E)",
                "unknown edge feature",
            ),
            (
                with(
                    "hex",
                    json!([{"x": 2, "y": 2, "side": "E", "feature": "rampart"},
                            {"x": 3, "y": 2, "side": "W", "feature": "rampart"}]),
                ),
                "edges[1] (3, 2, W)",
                "twice",
            ),
            (with("triangle", json!([])), "grid", "unknown grid"),
        ] {
            let r = import(&mut gm, &map);
            assert_eq!(r.status, 422, "{}: {}", entry, r.body);
            let message = r.json()["error"]["message"].as_str().unwrap().to_string();
            assert!(
                message.contains(entry) && message.contains(says),
                "{entry}: {message}"
            );
        }
        assert_eq!(worlds(&app), before, "a refused map imported something");
        assert_eq!(app.count("SELECT COUNT(*) FROM edges"), 0);
    }
);

both!(
    a_game_master_sets_and_removes_a_rampart_and_the_map_shows_it,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut gm = gm_api(&a.app, "engineer");
        let put = |c: &mut Client, x: i32, y: i32, side: &str, feature: Value| {
            c.json(
                "PUT",
                &format!("/api/v1/worlds/{w}/edges/{x}/{y}/{side}"),
                Some(json!({ "feature": feature })),
            )
        };
        // Named from the west cell's east side, kept under the west cell's... own name: E.
        let r = put(&mut gm, 6, 5, "W", json!("rampart"));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            r.json(),
            json!({"x": 5, "y": 5, "side": "E", "feature": "rampart"})
        );
        let map = a
            .blue
            .clone()
            .get_json(&format!("/api/v1/worlds/{w}/map?x0=0&y0=0&x1=15&y1=9"));
        assert_eq!(map.json()["grid"], "square");
        assert_eq!(
            map.json()["edges"],
            json!([{"x": 5, "y": 5, "side": "E", "feature": "rampart"}])
        );
        assert_eq!(
            a.app
                .count("SELECT COUNT(*) FROM gm_audit WHERE action = 'edge'"),
            1
        );
        // Refused: a player, a side of no square, the border, an unknown feature; nothing written.
        let before = a.app.count("SELECT COUNT(*) FROM edges")
            + 10 * a.app.count("SELECT COUNT(*) FROM gm_audit");
        let mut blue = a.blue.clone();
        assert_eq!(put(&mut blue, 2, 2, "E", json!("rampart")).status, 403);
        for (x, y, side, feature) in [
            (2, 2, "NE", json!("rampart")),
            (0, 3, "W", json!("rampart")),
            (15, 9, "S", json!("rampart")),
            (99, 2, "E", json!("rampart")),
            (2, 2, "E", json!("ditch")),
        ] {
            let r = put(&mut gm, x, y, side, feature.clone());
            assert_eq!(r.status, 422, "{x},{y} {side} {feature}: {}", r.body);
        }
        assert_eq!(
            a.app.count("SELECT COUNT(*) FROM edges")
                + 10 * a.app.count("SELECT COUNT(*) FROM gm_audit"),
            before
        );
        // Taken off.
        assert_eq!(put(&mut gm, 5, 5, "E", Value::Null).status, 200);
        let map = a.blue.clone().get_json(&format!("/api/v1/worlds/{w}/map"));
        assert_eq!(map.json()["edges"], json!([]));
    }
);

both!(
    a_melee_across_a_rampart_is_reported_and_costs_no_morale,
    |b| {
        let a = arena(b);
        let w = a.world;
        let (mut blue, red, inf, foe) = a.facing();
        let _ = red;
        a.put(foe, 6, 5);
        let mut gm = gm_api(&a.app, "engineer");
        let r = gm.json(
            "PUT",
            &format!("/api/v1/worlds/{w}/edges/6/5/W"),
            Some(json!({"feature": "rampart"})),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let morale = a.company(&mut a.red.clone(), foe)["morale"].clone();
        let r = a.act(&mut blue, inf, "melee", json!({ "target": foe }));
        assert_eq!(r.status, 200, "{}", r.body);
        let report = r.json();
        let battle = &report["report"];
        assert_eq!(battle["notes"], json!(["rampart"]), "{report}");
        assert_eq!(
            battle["defender"]["morale_after"],
            battle["defender"]["morale_before"]
        );
        assert_eq!(a.company(&mut a.red.clone(), foe)["morale"], morale);
        // The report page says so.
        let mut web = a.app.client();
        assert_eq!(login(&mut web, "blue_player", PASSWORD).status, 303);
        let page = web.get(&format!("/worlds/{w}/reports"));
        assert!(
            page.body
                .contains("A rampart on the side the blow came through"),
            "{}",
            page.body
        );
    }
);

both!(orders_on_a_hex_world_follow_its_six_neighbours, |b| {
    let app = TestApp::spawn(b);
    let mut gm = gm_api(&app, "cartographer");
    let w = import(&mut gm, &hex_map()).json()["id"].as_i64().unwrap();
    let mut blue = api_player(&app, "hex_blue");
    assert_eq!(
        blue.post_json(
            &format!("/api/v1/worlds/{w}/join"),
            json!({"nation": "Blue"})
        )
        .status,
        201
    );
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/companies"),
        json!({"kind": "infantry", "name": "Hussards"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let c = r.json()["id"].as_i64().unwrap();
    app.exec(&format!("UPDATE companies SET x = 3, y = 2 WHERE id = {c}"));
    // (3, 2) is on an even row: its upper neighbours are (2, 1) and (3, 1); (4, 1) is a
    // neighbour on a square grid, not here.
    let r = blue.post_json(
        &format!("/api/v1/companies/{c}/move"),
        json!({"path": [[4, 1]]}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "not_adjacent");
    let r = blue.post_json(
        &format!("/api/v1/companies/{c}/move"),
        json!({"path": [[3, 1]]}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // The map API says the grid.
    let map = blue.get_json(&format!("/api/v1/worlds/{w}/map"));
    assert_eq!(map.json()["grid"], "hex");
    assert_eq!(map.json()["edges"].as_array().unwrap().len(), 3);
});

both!(
    the_editor_sets_and_removes_a_rampart_on_a_side_of_the_selected_cell,
    |b| {
        let app = TestApp::spawn(b);
        let w = hex_demo(&app);
        let mut gm = user_with_role(&app, "sapper_general", grognard::game::accounts::Role::Gm);
        let page = gm.get(&format!("/gm/worlds/{w}?x=5&y=5&zoom=3&cell=5,5"));
        assert_eq!(page.status, 200);
        assert!(page.body.contains("id=\"edge-form\""));
        assert!(page.body.contains("data-grid=\"hex\""));
        // The hex sides are offered, not the square ones.
        assert!(
            page.body.contains("<option value=\"NW\">")
                && !page.body.contains("<option value=\"N\">")
        );
        let csrf = page.csrf();
        let edges = || app.count("SELECT COUNT(*) FROM edges");
        let before = edges();
        let r = gm.post_form(
            &format!("/gm/worlds/{w}/edges"),
            &[
                ("csrf", &csrf),
                ("x", "5"),
                ("y", "5"),
                ("side", "SW"),
                ("feature", "rampart"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(edges(), before + 1);
        // Named from the cell across it: (5, 5) is on an odd row, its SW neighbour is (5, 6).
        assert_eq!(
            app.count("SELECT COUNT(*) FROM edges WHERE x = 5 AND y = 6 AND side = 'NE'"),
            1
        );
        let page = gm.get(&format!("/gm/worlds/{w}?x=5&y=5&zoom=3&cell=5,5"));
        assert!(page.body.contains("SW (rampart)"), "{}", page.body);
        // A side of the other grid: a page that says why, nothing written.
        let r = gm.post_form(
            &format!("/gm/worlds/{w}/edges"),
            &[
                ("csrf", &csrf),
                ("x", "5"),
                ("y", "5"),
                ("side", "N"),
                ("feature", "rampart"),
            ],
        );
        assert_eq!(r.status, 422);
        assert_eq!(edges(), before + 1);
        let r = gm.post_form(
            &format!("/gm/worlds/{w}/edges"),
            &[
                ("csrf", &csrf),
                ("x", "5"),
                ("y", "5"),
                ("side", "SW"),
                ("feature", "none"),
            ],
        );
        assert_eq!(r.status, 303);
        assert_eq!(edges(), before);
        // Players are refused.
        let mut player = crate::support::fixtures::player(&app, "private");
        let pcsrf = player.get("/").csrf();
        let r = player.post_form(
            &format!("/gm/worlds/{w}/edges"),
            &[
                ("csrf", &pcsrf),
                ("x", "5"),
                ("y", "5"),
                ("side", "SW"),
                ("feature", "rampart"),
            ],
        );
        assert_eq!(r.status, 403);
        assert_eq!(edges(), before);
    }
);

both!(a_generated_hex_world_is_hex_everywhere_it_shows, |b| {
    let app = TestApp::spawn(b);
    let mut gm = gm_api(&app, "cartographer");
    let r = gm.post_json(
        "/api/v1/worlds/generate",
        json!({"width": 60, "height": 40, "seed": 1809, "grid": "hex"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let w = r.json()["id"].as_i64().unwrap();
    let out = gm.get_json(&format!("/api/v1/worlds/{w}/export")).json();
    assert_eq!(out["grid"], "hex");
    assert!(out["cells"].as_array().unwrap().len() > 100);
    let map = gm.get_json(&format!("/api/v1/worlds/{w}/map?x0=0&y0=0&x1=10&y1=10"));
    assert_eq!(map.json()["grid"], "hex");
    let page = app.client().get(&format!("/worlds/{w}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("data-grid=\"hex\"") && page.body.contains("<polygon id=\"hex\""));
    let r = gm.post_json(
        "/api/v1/worlds/generate",
        json!({"width": 60, "height": 40, "seed": 1, "grid": "octagon"}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    // The editor's form makes one too.
    let mut web = user_with_role(&app, "painter", grognard::game::accounts::Role::Gm);
    let csrf = web.get("/gm/worlds").csrf();
    let r = web.post_form(
        "/gm/worlds",
        &[
            ("csrf", &csrf),
            ("how", "empty"),
            ("name", "Hexes"),
            ("width", "12"),
            ("height", "9"),
            ("nations", "A, B"),
            ("grid", "hex"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM worlds WHERE name = 'Hexes' AND grid = 'hex'"),
        1
    );
});

both!(a_hexagonal_tiled_map_imports_as_a_hex_world, |b| {
    let app = TestApp::spawn(b);
    let mut gm = gm_api(&app, "cartographer");
    let tmx = |stagger: &str| {
        format!(
            r#"<?xml version="1.0"?>
<map version="1.10" orientation="hexagonal" staggeraxis="y" staggerindex="{stagger}" hexsidelength="16" width="6" height="5" tilewidth="32" tileheight="32" infinite="0">
 <layer id="1" name="ground" width="6" height="5"><data encoding="csv">0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0</data></layer>
</map>"#
        )
    };
    let r = gm.raw(
        "POST",
        "/api/v1/worlds/import-tiled?format=tmx&name=Wagram",
        "application/xml",
        tmx("odd").as_bytes(),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let w = r.json()["id"].as_i64().unwrap();
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) FROM worlds WHERE id = {w} AND grid = 'hex'"
        )),
        1
    );
    let before = worlds(&app);
    let r = gm.raw(
        "POST",
        "/api/v1/worlds/import-tiled?format=tmx",
        "application/xml",
        tmx("even").as_bytes(),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("staggerindex"));
    assert_eq!(worlds(&app), before);
});

both!(a_volley_through_a_rampart_and_past_cover_is_reported, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, _red, inf, foe) = a.facing();
    // Fields between the two companies (light cover), a rampart on the target's west side.
    a.paint(6, 5, "fields", None, None);
    let mut gm = gm_api(&a.app, "engineer");
    let r = gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/edges/7/5/W"),
        Some(json!({"feature": "rampart"})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = a.act(&mut blue, inf, "volley", json!({ "target": foe }));
    assert_eq!(r.status, 200, "{}", r.body);
    let battle = &r.json()["report"];
    let notes = battle["notes"].as_array().unwrap().clone();
    assert!(
        notes.contains(&json!("rampart")) && notes.contains(&json!("obscured")),
        "{notes:?}"
    );
    // Plain ground under the target: its protection is the obscured bonus alone.
    assert_eq!(
        battle["defender"]["protection"],
        a.app.config.rules.cover.obscured
    );
    assert_eq!(
        battle["defender"]["morale_after"],
        battle["defender"]["morale_before"]
    );
});

both!(
    on_a_hex_world_the_regiment_s_radius_is_counted_in_hexes,
    |b| {
        // The turn's SQL and the rule agree: a company within the radius in hex steps is near its
        // headquarters, one within the square's reach but farther in hexes is not.
        let app = TestApp::spawn(b);
        let mut gm = gm_api(&app, "cartographer");
        let mut map = hex_map();
        map["cells"] = json!([{"x": 4, "y": 4, "terrain": "farm", "owner": "Blue"}]);
        map["edges"] = json!([]);
        let w = import(&mut gm, &map).json()["id"].as_i64().unwrap();
        let mut blue = api_player(&app, "colonel");
        assert_eq!(
            blue.post_json(
                &format!("/api/v1/worlds/{w}/join"),
                json!({"nation": "Blue"})
            )
            .status,
            201
        );
        let r = blue.post_json(
            &format!("/api/v1/worlds/{w}/regiments"),
            json!({"name": "1er"}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let reg = r.json()["id"].as_i64().unwrap();
        let r = blue.json(
            "PUT",
            &format!("/api/v1/worlds/{w}/regiments/{reg}/headquarters"),
            Some(json!({"at": [4, 4]})),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let radius = app.config.rules.turn.regiment_radius;
        let bonus = app.config.rules.turn.regiment_morale_bonus;
        let grid = grognard::rules::Grid::Hex;
        let hq = grognard::rules::Pos::new(4, 4);
        // Two cells the square's radius reaches: one also within the radius in hexes, one not.
        let cells: Vec<grognard::rules::Pos> = (0..10)
            .flat_map(|x| (0..8).map(move |y| grognard::rules::Pos::new(x, y)))
            .filter(|p| (p.x - 4).abs() <= radius && (p.y - 4).abs() <= radius && *p != hq)
            .collect();
        let near = *cells
            .iter()
            .find(|p| grid.distance(hq, **p) <= radius)
            .unwrap();
        let far = *cells
            .iter()
            .find(|p| grid.distance(hq, **p) > radius)
            .unwrap();
        let mut ids = Vec::new();
        for (i, at) in [near, far].iter().enumerate() {
            let r = blue.post_json(
                &format!("/api/v1/worlds/{w}/companies"),
                json!({"kind": "infantry", "name": format!("C{i}")}),
            );
            assert_eq!(r.status, 201, "{}", r.body);
            let id = r.json()["id"].as_i64().unwrap();
            app.exec(&format!(
                "UPDATE companies SET x = {}, y = {}, morale = 0 WHERE id = {id}",
                at.x, at.y
            ));
            ids.push(id);
        }
        let morale = |id: i64| {
            app.count(&format!(
                "SELECT CAST(morale AS BIGINT) AS n FROM companies WHERE id = {id}"
            ))
        };
        grognard::game::time::ticks::apply(
            &mut app.conn(),
            &app.config.rules,
            grognard::ids::WorldId(w as i32),
            grognard::game::time::ticks::TickKind::Turn,
            grognard::db::now(),
            false,
        )
        .unwrap();
        let (m_near, m_far) = (morale(ids[0]), morale(ids[1]));
        assert_eq!(
            m_near - m_far,
            i64::from(bonus),
            "near {near} morale {m_near}, far {far} morale {m_far}"
        );
    }
);

/// The cell under a point of the drawing, worked out from the layout alone as static/app.js
/// does: of the cells that may hold it, the one whose centre is nearest.
fn pick(l: &Value, px: f64, py: f64) -> Option<(i64, i64)> {
    let n = |v: &Value| v.as_i64().unwrap();
    let (cell, step) = (n(&l["cell"]), n(&l["step"]));
    let (row, col) = (
        (py / step as f64).floor() as i64,
        (px / cell as f64).floor() as i64,
    );
    let mut best: Option<(f64, i64, i64)> = None;
    for j in row - n(&l["reach"][0])..=row {
        if j < 0 || j >= n(&l["rows"]) {
            continue;
        }
        let shift = if (n(&l["y0"]) + j) & 1 == 1 {
            n(&l["odd_shift"])
        } else {
            0
        };
        for i in col - n(&l["reach"][1])..=col + n(&l["reach"][1]) {
            if i < 0 || i >= n(&l["cols"]) {
                continue;
            }
            let dx = (i * cell + shift + n(&l["centre"][0])) as f64 - px;
            let dy = (j * step + n(&l["centre"][1])) as f64 - py;
            let d = dx * dx + dy * dy;
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, i, j));
            }
        }
    }
    best.map(|(_, i, j)| (n(&l["x0"]) + i, n(&l["y0"]) + j))
}

both!(the_map_s_layout_on_the_page_follows_the_grid_s_rules, |b| {
    use grognard::rules::{Grid, Pos, Side};
    use grognard::web::render::viewport::Geometry;
    let app = TestApp::spawn(b);
    let hex = hex_demo(&app);
    let mut gm = user_with_role(&app, "surveyor", grognard::game::accounts::Role::Gm);
    for (path, grid) in [
        ("/worlds/1?zoom=3".to_string(), Grid::Square),
        ("/gm/worlds/1?x=6&y=6&zoom=3".to_string(), Grid::Square),
        (format!("/worlds/{hex}?x=7&y=6&zoom=3"), Grid::Hex),
        (format!("/gm/worlds/{hex}?x=6&y=6&zoom=3"), Grid::Hex),
    ] {
        let page = gm.get(&path);
        assert_eq!(page.status, 200, "{path}");
        let l = page_layout(&page.body);
        assert_eq!(l["grid"], grid.as_str(), "{path}");
        let sides = l["sides"].as_array().unwrap();
        let names: Vec<Side> = sides
            .iter()
            .map(|s| s["name"].as_str().unwrap().parse().unwrap())
            .collect();
        assert_eq!(names, grid.sides(), "{path}");
        let step = |s: &Value, p: Pos| {
            let d = &s["across"][(p.y & 1) as usize];
            let d = |k: usize| d[k].as_i64().unwrap() as i32;
            Pos::new(p.x + d(0), p.y + d(1))
        };
        // Cells of both parities: the cells across the sides, the hexes' neighbours and the
        // edges' names are the grid's.
        for p in [
            Pos::new(4, 4),
            Pos::new(4, 5),
            Pos::new(0, 0),
            Pos::new(7, 3),
        ] {
            let mut across = Vec::new();
            for (s, side) in sides.iter().zip(grid.sides()) {
                let q = step(s, p);
                assert_eq!(q, grid.across(p, *side), "{path} {p} {side}");
                let name = |k: &str| s[k].as_str().unwrap().parse::<Side>().unwrap();
                let edge = if s["canonical"] == true {
                    (p, name("name"))
                } else {
                    (q, name("opposite"))
                };
                assert_eq!(edge, grid.canonical(p, *side), "{path} {p} {side}");
                across.push(q);
            }
            if grid == Grid::Hex {
                let mut neighbours: Vec<Pos> = grid.neighbours(p).collect();
                neighbours.sort();
                across.sort();
                assert_eq!(across, neighbours, "{path} {p}");
            }
        }
        // Every cell of the view is found again at its centre, by the script's reckoning and
        // the server's, which agree a few pixels off it too.
        let n = |k: &str| l[k].as_i64().unwrap() as i32;
        let geo = Geometry {
            x0: n("x0"),
            y0: n("y0"),
            cols: n("cols"),
            rows: n("rows"),
            cell: n("cell"),
            grid,
        };
        for y in geo.y0..geo.y0 + geo.rows {
            for x in geo.x0..geo.x0 + geo.cols {
                let (cx, cy) = geo.centre(x, y);
                let want = Some((i64::from(x), i64::from(y)));
                assert_eq!(pick(&l, f64::from(cx), f64::from(cy)), want, "{path}");
                assert_eq!(geo.cell_at(cx, cy), Some((x, y)), "{path}");
                for (dx, dy) in [(-3, -3), (3, -3), (-3, 3), (3, 3)] {
                    let (px, py) = (cx + dx, cy + dy);
                    assert_eq!(
                        pick(&l, f64::from(px), f64::from(py)),
                        geo.cell_at(px, py)
                            .map(|(x, y)| (i64::from(x), i64::from(y))),
                        "{path} ({px}, {py})"
                    );
                }
            }
        }
    }
});

both!(the_cell_panel_names_a_cells_ramparts, |b| {
    let app = TestApp::spawn(b);
    let mut gm = gm_api(&app, "cartographer");
    let r = import(&mut gm, &hex_map());
    assert_eq!(r.status, 201, "{}", r.body);
    let w = r.json()["id"].as_i64().unwrap();
    let mut visitor = app.client();
    // (4, 4) E and (5, 4) W are one edge, named from either cell; (4, 5) NE is (5, 4) SW.
    let page = visitor.get(&format!("/worlds/{w}?cell=5,4"));
    assert!(
        page.body
            .contains("<p id=\"cell-ramparts\">Ramparts on its W, SW sides:"),
        "{}",
        &page.body[page.body.find("id=\"cell-panel\"").unwrap_or(0)..]
    );
    let page = visitor.get(&format!("/worlds/{w}?cell=4,4"));
    assert!(page.body.contains("A rampart on its E side:"));
    let page = visitor.get(&format!("/worlds/{w}?cell=4,5"));
    assert!(page.body.contains("A rampart on its NE side:"));
    let page = visitor.get(&format!("/worlds/{w}?cell=1,1"));
    assert!(!page.body.contains("id=\"cell-ramparts\""));
    // The legend says what the line is.
    assert!(page
        .body
        .contains("a thick brown line on a cell&#x27;s side: a rampart"));
});
