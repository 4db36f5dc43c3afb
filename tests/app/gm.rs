//! Issue: game masters' tools. Cell edits and their refusals, undo, spawns, companies by hand,
//! creating, generating and importing worlds (Tiled TMX and JSON fixtures written here), the
//! audit log, and players refused everywhere; on both databases.

use crate::both;
use crate::support::fixtures::*;
use crate::support::{cli, TestApp};
use grognard::game::accounts::Role;
use serde_json::{json, Value};

fn cell(app: &TestApp, w: i64, x: i32, y: i32) -> (String, i64, i64) {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        terrain: String,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        owner: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        structure: i64,
    }
    let r: Row = diesel::RunQueryDsl::get_result(
        diesel::sql_query(format!(
            "SELECT terrain, CAST(COALESCE(owner_id, 0) AS BIGINT) AS owner, CAST(COALESCE(structure, -1) AS BIGINT) AS structure FROM cells WHERE world_id = {w} AND x = {x} AND y = {y}"
        )),
        &mut *app.conn(),
    )
    .unwrap();
    (r.terrain, r.owner, r.structure)
}

both!(cell_edits_are_validated_applied_and_audited, |b| {
    let a = arena(b);
    let w = a.world;
    let mut gm = gm_api(&a.app, "mapmaker");
    let r = gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/cells/3/4"),
        Some(json!({"terrain": "forest"})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["terrain"], "forest");
    assert_eq!(cell(&a.app, w, 3, 4).0, "forest");
    // A fort gets its full structure and an owner; a mine keeps its owner.
    let r = gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/cells"),
        Some(json!({"cells": [
            {"x": 5, "y": 5, "terrain": "fort", "owner": "Blue"},
            {"x": 6, "y": 5, "terrain": "mine", "owner": "Red"},
            {"x": 7, "y": 5, "terrain": "church", "town": "Newburg", "owner": "Red"},
        ]})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(cell(&a.app, w, 5, 5), ("fort".into(), a.nation("Blue"), 15));
    assert_eq!(cell(&a.app, w, 6, 5).1, a.nation("Red"));
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) FROM towns WHERE world_id = {w} AND name = 'Newburg'"
        )),
        1,
        "a town founded"
    );
    // Painting plain over the mine clears its owner.
    gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/cells/6/5"),
        Some(json!({"terrain": "plain"})),
    );
    assert_eq!(cell(&a.app, w, 6, 5), ("plain".into(), 0, -1));
    let audit_before = a.app.count("SELECT COUNT(*) FROM gm_audit");
    assert_eq!(audit_before, 5, "one row per changed cell");
    // Refusals, each changing nothing.
    let mut blue = a.blue.clone();
    let gun = a.raise(&mut blue, "artillery", "Guns");
    a.put(gun, 9, 9);
    let cases = [
        (
            format!("/api/v1/worlds/{w}/cells/1/1"),
            json!({"terrain": "lava"}),
            "invalid",
        ),
        (
            format!("/api/v1/worlds/{w}/cells/16/1"),
            json!({"terrain": "forest"}),
            "out_of_map",
        ),
        (
            format!("/api/v1/worlds/{w}/cells/1/1"),
            json!({"terrain": "bridge"}),
            "invalid",
        ),
        (
            format!("/api/v1/worlds/{w}/cells/9/9"),
            json!({"terrain": "marsh"}),
            "invalid",
        ),
        (
            format!("/api/v1/worlds/{w}/cells/1/1"),
            json!({"owner": "Blue"}),
            "invalid",
        ),
        (
            format!("/api/v1/worlds/{w}/cells/5/5"),
            json!({"structure": 16}),
            "invalid",
        ),
        (
            format!("/api/v1/worlds/{w}/cells/1/1"),
            json!({"structure": 3}),
            "invalid",
        ),
        (
            format!("/api/v1/worlds/{w}/cells/1/1"),
            json!({"owner": "Prussia", "terrain": "mine"}),
            "invalid",
        ),
        (
            format!("/api/v1/worlds/{w}/cells/1/1"),
            json!({"colour": "red"}),
            "invalid",
        ),
        (
            "/api/v1/worlds/99/cells/1/1".to_string(),
            json!({"terrain": "forest"}),
            "not_found",
        ),
    ];
    for (path, body, code) in cases {
        let r = gm.json("PUT", &path, Some(body.clone()));
        assert_eq!(r.code(), code, "{path} {body}: {}", r.body);
        assert!(r.status >= 400 && r.status < 500);
    }
    // A batch with one bad cell writes none of them.
    let r = gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/cells"),
        Some(json!({"cells": [
        {"x": 0, "y": 1, "terrain": "forest"}, {"x": 0, "y": 2, "terrain": "swamp"}]})),
    );
    assert_eq!(r.code(), "invalid");
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("(0, 2)"));
    let r = gm.json("PUT", &format!("/api/v1/worlds/{w}/cells"), Some(json!({"cells": [{"x": 0, "y": 1, "terrain": "forest"}, {"x": 0, "y": 1, "terrain": "marsh"}]})));
    assert_eq!(r.code(), "invalid", "listed twice");
    assert_eq!(cell(&a.app, w, 0, 1).0, "plain");
    // A bridge may replace a river.
    gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/cells/1/1"),
        Some(json!({"terrain": "river"})),
    );
    assert_eq!(
        gm.json(
            "PUT",
            &format!("/api/v1/worlds/{w}/cells/1/1"),
            Some(json!({"terrain": "bridge"}))
        )
        .status,
        200
    );
    assert_eq!(
        a.app.count("SELECT COUNT(*) FROM gm_audit"),
        audit_before + 2
    );
});

both!(undo_steps_back_through_a_gms_edits, |b| {
    let a = arena(b);
    let w = a.world;
    let mut gm = gm_api(&a.app, "undoer");
    gm.json("PUT", &format!("/api/v1/worlds/{w}/cells"), Some(json!({"cells": [{"x": 1, "y": 1, "terrain": "forest"}, {"x": 2, "y": 1, "terrain": "forest"}]})));
    gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/cells/1/1"),
        Some(json!({"terrain": "mine", "owner": "Blue"})),
    );
    assert_eq!(
        gm.post_json(&format!("/api/v1/worlds/{w}/undo"), json!({}))
            .status,
        200
    );
    assert_eq!(cell(&a.app, w, 1, 1), ("forest".into(), 0, -1));
    assert_eq!(cell(&a.app, w, 2, 1).0, "forest");
    assert_eq!(
        gm.post_json(&format!("/api/v1/worlds/{w}/undo"), json!({}))
            .status,
        200
    );
    assert_eq!(cell(&a.app, w, 1, 1).0, "plain");
    assert_eq!(cell(&a.app, w, 2, 1).0, "plain");
    let r = gm.post_json(&format!("/api/v1/worlds/{w}/undo"), json!({}));
    assert_eq!((r.status, r.code().as_str()), (409, "conflict"));
    assert_eq!(
        a.app
            .count("SELECT COUNT(*) FROM gm_audit WHERE action = 'undo'"),
        3
    );
});

both!(spawns_and_companies_by_the_gms_hand, |b| {
    let a = arena(b);
    let w = a.world;
    let mut gm = gm_api(&a.app, "marshal");
    let r = gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/nations/Blue/spawn"),
        Some(json!({"at": [4, 4]})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let mut blue = a.blue.clone();
    let id = a.raise(&mut blue, "infantry", "Moved");
    assert_eq!(a.company(&mut blue, id)["x"], 4);
    let r = gm.json(
        "PATCH",
        &format!("/api/v1/companies/{id}"),
        Some(json!({"x": 8, "y": 8, "men": 150, "wounded": 0, "ap": 3, "morale": 9})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let c = a.company(&mut blue, id);
    assert_eq!(
        (
            c["x"].as_i64(),
            c["men"].as_i64(),
            c["ap"].as_i64(),
            c["morale"].as_i64()
        ),
        (Some(8), Some(150), Some(3), Some(9))
    );
    let other = a.raise(&mut blue, "artillery", "Other");
    a.paint(10, 8, "mountain", None, None);
    for (body, code) in [
        (json!({"x": 8, "y": 8}), "occupied"),
        (json!({"x": 10, "y": 8}), "impassable"),
        (json!({"x": 99, "y": 1}), "out_of_map"),
        (json!({"ap": 17}), "invalid"),
        (json!({"men": 0}), "invalid"),
        (json!({"morale": 11}), "invalid"),
        (json!({"speed": 3}), "invalid"),
    ] {
        let r = gm.json(
            "PATCH",
            &format!("/api/v1/companies/{other}"),
            Some(body.clone()),
        );
        assert_eq!(r.code(), code, "{body}: {}", r.body);
    }
    assert_eq!(
        gm.json("DELETE", &format!("/api/v1/companies/{other}"), None)
            .status,
        204
    );
    assert_eq!(
        gm.json("DELETE", &format!("/api/v1/companies/{other}"), None)
            .status,
        404
    );
    let audit = gm.get_json(&format!("/api/v1/worlds/{w}/audit")).json();
    let actions: Vec<&str> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, vec!["remove", "company", "spawn"]);
    let company = &audit["entries"][1];
    assert_eq!(company["before"]["men"], 200);
    assert_eq!(company["after"]["men"], 150);
    assert_eq!(company["user"], "marshal");
});

both!(players_are_refused_every_gm_tool, |b| {
    let a = arena(b);
    let w = a.world;
    let mut p = api_player(&a.app, "private");
    let calls: Vec<(&str, String, Option<Value>)> = vec![
        (
            "PUT",
            format!("/api/v1/worlds/{w}/cells/1/1"),
            Some(json!({"terrain": "forest"})),
        ),
        (
            "PUT",
            format!("/api/v1/worlds/{w}/cells"),
            Some(json!({"cells": [{"x": 1, "y": 1, "terrain": "forest"}]})),
        ),
        ("POST", format!("/api/v1/worlds/{w}/undo"), None),
        (
            "PUT",
            format!("/api/v1/worlds/{w}/nations/Blue/spawn"),
            Some(json!({"at": [1, 1]})),
        ),
        (
            "PATCH",
            "/api/v1/companies/1".into(),
            Some(json!({"ap": 1})),
        ),
        ("DELETE", "/api/v1/companies/1".into(), None),
        (
            "POST",
            "/api/v1/worlds".into(),
            Some(serde_json::from_str(crate::support::ARENA).unwrap()),
        ),
        (
            "POST",
            "/api/v1/worlds/generate".into(),
            Some(json!({"width": 20, "height": 20, "seed": 1})),
        ),
        (
            "POST",
            "/api/v1/worlds/import-tiled?format=json".into(),
            Some(json!({})),
        ),
        ("GET", format!("/api/v1/worlds/{w}/export"), None),
        ("GET", format!("/api/v1/worlds/{w}/audit"), None),
        (
            "PATCH",
            format!("/api/v1/worlds/{w}"),
            Some(json!({"paused": true})),
        ),
        (
            "POST",
            format!("/api/v1/worlds/{w}/ticks"),
            Some(json!({"kind": "turn"})),
        ),
    ];
    for (method, path, body) in calls {
        let r = p.json(method, &path, body);
        assert_eq!(
            (r.status, r.code().as_str()),
            (403, "forbidden"),
            "{method} {path}"
        );
    }
    let mut page_player = player(&a.app, "pageplayer");
    for path in [
        "/gm/worlds",
        &format!("/gm/worlds/{w}"),
        &format!("/gm/worlds/{w}/audit"),
        &format!("/gm/worlds/{w}/export"),
    ] {
        assert_eq!(page_player.get(path).status, 403, "{path}");
    }
    let csrf = page_player.get("/account").csrf();
    let r = page_player.post_form(
        &format!("/gm/worlds/{w}/cells"),
        &[
            ("csrf", &csrf),
            ("x", "1"),
            ("y", "1"),
            ("terrain", "forest"),
        ],
    );
    assert_eq!(r.status, 403);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM gm_audit"), 0);
    assert_eq!(cell(&a.app, w, 1, 1).0, "plain");
});

both!(
    the_editor_api_accepts_the_session_only_with_its_csrf_header,
    |b| {
        let app = TestApp::spawn(b);
        let mut gm = user_with_role(&app, "sessiongm", Role::Gm);
        let page = gm.get("/gm/worlds/1");
        assert_eq!(page.status, 200);
        let csrf = page
            .body
            .split("data-csrf=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string();
        let r = gm.json(
            "PUT",
            "/api/v1/worlds/1/cells/0/0",
            Some(json!({"terrain": "forest"})),
        );
        assert_eq!(r.status, 403, "no CSRF header: {}", r.body);
        let r = gm.json(
            "PUT",
            "/api/v1/worlds/1/cells/0/0",
            Some(json!({"terrain": "forest"})),
        );
        assert_eq!(r.status, 403);
        // With the header the session works.
        let uri = format!("{}/api/v1/worlds/1/cells/0/0", app.base);
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let cookie = format!("grognard_session={}", gm.cookies["grognard_session"]);
        let mut resp = agent
            .put(&uri)
            .header("Cookie", &cookie)
            .header("X-CSRF-Token", &csrf)
            .header("Content-Type", "application/json")
            .send(json!({"terrain": "forest"}).to_string().as_bytes())
            .unwrap();
        assert_eq!(
            resp.status().as_u16(),
            200,
            "{}",
            resp.body_mut().read_to_string().unwrap()
        );
        assert_eq!(cell(&app, 1, 0, 0).0, "forest");
    }
);

both!(
    the_editor_pages_edit_cells_companies_and_show_the_audit,
    |b| {
        let app = TestApp::spawn(b);
        let mut gm = user_with_role(&app, "pagegm", Role::Gm);
        let page = gm.get("/gm/worlds/1?x=5&y=5&zoom=3&cell=4,3");
        assert_eq!(page.status, 200);
        assert!(page.body.contains("class=\"palette\""));
        for t in grognard::rules::Terrain::ALL {
            assert!(
                page.body.contains(&format!("data-terrain=\"{t}\" title=")),
                "{t} in the palette"
            );
        }
        let csrf = page.csrf();
        let r = gm.post_form(
            "/gm/worlds/1/cells",
            &[
                ("csrf", &csrf),
                ("x", "4"),
                ("y", "3"),
                ("terrain", "farm"),
                ("owner", "France"),
                ("town", "Ferme-Neuve"),
            ],
        );
        assert_eq!(r.status, 303);
        assert_eq!(cell(&app, 1, 4, 3), ("farm".into(), 1, -1));
        let r = gm.post_form(
            "/gm/worlds/1/cells",
            &[("csrf", &csrf), ("x", "4"), ("y", "3"), ("terrain", "lava")],
        );
        assert_eq!(r.status, 422);
        assert!(r.body.contains("unknown terrain"));
        let r = gm.post_form("/gm/worlds/1/undo", &[("csrf", &csrf)]);
        assert_eq!(r.status, 303);
        assert_eq!(cell(&app, 1, 4, 3).0, "plain");
        // The audit page, filtered by GM and by cell.
        let audit = gm.get("/gm/worlds/1/audit?cell=4,3");
        assert_eq!(audit.status, 200);
        assert_eq!(audit.body.matches("<td>pagegm</td>").count(), 2);
        assert!(audit.body.contains("&quot;terrain&quot;:&quot;farm&quot;"));
        assert_eq!(
            gm.get("/gm/worlds/1/audit?cell=9,9")
                .body
                .matches("<td>pagegm</td>")
                .count(),
            0
        );
        assert_eq!(
            gm.get("/gm/worlds/1/audit?user=someoneelse")
                .body
                .matches("<td>pagegm</td>")
                .count(),
            0
        );
        // World controls and downloads.
        let r = gm.post_form(
            "/gm/worlds/1/control",
            &[("csrf", &csrf), ("season", "winter")],
        );
        assert_eq!(r.status, 303);
        assert_eq!(
            app.count("SELECT COUNT(*) FROM worlds WHERE season = 'winter'"),
            1
        );
        let file = gm.get("/gm/worlds/1/export");
        assert!(file
            .header("content-disposition")
            .unwrap()
            .contains("attachment"));
        assert_eq!(
            serde_json::from_str::<Value>(&file.body).unwrap()["width"],
            40
        );
    }
);

both!(
    worlds_are_created_empty_generated_and_uploaded_from_the_pages,
    |b| {
        let app = TestApp::spawn(b);
        let mut gm = user_with_role(&app, "creator", Role::Gm);
        let csrf = gm.get("/gm/worlds").csrf();
        let r = gm.post_form(
            "/gm/worlds",
            &[
                ("csrf", &csrf),
                ("how", "empty"),
                ("name", "Blank"),
                ("width", "12"),
                ("height", "9"),
                ("nations", "France, Russia, Austria #aa0000"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(
            app.count("SELECT COUNT(*) FROM cells WHERE world_id = 2"),
            108
        );
        assert_eq!(
            app.count("SELECT COUNT(*) FROM nations WHERE world_id = 2"),
            3
        );
        let r = gm.post_form(
            "/gm/worlds",
            &[
                ("csrf", &csrf),
                ("how", "generate"),
                ("width", "50"),
                ("height", "40"),
                ("seed", "5"),
                ("nations", "3"),
            ],
        );
        assert_eq!(r.status, 303);
        assert_eq!(
            app.count("SELECT COUNT(*) FROM cells WHERE world_id = 3"),
            2000
        );
        assert!(app.count("SELECT COUNT(*) FROM towns WHERE world_id = 3") >= 3);
        let r = gm.post_form(
            "/gm/worlds",
            &[
                ("csrf", &csrf),
                ("how", "upload"),
                ("map", crate::support::ARENA),
            ],
        );
        assert_eq!(r.status, 303);
        let r = gm.post_form(
            "/gm/worlds",
            &[("csrf", &csrf), ("how", "upload"), ("map", "{\"name\": 1}")],
        );
        assert_eq!(r.status, 422);
        let r = gm.post_form(
            "/gm/worlds",
            &[
                ("csrf", &csrf),
                ("how", "empty"),
                ("name", "Huge"),
                ("width", "5000"),
                ("height", "9"),
            ],
        );
        assert_eq!(r.status, 422);
        assert_eq!(app.count("SELECT COUNT(*) FROM worlds"), 4);
    }
);

both!(
    the_generator_is_deterministic_from_the_cli_and_the_api,
    |b| {
        let app = TestApp::spawn(b);
        let (code, out, err) = cli(
            &app.db.url,
            &[
                "world",
                "generate",
                "--width",
                "60",
                "--height",
                "45",
                "--seed",
                "42",
                "--nations",
                "3",
            ],
            "",
        );
        assert_eq!(code, 0, "{err}");
        let first: i64 = out.trim().parse().unwrap();
        let mut gm = gm_api(&app, "generator");
        let r = gm.post_json(
            "/api/v1/worlds/generate",
            json!({"width": 60, "height": 45, "seed": 42, "nations": 3}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let second = r.json()["id"].as_i64().unwrap();
        let a = gm
            .get_json(&format!("/api/v1/worlds/{first}/export"))
            .json();
        let b2 = gm
            .get_json(&format!("/api/v1/worlds/{second}/export"))
            .json();
        assert_eq!(a["cells"], b2["cells"]);
        assert_eq!(a["towns"], b2["towns"]);
        assert_eq!(a["nations"].as_array().unwrap().len(), 3);
        let r = gm.post_json(
            "/api/v1/worlds/generate",
            json!({"width": 3, "height": 45, "seed": 42}),
        );
        assert_eq!(r.code(), "invalid");
    }
);

/// A 6×4 Tiled map: tiles 1 plain, 2 forest, 3 river, 4 church of Hamlet owned by Red,
/// 5 village of Hamlet, 6 mine owned by Blue; a second layer puts a fort over one cell.
const TSX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="terrain" tilewidth="32" tileheight="32" tilecount="8" columns="8">
 <tile id="0"><properties><property name="terrain" value="plain"/></properties></tile>
 <tile id="1"><properties><property name="terrain" value="forest"/></properties></tile>
 <tile id="2"><properties><property name="terrain" value="river"/></properties></tile>
 <tile id="3"><properties><property name="terrain" value="church"/><property name="town" value="Hamlet"/><property name="owner" value="Red"/></properties></tile>
 <tile id="4"><properties><property name="terrain" value="village"/><property name="town" value="Hamlet"/></properties></tile>
 <tile id="5"><properties><property name="terrain" value="mine"/><property name="owner" value="Blue"/></properties></tile>
 <tile id="6"><properties><property name="terrain" value="fort"/><property name="owner" value="Blue"/><property name="structure" type="int" value="9"/></properties></tile>
 <tile id="7"><properties><property name="terrain" value="lava"/></properties></tile>
</tileset>
"#;

fn tmx(tileset: &str, ground: &str) -> String {
    format!(
        r##"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="6" height="4" tilewidth="32" tileheight="32" infinite="0">
 <properties><property name="name" value="Tiled Valley"/><property name="season" value="winter"/></properties>
 {tileset}
 <layer id="1" name="ground" width="6" height="4"><data encoding="csv">
{ground}
</data></layer>
 <layer id="2" name="works" width="6" height="4"><data encoding="csv">
0,0,0,0,0,0,
0,0,0,0,7,0,
0,0,0,0,0,0,
0,0,0,0,0,0
</data></layer>
 <objectgroup id="3" name="nations">
  <object id="1" name="Blue" x="16" y="16"><properties><property name="color" value="#0000ff"/></properties></object>
  <object id="2" name="Red" x="176" y="112"><properties><property name="color" value="#ff0000"/><property name="treasury" type="int" value="500"/></properties></object>
 </objectgroup>
</map>
"##
    )
}

const GROUND: &str = "1,2,2,1,1,1,\n1,3,3,3,1,6,\n1,1,4,5,1,1,\n1,1,5,1,1,1";

fn check_tiled_world(app: &TestApp, w: i64) {
    assert_eq!(app.count(&format!("SELECT COUNT(*) FROM worlds WHERE id = {w} AND name = 'Tiled Valley' AND season = 'winter'")), 1);
    assert_eq!(cell(app, w, 1, 0).0, "forest");
    assert_eq!(cell(app, w, 2, 1).0, "river");
    let red = app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = {w} AND name = 'Red'"
    ));
    let blue = app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = {w} AND name = 'Blue'"
    ));
    assert_eq!(cell(app, w, 2, 2), ("church".into(), red, -1));
    assert_eq!(
        cell(app, w, 3, 2),
        ("village".into(), red, -1),
        "a town cell takes its church's owner"
    );
    assert_eq!(cell(app, w, 5, 1), ("mine".into(), blue, -1));
    assert_eq!(
        cell(app, w, 4, 1),
        ("fort".into(), blue, 9),
        "the upper layer wins"
    );
    assert_eq!(
        app.count(&format!(
            "SELECT CAST(spawn_x * 10 + spawn_y AS BIGINT) AS n FROM nations WHERE id = {red}"
        )),
        53
    );
    assert_eq!(
        app.count(&format!(
            "SELECT treasury AS n FROM nations WHERE id = {red}"
        )),
        500
    );
    assert_eq!(app.count(&format!("SELECT COUNT(*) FROM towns WHERE world_id = {w} AND name = 'Hamlet' AND owner_id = {red}")), 1);
}

both!(
    tiled_tmx_and_json_maps_import_through_the_cli_and_the_api,
    |b| {
        let app = TestApp::spawn(b);
        let dir =
            std::env::temp_dir().join(format!("grognard-tiled-{}-{:?}", std::process::id(), b));
        std::fs::create_dir_all(&dir).unwrap();
        // TMX with an external tileset, through the CLI.
        std::fs::write(dir.join("terrain.tsx"), TSX).unwrap();
        std::fs::write(
            dir.join("valley.tmx"),
            tmx(r#"<tileset firstgid="1" source="terrain.tsx"/>"#, GROUND),
        )
        .unwrap();
        let (code, out, err) = cli(
            &app.db.url,
            &[
                "world",
                "import-tiled",
                dir.join("valley.tmx").to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(code, 0, "{err}");
        check_tiled_world(&app, out.trim().parse().unwrap());
        // Tiled JSON with an embedded tileset and a base64 layer, through the API.
        let prop = |n: &str, v: Value| json!({"name": n, "type": if v.is_i64() { "int" } else { "string" }, "value": v});
        let tiles = json!([
            {"id": 0, "properties": [prop("terrain", json!("plain"))]},
            {"id": 1, "properties": [prop("terrain", json!("forest"))]},
            {"id": 2, "properties": [prop("terrain", json!("river"))]},
            {"id": 3, "properties": [prop("terrain", json!("church")), prop("town", json!("Hamlet")), prop("owner", json!("Red"))]},
            {"id": 4, "properties": [prop("terrain", json!("village")), prop("town", json!("Hamlet"))]},
            {"id": 5, "properties": [prop("terrain", json!("mine")), prop("owner", json!("Blue"))]},
            {"id": 6, "properties": [prop("terrain", json!("fort")), prop("owner", json!("Blue")), prop("structure", json!(9))]},
        ]);
        let ground: Vec<u32> = GROUND
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let works: Vec<u32> = (0..24).map(|i| if i == 10 { 7 } else { 0 }).collect();
        let b64 = {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.encode(
                works
                    .iter()
                    .flat_map(|g| g.to_le_bytes())
                    .collect::<Vec<u8>>(),
            )
        };
        let map = json!({
            "width": 6, "height": 4, "tilewidth": 32, "tileheight": 32, "infinite": false, "orientation": "orthogonal",
            "properties": [prop("name", json!("Tiled Valley")), prop("season", json!("winter"))],
            "tilesets": [{"firstgid": 1, "name": "terrain", "tiles": tiles}],
            "layers": [
                {"type": "tilelayer", "name": "ground", "width": 6, "height": 4, "data": ground},
                {"type": "tilelayer", "name": "works", "width": 6, "height": 4, "encoding": "base64", "data": b64},
                {"type": "objectgroup", "name": "nations", "objects": [
                    {"name": "Blue", "x": 16, "y": 16, "properties": [prop("color", json!("#0000ff"))]},
                    {"name": "Red", "x": 176, "y": 112, "properties": [prop("color", json!("#ff0000")), prop("treasury", json!(500))]}]}
            ]
        });
        std::fs::write(dir.join("valley.tmj"), map.to_string()).unwrap();
        let mut gm = gm_api(&app, "tiler");
        let r = gm.post_raw(
            "/api/v1/worlds/import-tiled?format=json",
            "application/json",
            &map.to_string(),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        check_tiled_world(&app, r.json()["id"].as_i64().unwrap());
        let (code, out, err) = cli(
            &app.db.url,
            &[
                "world",
                "import-tiled",
                dir.join("valley.tmj").to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(code, 0, "{err}");
        check_tiled_world(&app, out.trim().parse().unwrap());
        // An uploaded TMX must embed its tileset; a bad terrain is named.
        let embedded = TSX
            .replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "")
            .replace("<tileset version=\"1.10\"", "<tileset firstgid=\"1\"");
        let r = gm.post_raw(
            "/api/v1/worlds/import-tiled?format=tmx",
            "application/xml",
            &tmx(&embedded, GROUND),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let worlds = app.count("SELECT COUNT(*) FROM worlds");
        let r = gm.post_raw(
            "/api/v1/worlds/import-tiled?format=tmx",
            "application/xml",
            &tmx(&embedded, &GROUND.replacen('1', "8", 1)),
        );
        assert_eq!(r.code(), "invalid");
        assert!(
            r.json()["error"]["message"]
                .as_str()
                .unwrap()
                .contains("layer `ground`, cell (0, 0): unknown terrain `lava`"),
            "{}",
            r.body
        );
        let r = gm.post_raw(
            "/api/v1/worlds/import-tiled?format=tmx",
            "application/xml",
            &tmx(r#"<tileset firstgid="1" source="terrain.tsx"/>"#, GROUND),
        );
        assert_eq!(r.code(), "invalid");
        let r = gm.post_raw(
            "/api/v1/worlds/import-tiled?format=json",
            "application/json",
            "{\"width\": 3}",
        );
        assert_eq!(r.code(), "invalid");
        assert_eq!(
            app.count("SELECT COUNT(*) FROM worlds"),
            worlds,
            "nothing imported"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
);

both!(
    a_town_s_and_a_castle_s_name_have_one_bound_in_the_editor,
    |b| {
        use grognard::game::maps::mapfile::MAX_PLACE_NAME;
        let a = arena(b);
        let w = a.world;
        let mut gm = gm_api(&a.app, "namer");
        let places = || {
            a.app.count(&format!(
            "SELECT (SELECT COUNT(*) FROM towns WHERE world_id = {w}) + (SELECT COUNT(*) FROM castles WHERE world_id = {w}) AS n"
        ))
        };
        let before = places();
        for (field, made) in [("town", 1), ("castle", 2)] {
            for (name, status) in [
                ("x".repeat(MAX_PLACE_NAME + 1), 422),
                ("  ".into(), 422),
                ("x".repeat(MAX_PLACE_NAME), 200),
            ] {
                let mut body = json!({});
                body[field] = name.into();
                let r = gm.json("PUT", &format!("/api/v1/worlds/{w}/cells/3/3"), Some(body));
                assert_eq!(r.status, status, "{field}: {}", r.body);
            }
            assert_eq!(places(), before + made, "{field}");
        }
    }
);
