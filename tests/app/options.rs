//! What a company may do: the world page, the company page and the API show one judgement,
//! made by the rules the orders use, for every kind on a crafted board; an order the API calls
//! refused is refused by the order itself with the same code.

use crate::both;
use crate::support::fixtures::*;
use crate::support::Client;
use serde_json::{json, Value};

/// The orders of the world page's cell panel, as the API names them and as the forms post them.
const CELL_ORDERS: &[(&str, &str)] = &[
    ("move_to", "move"),
    ("volley", "volley"),
    ("melee", "melee"),
    ("bombard", "bombard"),
    ("repair", "repair"),
    ("build_bridge", "build-bridge"),
];

/// The part of a page between `start` and the next `end`.
fn section<'a>(body: &'a str, start: &str, end: &str) -> &'a str {
    match body.find(start) {
        Some(i) => {
            let rest = &body[i..];
            &rest[..rest.find(end).unwrap_or(rest.len())]
        }
        None => "",
    }
}

/// The ids a company page's order form offers as targets (its `<select name="target">`).
fn offered_targets(page: &str, company: i64, order: &str) -> Vec<i64> {
    let form = section(
        page,
        &format!("action=\"/companies/{company}/{order}\""),
        "</form>",
    );
    form.split("<option value=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].parse().unwrap())
        .collect()
}

fn allowed(v: &Value) -> bool {
    v["allowed"] == true
}

/// The ids of the targets the API allows for `order`.
fn api_targets(options: &Value, order: &str) -> Vec<i64> {
    options["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| allowed(&t[order]))
        .map(|t| t["id"].as_i64().unwrap())
        .collect()
}

fn options(c: &mut Client, company: i64, at: Option<(i32, i32)>) -> Value {
    let url = match at {
        Some((x, y)) => format!("/api/v1/companies/{company}/options?at={x},{y}"),
        None => format!("/api/v1/companies/{company}/options"),
    };
    let r = c.get_json(&url);
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

both!(the_pages_and_the_api_agree_on_what_a_company_may_do, |b| {
    let a = arena(b);
    let w = a.world;
    let mut blue = a.blue.clone();
    // The same player with a page session beside the API token.
    assert_eq!(login(&mut blue, "blue_player", PASSWORD).status, 303);
    let mut red = a.red.clone();
    let me = a.raise(&mut blue, "infantry", "Moi");
    let scout = a.raise(&mut blue, "voltigeurs", "Eclaireur");
    let next = a.raise(&mut red, "infantry", "Voisin");
    let two = a.raise(&mut red, "infantry", "Deux");
    let four = a.raise(&mut red, "infantry", "Quatre");
    a.put(me, 5, 5);
    // The scout (perception 4) sees (9, 5), which the company itself (perception 3) does not.
    a.put(scout, 8, 4);
    a.put(next, 6, 5);
    a.put(two, 5, 7);
    a.put(four, 9, 5);
    a.paint(3, 3, "fort", Some("Red"), Some(15));
    a.paint(6, 4, "fortifications", Some("Blue"), Some(5));
    a.paint(4, 6, "river", None, None);
    let cells = [
        (6, 5),
        (5, 7),
        (9, 5),
        (3, 3),
        (6, 4),
        (4, 6),
        (8, 4),
        (5, 5),
        (0, 9),
    ];
    let kinds = ["infantry", "voltigeurs", "cavalry", "artillery", "sappers"];
    for kind in kinds {
        a.set(
            me,
            &format!("kind = '{kind}', men = 50, wounded = 10, ap = 16"),
        );
        // The company page and the API: targets, heal and reinforcement.
        let o = options(&mut blue, me, None);
        let page = blue.get(&format!("/companies/{me}"));
        assert_eq!(page.status, 200);
        for order in ["volley", "melee"] {
            assert_eq!(
                offered_targets(&page.body, me, order),
                api_targets(&o, order),
                "{kind}: {order} targets"
            );
        }
        for order in ["heal", "reinforce"] {
            assert_eq!(
                page.body
                    .contains(&format!("action=\"/companies/{me}/{order}\"")),
                allowed(&o[order]),
                "{kind}: {order}: {}",
                o[order]
            );
        }
        // The world page's cell panel and the API, cell by cell.
        for (x, y) in cells {
            let o = options(&mut blue, me, Some((x, y)));
            let page = blue.get(&format!("/worlds/{w}?company={me}&cell={x},{y}"));
            assert_eq!(page.status, 200);
            let panel = section(&page.body, "id=\"cell-panel\"", "</section>");
            for (key, path) in CELL_ORDERS {
                let offered = panel.contains(&format!("action=\"/companies/{me}/{path}\""));
                assert_eq!(
                    offered,
                    o["cell"][key].get("allowed") == Some(&json!(true)),
                    "{kind} at ({x}, {y}): {key}: {}",
                    o["cell"][key]
                );
                // A refusal is the order's own: sent anyway, it answers the same code and
                // changes nothing.
                if let Some(code) = o["cell"][key]["code"].as_str() {
                    let body = match *key {
                        "move_to" => json!({"to": [x, y]}),
                        "volley" | "melee" => json!({"target": o["cell"]["occupant"]["id"]}),
                        _ => json!({"at": [x, y]}),
                    };
                    let r = a.act(&mut blue, me, path, body);
                    assert_eq!(r.json()["error"]["code"], code, "{kind} {path} ({x}, {y})");
                    assert_eq!(a.company(&mut blue, me)["ap"], 16);
                }
            }
        }
    }

    // What the rules say, in numbers, for each kind (docs/rules.md §3, §6, §7).
    let targets = |blue: &mut Client, kind: &str, order: &str| {
        a.set(
            me,
            &format!("kind = '{kind}', men = 50, wounded = 10, ap = 16"),
        );
        api_targets(&options(blue, me, None), order)
    };
    // Infantry fires two cells; voltigeurs too; sappers one; artillery four (seen by the
    // scout); cavalry not at all.
    assert_eq!(targets(&mut blue, "infantry", "volley"), vec![next, two]);
    assert_eq!(targets(&mut blue, "voltigeurs", "volley"), vec![next, two]);
    assert_eq!(targets(&mut blue, "sappers", "volley"), vec![next]);
    assert_eq!(
        targets(&mut blue, "artillery", "volley"),
        vec![next, two, four]
    );
    assert!(targets(&mut blue, "cavalry", "volley").is_empty());
    // A charge reaches the adjacent company only, and artillery does not charge.
    assert_eq!(targets(&mut blue, "cavalry", "melee"), vec![next]);
    assert!(targets(&mut blue, "artillery", "melee").is_empty());
    let cell = |blue: &mut Client, kind: &str, at: (i32, i32)| {
        a.set(
            me,
            &format!("kind = '{kind}', men = 50, wounded = 10, ap = 16"),
        );
        options(blue, me, Some(at))["cell"].clone()
    };
    let inf = cell(&mut blue, "infantry", (9, 5));
    assert_eq!(inf["volley"]["code"], "out_of_range");
    assert_eq!(
        inf["volley"]["reason"],
        "the target is 4 cells away; the range is 2"
    );
    // In the reader's language, as the errors are.
    let fr = blue.get_with(
        &format!("/api/v1/companies/{me}/options?at=9,5"),
        &[("Accept-Language", "fr")],
    );
    assert_eq!(
        fr.json()["cell"]["volley"]["reason"],
        "la cible est à 4 cases ; la portée est de 2"
    );
    // Artillery bombards the enemy fort for 6 AP; sappers repair their own works for 4 and
    // bridge the river for 8; no other kind is offered these.
    assert_eq!(cell(&mut blue, "artillery", (3, 3))["bombard"]["ap"], 6);
    assert_eq!(cell(&mut blue, "sappers", (6, 4))["repair"]["ap"], 4);
    assert_eq!(cell(&mut blue, "sappers", (4, 6))["build_bridge"]["ap"], 8);
    assert!(cell(&mut blue, "infantry", (3, 3))["bombard"].is_null());
    // A friend's cell cannot be entered, and the page says why.
    let friend = cell(&mut blue, "infantry", (8, 4));
    assert_eq!(friend["move_to"]["code"], "occupied");
    assert_eq!(friend["occupant"]["friendly"], true);
    let page = blue.get(&format!("/worlds/{w}?company={me}&cell=8,4"));
    assert!(page.body.contains("id=\"cannot-move\""), "{}", page.body);
    // Healing is offered with wounded to heal, not at full strength with none.
    a.set(me, "kind = 'infantry', men = 200, wounded = 0, ap = 16");
    let o = options(&mut blue, me, None);
    assert_eq!(o["heal"]["code"], "no_wounded");
    let page = blue.get(&format!("/companies/{me}"));
    assert!(!page
        .body
        .contains(&format!("action=\"/companies/{me}/heal\"")));
    assert!(page.body.contains("id=\"no-heal\""));
    // Another player's company has no options to show: not found, as for any order.
    let r = red.get_json(&format!("/api/v1/companies/{me}/options"));
    assert_eq!(r.status, 404);
    let r = blue.get_json(&format!("/api/v1/companies/{me}/options?at=nowhere"));
    assert_eq!(r.status, 422);
});

/// The expected losses of `me`'s attack on the company at `at` by the rules' own function,
/// with the target's figures as they are (`real`) or as its enemies assume them (fresh).
fn expected_by_the_rules(
    a: &Arena,
    me: i64,
    at: (i32, i32),
    ranged: bool,
    real: bool,
) -> (i32, i32) {
    use grognard::rules::{combat, vision, Pos};
    let rs = a.app.config.rules.clone();
    let mut conn = a.app.conn();
    let w = grognard::game::maps::worlds::get(&mut conn, grognard::ids::WorldId(a.world as i32))
        .unwrap();
    let at = Pos::new(at.0, at.1);
    let (mut area, placed) = grognard::game::play::load::window(&mut conn, &w, &[at], 3).unwrap();
    let mine = placed.iter().find(|p| p.company.id.0 as i64 == me).unwrap();
    let u = grognard::game::play::load::unit_of(mine);
    if !real {
        let foe = area.unit_at(at).unwrap().clone();
        area.place(vision::assumed(&rs, foe));
    }
    let b = combat::expect(&rs, &area, &u, at, ranged).unwrap();
    (b.defender.losses, b.attacker.losses)
}

both!(
    the_attack_buttons_say_their_cost_and_the_losses_expected_on_what_is_seen,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut blue = a.blue.clone();
        assert_eq!(login(&mut blue, "blue_player", PASSWORD).status, 303);
        let mut red = a.red.clone();
        let me = a.raise(&mut blue, "infantry", "Moi");
        let foe = a.raise(&mut red, "infantry", "Voisin");
        a.put(me, 5, 5);
        a.put(foe, 6, 5);
        // Red's company has been through a fight Blue did not see: half its men, shaken.
        a.set(foe, "men = 100, morale = 2");
        let o = options(&mut blue, me, Some((6, 5)));
        let rs = a.app.config.rules.clone();
        let inf = rs.kind(grognard::rules::Kind::Infantry);
        for (order, ranged, cost) in [
            (
                "volley",
                true,
                rs.volley_cost(grognard::rules::Kind::Infantry),
            ),
            ("melee", false, inf.melee.map(|m| m.cost).unwrap()),
        ] {
            let choice = &o["cell"][order];
            assert_eq!(choice["allowed"], true, "{order}: {choice}");
            assert_eq!(choice["ap"].as_i64(), Some(cost as i64), "{order}");
            let told = (
                choice["expected"]["inflicted"].as_i64().unwrap() as i32,
                choice["expected"]["suffered"].as_i64().unwrap() as i32,
            );
            // Reckoned on a fresh company, as the map shows it: the real figures would tell more.
            assert_eq!(
                told,
                expected_by_the_rules(&a, me, (6, 5), ranged, false),
                "{order}"
            );
            if !ranged {
                // (A volley's losses do not hang on the target's men; a charge's answer does.)
                assert_ne!(
                    told,
                    expected_by_the_rules(&a, me, (6, 5), ranged, true),
                    "{order}"
                );
            }
            assert!(told.0 > 0, "{order} hurts: {told:?}");
            // The targets' list says the same.
            let t = o["targets"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["id"] == foe)
                .unwrap();
            assert_eq!(t[order]["expected"], choice["expected"]);
        }
        // The world page's buttons: the cost on the button, the losses beside it, one name each.
        let page = blue.get(&format!("/worlds/{w}?company={me}&cell=6,5"));
        let volley = &o["cell"]["volley"];
        let melee = &o["cell"]["melee"];
        assert!(page.body.contains(&format!(
        "<button type=\"submit\" id=\"volley-here\">Volley ({} AP)</button> <span class=\"expect\">on average they lose {}, you {}</span>",
        volley["ap"], volley["expected"]["inflicted"], volley["expected"]["suffered"]
    )), "{}", section(&page.body, "id=\"cell-panel\"", "</section>"));
        assert!(page.body.contains(&format!(
        "<button type=\"submit\" id=\"charge-here\">Charge ({} AP)</button> <span class=\"expect\">on average they lose {}, you {}</span>",
        melee["ap"], melee["expected"]["inflicted"], melee["expected"]["suffered"]
    )));
        assert!(!page.body.contains(">Melee<"));
        // The company page offers the same.
        let page = blue.get(&format!("/companies/{me}"));
        assert!(
            page.body.contains(&format!(
                "Voisin (1 away): on average they lose {}, you {}</option>",
                volley["expected"]["inflicted"], volley["expected"]["suffered"]
            )),
            "{}",
            section(&page.body, "/volley", "</form>")
        );
    }
);
