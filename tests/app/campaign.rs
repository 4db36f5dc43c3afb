//! The campaign (docs/rules.md §11): points at the end of every turn, the history, the end by
//! points, by towns, by the last turn and by a game master, and a world that stays readable and
//! refuses orders and ticks once it is over.

use crate::both;
use crate::support::fixtures::{arena, gm_api, Arena};
use grognard::game::time::ticks::{self, TickKind};
use grognard::rules::victory::{gain, Holdings};
use serde_json::json;

/// Applies one turn at the next free instant; whether it was applied.
fn turn(a: &Arena, at: i64) -> bool {
    let rs = a.app.config.rules.clone();
    ticks::apply(
        &mut a.app.conn(),
        &rs,
        grognard::ids::WorldId(a.world as i32),
        TickKind::Turn,
        at,
        false,
    )
    .unwrap()
    .applied
}

fn points(a: &Arena, nation: &str) -> i64 {
    a.app.count(&format!(
        "SELECT CAST(points AS BIGINT) AS n FROM nations WHERE id = {}",
        a.nation(nation)
    ))
}

fn world_turn(a: &Arena) -> i64 {
    a.app.count(&format!(
        "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = {}",
        a.world
    ))
}

/// What a nation holds, read from the rows the rule speaks of.
fn holdings(a: &Arena, nation: &str) -> Holdings {
    let n = a.nation(nation);
    Holdings {
        towns: a.app.count(&format!(
            "SELECT COUNT(*) FROM towns WHERE world_id = {} AND owner_id = {n}",
            a.world
        )),
        mines: a.app.count(&format!(
            "SELECT COUNT(*) FROM cells WHERE world_id = {} AND owner_id = {n} AND terrain = 'mine'",
            a.world
        )),
        sections: 0,
    }
}

both!(
    every_turn_pays_each_nation_what_the_rule_says_and_writes_its_history,
    |b| {
        let a = arena(b);
        let rs = a.app.config.rules.clone();
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        a.raise(&mut blue, "infantry", "Ligne");
        a.raise(&mut red, "cavalry", "Hussards");
        // Random ownerships of mines and towns, turn after turn: the SQL turn's points equal the
        // pure rule's for what each nation holds.
        let mut seed: u64 = 0x9e37_79b9;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % m
        };
        let start = grognard::db::now();
        for round in 0..6 {
            for _ in 0..4 {
                let (x, y) = (next(16) as i32, 1 + next(8) as i32);
                let owner = ["Blue", "Red", "none"][next(3) as usize];
                a.paint(x, y, "mine", (owner != "none").then_some(owner), None);
            }
            let town_owner = ["Blue", "Red"][next(2) as usize];
            a.exec(&format!(
                "UPDATE towns SET owner_id = {} WHERE world_id = {} AND name = 'Village'",
                a.nation(town_owner),
                a.world
            ));
            let (hb, hr) = (holdings(&a, "Blue"), holdings(&a, "Red"));
            let (pb, pr) = (points(&a, "Blue"), points(&a, "Red"));
            assert!(turn(&a, start + round * 10), "round {round}");
            assert_eq!(
                points(&a, "Blue") - pb,
                gain(&rs.victory, hb),
                "round {round}"
            );
            assert_eq!(
                points(&a, "Red") - pr,
                gain(&rs.victory, hr),
                "round {round}"
            );
            // The history has this turn's line for each nation, with its men and companies.
            let t = world_turn(&a);
            assert_eq!(
                a.app.count(&format!(
                    "SELECT COUNT(*) FROM nation_turns WHERE world_id = {} AND turn = {t}",
                    a.world
                )),
                2
            );
            assert_eq!(
            a.app.count(&format!(
                "SELECT CAST(towns * 1000 + mines AS BIGINT) AS n FROM nation_turns WHERE nation_id = {} AND turn = {t}",
                a.nation("Blue")
            )),
            hb.towns * 1000 + hb.mines
        );
        }
        let mut anyone = a.app.client();
        let h = blue.get_json(&format!("/api/v1/worlds/{}/history", a.world));
        assert_eq!(h.status, 200, "{}", h.body);
        let turns = h.json()["turns"].as_array().unwrap().clone();
        assert_eq!(turns.len(), 6);
        assert_eq!(turns[0]["turn"], 1);
        let blue_last = turns[5]["nations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["nation"] == "Blue")
            .unwrap()
            .clone();
        assert_eq!(blue_last["points"], points(&a, "Blue"));
        assert_eq!(blue_last["companies"], 1);
        assert_eq!(blue_last["men"], 200, "a fresh infantry company");
        let s = anyone.get_json(&format!("/api/v1/worlds/{}/standings", a.world));
        assert_eq!(s.status, 200);
        let s = s.json();
        assert_eq!(s["status"], "running");
        assert_eq!(s["points_to_win"], 1000);
        let first = &s["nations"][0];
        assert!(first["points"].as_i64() >= s["nations"][1]["points"].as_i64());
    }
);

/// Each nation's line of the last turn of the history, as `who` reads it.
fn last_lines(
    a: &Arena,
    who: &mut crate::support::client::Client,
) -> Vec<(
    String,
    serde_json::Value,
    serde_json::Value,
    serde_json::Value,
)> {
    let h = who.get_json(&format!("/api/v1/worlds/{}/history", a.world));
    assert_eq!(h.status, 200, "{}", h.body);
    let v = h.json();
    let turns = v["turns"].as_array().unwrap();
    turns[turns.len() - 1]["nations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["nation"].as_str().unwrap().to_string(),
                n["points"].clone(),
                n["companies"].clone(),
                n["men"].clone(),
            )
        })
        .collect()
}

both!(
    another_nations_strength_is_withheld_from_the_history_until_the_end,
    |b| {
        let a = arena(b);
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        a.raise(&mut blue, "infantry", "Ligne");
        a.raise(&mut red, "cavalry", "Hussards");
        assert!(turn(&a, grognard::db::now()));
        let null = serde_json::Value::Null;
        // Each nation reads its own companies and men, not the other's; points stay public.
        assert_eq!(
            last_lines(&a, &mut blue),
            vec![
                ("Blue".to_string(), json!(0), json!(1), json!(200)),
                ("Red".to_string(), json!(3), null.clone(), null.clone()),
            ]
        );
        assert_eq!(
            last_lines(&a, &mut red),
            vec![
                ("Blue".to_string(), json!(0), null.clone(), null.clone()),
                ("Red".to_string(), json!(3), json!(1), json!(120)),
            ]
        );
        let mut anyone = a.app.client();
        assert_eq!(
            last_lines(&a, &mut anyone),
            vec![
                ("Blue".to_string(), json!(0), null.clone(), null.clone()),
                ("Red".to_string(), json!(3), null.clone(), null.clone()),
            ]
        );
        // A bad token is refused rather than read as a visitor.
        let mut forged = a.app.client();
        forged.bearer = Some("nonsense".into());
        let r = forged.get_json(&format!("/api/v1/worlds/{}/history", a.world));
        assert_eq!(r.status, 401, "{}", r.body);
        // The end publishes everything.
        let mut gm = gm_api(&a.app, "arbitre");
        let r = gm.post_json(&format!("/api/v1/worlds/{}/end", a.world), json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            last_lines(&a, &mut anyone),
            vec![
                ("Blue".to_string(), json!(0), json!(1), json!(200)),
                ("Red".to_string(), json!(3), json!(1), json!(120)),
            ]
        );
    }
);

/// Each nation of the nations list as `who` reads it through the API, in the list's order:
/// name, companies, score, ground score.
fn nation_lines(
    a: &Arena,
    who: &mut crate::support::client::Client,
) -> Vec<(
    String,
    serde_json::Value,
    serde_json::Value,
    serde_json::Value,
)> {
    let r = who.get_json(&format!("/api/v1/worlds/{}/nations", a.world));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["nations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["name"].as_str().unwrap().to_string(),
                n["companies"].clone(),
                n["score"].clone(),
                n["ground_score"].clone(),
            )
        })
        .collect()
}

/// Each nation's row of the nations page's scoreboard, in its order: name, campaign points and
/// companies as printed.
fn page_lines(body: &str) -> Vec<(String, String, String)> {
    let cell = |row: &str, class: &str| {
        let at = row.find(&format!("<td class=\"{class}\">")).unwrap() + class.len() + 13;
        row[at..at + row[at..].find("</td>").unwrap()].to_string()
    };
    let table = &body[body.find("class=\"data scoreboard\"").unwrap()..];
    let table = &table[table.find("<tbody>").unwrap()..table.find("</tbody>").unwrap()];
    table
        .split("</tr>")
        .filter(|row| row.contains("<tr>"))
        .map(|row| {
            let name = ["Blue", "Red"]
                .into_iter()
                .find(|n| row.contains(&format!("</svg> {n}</td>")))
                .unwrap();
            (
                name.to_string(),
                cell(row, "points"),
                cell(row, "companies"),
            )
        })
        .collect()
}

both!(
    another_nations_companies_and_score_are_withheld_from_the_nations_list_until_the_end,
    |b| {
        use crate::support::fixtures::{api_player, join_and_raise, player};
        let a = arena(b);
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        let w = a.world;
        // Blue's mine and fort are worth Red's Village: 10 on the ground each.
        a.paint(5, 5, "mine", Some("Blue"), None);
        a.paint(6, 6, "fort", Some("Blue"), Some(15));
        // Red raises two companies, one of them by a player of the pages.
        a.raise(&mut red, "cavalry", "Hussards");
        let mut page_red = player(&a.app, "page_red");
        join_and_raise(
            &mut page_red,
            w,
            &a.nation("Red").to_string(),
            "infantry",
            "Garde",
        );
        let mut outsider = api_player(&a.app, "outsider");
        let mut visitor = a.app.client();
        let null = serde_json::Value::Null;
        let line = |n: &str, k: &serde_json::Value, s: &serde_json::Value| {
            (n.to_string(), k.clone(), s.clone(), json!(10))
        };
        let before = nation_lines(&a, &mut red);
        // Blue raises a company: what Red reads of Blue does not change.
        a.raise(&mut blue, "infantry", "Ligne");
        let after = nation_lines(&a, &mut red);
        assert_eq!(after, before, "Red is told nothing of Blue's raising");
        // Level on points (none yet), the list keeps the nations' order: never the whole
        // score, which Red's companies put ahead and the order would tell.
        assert_eq!(
            after,
            vec![
                line("Blue", &null, &null),
                line("Red", &json!(2), &json!(12)),
            ]
        );
        assert_eq!(
            nation_lines(&a, &mut blue),
            vec![
                line("Blue", &json!(1), &json!(11)),
                line("Red", &null, &null),
            ]
        );
        assert_eq!(
            nation_lines(&a, &mut outsider),
            vec![line("Blue", &null, &null), line("Red", &null, &null)]
        );
        // The page says the same, a visitor being told no nation's companies; it ranks by the
        // campaign's points (none yet: the nations' order).
        let dash = || ("0".to_string(), "—".to_string());
        let page = |c: &mut crate::support::client::Client| {
            let r = c.get(&format!("/worlds/{w}/nations"));
            assert_eq!(r.status, 200, "{}", r.body);
            page_lines(&r.body)
        };
        let row = |n: &str, (s, k): (String, String)| (n.to_string(), s, k);
        assert_eq!(
            page(&mut visitor),
            vec![row("Blue", dash()), row("Red", dash())]
        );
        assert_eq!(
            page(&mut page_red),
            vec![row("Blue", dash()), row("Red", ("0".into(), "2".into()))]
        );
        // A turn passes: still withheld.
        assert!(turn(&a, grognard::db::now()));
        // (Red's town earned more points than Blue's mine: Red comes first now.)
        assert_eq!(nation_lines(&a, &mut red)[1], line("Blue", &null, &null));
        // The end publishes every nation's companies and score, most points first.
        let mut gm = gm_api(&a.app, "arbitre");
        let r = gm.post_json(&format!("/api/v1/worlds/{w}/end"), json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
        let published = vec![
            line("Red", &json!(2), &json!(12)),
            line("Blue", &json!(1), &json!(11)),
        ];
        for who in [&mut red, &mut blue, &mut outsider] {
            assert_eq!(nation_lines(&a, who), published);
        }
        // Red's Village earned 3 points in the turn, Blue's mine 1.
        let shown = vec![
            row("Red", ("3".into(), "2".into())),
            row("Blue", ("1".into(), "1".into())),
        ];
        assert_eq!(page(&mut visitor), shown);
        assert_eq!(page(&mut page_red), shown);
    }
);

both!(another_nations_treasury_is_withheld_until_the_end, |b| {
    use crate::support::fixtures::api_player;
    let a = arena(b);
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let w = a.world;
    let mut outsider = api_player(&a.app, "outsider");
    let mut visitor = a.app.client();
    // Each nation's treasury as `who` reads it in the world and in the nations list.
    let treasuries = |who: &mut crate::support::client::Client, path: &str| {
        let r = who.get_json(&format!("/api/v1/worlds/{w}{path}"));
        assert_eq!(r.status, 200, "{}", r.body);
        let mut t: Vec<(String, serde_json::Value)> = r.json()["nations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                (
                    n["name"].as_str().unwrap().to_string(),
                    n["treasury"].clone(),
                )
            })
            .collect();
        t.sort_by(|x, y| x.0.cmp(&y.0));
        t
    };
    let pair = |b: serde_json::Value, r: serde_json::Value| {
        vec![("Blue".to_string(), b), ("Red".to_string(), r)]
    };
    let null = serde_json::Value::Null;
    let before = treasuries(&mut red, "");
    // Blue pays for a company: Red is not told.
    a.raise(&mut blue, "infantry", "Ligne");
    for path in ["", "/nations"] {
        assert_eq!(
            treasuries(&mut red, path),
            pair(null.clone(), json!(1000)),
            "{path}"
        );
        assert_eq!(
            treasuries(&mut blue, path),
            pair(json!(900), null.clone()),
            "{path}"
        );
        assert_eq!(
            treasuries(&mut outsider, path),
            pair(null.clone(), null.clone())
        );
    }
    assert_eq!(treasuries(&mut red, ""), before);
    assert_eq!(
        treasuries(&mut visitor, ""),
        pair(null.clone(), null.clone())
    );
    let page = visitor.get(&format!("/worlds/{w}/nations")).body;
    assert_eq!(page.matches("class=\"treasury\">—</td>").count(), 2);
    // The end publishes them.
    let mut gm = gm_api(&a.app, "arbitre");
    let r = gm.post_json(&format!("/api/v1/worlds/{w}/end"), json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(treasuries(&mut visitor, ""), pair(json!(900), json!(1000)));
    assert_eq!(
        treasuries(&mut red, "/nations"),
        pair(json!(900), json!(1000))
    );
    let page = visitor.get(&format!("/worlds/{w}/nations")).body;
    assert!(page.contains("class=\"treasury\">900</td>"), "{page}");
});

both!(
    the_campaign_ends_at_the_points_and_the_world_is_then_read_only,
    |b| {
        let a = arena(b);
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        let ligne = a.raise(&mut blue, "infantry", "Ligne");
        a.raise(&mut red, "infantry", "Feinde");
        // Red's Village pays 3 a turn: 6 points win after the second turn.
        a.exec(&format!(
            "UPDATE worlds SET victory_points = 6 WHERE id = {}",
            a.world
        ));
        let start = grognard::db::now();
        assert!(turn(&a, start));
        let w = format!("/api/v1/worlds/{}", a.world);
        assert_eq!(
            blue.get_json(&w).json()["ended_turn"],
            serde_json::Value::Null
        );
        assert!(turn(&a, start + 10));
        let world = blue.get_json(&w).json();
        assert_eq!(world["ended_turn"], 2);
        assert_eq!(world["turn"], 2);
        let s = blue.get_json(&format!("{w}/standings")).json();
        assert_eq!(s["status"], "ended");
        assert_eq!(s["winner"], "Red");
        assert_eq!(s["reason"], "points");
        // Every player of the world is told.
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM alerts WHERE world_id = {} AND kind = 'campaign_over'",
                a.world
            )),
            2
        );
        // A scheduler pass after the end, or a second process at the same or a later instant,
        // changes nothing.
        let before = a.state();
        assert!(!turn(&a, start + 10));
        assert!(!turn(&a, start + 20));
        assert_eq!(a.state(), before);
        assert_eq!(world_turn(&a), 2);
        assert_eq!(points(&a, "Red"), 6);
        // Orders, raising and joining are refused, with nothing written.
        let refused = a.refused(
            &mut blue,
            ligne,
            "move",
            json!({"path": [[1, 0]]}),
            "campaign_over",
        );
        assert!(refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("campaign is over"));
        let r = blue.post_json(
            &format!("{w}/companies"),
            json!({"kind": "infantry", "name": "Encore"}),
        );
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(r.code(), "campaign_over");
        assert_eq!(a.state(), before);
        // The pages stay readable.
        assert_eq!(blue.get(&format!("/worlds/{}", a.world)).status, 200);
        assert_eq!(blue.get_json(&format!("{w}/history")).status, 200);
    }
);

both!(
    the_campaign_ends_when_a_nation_holds_the_towns_clear_of_enemies,
    |b| {
        let a = arena(b);
        let mut red = a.red.clone();
        let mut blue = a.blue.clone();
        let feinde = a.raise(&mut red, "infantry", "Feinde");
        let ligne = a.raise(&mut blue, "infantry", "Ligne");
        // Red owns both towns; the Hamlet has a cell, and a Blue company stands in it.
        a.exec(&format!(
            "UPDATE towns SET owner_id = {} WHERE world_id = {}",
            a.nation("Red"),
            a.world
        ));
        let hamlet = a.app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM towns WHERE world_id = {} AND name = 'Hamlet'",
            a.world
        ));
        a.exec(&format!(
        "UPDATE cells SET terrain = 'church', town_id = {hamlet}, owner_id = {} WHERE world_id = {} AND x = 8 AND y = 5",
        a.nation("Red"),
        a.world
    ));
        a.put(ligne, 8, 5);
        a.put(feinde, 12, 8);
        let start = grognard::db::now();
        assert!(turn(&a, start));
        let s = blue
            .get_json(&format!("/api/v1/worlds/{}/standings", a.world))
            .json();
        assert_eq!(s["status"], "running", "an enemy in one of the two towns");
        // A company of Red's own in the town does not count against it.
        a.put(ligne, 2, 2);
        a.put(feinde, 8, 5);
        assert!(turn(&a, start + 10));
        let s = blue
            .get_json(&format!("/api/v1/worlds/{}/standings", a.world))
            .json();
        assert_eq!(s["status"], "ended");
        assert_eq!(s["reason"], "towns");
        assert_eq!(s["winner"], "Red");
    }
);

both!(
    the_campaign_ends_at_its_last_turn_or_when_a_game_master_ends_it,
    |b| {
        let a = arena(b);
        a.exec(&format!(
            "UPDATE worlds SET victory_end_turn = 3 WHERE id = {}",
            a.world
        ));
        let start = grognard::db::now();
        assert!(turn(&a, start));
        assert!(turn(&a, start + 10));
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM worlds WHERE id = {} AND ended_turn IS NULL",
                a.world
            )),
            1
        );
        assert!(turn(&a, start + 20));
        let mut blue = a.blue.clone();
        let s = blue
            .get_json(&format!("/api/v1/worlds/{}/standings", a.world))
            .json();
        assert_eq!(
            (s["status"].as_str(), s["reason"].as_str()),
            (Some("ended"), Some("last_turn"))
        );
        assert_eq!(s["winner"], "Red", "9 points against 0");

        // Another world, ended by a game master; a player may not.
        let b2 = arena(b);
        let end = format!("/api/v1/worlds/{}/end", b2.world);
        let mut player = b2.blue.clone();
        let r = player.post_json(&end, json!({}));
        assert_eq!(r.status, 403, "{}", r.body);
        assert_eq!(
            b2.app.count(&format!(
                "SELECT COUNT(*) FROM worlds WHERE id = {} AND ended_turn IS NULL",
                b2.world
            )),
            1
        );
        let mut gm = gm_api(&b2.app, "arbitre");
        let r = gm.post_json(&end, json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["reason"], "game_master");
        assert_eq!(
            r.json()["winner"],
            serde_json::Value::Null,
            "0 points each: a draw"
        );
        let again = gm.post_json(&end, json!({}));
        assert_eq!(again.status, 409);
        assert_eq!(again.code(), "campaign_over");
        assert_eq!(
            gm.post_json("/api/v1/worlds/999999/end", json!({})).status,
            404
        );
    }
);

both!(
    the_next_campaign_starts_from_the_map_as_drawn_with_no_one_on_it,
    |b| {
        let a = arena(b);
        let (mut blue, _red, shooter, target) = a.facing();
        let mut gm = gm_api(&a.app, "arbitre");
        let w = format!("/api/v1/worlds/{}", a.world);
        // The game master sets this campaign's victory; a player may not.
        let r = blue.json("PATCH", &w, Some(json!({"victory": {"points": 500}})));
        assert_eq!(r.status, 403, "{}", r.body);
        let r = gm.json(
            "PATCH",
            &w,
            Some(json!({"victory": {"points": 500, "end_turn": 0, "towns_share": 0.9}})),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        for bad in [
            json!({"victory": {"points": 0}}),
            json!({"victory": {"towns_share": 2.0}}),
            json!({"victory": {"end_turn": -1}}),
            json!({"victory": {"points": 10, "gold": 1}}),
        ] {
            let r = gm.json("PATCH", &w, Some(bad.clone()));
            assert_eq!(r.status, 422, "{bad}: {}", r.body);
            assert_eq!(r.code(), "invalid");
        }
        assert_eq!(
            gm.get_json(&format!("{w}/standings")).json()["points_to_win"],
            500
        );
        // The campaign changes the map: a mine taken, a volley fired.
        a.paint(4, 5, "mine", Some("Red"), None);
        let drawn_mine = a.nation("Red");
        let r = a.act(&mut blue, shooter, "volley", json!({"target": target}));
        assert_eq!(r.status, 200, "{}", r.body);
        // No next campaign while this one runs.
        let r = gm.post_json(&format!("{w}/next"), json!({}));
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(gm.post_json(&format!("{w}/end"), json!({})).status, 200);
        // A player may not start it; a game master may, once.
        let r = blue.post_json(&format!("{w}/next"), json!({}));
        assert_eq!(r.status, 403, "{}", r.body);
        let r = gm.post_raw(&format!("{w}/next"), "application/json", "{\"nom\": 1}");
        assert_eq!(r.status, 422, "{}", r.body);
        let worlds_before = a.app.count("SELECT COUNT(*) FROM worlds");
        let r = gm.post_raw(&format!("{w}/next"), "application/json", "");
        assert_eq!(r.status, 201, "{}", r.body);
        let next = r.json()["id"].as_i64().unwrap();
        assert_eq!(
            a.app.count("SELECT COUNT(*) FROM worlds"),
            worlds_before + 1
        );
        let again = gm.post_json(&format!("{w}/next"), json!({"name": "Encore"}));
        assert_eq!(again.status, 409, "{}", again.body);
        let nw = gm.get_json(&format!("/api/v1/worlds/{next}")).json();
        assert_eq!(nw["name"], "Arena II");
        assert_eq!(
            (nw["turn"].as_i64(), nw["ended_turn"].as_i64()),
            (Some(0), None)
        );
        // The map as drawn when the old campaign began: the mine painted since is plain again,
        // the towns have their first owners, the victory settings carry over.
        let cells = |world: i64, extra: &str| {
            a.app.count(&format!(
                "SELECT COUNT(*) FROM cells WHERE world_id = {world} {extra}"
            ))
        };
        assert_eq!(cells(next, ""), 160);
        assert_eq!(cells(next, "AND terrain <> 'plain'"), 0);
        assert_eq!(
            cells(a.world, "AND terrain = 'mine'"),
            1,
            "the old world keeps its record"
        );
        assert!(drawn_mine > 0);
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM towns t JOIN nations n ON n.id = t.owner_id \
                 WHERE t.world_id = {next} AND t.name = 'Village' AND n.name = 'Red'"
            )),
            1
        );
        let s = gm
            .get_json(&format!("/api/v1/worlds/{next}/standings"))
            .json();
        assert_eq!(s["status"], "running");
        assert_eq!(s["points_to_win"], 500);
        assert_eq!(s["towns_share"], 0.9);
        // No people: no players, companies, scores or points; the nations with their treasury.
        for table in ["players", "companies", "nation_turns", "events"] {
            assert_eq!(
                a.app.count(&format!(
                    "SELECT COUNT(*) FROM {table} WHERE world_id = {next}"
                )),
                0,
                "{table}"
            );
        }
        assert_eq!(
            a.app.count(&format!(
                "SELECT CAST(SUM(points) AS BIGINT) AS n FROM nations WHERE world_id = {next}"
            )),
            0
        );
        assert_eq!(
            a.app.count(&format!(
                "SELECT CAST(SUM(treasury) AS BIGINT) AS n FROM nations WHERE world_id = {next}"
            )),
            2000
        );
        // The old world is still there, ended, and points to the next; players join the new.
        let page = blue.get(&format!("/worlds/{}/standings", a.world));
        assert_eq!(page.status, 200);
        assert!(
            page.body.contains(&format!("/worlds/{next}")),
            "the next campaign is linked"
        );
        let r = blue.post_json(
            &format!("/api/v1/worlds/{next}/join"),
            json!({"nation": "Blue"}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        // The one after is numbered III.
        assert_eq!(
            gm.post_json(&format!("/api/v1/worlds/{next}/end"), json!({}))
                .status,
            200
        );
        let r = gm.post_json(&format!("/api/v1/worlds/{next}/next"), json!({}));
        assert_eq!(r.status, 201, "{}", r.body);
        let third = r.json()["id"].as_i64().unwrap();
        assert_eq!(
            gm.get_json(&format!("/api/v1/worlds/{third}")).json()["name"],
            "Arena III"
        );
        assert_eq!(
            gm.post_json("/api/v1/worlds/999999/next", json!({})).status,
            404
        );
        // Each step is in the audit log.
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM gm_audit WHERE world_id = {} AND action IN ('victory', 'end_campaign', 'next_campaign')",
                a.world
            )),
            3
        );
    }
);

both!(
    a_map_files_victory_settings_are_imported_and_exported,
    |b| {
        let a = arena(b);
        let text = crate::support::fixtures::ARENA.replace(
            "\"cells\": []",
            "\"cells\": [], \"victory\": {\"points\": 42, \"end_turn\": 7}",
        );
        let id = grognard::game::maps::worlds::import_text(
            &mut a.app.conn(),
            &a.app.config.rules,
            &text,
            Some("Short"),
        )
        .unwrap();
        let mut gm = gm_api(&a.app, "arbitre");
        let s = gm
            .get_json(&format!("/api/v1/worlds/{id}/standings"))
            .json();
        assert_eq!(
            (s["points_to_win"].as_i64(), s["end_turn"].as_i64()),
            (Some(42), Some(7))
        );
        assert_eq!(s["towns_share"], 0.67, "the ruleset's");
        let export = gm.get_json(&format!("/api/v1/worlds/{id}/export"));
        assert_eq!(export.status, 200, "{}", export.body);
        assert_eq!(
            export.json()["victory"],
            json!({"points": 42, "end_turn": 7})
        );
        let plain = gm
            .get_json(&format!("/api/v1/worlds/{}/export", a.world))
            .json();
        assert!(
            plain.get("victory").is_none(),
            "none when the world has none"
        );
        // Refused with the entry named, nothing imported.
        let worlds = a.app.count("SELECT COUNT(*) FROM worlds");
        let bad = crate::support::fixtures::ARENA.replace(
            "\"cells\": []",
            "\"cells\": [], \"victory\": {\"towns_share\": 0}",
        );
        let r = gm.post_raw("/api/v1/worlds", "application/json", &bad);
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body.contains("victory.towns_share"), "{}", r.body);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM worlds"), worlds);
    }
);

both!(
    the_standings_page_shows_the_result_curves_and_the_players_row,
    |b| {
        let a = arena(b);
        let (mut blue, _red, shooter, target) = a.facing();
        let r = a.act(&mut blue, shooter, "volley", json!({"target": target}));
        assert_eq!(r.status, 200, "{}", r.body);
        // A player of the pages, joined before the turns that rank her.
        let mut player = crate::support::fixtures::player(&a.app, "joueuse");
        let csrf = player.get(&format!("/worlds/{}", a.world)).csrf();
        let r = player.post_form(
            &format!("/worlds/{}/join", a.world),
            &[("csrf", &csrf), ("nation", "Red")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let start = grognard::db::now();
        for i in 0..3 {
            assert!(turn(&a, start + i * 10));
        }
        // A visitor sees the running campaign, the nations and one curve per nation.
        let mut visitor = a.app.client();
        let p = visitor.get(&format!("/worlds/{}/standings", a.world));
        assert_eq!(p.status, 200, "{}", p.body);
        assert!(p.body.contains("To win: 1000 points"), "{}", p.body);
        assert_eq!(
            p.body.matches("<polyline class=\"series\"").count(),
            6,
            "2 nations × 3 charts"
        );
        assert!(p.body.contains(">9</text>"), "Red's 9 points end its curve");
        assert!(!p.body.contains("class=\"me\""));
        // A signed-in player finds its own row marked; in French too.
        let p = player.get(&format!("/worlds/{}/standings?by=turns", a.world));
        assert_eq!(p.status, 200);
        assert_eq!(p.body.matches("class=\"me\"").count(), 1, "{}", p.body);
        player.get("/lang/fr");
        let p = player.get(&format!("/worlds/{}/standings", a.world));
        assert!(p.body.contains("Points de victoire"), "{}", p.body);
        assert!(p.body.contains("Votre place"));
        // Bad queries: clear pages, not 500s.
        for q in [
            "?by=gold",
            "?page=0",
            "?page=x",
            "?page=99999999999999999999",
        ] {
            let r = visitor.get(&format!("/worlds/{}/standings{q}", a.world));
            assert_eq!(r.status, 422, "{q}");
        }
        assert_eq!(visitor.get("/worlds/999999/standings").status, 404);
        // Once over: the result, and the world in the hall of fame of the worlds list.
        let mut gm = gm_api(&a.app, "arbitre");
        assert_eq!(
            gm.post_json(&format!("/api/v1/worlds/{}/end", a.world), json!({}))
                .status,
            200
        );
        let p = visitor.get(&format!("/worlds/{}/standings", a.world));
        assert!(
            p.body.contains("Red won the campaign after turn 3"),
            "{}",
            p.body
        );
        let home = visitor.get("/");
        assert!(home.body.contains("Hall of fame"), "{}", home.body);
        assert!(
            home.body.contains("Red won after turn 3 with 9 points"),
            "{}",
            home.body
        );
        let world = visitor.get(&format!("/worlds/{}", a.world));
        assert!(world.body.contains("id=\"campaign-over\""));
    }
);

both!(
    the_editors_campaign_panel_refuses_bad_forms_and_does_what_it_says,
    |b| {
        use grognard::game::accounts::Role;
        let a = arena(b);
        let mut gm = crate::support::fixtures::user_with_role(&a.app, "arbitre", Role::Gm);
        let page = format!("/gm/worlds/{}", a.world);
        let form = format!("/gm/worlds/{}/campaign", a.world);
        let csrf = gm.get(&page).csrf();
        let settings = || {
            a.app.count(&format!(
                "SELECT CAST(COALESCE(victory_points, -1) + COALESCE(victory_end_turn, -1) * 1000 AS BIGINT) AS n FROM worlds WHERE id = {}",
                a.world
            ))
        };
        let audited = || a.app.count("SELECT COUNT(*) FROM gm_audit");
        let (before, audits) = (settings(), audited());
        for fields in [
            vec![("action", "siege")],
            vec![("action", "victory"), ("points", "beaucoup")],
            vec![("action", "victory"), ("points", "0")],
            vec![("action", "victory"), ("towns_share", "2")],
            vec![("action", "next")],
        ] {
            let mut all = vec![("csrf", csrf.as_str())];
            all.extend(fields.iter().copied());
            let r = gm.post_form(&form, &all);
            assert!(
                r.status == 422 || r.status == 409,
                "{fields:?}: {} {}",
                r.status,
                r.body
            );
            assert!(
                r.body.contains("class=\"error\""),
                "{fields:?}: a page that says why"
            );
        }
        assert_eq!((settings(), audited()), (before, audits), "nothing written");
        // What it says: set the points (the last turn left as it is), end, start the next.
        let r = gm.post_form(
            &form,
            &[
                ("csrf", &csrf),
                ("action", "victory"),
                ("points", "77"),
                ("end_turn", ""),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(settings(), 77 - 1000);
        let r = gm.post_form(&form, &[("csrf", &csrf), ("action", "end")]);
        assert_eq!(r.status, 303, "{}", r.body);
        let r = gm.post_form(
            &form,
            &[("csrf", &csrf), ("action", "next"), ("name", "Revanche")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let next = r.header("location").unwrap().to_string();
        assert!(next.starts_with("/gm/worlds/"), "{next}");
        let page = gm.get(&next);
        assert_eq!(page.status, 200);
        assert!(page.body.contains("Revanche"));
    }
);

both!(
    the_nations_page_and_the_standings_rank_the_nations_by_the_same_points,
    |b| {
        // Red holds more ground as the old nations score weighed it (a town and six fort
        // cells: 40), Blue earns more campaign points (five mines: 5 a turn against Red's 3).
        let a = arena(b);
        for x in 0..5 {
            a.paint(x, 5, "mine", Some("Blue"), None);
        }
        for x in 8..14 {
            a.paint(x, 2, "fort", Some("Red"), Some(15));
        }
        let start = grognard::db::now();
        a.turn(start);
        a.turn(start + 1);
        let (blue_points, red_points) = (
            a.app.count(&format!(
                "SELECT CAST(points AS BIGINT) AS n FROM nations WHERE id = {}",
                a.nation("Blue")
            )),
            a.app.count(&format!(
                "SELECT CAST(points AS BIGINT) AS n FROM nations WHERE id = {}",
                a.nation("Red")
            )),
        );
        assert_eq!((blue_points, red_points), (10, 6));
        let mut blue = a.blue.clone();
        let api = blue.get_json(&format!("/api/v1/worlds/{}/nations", a.world));
        let list = api.json()["nations"].as_array().unwrap().clone();
        let order: Vec<(&str, i64)> = list
            .iter()
            .map(|n| (n["name"].as_str().unwrap(), n["points"].as_i64().unwrap()))
            .collect();
        assert_eq!(order, vec![("Blue", 10), ("Red", 6)]);
        // The older count stays in the API, not on the pages.
        assert!(list[1]["ground_score"].as_i64() > list[0]["ground_score"].as_i64());
        let page = blue.get(&format!("/worlds/{}/nations", a.world));
        assert_eq!(page.status, 200);
        let table = &page.body[page.body.find("scoreboard").unwrap()..];
        let (at_blue, at_red) = (table.find(" Blue<"), table.find(" Red<"));
        assert!(
            at_blue.unwrap() < at_red.unwrap(),
            "Blue, most points, first"
        );
        assert!(table.contains("<td class=\"points\">10</td>"));
        assert!(!page.body.to_lowercase().contains("ground score"));
        let standings = blue.get(&format!("/worlds/{}/standings", a.world));
        let table = &standings.body[standings.body.find("scoreboard").unwrap()..];
        assert!(table.find(" Blue<").unwrap() < table.find(" Red<").unwrap());
    }
);
