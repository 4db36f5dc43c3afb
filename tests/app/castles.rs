//! Castles over HTTP (docs/rules.md §12): climbing by ladder and hooks, the stairs, gates,
//! breaches and the step down the outside, each refusal with its code and nothing written,
//! two companies climbing the same wall at once, and castles in the map file.

use crate::both;
use crate::support::fixtures::{arena, gm_api, Arena};
use grognard::game::maps::mapfile::MAX_PLACE_NAME;
use serde_json::json;

/// Red's castle in the arena, drawn straight into the database:
///
/// ```text
///     5 6 7 8 9
///   2 T # G # T
///   3 # _ _ _ #
///   4 T # # # T
/// ```
fn castle(a: &Arena) {
    let rows = [(2, "T#G#T"), (3, "#___#"), (4, "T###T")];
    for (y, row) in rows {
        for (i, ch) in row.chars().enumerate() {
            let x = 5 + i as i32;
            let (terrain, structure) = match ch {
                'T' => ("tower", Some(15)),
                '#' => ("wall", Some(12)),
                'G' => ("gate", Some(7)),
                _ => ("courtyard", None),
            };
            let owner = structure.map(|_| "Red");
            a.paint(x, y, terrain, owner, structure);
        }
    }
}

/// The castle of `castle`, named "Fort" by a game master, so that its sections are worked
/// out: the game master's client.
fn castle_named(a: &Arena) -> crate::support::client::Client {
    castle(a);
    let mut gm = gm_api(&a.app, "arbitre");
    for (x, y) in [(5, 2), (9, 2), (5, 4), (9, 4)] {
        let r = gm.json(
            "PUT",
            &format!("/api/v1/worlds/{}/cells/{x}/{y}", a.world),
            Some(json!({"castle": "Fort"})),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    gm
}

fn owner_is(a: &Arena, x: i32, y: i32, nation: &str) -> bool {
    a.cell_owner(x, y) == a.nation(nation)
}

both!(
    a_ladder_takes_an_enemy_wall_as_a_whole_move_and_each_refusal_writes_nothing,
    |b| {
        let a = arena(b);
        castle(&a);
        let mut blue = a.blue.clone();
        let ligne = a.raise(&mut blue, "infantry", "Ligne");
        // Not the first step of the move: refused, nothing written.
        a.put(ligne, 5, 0);
        let r = a.refused(
            &mut blue,
            ligne,
            "move",
            json!({"path": [[6, 1], [6, 2]]}),
            "ladder_first_step",
        );
        assert!(r["error"]["message"].as_str().unwrap().contains("(6, 2)"));
        // The climb itself: the ladder's 4 AP, and the wall is Blue's.
        a.put(ligne, 6, 1);
        let ap = a.company(&mut blue, ligne)["ap"].as_i64().unwrap();
        let r = a.act(&mut blue, ligne, "move", json!({"path": [[6, 2]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["ap"].as_i64(), Some(ap - 4), "{}", r.body);
        assert_eq!(r.json()["captures"][0]["what"], "castle", "{}", r.body);
        assert!(owner_is(&a, 6, 2, "Blue"));
        // From the wall the stairs lead into the courtyard; going on after a climb does not.
        a.put(ligne, 6, 1);
        a.paint(6, 2, "wall", Some("Red"), Some(12));
        a.refused(
            &mut blue,
            ligne,
            "move",
            json!({"path": [[6, 2], [6, 3]]}),
            "ladder_first_step",
        );
        // A tower takes hooks: infantry may not, voltigeurs may.
        a.put(ligne, 4, 1);
        a.refused(
            &mut blue,
            ligne,
            "move",
            json!({"path": [[5, 2]]}),
            "cannot_climb",
        );
        let volt = a.raise(&mut blue, "voltigeurs", "Grappins");
        a.put(volt, 10, 1);
        let r = a.act(&mut blue, volt, "move", json!({"path": [[9, 2]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(owner_is(&a, 9, 2, "Blue"));
        // Cavalry never climbs; an enemy gate is closed while it stands.
        let hussards = a.raise(&mut blue, "cavalry", "Hussards");
        a.put(hussards, 8, 1);
        a.refused(
            &mut blue,
            hussards,
            "move",
            json!({"path": [[8, 2]]}),
            "cannot_climb",
        );
        a.put(hussards, 7, 1);
        a.refused(
            &mut blue,
            hussards,
            "move",
            json!({"path": [[7, 2]]}),
            "gate_closed",
        );
        // The destination move plans no climb mid-path: from afar there is no way up.
        a.put(ligne, 2, 0);
        a.refused(&mut blue, ligne, "move", json!({"to": [6, 2]}), "no_path");
    }
);

both!(
    a_broken_gate_lets_everyone_in_and_its_own_nation_passes_a_standing_one,
    |b| {
        let a = arena(b);
        castle(&a);
        let mut red = a.red.clone();
        let mut blue = a.blue.clone();
        // Red's cavalry rides out through its own gate.
        let cosaques = a.raise(&mut red, "cavalry", "Cosaques");
        a.put(cosaques, 7, 3);
        let r = a.act(
            &mut red,
            cosaques,
            "move",
            json!({"path": [[7, 2], [7, 1]]}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(a.position(cosaques), (7, 1));
        // Broken, the gate lets Blue's cavalry in for the breach's 2 AP and becomes Blue's.
        a.paint(7, 2, "gate", Some("Red"), Some(0));
        let hussards = a.raise(&mut blue, "cavalry", "Hussards");
        a.put(hussards, 6, 1);
        let ap = a.company(&mut blue, hussards)["ap"].as_i64().unwrap();
        let r = a.act(
            &mut blue,
            hussards,
            "move",
            json!({"path": [[7, 2], [7, 3]]}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["ap"].as_i64(), Some(ap - 2 - 1), "{}", r.body);
        assert!(owner_is(&a, 7, 2, "Blue"));
        // A breached wall: cavalry in, artillery not.
        a.paint(5, 3, "wall", Some("Red"), Some(0));
        let canons = a.raise(&mut blue, "artillery", "Canons");
        a.put(canons, 4, 3);
        a.refused(
            &mut blue,
            canons,
            "move",
            json!({"path": [[5, 3]]}),
            "cannot_climb",
        );
    }
);

both!(
    two_companies_climbing_the_same_wall_at_once_one_gets_it,
    |b| {
        let a = arena(b);
        castle(&a);
        let mut blue = a.blue.clone();
        let mut red = a.red.clone();
        for round in 0..4 {
            // Red's wall at (8, 4) is climbed from outside by Blue, and Red takes its stairs.
            a.paint(8, 4, "wall", Some("Red"), Some(12));
            let climber = a.raise(&mut blue, "infantry", &format!("B{round}"));
            let defender = a.raise(&mut red, "infantry", &format!("R{round}"));
            a.put(climber, 8, 5);
            a.put(defender, 8, 3);
            let (mut p, mut q) = (blue.clone(), red.clone());
            let t1 = std::thread::spawn(move || {
                p.post_json(
                    &format!("/api/v1/companies/{climber}/move"),
                    json!({"path": [[8, 4]]}),
                )
            });
            let t2 = std::thread::spawn(move || {
                q.post_json(
                    &format!("/api/v1/companies/{defender}/move"),
                    json!({"path": [[8, 4]]}),
                )
            });
            let (r1, r2) = (t1.join().unwrap(), t2.join().unwrap());
            let mut statuses = [r1.status, r2.status];
            statuses.sort();
            assert_eq!(statuses, [200, 409], "{} / {}", r1.body, r2.body);
            assert_eq!(
                a.app.count(&format!(
                    "SELECT COUNT(*) FROM companies WHERE world_id = {} AND x = 8 AND y = 4",
                    a.world
                )),
                1
            );
            // The wall is the winner's nation's.
            let winner = if r1.status == 200 { "Blue" } else { "Red" };
            assert!(owner_is(&a, 8, 4, winner), "round {round}");
            a.exec(&format!(
                "DELETE FROM companies WHERE id IN ({climber}, {defender})"
            ));
        }
    }
);

both!(
    castles_travel_in_the_map_file_and_a_bad_one_is_refused_by_name,
    |b| {
        let a = arena(b);
        let mut gm = gm_api(&a.app, "arbitre");
        let map = json!({"name": "Fortress", "width": 6, "height": 4,
            "nations": [{"name": "A", "color": "#000000", "spawn": [0, 0]}],
            "castles": [{"name": "Alcazar"}],
            "cells": [{"x": 2, "y": 1, "terrain": "tower", "owner": "A", "castle": "Alcazar"},
                      {"x": 3, "y": 1, "terrain": "gate", "owner": "A", "castle": "Alcazar"},
                      {"x": 3, "y": 2, "terrain": "courtyard", "castle": "Alcazar"},
                      {"x": 4, "y": 2, "terrain": "building"}]});
        let r = gm.post_json("/api/v1/worlds", map.clone());
        assert_eq!(r.status, 201, "{}", r.body);
        let id = r.json()["id"].as_i64().unwrap();
        let export = gm.get_json(&format!("/api/v1/worlds/{id}/export")).json();
        assert_eq!(export["castles"], json!([{"name": "Alcazar"}]));
        let gate = export["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["terrain"] == "gate")
            .unwrap()
            .clone();
        assert_eq!(gate["castle"], "Alcazar");
        assert_eq!(gate["structure"], 7, "a castle cell starts whole");
        // Imported again, it exports the same.
        let r = gm.post_json("/api/v1/worlds", export.clone());
        assert_eq!(r.status, 201, "{}", r.body);
        let again = gm
            .get_json(&format!("/api/v1/worlds/{}/export", r.json()["id"]))
            .json();
        let strip = |mut v: serde_json::Value| {
            v.as_object_mut().unwrap().remove("rng_seed");
            v
        };
        assert_eq!(strip(again), strip(export));
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM cells c JOIN castles k ON k.id = c.castle_id WHERE c.world_id = {id} AND k.name = 'Alcazar'"
            )),
            3
        );
        // An unknown castle or one named twice: refused with the entry named, nothing written.
        let worlds = a.app.count("SELECT COUNT(*) FROM worlds");
        let mut bad = map.clone();
        bad["cells"][0]["castle"] = json!("Atlantis");
        let r = gm.post_json("/api/v1/worlds", bad);
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            r.body.contains("cells[0]") && r.body.contains("Atlantis"),
            "{}",
            r.body
        );
        let mut twice = map;
        twice["castles"] = json!([{"name": "Alcazar"}, {"name": "Alcazar"}]);
        let r = gm.post_json("/api/v1/worlds", twice);
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body.contains("castles[1]"), "{}", r.body);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM worlds"), worlds);
    }
);

both!(
    rams_and_siege_towers_take_a_castle_and_the_report_says_why,
    |b| {
        let a = arena(b);
        castle(&a);
        let mut blue = a.blue.clone();
        let mut red = a.red.clone();
        // The ram: infantry at the gate, 2–4 points a blow, 6 AP.
        let belier = a.raise(&mut blue, "infantry", "Bélier");
        a.put(belier, 7, 1);
        let r = a.act(&mut blue, belier, "ram", json!({"at": [7, 2]}));
        assert_eq!(r.status, 200, "{}", r.body);
        let rep = r.json()["report"].clone();
        let (before, after) = (
            rep["before"].as_i64().unwrap(),
            rep["after"].as_i64().unwrap(),
        );
        assert_eq!(before, 7);
        assert!((3..=5).contains(&after), "{rep}");
        assert_eq!(rep["draws"][0]["value"].as_i64(), Some(before - after));
        assert_eq!(
            a.app.count(&format!(
                "SELECT CAST(structure AS BIGINT) AS n FROM cells WHERE world_id = {} AND x = 7 AND y = 2",
                a.world
            )),
            after
        );
        // Not a wall, not cavalry, not from afar: refused, nothing written.
        a.refused(&mut blue, belier, "ram", json!({"at": [6, 2]}), "not_gate");
        let hussards = a.raise(&mut blue, "cavalry", "Hussards");
        a.put(hussards, 8, 1);
        a.refused(
            &mut blue,
            hussards,
            "ram",
            json!({"at": [7, 2]}),
            "cannot_ram",
        );
        a.put(belier, 7, 0);
        a.refused(
            &mut blue,
            belier,
            "ram",
            json!({"at": [7, 2]}),
            "not_adjacent",
        );
        // Rammed until it gives way: then everyone passes and the gate is Blue's.
        a.put(belier, 7, 1);
        let mut broken = false;
        for _ in 0..6 {
            a.set(belier, "ap = 24");
            let r = a.act(&mut blue, belier, "ram", json!({"at": [7, 2]}));
            assert_eq!(r.status, 200, "{}", r.body);
            if r.json()["report"]["breached"] == true {
                broken = true;
                break;
            }
        }
        assert!(broken);
        a.refused(
            &mut blue,
            belier,
            "ram",
            json!({"at": [7, 2]}),
            "already_breached",
        );
        let r = a.act(
            &mut blue,
            hussards,
            "move",
            json!({"path": [[7, 2], [7, 3]]}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(owner_is(&a, 7, 2, "Blue"));

        // A siege tower: sappers next to the east wall, three builds of 8 AP.
        let sapeurs = a.raise(&mut blue, "sappers", "Sapeurs");
        a.put(sapeurs, 11, 3);
        a.refused(
            &mut blue,
            sapeurs,
            "build-siege-tower",
            json!({"at": [12, 3]}),
            "no_enemy_wall",
        );
        for build in 1..=3 {
            a.set(sapeurs, "ap = 24");
            let r = a.act(
                &mut blue,
                sapeurs,
                "build-siege-tower",
                json!({"at": [10, 3]}),
            );
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(r.json()["report"]["builds_after"], build);
            assert_eq!(r.json()["report"]["finished"], build == 3);
        }
        a.set(sapeurs, "ap = 24");
        a.refused(
            &mut blue,
            sapeurs,
            "build-siege-tower",
            json!({"at": [10, 3]}),
            "full_structure",
        );
        let map = blue
            .get_json(&format!(
                "/api/v1/worlds/{}/map?x0=10&y0=3&x1=10&y1=3",
                a.world
            ))
            .json();
        assert_eq!(
            map["cells"][0]["siege_tower"],
            json!({"builds": 3, "structure": 6, "finished": true})
        );
        // From the tower a company steps onto the wall as part of a longer move, and fights
        // the defender there without the first strike.
        let grenadiers = belier;
        a.set(grenadiers, "ap = 24");
        a.put(hussards, 12, 8);
        a.put(sapeurs, 11, 5);
        a.put(grenadiers, 10, 4);
        let r = a.act(
            &mut blue,
            grenadiers,
            "move",
            json!({"path": [[10, 3], [9, 3]]}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(owner_is(&a, 9, 3, "Blue"));
        let garde = a.raise(&mut red, "infantry", "Garde");
        a.put(garde, 9, 2);
        a.put(grenadiers, 10, 3);
        let r = a.act(&mut blue, grenadiers, "melee", json!({"target": garde}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            r.json()["report"]["notes"],
            json!(["close_quarters", "siege_tower"])
        );
        // From the plain below, the defenders on the tower strike first.
        a.put(grenadiers, 10, 1);
        a.set(grenadiers, "ap = 24");
        let r = a.act(&mut blue, grenadiers, "melee", json!({"target": garde}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            r.json()["report"]["notes"],
            json!(["close_quarters", "first_strike"])
        );
        // The reports page tells the ram, the tower and the fights, in both languages.
        let mut browser = a.app.client();
        assert_eq!(
            crate::support::fixtures::login(
                &mut browser,
                "blue_player",
                crate::support::fixtures::PASSWORD
            )
            .status,
            303
        );
        for (lang, ram, tower) in [
            ("en", "rammed the gate", "finished a siege tower"),
            (
                "fr",
                "frappe au bélier la porte",
                "achève une tour de siège",
            ),
        ] {
            browser.get(&format!("/lang/{lang}"));
            let page = browser.get(&format!("/worlds/{}/reports", a.world));
            assert_eq!(page.status, 200, "{}", page.body);
            assert!(page.body.contains(ram), "{lang}: {}", page.body);
            assert!(page.body.contains(tower), "{lang}");
        }
        // Artillery brings the tower down.
        let canons = a.raise(&mut red, "artillery", "Canons");
        a.put(canons, 10, 6);
        let mut gone = false;
        for _ in 0..6 {
            a.set(canons, "ap = 16");
            let r = a.act(&mut red, canons, "bombard", json!({"at": [10, 3]}));
            assert_eq!(r.status, 200, "{}", r.body);
            if r.json()["report"]["breached"] == true {
                assert_eq!(r.json()["report"]["siege_tower"], true);
                gone = true;
                break;
            }
        }
        assert!(gone);
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM cells WHERE world_id = {} AND siege_builds IS NOT NULL",
                a.world
            )),
            0
        );
    }
);

both!(no_volley_into_or_out_of_a_building, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let ligne = a.raise(&mut blue, "infantry", "Ligne");
    let maison = a.raise(&mut red, "infantry", "Maison");
    a.paint(7, 5, "building", None, None);
    a.put(ligne, 5, 5);
    a.put(maison, 7, 5);
    a.refused(
        &mut blue,
        ligne,
        "volley",
        json!({"target": maison}),
        "volley_building",
    );
    a.refused(
        &mut red,
        maison,
        "volley",
        json!({"target": ligne}),
        "volley_building",
    );
    a.put(ligne, 6, 5);
    let r = a.act(&mut blue, ligne, "melee", json!({"target": maison}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["report"]["notes"], json!(["close_quarters"]));
});

both!(
    each_turn_gives_the_sections_their_holders_and_the_nations_their_points,
    |b| {
        use crate::support::fixtures::{join_and_raise, player};
        use crate::support::TestApp;
        let app = TestApp::spawn(b);
        // The demo's castle Mozhaisk (29..35, 9..13), Russia's.
        let nation = |name: &str| {
            app.count(&format!(
                "SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = 1 AND name = '{name}'"
            ))
        };
        let (france, russia) = (nation("France"), nation("Russia"));
        let mut ivan = player(&app, "ivan");
        let garde = join_and_raise(&mut ivan, 1, &russia.to_string(), "infantry", "Garde");
        let mut marie = player(&app, "marie");
        let ligne = join_and_raise(&mut marie, 1, &france.to_string(), "infantry", "Ligne");
        let put = |id: i64, x: i32, y: i32| {
            app.exec(&format!(
                "UPDATE companies SET x = {x}, y = {y} WHERE id = {id}"
            ))
        };
        // Russia on the north-west tower, France in the south-east quarter of the courtyard.
        put(garde, 29, 9);
        put(ligne, 34, 12);
        let mut anyone = app.client();
        let castles = anyone.get_json("/api/v1/worlds/1/castles");
        assert_eq!(castles.status, 200, "{}", castles.body);
        let v = castles.json();
        assert_eq!(v[0]["name"], "Mozhaisk");
        let sections = v[0]["sections"].as_array().unwrap().clone();
        assert_eq!(sections.len(), 4 + 1 + 5 + 4);
        assert!(
            sections.iter().all(|s| s["holder"].is_null()),
            "no turn yet"
        );
        let points_before = |n: i64| {
            app.count(&format!(
                "SELECT CAST(points AS BIGINT) AS n FROM nations WHERE id = {n}"
            ))
        };
        let (rb, fb) = (points_before(russia), points_before(france));
        let rs = app.config.rules.clone();
        assert!(
            grognard::game::time::ticks::apply(
                &mut app.conn(),
                &rs,
                grognard::ids::WorldId(1),
                grognard::game::time::ticks::TickKind::Turn,
                grognard::db::now(),
                false,
            )
            .unwrap()
            .applied
        );
        // Each nation is told the section it holds; a visitor no holder.
        let holder = |who: &mut crate::support::client::Client, name: &str| {
            let v = who.get_json("/api/v1/worlds/1/castles").json();
            v[0]["sections"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["name"] == name)
                .unwrap()["holder"]
                .clone()
        };
        let (mut ivan_api, mut marie_api) = (token(&app, "ivan"), token(&app, "marie"));
        assert_eq!(holder(&mut ivan_api, "tower 1"), "Russia");
        assert_eq!(holder(&mut marie_api, "courtyard SE"), "France");
        assert_eq!(holder(&mut ivan_api, "tower 2"), serde_json::Value::Null);
        for name in ["tower 1", "courtyard SE"] {
            assert_eq!(holder(&mut anyone, name), serde_json::Value::Null, "{name}");
        }
        // The world screen names the section of a picked cell, its holder told as above: the
        // tower (29, 9) is Russia's to Russia, unknown to France, which never saw it held.
        let picked = |who: &mut crate::support::client::Client| {
            who.get_json("/api/v1/worlds/1/screen?cell=29,9").json()["cell_section"].clone()
        };
        let seen = picked(&mut ivan_api);
        assert_eq!(seen["castle"], "Mozhaisk");
        assert_eq!(seen["name"], "tower 1");
        assert_eq!(seen["kind"], "tower");
        assert_eq!(seen["cells"], serde_json::json!([[29, 9]]));
        assert_eq!(seen["holder"], "Russia");
        assert_eq!(picked(&mut marie_api)["holder"], serde_json::Value::Null);
        assert_eq!(picked(&mut anyone)["holder"], serde_json::Value::Null);
        // A cell of no castle has no section.
        let plain = marie_api
            .get_json("/api/v1/worlds/1/screen?cell=2,2")
            .json();
        assert_eq!(plain["cell_section"], serde_json::Value::Null);
        // Each holds one section: 2 points each on top of towns and mines (the demo's Smolensk
        // is Russia's, Vitebsk France's; each owns one mine).
        let s = anyone.get_json("/api/v1/worlds/1/standings").json();
        let of = |n: &str| {
            s["nations"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["nation"] == n)
                .unwrap()
                .clone()
        };
        for (name, id, before) in [("Russia", russia, rb), ("France", france, fb)] {
            let line = of(name);
            assert_eq!(line["sections"], 1, "{name}");
            let gain = grognard::rules::victory::gain(
                &rs.victory,
                grognard::rules::victory::Holdings {
                    towns: line["towns"].as_i64().unwrap(),
                    mines: line["mines"].as_i64().unwrap(),
                    sections: 1,
                },
            );
            assert_eq!(points_before(id) - before, gain, "{name}");
        }
        // Both in the same quarter: contested, no one holds it after the next turn.
        put(garde, 33, 12);
        assert!(
            grognard::game::time::ticks::apply(
                &mut app.conn(),
                &rs,
                grognard::ids::WorldId(1),
                grognard::game::time::ticks::TickKind::Turn,
                grognard::db::now() + 10,
                false,
            )
            .unwrap()
            .applied
        );
        let v = marie_api.get_json("/api/v1/worlds/1/castles").json();
        let quarter = v[0]["sections"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "courtyard SE")
            .unwrap()
            .clone();
        assert_eq!(quarter["holder"], serde_json::Value::Null, "{quarter}");
        assert_eq!(anyone.get_json("/api/v1/worlds/9999/castles").status, 404);
    }
);

/// An API client with a token for a user who registered through the pages.
fn token(app: &crate::support::TestApp, name: &str) -> crate::support::client::Client {
    let mut c = app.client();
    let t = c.post_json(
        "/api/v1/tokens",
        json!({"username": name, "password": crate::support::fixtures::PASSWORD}),
    );
    assert_eq!(t.status, 201, "{}", t.body);
    c.bearer = Some(t.json()["token"].as_str().unwrap().to_string());
    c
}

/// The holders of the arena castle's sections as `who` reads them, by section name.
fn holders(
    a: &Arena,
    who: &mut crate::support::client::Client,
) -> Vec<(String, serde_json::Value)> {
    let r = who.get_json(&format!("/api/v1/worlds/{}/castles", a.world));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()[0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap().to_string(), s["holder"].clone()))
        .collect()
}

fn holder_of(h: &[(String, serde_json::Value)], name: &str) -> serde_json::Value {
    h.iter().find(|(n, _)| n == name).unwrap().1.clone()
}

both!(
    a_holder_is_told_to_its_nation_and_to_those_that_saw_it_at_the_turn,
    |b| {
        let a = arena(b);
        let mut gm = castle_named(&a);
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        // Red on two towers; Blue's company two cells from the first, six from the other.
        let garde = a.raise(&mut red, "infantry", "Garde");
        let tour = a.raise(&mut red, "infantry", "Tour");
        let pres = a.raise(&mut blue, "infantry", "Pres");
        a.put(garde, 5, 2);
        a.put(tour, 9, 4);
        a.put(pres, 3, 1);
        let start = grognard::db::now();
        a.turn(start);
        let mut anyone = a.app.client();
        let seen_by_blue = holders(&a, &mut blue);
        assert_eq!(
            holder_of(&seen_by_blue, "tower 1"),
            "Red",
            "{seen_by_blue:?}"
        );
        assert_eq!(holder_of(&seen_by_blue, "tower 4"), serde_json::Value::Null);
        let seen_by_red = holders(&a, &mut red);
        assert_eq!(holder_of(&seen_by_red, "tower 1"), "Red");
        assert_eq!(holder_of(&seen_by_red, "tower 4"), "Red");
        assert!(
            holders(&a, &mut anyone).iter().all(|(_, h)| h.is_null()),
            "a visitor is told no holder"
        );
        // What Blue saw at the turn stands until the next: moving off or up changes nothing.
        a.put(pres, 10, 5);
        assert_eq!(holders(&a, &mut blue), seen_by_blue);
        a.turn(start + 10);
        let after = holders(&a, &mut blue);
        assert_eq!(holder_of(&after, "tower 4"), "Red", "{after:?}");
        assert_eq!(holder_of(&after, "tower 1"), serde_json::Value::Null);
        // The standings page tells a visitor no holder.
        let page = anyone.get(&format!("/worlds/{}/standings", a.world)).body;
        // (Whose cells they are stays public, as the map shows it.)
        assert!(!page.contains("<td class=\"holder\">Red<"), "{page}");
        // Castle points stay public.
        let s = anyone
            .get_json(&format!("/api/v1/worlds/{}/standings", a.world))
            .json();
        let red_line = s["nations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["nation"] == "Red")
            .unwrap()
            .clone();
        assert_eq!(red_line["sections"], 2, "{s}");
        // Once the campaign is over, the holders are told to everyone.
        let r = gm.post_json(&format!("/api/v1/worlds/{}/end", a.world), json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
        let h = holders(&a, &mut anyone);
        assert_eq!(holder_of(&h, "tower 1"), "Red");
        assert_eq!(holder_of(&h, "tower 4"), "Red");
    }
);

both!(many_castles_are_each_told_their_own_sections, |b| {
    let a = arena(b);
    // 999 one-tower castles on a world of their own and one of three sections (a world's
    // most, 1,000); then the
    // first castle redrawn, so that its sections come after every other castle's.
    let (width, height) = (100, 40);
    let mut cells = Vec::new();
    let mut castles = Vec::new();
    for i in 0..999 {
        let (x, y) = (i % width, 1 + i / width);
        castles.push(json!({"name": format!("C{i}")}));
        cells.push(json!({"x": x, "y": y, "terrain": "tower", "castle": format!("C{i}")}));
    }
    castles.push(json!({"name": "Long"}));
    for (x, terrain) in [(0, "tower"), (1, "wall"), (2, "gate")] {
        cells.push(json!({"x": x, "y": 30, "terrain": terrain, "castle": "Long"}));
    }
    let map = json!({"name": "Towers", "width": width, "height": height, "season": "summer",
        "rng_seed": 1,
        "nations": [{"name": "Blue", "color": "#0000ff", "spawn": [0, 0]},
                    {"name": "Red", "color": "#ff0000", "spawn": [99, 39]}],
        "castles": castles, "cells": cells});
    let w = grognard::game::maps::worlds::import_text(
        &mut a.app.conn(),
        &a.app.config.rules,
        &map.to_string(),
        None,
    )
    .unwrap();
    let mut gm = gm_api(&a.app, "arbitre");
    let r = gm.json(
        "PUT",
        &format!("/api/v1/worlds/{w}/cells/0/0"),
        Some(json!({"terrain": "wall", "castle": "C0"})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let mut anyone = a.app.client();
    let r = anyone.get_json(&format!("/api/v1/worlds/{w}/castles"));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 1000);
    assert_eq!(
        list[0],
        json!({"name": "C0", "sections": [
            {"name": "wall 1", "kind": "wall", "cells": [[0, 0]], "holder": null, "owner": null},
            {"name": "tower 1", "kind": "tower", "cells": [[0, 1]], "holder": null, "owner": null}]})
    );
    for (i, c) in list.iter().enumerate().take(999).skip(1) {
        let (x, y) = (i as i64 % width, 1 + i as i64 / width);
        assert_eq!(
            c,
            &json!({"name": format!("C{i}"), "sections": [
                {"name": "tower 1", "kind": "tower", "cells": [[x, y]], "holder": null, "owner": null}]}),
            "castle {i}"
        );
    }
    let long: Vec<(String, serde_json::Value)> = list[999]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap().to_string(), s["cells"].clone()))
        .collect();
    assert_eq!(
        long,
        vec![
            ("tower 1".to_string(), json!([[0, 30]])),
            ("wall 1".to_string(), json!([[1, 30]])),
            ("gate 1".to_string(), json!([[2, 30]])),
        ]
    );
});

both!(a_game_master_draws_a_castle_and_its_sections_follow, |b| {
    let a = arena(b);
    let mut gm = gm_api(&a.app, "arbitre");
    let w = format!("/api/v1/worlds/{}", a.world);
    // A tower, a wall and a gate in a row, founded as the castle "Neuf".
    for (x, terrain) in [(2, "tower"), (3, "wall"), (4, "gate")] {
        let r = gm.json(
            "PUT",
            &format!("{w}/cells/{x}/1"),
            Some(json!({"terrain": terrain, "owner": "Red", "castle": "Neuf"})),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["castle"], "Neuf", "{}", r.body);
    }
    let castles = gm.get_json(&format!("{w}/castles")).json();
    assert_eq!(castles[0]["name"], "Neuf");
    let names: Vec<String> = castles[0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["tower 1", "wall 1", "gate 1"]);
    // The wall becomes a second tower: the sections are worked out again.
    let r = gm.json(
        "PUT",
        &format!("{w}/cells/3/1"),
        Some(json!({"terrain": "tower"})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let castles = gm.get_json(&format!("{w}/castles")).json();
    assert_eq!(castles[0]["sections"].as_array().unwrap().len(), 3);
    assert_eq!(castles[0]["sections"][1]["name"], "tower 2");
    // Undo brings the wall back, and with it its section.
    assert_eq!(gm.post_json(&format!("{w}/undo"), json!({})).status, 200);
    let castles = gm.get_json(&format!("{w}/castles")).json();
    assert_eq!(castles[0]["sections"][1]["name"], "wall 1");
    // A cell leaves the castle with `null`; a name too long is refused, nothing written.
    let r = gm.json(
        "PUT",
        &format!("{w}/cells/4/1"),
        Some(json!({"castle": null})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let castles = gm.get_json(&format!("{w}/castles")).json();
    assert_eq!(castles[0]["sections"].as_array().unwrap().len(), 2);
    let r = gm.json(
        "PUT",
        &format!("{w}/cells/5/1"),
        Some(json!({"castle": "x".repeat(MAX_PLACE_NAME + 1)})),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) FROM castles WHERE world_id = {}",
            a.world
        )),
        1
    );
    // The export carries the castle, and a player may not draw one.
    let export = gm.get_json(&format!("{w}/export")).json();
    assert_eq!(export["castles"], json!([{"name": "Neuf"}]));
    let mut blue = a.blue.clone();
    let r = blue.json(
        "PUT",
        &format!("{w}/cells/6/1"),
        Some(json!({"castle": "Mien"})),
    );
    assert_eq!(r.status, 403, "{}", r.body);
});

both!(
    a_refusal_at_the_walls_never_tells_where_an_unseen_enemy_stands,
    |b| {
        let a = arena(b);
        castle(&a);
        let mut blue = a.blue.clone();
        let mut red = a.red.clone();
        // Red's company in a building, beyond Blue's sight; Blue's voltigeurs far off.
        let maison = a.raise(&mut red, "infantry", "Maison");
        a.paint(14, 8, "building", None, None);
        a.put(maison, 14, 8);
        let volt = a.raise(&mut blue, "voltigeurs", "Loin");
        a.put(volt, 0, 0);
        // Aimed at it, a volley and a charge say only that the nation sees no such company,
        // as for a company that does not exist: not "no volley into a building".
        for action in ["volley", "melee"] {
            let hidden = a.refused(
                &mut blue,
                volt,
                action,
                json!({"target": maison}),
                "not_found",
            );
            let none = a.refused(
                &mut blue,
                volt,
                action,
                json!({"target": 999_999}),
                "not_found",
            );
            assert_eq!(hidden["error"]["message"], none["error"]["message"]);
        }
        // The ram strikes a gate, seen or not; the refusal names the ground, never a company.
        a.put(maison, 7, 3);
        a.put(volt, 6, 1);
        let r = a.refused(&mut blue, volt, "ram", json!({"at": [7, 2]}), "cannot_ram");
        assert!(!r["error"]["message"].as_str().unwrap().contains("Maison"));
    }
);

both!(
    the_stairs_the_way_down_the_outside_and_buildings_over_http,
    |b| {
        let a = arena(b);
        castle(&a);
        let mut red = a.red.clone();
        let garde = a.raise(&mut red, "infantry", "Garde");
        // Up the stairs from the courtyard onto the wall, along it onto the tower: 2 + 2 AP.
        a.put(garde, 6, 3);
        let ap = a.company(&mut red, garde)["ap"].as_i64().unwrap();
        let r = a.act(&mut red, garde, "move", json!({"path": [[6, 2], [5, 2]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["ap"].as_i64(), Some(ap - 4), "{}", r.body);
        assert!(
            r.json()["captures"].as_array().unwrap().is_empty(),
            "its own"
        );
        // Down the outside is a move of one step.
        a.refused(
            &mut red,
            garde,
            "move",
            json!({"path": [[4, 1], [3, 1]]}),
            "ladder_first_step",
        );
        let r = a.act(&mut red, garde, "move", json!({"path": [[4, 1]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        // A building takes foot companies only and ends their move.
        a.paint(2, 5, "building", None, None);
        let cosaques = a.raise(&mut red, "cavalry", "Cosaques");
        a.put(cosaques, 1, 5);
        a.refused(
            &mut red,
            cosaques,
            "move",
            json!({"path": [[2, 5]]}),
            "impassable",
        );
        a.put(garde, 1, 6);
        a.refused(
            &mut red,
            garde,
            "move",
            json!({"path": [[2, 5], [3, 5]]}),
            "stops_movement",
        );
        let r = a.act(&mut red, garde, "move", json!({"path": [[2, 5]]}));
        assert_eq!(r.status, 200, "{}", r.body);
    }
);

both!(a_courtyards_quarter_is_named_in_the_pages_language, |b| {
    let app = crate::support::TestApp::spawn(b);
    let mut c = app.client();
    let en = c.get("/worlds/1/standings").body;
    assert!(en.contains("courtyard NW</a></td>"), "{en}");
    let fr = c
        .get_with("/worlds/1/standings", &[("Accept-Language", "fr")])
        .body;
    assert!(
        fr.contains("cour NO</a></td>") && fr.contains("cour SO</a></td>"),
        "{fr}"
    );
    assert!(!fr.contains("cour NW"), "{fr}");
});

both!(
    a_player_who_asked_is_told_when_the_nation_loses_a_section,
    |b| {
        let a = arena(b);
        castle_named(&a);
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        let r = red.json(
            "PUT",
            "/api/v1/push/settings",
            Some(json!({"reminders": {"section_lost": true}})),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let garde = a.raise(&mut red, "infantry", "Garde");
        let pres = a.raise(&mut blue, "infantry", "Pres");
        a.put(garde, 5, 2);
        a.put(pres, 12, 8);
        let start = grognard::db::now();
        a.turn(start);
        let lost = |who: &mut crate::support::client::Client| -> Vec<String> {
            who.get_json("/api/v1/alerts").json()["alerts"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|al| al["kind"] == "section_lost")
                .map(|al| al["summary"].as_str().unwrap().to_string())
                .collect()
        };
        assert!(lost(&mut red).is_empty(), "held, not lost");
        // Blue takes the tower's place: at the next turn Red lost it, and is told once.
        a.put(garde, 12, 9);
        a.put(pres, 5, 2);
        a.turn(start + 10);
        assert_eq!(
            lost(&mut red),
            ["Your nation lost a section of Fort: tower 1"]
        );
        a.turn(start + 20);
        assert_eq!(lost(&mut red).len(), 1, "not told again");
        assert!(lost(&mut blue).is_empty(), "Blue did not ask, nor lose");
    }
);

both!(a_castle_can_be_read_from_the_map_and_the_standings, |b| {
    let a = arena(b);
    let _gm = castle_named(&a);
    let w = a.world;
    let mut blue = a.blue.clone();
    assert_eq!(
        crate::support::fixtures::login(
            &mut blue,
            "blue_player",
            crate::support::fixtures::PASSWORD
        )
        .status,
        303
    );
    let ligne = a.raise(&mut blue, "infantry", "Ligne");
    a.put(ligne, 6, 1);
    // Its name on the map, over its cells.
    let page = blue.get(&format!("/worlds/{w}?company={ligne}&cell=6,2"));
    assert!(
        page.body.contains("class=\"town-label castle-label\""),
        "the castle named"
    );
    assert!(page.body.contains(">Fort</text>"));
    // A climb says so, with its cost and what follows.
    let o = blue
        .get_json(&format!("/api/v1/companies/{ligne}/options?at=6,2"))
        .json();
    assert_eq!(o["cell"]["climb"], true, "{}", o["cell"]);
    assert!(page.body.contains(&format!(
        "Climb the wall ({} AP)",
        o["cell"]["move_to"]["ap"]
    )));
    assert!(page
        .body
        .contains("defenders on castle ground strike first when charged"));
    assert_eq!(o["cell"]["move_to"]["ap"], 4, "the ladder's AP");
    // Where the move cannot go, what would: the gate rammed, the wall climbed from outside.
    let hussards = a.raise(&mut blue, "cavalry", "Hussards");
    a.put(hussards, 7, 0);
    let o = blue
        .get_json(&format!("/api/v1/companies/{hussards}/options?at=7,2"))
        .json();
    assert_eq!(o["cell"]["move_to"]["allowed"], false);
    assert_eq!(o["cell"]["wall"], "gate");
    let page = blue.get(&format!("/worlds/{w}?company={hussards}&cell=7,2"));
    assert!(page
        .body
        .contains("id=\"wall-way\" data-way=\"gate\">A closed gate: sappers ram it"));
    a.put(ligne, 2, 0);
    let o = blue
        .get_json(&format!("/api/v1/companies/{ligne}/options?at=6,2"))
        .json();
    assert_eq!(o["cell"]["move_to"]["code"], "no_path");
    assert_eq!(o["cell"]["wall"], "ladders");
    // A plain move is no climb.
    let o = blue
        .get_json(&format!("/api/v1/companies/{ligne}/options?at=3,0"))
        .json();
    assert_eq!(o["cell"]["climb"], false);
    // The standings: each section a link to the map centred on it; Red's castle with no one
    // on it says whose it is.
    let page = blue.get(&format!("/worlds/{w}/standings"));
    let castles = &page.body[page.body.find("id=\"castles\"").unwrap()..];
    assert!(
        castles.contains(&format!("href=\"/worlds/{w}?x=")),
        "{castles}"
    );
    assert!(
        castles.contains("Red’s ground, no holder seen"),
        "{castles}"
    );
    assert!(!castles.contains("class=\"holder\">—<"));
});
