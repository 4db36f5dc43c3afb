//! Issue: playing the game through the JSON API, every action and refusal of docs/rules.md §4–§7
//! with its numbers, captures, fog of war and races, on both databases.

use crate::both;
use crate::support::fixtures::*;
use crate::support::Client;
use serde_json::json;

both!(joining_and_raising_follow_the_rules, |b| {
    let a = arena(b);
    let w = a.world;
    let mut blue = a.blue.clone();
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/join"),
        json!({"nation": "Red"}),
    );
    assert_eq!(
        (r.status, r.code().as_str()),
        (409, "conflict"),
        "once per world"
    );
    let mut lost = api_player(&a.app, "wanderer");
    let r = lost.post_json(
        &format!("/api/v1/worlds/{w}/join"),
        json!({"nation": "Prussia"}),
    );
    assert_eq!((r.status, r.code().as_str()), (422, "invalid"));
    let r = lost.post_json(
        &format!("/api/v1/worlds/{w}/companies"),
        json!({"kind": "infantry", "name": "x"}),
    );
    assert_eq!(r.status, 403, "must join first");
    let first = a.raise(&mut blue, "infantry", "1er de ligne");
    let c = a.company(&mut blue, first);
    assert_eq!(
        (c["x"].as_i64(), c["y"].as_i64()),
        (Some(0), Some(0)),
        "at the spawn"
    );
    assert_eq!(
        (c["men"].as_i64(), c["ap"].as_i64(), c["morale"].as_i64()),
        (Some(200), Some(24), Some(5))
    );
    assert_eq!(c["name"], "1er de ligne");
    let second = a.raise(&mut blue, "artillery", "<b>Batterie</b> & co");
    let c = a.company(&mut blue, second);
    assert_eq!(c["name"], "<b>Batterie</b> & co", "stored as written");
    assert_eq!((c["men"].as_i64(), c["ap"].as_i64()), (Some(60), Some(16)));
    let d = (c["x"].as_i64().unwrap(), c["y"].as_i64().unwrap());
    assert_eq!(
        d,
        (1, 0),
        "the nearest free cell: distance 1, first row, first column"
    );
    a.raise(&mut blue, "cavalry", "Chasseurs");
    assert_eq!(
        a.app.count(&format!(
            "SELECT CAST(treasury AS BIGINT) AS n FROM nations WHERE id = {}",
            a.nation("Blue")
        )),
        700
    );
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/companies"),
        json!({"kind": "infantry", "name": "fourth"}),
    );
    assert_eq!((r.status, r.code().as_str()), (422, "company_limit"));
    // Bad names and kinds.
    let mut red = a.red.clone();
    for (body, code) in [
        (json!({"kind": "infantry", "name": ""}), "invalid"),
        (
            json!({"kind": "infantry", "name": "x".repeat(41)}),
            "invalid",
        ),
        (json!({"kind": "dragoons", "name": "x"}), "invalid"),
        (json!({"kind": "infantry"}), "invalid"),
    ] {
        let r = red.post_json(&format!("/api/v1/worlds/{w}/companies"), body.clone());
        assert_eq!((r.status, r.code().as_str()), (422, code), "{body}");
    }
    a.exec(&format!(
        "UPDATE nations SET treasury = 99 WHERE id = {}",
        a.nation("Red")
    ));
    let r = red.post_json(
        &format!("/api/v1/worlds/{w}/companies"),
        json!({"kind": "infantry", "name": "poor"}),
    );
    assert_eq!((r.status, r.code().as_str()), (422, "treasury"));
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) FROM companies WHERE world_id = {w}"
        )),
        3
    );
});

both!(moves_cost_the_seasons_ap_and_refusals_change_nothing, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let id = a.raise(&mut blue, "infantry", "Grenadiers");
    a.put(id, 2, 2);
    a.paint(3, 2, "forest", None, None);
    a.paint(4, 2, "river", None, None);
    // Plain 1 + forest 2 + river 4 in summer.
    let r = a.act(
        &mut blue,
        id,
        "move",
        json!({"path": [[3, 2], [4, 2], [5, 2]]}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let costs: Vec<i64> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["cost"].as_i64().unwrap())
        .collect();
    assert_eq!(costs, vec![2, 4, 1]);
    assert_eq!(
        (v["x"].as_i64(), v["y"].as_i64(), v["ap"].as_i64()),
        (Some(5), Some(2), Some(24 - 7))
    );
    // The company afterwards and the report beside it, in one object.
    assert_eq!(v["id"].as_i64(), Some(id), "{v}");
    assert_eq!(v["cost"].as_i64(), Some(7), "{v}");
    assert_eq!(v["captures"], json!([]), "{v}");
    assert!(
        v["event_id"].as_i64().is_some() && v["summary"].as_str().is_some(),
        "{v}"
    );
    // Winter: the river costs 2, the forest 3.
    a.exec(&format!(
        "UPDATE worlds SET season = 'winter' WHERE id = {}",
        a.world
    ));
    let v = a
        .act(&mut blue, id, "move", json!({"path": [[4, 2], [3, 2]]}))
        .json();
    assert_eq!(v["ap"].as_i64(), Some(17 - 2 - 3));
    // A destination: the server finds the cheapest path.
    a.put(id, 0, 5);
    a.set(id, "ap = 24");
    a.paint(1, 5, "mountain", None, None);
    let r = a.act(&mut blue, id, "move", json!({"to": [2, 5]}));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(
        v["ap"].as_i64(),
        Some(22),
        "round the winter mountain: 1 + 1"
    );
    assert_eq!(v["steps"].as_array().unwrap().len(), 2);
});

both!(a_move_answers_the_company_and_event_as_stored, |b| {
    // The move's answer is worked out from what it wrote, not read again: it must say what a
    // read says, hidden or not.
    let a = arena(b);
    let mut blue = a.blue.clone();
    let id = a.raise(&mut blue, "voltigeurs", "Tirailleurs");
    a.put(id, 2, 2);
    // Voltigeurs hide in fields (rules.toml), nowhere else.
    a.paint(4, 2, "fields", None, None);
    for (to, hidden) in [([3, 2], false), ([4, 2], true)] {
        let r = a.act(&mut blue, id, "move", json!({ "path": [to] }));
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        let stored = a.company(&mut blue, id);
        assert_eq!(stored["hidden"], json!(hidden), "{stored}");
        for (key, value) in stored.as_object().unwrap() {
            if v.get(key).is_some() {
                assert_eq!(&v[key], value, "{key} of {v}");
            }
        }
        assert_eq!(v["hidden"], json!(hidden), "{v}");
        let last = a.app.count(&format!(
            "SELECT CAST(MAX(id) AS BIGINT) AS n FROM events WHERE company_id = {id}"
        ));
        assert_eq!(v["event_id"].as_i64(), Some(last), "{v}");
    }
});

both!(road_discounts_are_rolled_and_recorded, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let id = a.raise(&mut blue, "cavalry", "Hussards");
    a.put(id, 0, 4);
    for x in 0..16 {
        a.paint(x, 4, "road", None, None);
    }
    let r = a.act(
        &mut blue,
        id,
        "move",
        json!({"path": (1..16).map(|x| json!([x, 4])).collect::<Vec<_>>()}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let steps = v["steps"].as_array().unwrap();
    let paid: i64 = steps.iter().map(|s| s["cost"].as_i64().unwrap()).sum();
    let discounted = steps.iter().filter(|s| s["cost"] == 0).count();
    assert_eq!(v["ap"].as_i64(), Some(32 - paid));
    assert!(discounted < 15, "some steps pay full price");
    // Every step rolled a d100; the discounted ones rolled at most 30.
    let ev = a
        .blue
        .clone()
        .get_json(&format!("/api/v1/worlds/{}/events", a.world))
        .json();
    let draws = ev["events"][0]["data"]["draws"].as_array().unwrap().clone();
    assert_eq!(draws.len(), 15);
    let hits = draws
        .iter()
        .filter(|d| d["value"].as_i64().unwrap() <= 30)
        .count();
    assert_eq!(hits, discounted);
});

both!(every_move_refusal_has_its_code, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let inf = a.raise(&mut blue, "infantry", "Ligne");
    let gun = a.raise(&mut blue, "artillery", "Canons");
    let enemy = a.raise(&mut red, "infantry", "Pavlovsk");
    a.put(inf, 5, 5);
    a.put(gun, 8, 8);
    a.put(enemy, 6, 5);
    a.paint(5, 6, "marsh", None, None);
    a.paint(4, 4, "fort", Some("Red"), Some(15));
    a.paint(9, 8, "mountain", None, None);
    a.refused(
        &mut blue,
        inf,
        "move",
        json!({"path": [[6, 5]]}),
        "occupied",
    );
    a.refused(
        &mut blue,
        inf,
        "move",
        json!({"path": [[4, 4]]}),
        "enemy_fort",
    );
    a.refused(
        &mut blue,
        inf,
        "move",
        json!({"path": [[5, 6], [5, 7]]}),
        "stops_movement",
    );
    a.refused(
        &mut blue,
        gun,
        "move",
        json!({"path": [[9, 8]]}),
        "impassable",
    );
    a.refused(
        &mut blue,
        inf,
        "move",
        json!({"path": [[5, 3]]}),
        "not_adjacent",
    );
    a.refused(
        &mut blue,
        inf,
        "move",
        json!({"path": [[6, 6], [7, 7], [8, 8]]}),
        "occupied",
    );
    a.put(gun, 0, 9);
    a.refused(
        &mut blue,
        gun,
        "move",
        json!({"path": [[0, 10]]}),
        "out_of_map",
    );
    a.set(inf, "ap = 2");
    a.refused(
        &mut blue,
        inf,
        "move",
        json!({"path": [[5, 4], [6, 3], [7, 3]]}),
        "not_enough_ap",
    );
    a.refused(
        &mut blue,
        inf,
        "move",
        json!({"to": [9, 5]}),
        "not_enough_ap",
    );
    a.set(inf, "ap = 24");
    a.paint(15, 0, "fort", Some("Red"), Some(15));
    a.paint(14, 0, "fort", Some("Red"), Some(15));
    a.paint(14, 1, "fort", Some("Red"), Some(15));
    a.paint(15, 1, "fort", Some("Red"), Some(15));
    a.refused(&mut blue, inf, "move", json!({"to": [15, 0]}), "enemy_fort");
    a.paint(15, 0, "plain", None, None);
    a.refused(&mut blue, inf, "move", json!({"to": [15, 0]}), "no_path");
    // Not your company: 404, whoever owns it.
    a.refused(
        &mut red,
        inf,
        "move",
        json!({"path": [[5, 4]]}),
        "not_found",
    );
    a.refused(
        &mut blue,
        99999,
        "move",
        json!({"path": [[5, 4]]}),
        "not_found",
    );
    // Bad bodies.
    for body in [
        json!({}),
        json!({"path": "north"}),
        json!({"path": [[1]]}),
        json!({"to": [1, 2], "path": []}),
        json!({"to": ["a", 2]}),
    ] {
        a.refused(&mut blue, inf, "move", body, "invalid");
    }
    a.refused(&mut blue, inf, "move", json!({"path": []}), "invalid");
    // A paused world takes no orders.
    a.exec(&format!(
        "UPDATE worlds SET paused = TRUE WHERE id = {}",
        a.world
    ));
    let r = a.refused(&mut blue, inf, "move", json!({"path": [[5, 4]]}), "paused");
    assert!(r["error"]["message"].as_str().unwrap().contains("paused"));
});

/// Losses from the rule: round(round(d × men / full) × (1 − protection)), at most the men.
fn expected_losses(d: i64, men: i64, full: i64, protection: f64, target_men: i64) -> i64 {
    let raw = ((d * men) as f64 / full as f64).round();
    ((raw * (1.0 - protection / 100.0)).round() as i64).min(target_men)
}

/// Wounded from the rule: min(losses, round(losses/2 × m/5)), m = clamp(morale + conf/10, 0, 10).
fn expected_wounded(losses: i64, morale: i64, confidence: i64) -> i64 {
    let m = (morale as f64 + confidence as f64 / 10.0).clamp(0.0, 10.0);
    ((losses as f64 / 2.0 * m / 5.0).round() as i64).min(losses)
}

both!(
    a_volley_follows_the_loss_formula_with_protection_and_dice,
    |b| {
        let a = arena(b);
        let (mut blue, mut red, shooter, target) = a.facing();
        a.paint(7, 5, "forest", None, None);
        a.set(shooter, "men = 150");
        let r = a.act(&mut blue, shooter, "volley", json!({"target": target}));
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        let d = v["report"]["defender"]["damage_roll"].as_i64().unwrap();
        assert!((10..=20).contains(&d));
        assert_eq!(
            v["report"]["draws"][0]["value"].as_i64(),
            Some(d),
            "the die is in the report"
        );
        assert_eq!(v["report"]["defender"]["protection"].as_i64(), Some(25));
        let losses = expected_losses(d, 150, 200, 25.0, 200);
        let wounded = expected_wounded(losses, 5, 10);
        assert_eq!(v["report"]["defender"]["losses"].as_i64(), Some(losses));
        assert_eq!(v["report"]["defender"]["wounded"].as_i64(), Some(wounded));
        assert_eq!(v["company"]["ap"].as_i64(), Some(20));
        assert_eq!(v["company"]["xp"].as_i64(), Some((losses / 10).max(1)));
        let t = a.company(&mut red, target);
        assert_eq!(
            (t["men"].as_i64(), t["wounded"].as_i64()),
            (Some(200 - losses), Some(wounded))
        );
        // Both nations read the report.
        for who in [&mut blue, &mut red] {
            let ev = who
                .get_json(&format!("/api/v1/worlds/{}/events", a.world))
                .json();
            assert!(ev["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["kind"] == "volley"));
        }
    }
);

both!(melee_strikes_both_sides_at_once, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let cav = a.raise(&mut blue, "cavalry", "Cuirassiers");
    let inf = a.raise(&mut red, "infantry", "Preobrazhensky");
    a.put(cav, 3, 4);
    a.put(inf, 4, 4);
    a.paint(3, 4, "slope", None, None);
    a.paint(4, 4, "plateau", None, None);
    let r = a.act(&mut blue, cav, "melee", json!({"target": inf}));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let rep = &v["report"];
    let d_att = rep["defender"]["damage_roll"].as_i64().unwrap();
    let d_def = rep["attacker"]["damage_roll"].as_i64().unwrap();
    assert!((15..=30).contains(&d_att) && (10..=20).contains(&d_def));
    assert_eq!(
        rep["defender"]["protection"].as_i64(),
        Some(50),
        "plateau against an attacker on a slope"
    );
    assert_eq!(
        rep["defender"]["losses"].as_i64(),
        Some(expected_losses(d_att, 120, 120, 50.0, 200))
    );
    assert_eq!(
        rep["attacker"]["losses"].as_i64(),
        Some(expected_losses(d_def, 200, 200, 0.0, 120))
    );
    assert_eq!(v["company"]["ap"].as_i64(), Some(32 - 6));
    assert_eq!(rep["draws"].as_array().unwrap().len(), 2);
});

both!(every_combat_refusal_has_its_code, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let inf = a.raise(&mut blue, "infantry", "Ligne");
    let cav = a.raise(&mut blue, "cavalry", "Dragons");
    let gun = a.raise(&mut blue, "artillery", "Canons");
    let e1 = a.raise(&mut red, "infantry", "Far");
    let e2 = a.raise(&mut red, "voltigeurs", "Jaegers");
    let e3 = a.raise(&mut red, "infantry", "Fort garrison");
    a.put(inf, 2, 2);
    a.put(cav, 2, 6);
    a.put(gun, 0, 9);
    // Out of range but in sight (distance 3, perception 3).
    a.put(e1, 5, 2);
    a.refused(
        &mut blue,
        inf,
        "volley",
        json!({"target": e1}),
        "out_of_range",
    );
    // No line of sight through a forest.
    a.put(e1, 4, 2);
    a.paint(3, 2, "forest", None, None);
    a.refused(
        &mut blue,
        inf,
        "volley",
        json!({"target": e1}),
        "no_line_of_sight",
    );
    // Cavalry cannot volley; artillery cannot melee.
    a.refused(
        &mut blue,
        cav,
        "volley",
        json!({"target": e1}),
        "cannot_volley",
    );
    a.put(e3, 1, 9);
    a.refused(
        &mut blue,
        gun,
        "melee",
        json!({"target": e3}),
        "cannot_melee",
    );
    // Melee against a fort is refused: ranged attacks only.
    a.paint(3, 6, "fort", Some("Red"), Some(15));
    a.put(e3, 3, 6);
    a.refused(
        &mut blue,
        cav,
        "melee",
        json!({"target": e3}),
        "ranged_only",
    );
    // Hidden voltigeurs on fields: invisible at distance 2, visible but hidden at distance 1.
    a.paint(2, 4, "fields", None, None);
    a.put(e2, 2, 4);
    a.refused(&mut blue, inf, "volley", json!({"target": e2}), "not_found");
    a.put(inf, 2, 3);
    a.refused(
        &mut blue,
        inf,
        "volley",
        json!({"target": e2}),
        "hidden_target",
    );
    // Melee reaches them.
    assert_eq!(
        a.act(&mut blue, inf, "melee", json!({"target": e2})).status,
        200
    );
    // Melee at distance 2.
    a.refused(
        &mut blue,
        cav,
        "melee",
        json!({"target": e1}),
        "not_adjacent",
    );
    // Not enough AP.
    a.set(inf, "ap = 3");
    a.put(e1, 3, 3);
    a.refused(
        &mut blue,
        inf,
        "volley",
        json!({"target": e1}),
        "not_enough_ap",
    );
    // Own nation's company, unknown company, another player's company acting.
    a.put(cav, 1, 3);
    a.refused(
        &mut blue,
        cav,
        "melee",
        json!({"target": inf}),
        "own_nation",
    );
    a.refused(
        &mut blue,
        cav,
        "melee",
        json!({"target": 99999}),
        "not_found",
    );
    a.refused(&mut red, cav, "melee", json!({"target": e1}), "not_found");
    a.refused(&mut blue, cav, "melee", json!({"target": "e1"}), "invalid");
    a.refused(&mut blue, cav, "dance", json!({}), "not_found");
});

both!(
    an_enemy_beyond_perception_is_absent_from_the_map_and_pages,
    |b| {
        let a = arena(b);
        let mut blue = a.blue.clone();
        let mut red = a.red.clone();
        let scout = a.raise(&mut blue, "infantry", "Scouts");
        let near = a.raise(&mut red, "infantry", "NearGuard");
        let far = a.raise(&mut red, "cavalry", "FarRiders");
        a.put(scout, 2, 2);
        a.put(near, 5, 2);
        a.put(far, 6, 2);
        let m = blue
            .get_json(&format!("/api/v1/worlds/{}/map", a.world))
            .json();
        let names: Vec<&str> = m["companies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"Scouts") && names.contains(&"NearGuard"),
            "{names:?}"
        );
        assert!(!names.contains(&"FarRiders"), "{names:?}");
        // Enemy figures are not shown; cells outside vision are marked unseen.
        let near_v = m["companies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "NearGuard")
            .unwrap()
            .clone();
        assert!(near_v["men"].is_null() && near_v["ap"].is_null());
        let cell = |x: i64, y: i64| {
            m["cells"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["x"] == x && c["y"] == y)
                .unwrap()
                .clone()
        };
        assert_eq!(cell(5, 2)["seen"], true);
        assert_eq!(cell(6, 2)["seen"], false);
        // Perception from a plateau is one further.
        a.paint(2, 2, "plateau", None, None);
        let m = blue
            .get_json(&format!("/api/v1/worlds/{}/map", a.world))
            .json();
        assert!(m["companies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "FarRiders"));
        // The world page hides it as well.
        a.paint(2, 2, "forest", None, None);
        let m = blue
            .get_json(&format!(
                "/api/v1/worlds/{}/map?x0=0&y0=0&x1=15&y1=9",
                a.world
            ))
            .json();
        assert!(
            !m["companies"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["name"] == "NearGuard"),
            "forest: perception 1"
        );
        let _ = red.get_json("/api/v1/me");
    }
);

both!(
    a_church_already_ours_still_takes_its_town_and_the_world_exports_and_imports,
    |b| {
        let a = arena(b);
        let mut blue = a.blue.clone();
        let id = a.raise(&mut blue, "cavalry", "Lanciers");
        let (blue_n, red_n) = (a.nation("Blue"), a.nation("Red"));
        let town = a.app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM towns WHERE world_id = {} AND name = 'Village'",
            a.world
        ));
        // The church is Blue's already (a game master gave it), the rest of the town Red's;
        // a road runs through the town and cannot be owned.
        for (x, t, owner) in [
            (8, "village", Some("Red")),
            (9, "church", Some("Blue")),
            (10, "town", Some("Red")),
            (11, "road", None),
        ] {
            a.paint(x, 5, t, owner, None);
            a.exec(&format!(
                "UPDATE cells SET town_id = {town} WHERE world_id = {} AND x = {x} AND y = 5",
                a.world
            ));
        }
        a.put(id, 7, 5);
        let r = a.act(&mut blue, id, "move", json!({"path": [[8, 5], [9, 5]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["captures"][0]["what"], "town", "{}", r.body);
        assert_eq!(r.json()["captures"][0]["from"], red_n, "{}", r.body);
        for x in [8, 9, 10] {
            assert_eq!(a.cell_owner(x, 5), blue_n, "cell {x}");
        }
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM cells WHERE world_id = {} AND x = 11 AND y = 5 AND owner_id IS NULL",
                a.world
            )),
            1,
            "the road stays without an owner"
        );
        // Entering the church again takes nothing and says nothing.
        a.put(id, 9, 4);
        let r = a.act(&mut blue, id, "move", json!({"path": [[9, 5]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["captures"], json!([]), "{}", r.body);
        assert_eq!(r.json()["summary"], "Lanciers moved to (9, 5) for 1 AP");
        // The world after the capture exports, and the export imports as a new world.
        let file = grognard::game::maps::worlds::export(
            &mut a.app.conn(),
            grognard::ids::WorldId(a.world as i32),
        )
        .unwrap();
        let mut text = serde_json::to_value(&file).unwrap();
        text["name"] = json!("Arena again");
        let again = grognard::game::maps::worlds::import_text(
            &mut a.app.conn(),
            &a.app.config.rules,
            &text.to_string(),
            None,
        )
        .expect("the exported world imports");
        assert_ne!(i64::from(again.0), a.world);
        assert_ne!(blue_n, red_n);
    }
);

both!(entering_captures_mines_towns_and_breached_forts, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let id = a.raise(&mut blue, "cavalry", "Lanciers");
    let (blue_n, red_n) = (a.nation("Blue"), a.nation("Red"));
    a.put(id, 5, 5);
    a.paint(6, 5, "mine", Some("Red"), None);
    let r = a.act(&mut blue, id, "move", json!({"path": [[6, 5]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(a.cell_owner(6, 5), blue_n);
    assert_eq!(r.json()["captures"][0]["what"], "mine");
    // The church takes the whole town.
    let town = a.app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM towns WHERE world_id = {} AND name = 'Village'",
        a.world
    ));
    for (x, t) in [(8, "village"), (9, "church"), (10, "town")] {
        a.paint(x, 5, t, Some("Red"), None);
        a.exec(&format!(
            "UPDATE cells SET town_id = {town} WHERE world_id = {} AND x = {x} AND y = 5",
            a.world
        ));
    }
    let r = a.act(
        &mut blue,
        id,
        "move",
        json!({"path": [[7, 5], [8, 5], [9, 5]]}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    for x in [8, 9, 10] {
        assert_eq!(a.cell_owner(x, 5), blue_n, "cell {x}");
    }
    assert_eq!(
        a.app.count(&format!(
            "SELECT CAST(owner_id AS BIGINT) AS n FROM towns WHERE id = {town}"
        )),
        blue_n
    );
    // Red reads that it lost the town.
    let mut red = a.red.clone();
    let ev = red
        .get_json(&format!("/api/v1/worlds/{}/events", a.world))
        .json();
    assert!(ev["events"][0]["summary"]
        .as_str()
        .unwrap()
        .contains("took the town of Village"));
    // A breached fort, empty, is taken by entering it.
    a.put(id, 12, 5);
    a.paint(13, 5, "fort", Some("Red"), Some(0));
    assert_eq!(
        a.act(&mut blue, id, "move", json!({"path": [[13, 5]]}))
            .status,
        200
    );
    assert_eq!(a.cell_owner(13, 5), blue_n);
    assert_ne!(blue_n, red_n);
});

both!(bombard_repair_bridge_heal_and_reinforce, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let gun = a.raise(&mut blue, "artillery", "Gribeauval");
    let sap = a.raise(&mut red, "sappers", "Pontonniers");
    let inf = a.raise(&mut blue, "infantry", "Ligne");
    a.put(gun, 2, 2);
    a.put(sap, 7, 3);
    a.paint(6, 2, "fort", Some("Red"), Some(15));
    let r = a.act(&mut blue, gun, "bombard", json!({"at": [6, 2]}));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let d = v["report"]["draws"][0]["value"].as_i64().unwrap();
    assert!((1..=3).contains(&d));
    assert_eq!(v["report"]["after"].as_i64(), Some(15 - d));
    assert_eq!(v["company"]["ap"].as_i64(), Some(10));
    // Red's sappers, next to it, repair 2 points.
    let r = a.act(&mut red, sap, "repair", json!({"at": [6, 2]}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json()["report"]["after"].as_i64(),
        Some((15 - d + 2).min(15))
    );
    a.refused(
        &mut blue,
        inf,
        "repair",
        json!({"at": [6, 2]}),
        "not_sappers",
    );
    a.refused(
        &mut red,
        sap,
        "repair",
        json!({"at": [1, 1]}),
        "no_structure",
    );
    a.refused(
        &mut red,
        sap,
        "build-bridge",
        json!({"at": [8, 3]}),
        "not_river",
    );
    a.paint(8, 3, "river", None, None);
    a.paint(9, 3, "river", None, None);
    a.refused(
        &mut red,
        sap,
        "build-bridge",
        json!({"at": [9, 3]}),
        "not_adjacent",
    );
    let r = a.act(&mut red, sap, "build-bridge", json!({"at": [8, 3]}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) FROM cells WHERE world_id = {} AND terrain = 'bridge'",
            a.world
        )),
        1
    );
    a.paint(2, 9, "fortifications", Some("Red"), Some(12));
    a.refused(
        &mut blue,
        gun,
        "bombard",
        json!({"at": [2, 9]}),
        "out_of_range",
    );
    // Heal 10 (15 on animals).
    a.set(inf, "men = 150, wounded = 30");
    a.put(inf, 0, 5);
    let r = a.act(&mut blue, inf, "heal", json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let c = a.company(&mut blue, inf);
    assert_eq!(
        (c["men"].as_i64(), c["wounded"].as_i64(), c["ap"].as_i64()),
        (Some(160), Some(20), Some(20))
    );
    a.paint(0, 5, "animals", None, None);
    a.act(&mut blue, inf, "heal", json!(null));
    let c = a.company(&mut blue, inf);
    assert_eq!(
        (c["men"].as_i64(), c["wounded"].as_i64()),
        (Some(175), Some(5))
    );
    // Reinforce on an owned farm: reserve men in, one resource each.
    a.refused(
        &mut blue,
        inf,
        "reinforce",
        json!({"men": 10}),
        "no_reinforcement_here",
    );
    a.paint(0, 5, "farm", Some("Red"), None);
    a.exec(&format!(
        "UPDATE players SET reserve = 40 WHERE world_id = {}",
        a.world
    ));
    a.refused(&mut blue, inf, "reinforce", json!({"men": 10}), "not_owned");
    a.paint(0, 5, "farm", Some("Blue"), None);
    a.refused(&mut blue, inf, "reinforce", json!({"men": 0}), "invalid");
    let treasury = |a: &Arena| {
        a.app.count(&format!(
            "SELECT CAST(treasury AS BIGINT) AS n FROM nations WHERE id = {}",
            a.nation("Blue")
        ))
    };
    let before = treasury(&a);
    let r = a.act(&mut blue, inf, "reinforce", json!({"men": 20}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(a.company(&mut blue, inf)["men"].as_i64(), Some(195));
    assert_eq!(treasury(&a), before - 20);
    // 3 resources left: 3 of the 5 asked join, and the answer says so.
    a.set(inf, "men = 150");
    a.exec(&format!(
        "UPDATE nations SET treasury = 3 WHERE id = {}",
        a.nation("Blue")
    ));
    let r = a.act(&mut blue, inf, "reinforce", json!({"men": 5}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (
            r.json()["report"]["men"].as_i64(),
            r.json()["report"]["asked"].as_i64()
        ),
        (Some(3), Some(5))
    );
    assert_eq!(r.json()["report"]["limited_by"], "treasury");
    assert!(
        r.json()["summary"]
            .as_str()
            .unwrap()
            .contains("took 3 men from the reserve for 3 (5 asked: the treasury is spent)"),
        "{}",
        r.body
    );
    assert_eq!(a.company(&mut blue, inf)["men"].as_i64(), Some(153));
    assert_eq!(treasury(&a), 0);
    a.refused(&mut blue, inf, "reinforce", json!({"men": 5}), "treasury");
    // The reserve holds 17 (40 less 20 and 3): 30 asked, room for 47, 17 join.
    a.exec(&format!(
        "UPDATE nations SET treasury = 1000 WHERE id = {}",
        a.nation("Blue")
    ));
    let r = a.act(&mut blue, inf, "reinforce", json!({"men": 30}));
    assert_eq!(
        (
            r.json()["report"]["men"].as_i64(),
            r.json()["report"]["limited_by"].as_str()
        ),
        (Some(17), Some("reserve")),
        "{}",
        r.body
    );
    a.refused(
        &mut blue,
        inf,
        "reinforce",
        json!({"men": 5}),
        "reserve_empty",
    );
});

both!(a_destroyed_company_leaves_the_map, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let gun = a.raise(&mut blue, "artillery", "Gros canons");
    let victim = a.raise(&mut red, "infantry", "Remnant");
    a.put(gun, 2, 2);
    a.put(victim, 4, 2);
    a.set(victim, "men = 3, wounded = 40");
    let r = a.act(&mut blue, gun, "volley", json!({"target": victim}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["report"]["defender"]["destroyed"], true);
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) FROM companies WHERE id = {victim}"
        )),
        0
    );
    assert_eq!(
        red.get_json(&format!("/api/v1/companies/{victim}")).status,
        404
    );
    let summary = crate::support::db::count(
        &mut a.app.conn(),
        &format!("SELECT COUNT(*) FROM events WHERE target_company_id = {victim}"),
    );
    assert_eq!(summary, 1);
});

both!(regiments_and_their_headquarters, |b| {
    let a = arena(b);
    let w = a.world;
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/regiments"),
        json!({"name": "Garde"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let rid = r.json()["id"].as_i64().unwrap();
    // Another nation's regiment answers as one that does not exist.
    let r = red.post_json(
        &format!("/api/v1/worlds/{w}/regiments/{rid}/join"),
        json!({}),
    );
    assert_eq!((r.status, r.code()), (404, "not_found".to_string()));
    let r = red.post_json(
        &format!("/api/v1/worlds/{w}/regiments/999999/join"),
        json!({}),
    );
    assert_eq!((r.status, r.code()), (404, "not_found".to_string()));
    assert_eq!(
        blue.post_json(
            &format!("/api/v1/worlds/{w}/regiments"),
            json!({"name": "Garde"})
        )
        .code(),
        "conflict"
    );
    a.paint(3, 3, "farm", Some("Red"), None);
    let r = blue.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/regiments/{rid}/headquarters"),
        Some(json!({"at": [3, 3]})),
    );
    assert_eq!(r.code(), "not_owned");
    a.paint(3, 4, "plain", None, None);
    let r = blue.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/regiments/{rid}/headquarters"),
        Some(json!({"at": [3, 4]})),
    );
    assert_eq!(r.code(), "not_headquarters");
    a.paint(3, 3, "farm", Some("Blue"), None);
    let r = blue.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/regiments/{rid}/headquarters"),
        Some(json!({"at": [3, 3]})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["headquarters"], json!([3, 3]));
    // A company 2 cells from the farm gains the regiment's +1 morale on top of the turn's +1.
    let id = a.raise(&mut blue, "infantry", "Garde 1");
    a.put(id, 5, 5);
    a.set(id, "morale = 2");
    let rs = a.app.config.rules.clone();
    let turn = |at: i64| {
        let out = grognard::game::time::ticks::apply(
            &mut a.app.conn(),
            &rs,
            grognard::ids::WorldId(w as i32),
            grognard::game::time::ticks::TickKind::Turn,
            at,
            false,
        )
        .unwrap();
        assert!(out.applied);
    };
    turn(1_000_000);
    assert_eq!(a.company(&mut blue, id)["morale"].as_i64(), Some(4));
    // The game master turns the farm into a village, still Blue's: no headquarters stands.
    a.paint(3, 3, "village", Some("Blue"), None);
    turn(1_000_001);
    assert_eq!(a.company(&mut blue, id)["morale"].as_i64(), Some(5));
});

both!(nations_show_holdings_and_members_to_their_own, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    a.raise(&mut blue, "infantry", "One");
    a.paint(5, 5, "mine", Some("Blue"), None);
    a.paint(6, 6, "fort", Some("Blue"), Some(15));
    let v = blue
        .get_json(&format!("/api/v1/worlds/{}/nations", a.world))
        .json();
    let list = v["nations"].as_array().unwrap();
    let blue_n = list.iter().find(|n| n["name"] == "Blue").unwrap();
    let red_n = list.iter().find(|n| n["name"] == "Red").unwrap();
    assert_eq!(
        (
            blue_n["mines"].as_i64(),
            blue_n["forts"].as_i64(),
            blue_n["companies"].as_i64(),
            blue_n["players"].as_i64()
        ),
        (Some(1), Some(1), Some(1), Some(1))
    );
    // Score: 5 per mine + 5 per fort + 1 per company; Red holds the town: 10 on the ground,
    // its whole score withheld from Blue with its companies.
    assert_eq!(blue_n["score"].as_i64(), Some(11));
    assert_eq!(blue_n["ground_score"].as_i64(), Some(10));
    assert_eq!(red_n["ground_score"].as_i64(), Some(10));
    assert!(red_n["score"].is_null() && red_n["companies"].is_null());
    assert_eq!(red_n["towns"], json!(["Village"]));
    assert_eq!(blue_n["members"], json!(["blue_player"]));
    assert!(
        red_n["members"].is_null(),
        "another nation's members are not listed"
    );
});

both!(
    fifty_concurrent_one_step_moves_apply_exactly_the_affordable_three,
    |b| {
        let a = arena(b);
        let mut blue = a.blue.clone();
        let id = a.raise(&mut blue, "infantry", "Racers");
        a.put(id, 5, 5);
        a.set(id, "ap = 3");
        let handles: Vec<_> = (0..50)
            .map(|i| {
                let mut c = blue.clone();
                let target = if i % 2 == 0 { [6, 5] } else { [5, 5] };
                std::thread::spawn(move || {
                    c.post_json(
                        &format!("/api/v1/companies/{id}/move"),
                        json!({"path": [target]}),
                    )
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert!(
            results.iter().all(|r| r.status < 500),
            "no 500: {:?}",
            results.iter().map(|r| r.status).collect::<Vec<_>>()
        );
        let ok = results.iter().filter(|r| r.status == 200).count();
        assert_eq!(
            ok,
            3,
            "{:?}",
            results
                .iter()
                .map(|r| (r.status, r.body.clone()))
                .filter(|(s, _)| *s != 200)
                .take(3)
                .collect::<Vec<_>>()
        );
        let c = a.company(&mut blue, id);
        assert_eq!(c["ap"].as_i64(), Some(0));
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM events WHERE kind = 'move' AND company_id = {id}"
            )),
            3
        );
    }
);

both!(two_companies_racing_for_one_cell_one_wins, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    for round in 0..5 {
        let x = 3 + round * 2;
        let c1 = a.raise(&mut blue, "cavalry", &format!("B{round}"));
        let c2 = a.raise(&mut red, "cavalry", &format!("R{round}"));
        a.put(c1, x - 1, 4);
        a.put(c2, x + 1, 4);
        let (mut p, mut q) = (blue.clone(), red.clone());
        let t1 = std::thread::spawn(move || {
            p.post_json(
                &format!("/api/v1/companies/{c1}/move"),
                json!({"path": [[x, 4]]}),
            )
        });
        let t2 = std::thread::spawn(move || {
            q.post_json(
                &format!("/api/v1/companies/{c2}/move"),
                json!({"path": [[x, 4]]}),
            )
        });
        let (r1, r2) = (t1.join().unwrap(), t2.join().unwrap());
        let mut statuses = [r1.status, r2.status];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "{} / {}", r1.body, r2.body);
        let loser = if r1.status == 409 { &r1 } else { &r2 };
        assert_eq!(loser.code(), "occupied");
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM companies WHERE world_id = {} AND x = {x} AND y = 4",
                a.world
            )),
            1
        );
        a.exec(&format!("DELETE FROM companies WHERE id IN ({c1}, {c2})"));
    }
});

both!(
    a_player_on_leave_is_frozen_neither_acting_nor_attacked_and_cannot_dodge_a_battle,
    |b| {
        let a = arena(b);
        let w = a.world;
        let (mut blue, mut red, inf, foe) = a.facing();
        let leave = |c: &mut Client, days: i32| {
            c.post_json(&format!("/api/v1/worlds/{w}/leave"), json!({"days": days}))
        };
        // 2 to 21 days.
        for days in [1, 22] {
            let r = leave(&mut blue, days);
            assert_eq!(
                (r.status, r.code().as_str()),
                (422, "leave_length"),
                "{}",
                r.body
            );
        }
        // Red fires at Blue: Blue cannot slip away on leave for 24 hours.
        let r = a.act(&mut red, foe, "volley", json!({"target": inf}));
        assert_eq!(r.status, 200, "{}", r.body);
        let r = leave(&mut blue, 5);
        assert_eq!(r.code(), "recent_fight", "{}", r.body);
        assert!(r.body.contains("fought too recently"), "{}", r.body);
        // A day later it may.
        a.exec(&format!(
            "UPDATE events SET at = at - 90000 WHERE world_id = {w}"
        ));
        let r = leave(&mut blue, 5);
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(r.json()["leave_until"].as_str().is_some(), "{}", r.body);
        // Frozen: no orders, no new company, no second leave (none cut short either).
        a.refused(
            &mut blue,
            inf,
            "move",
            json!({"path": [[5, 6]]}),
            "on_leave",
        );
        let r = blue.post_json(
            &format!("/api/v1/worlds/{w}/companies"),
            json!({"kind": "cavalry", "name": "Hussards"}),
        );
        assert_eq!(r.code(), "on_leave", "{}", r.body);
        assert_eq!(leave(&mut blue, 2).code(), "on_leave");
        // Not attacked: the enemy sees it "on leave" and its volley is refused, changing nothing.
        let m = red
            .get_json(&format!("/api/v1/worlds/{w}/map?x0=0&y0=0&x1=15&y1=9"))
            .json();
        let seen = m["companies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"].as_i64() == Some(inf))
            .cloned()
            .unwrap();
        assert_eq!(seen["on_leave"], true);
        a.refused(&mut red, foe, "volley", json!({"target": inf}), "on_leave");
        a.put(foe, 6, 5);
        a.refused(&mut red, foe, "melee", json!({"target": inf}), "on_leave");
        // The turn passes it by; the enemy's company takes its AP.
        a.set(inf, "ap = 3");
        a.set(foe, "ap = 3");
        let rs = a.app.config.rules.clone();
        grognard::game::time::ticks::apply(
            &mut a.app.conn(),
            &rs,
            grognard::ids::WorldId(w as i32),
            grognard::game::time::ticks::TickKind::Turn,
            grognard::db::now(),
            false,
        )
        .unwrap();
        assert_eq!(a.company(&mut blue, inf)["ap"].as_i64(), Some(3));
        assert_eq!(a.company(&mut red, foe)["ap"].as_i64(), Some(3 + 6));
        // The leave ends at its date: then all is as before.
        a.exec(&format!(
            "UPDATE players SET leave_until = {} WHERE world_id = {w} AND nation_id = {}",
            grognard::db::now() - 1,
            a.nation("Blue")
        ));
        let r = a.act(&mut blue, inf, "move", json!({"path": [[5, 6]]}));
        assert_eq!(r.status, 200, "{}", r.body);
    }
);

both!(no_one_goes_on_leave_while_a_turn_is_being_applied, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, _red, inf, _foe) = a.facing();
    // A turn begun and not yet through its companies (as between two of its chunks):
    // leave now would have it pass some of Blue's companies by and not others.
    let last = a.app.count(&format!(
        "SELECT CAST(MAX(id) AS BIGINT) AS n FROM companies WHERE world_id = {w}"
    ));
    a.exec(&format!("INSERT INTO ticks (world_id, kind, scheduled_for, applied_at, pending, companies_through, companies_last) \
             VALUES ({w}, 'turn', 1000, 0, TRUE, 0, {last})"));
    a.set(inf, "ap = 3");
    let leave =
        |c: &mut Client| c.post_json(&format!("/api/v1/worlds/{w}/leave"), json!({"days": 5}));
    let r = leave(&mut blue);
    assert_eq!(
        (r.status, r.code().as_str()),
        (409, "conflict"),
        "{}",
        r.body
    );
    assert!(r.body.contains("a turn is being applied"), "{}", r.body);
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) AS n FROM players WHERE world_id = {w} AND leave_until IS NOT NULL"
        )),
        0
    );
    // Once the turn is through, the company has had it and leave may begin.
    let rs = a.app.config.rules.clone();
    let out = grognard::game::time::ticks::finish_pending(
        &mut a.app.conn(),
        &rs,
        grognard::ids::WorldId(w as i32),
    )
    .unwrap()
    .unwrap();
    assert_eq!(out.turn, 1);
    assert_eq!(a.company(&mut blue, inf)["ap"].as_i64(), Some(3 + 6));
    let r = leave(&mut blue);
    assert_eq!(r.status, 200, "{}", r.body);
});

both!(
    an_event_of_a_kind_this_version_does_not_know_is_left_out,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut c = crate::support::player(&a.app, "chroniqueur");
        crate::support::join_and_raise(&mut c, w, "Blue", "infantry", "Garde");
        // A world-wide row, as a version with another kind of event would have left it.
        a.exec(&format!(
            "INSERT INTO events (world_id, turn, at, kind, summary, data) \
         VALUES ({w}, 0, {}, 'parley', 'A parley under a white flag', '{{}}')",
            grognard::db::now()
        ));
        let r = a
            .blue
            .clone()
            .get_json(&format!("/api/v1/worlds/{w}/events"));
        assert_eq!(r.status, 200, "{}", r.body);
        let kinds: Vec<String> = r.json()["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["kind"].as_str().unwrap().to_string())
            .collect();
        assert!(!kinds.iter().any(|k| k == "parley"), "{kinds:?}");
        let page = c.get(&format!("/worlds/{w}/reports"));
        assert_eq!(page.status, 200, "{}", page.body);
        assert!(page.body.contains("Garde"), "{}", page.body);
        assert!(!page.body.contains("white flag"), "{}", page.body);
    }
);
