//! Fog of war against a hostile player: orders and previews aimed at what the nation does not
//! see answer as if nothing were there, and never name the unseen company's cell.

use crate::both;
use crate::support::client::Resp;
use crate::support::fixtures::*;
use serde_json::json;

fn refused_without_place(r: &Resp, code: &str) {
    assert_eq!(r.json()["error"]["code"], code, "{}", r.body);
    let message = r.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(!message.contains("(12, 8)"), "{message}");
    assert!(!message.contains('('), "no coordinates at all: {message}");
}

both!(orders_at_an_unseen_company_answer_not_found, |b| {
    let a = arena(b);
    let mine = a.raise(&mut a.blue.clone(), "infantry", "Scouts");
    let foe = a.raise(&mut a.red.clone(), "infantry", "Far away");
    a.put(mine, 2, 2);
    a.put(foe, 12, 8);
    for action in ["melee", "volley"] {
        let r = a.act(&mut a.blue.clone(), mine, action, json!({"target": foe}));
        assert_eq!(r.status, 404, "{action}: {}", r.body);
        refused_without_place(&r, "not_found");
    }
    // The same answer as for a company id that does not exist at all.
    let r = a.act(
        &mut a.blue.clone(),
        mine,
        "melee",
        json!({"target": 999_999}),
    );
    assert_eq!(r.status, 404);
    refused_without_place(&r, "not_found");
    // Once in sight (but not next to it), the refusal may say where it is.
    a.put(mine, 10, 8);
    let r = a.act(&mut a.blue.clone(), mine, "melee", json!({"target": foe}));
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["error"]["code"], "not_adjacent");
});

both!(
    the_cell_panel_does_not_tell_an_unseen_company_is_there,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut c = crate::support::player(&a.app, "curious");
        let id = join_and_raise(&mut c, w, "Blue", "infantry", "Curious");
        let foe = a.raise(&mut a.red.clone(), "voltigeurs", "Lurkers");
        a.put(id, 2, 2);
        a.put(foe, 6, 2);
        a.paint(6, 2, "forest", None, None);
        // Hidden in the forest 4 cells away: the panel offers the move as onto empty ground.
        let page = c.get(&format!("/worlds/{w}?company={id}&cell=6,2"));
        assert_eq!(page.status, 200);
        assert!(!page.body.contains("Lurkers"));
        assert!(
            !page.body.contains("occupied"),
            "the preview gives the company away"
        );
        assert!(page.body.contains("id=\"move-here\""));
    }
);

both!(
    the_map_of_a_rectangle_is_seen_from_the_nation_s_companies_around_it,
    |b| {
        let a = arena(b);
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        // Infantry sees 3 cells on plain ground. Blue's eyes stand left of the rectangle.
        let eyes = a.raise(&mut blue, "infantry", "Eyes");
        let near = a.raise(&mut red, "infantry", "Near");
        let far = a.raise(&mut red, "infantry", "Far");
        let beside = a.raise(&mut red, "infantry", "Beside");
        a.put(eyes, 2, 4);
        a.put(near, 5, 4);
        a.put(far, 8, 4);
        a.put(beside, 3, 4);
        let url = format!("/api/v1/worlds/{}/map?x0=4&y0=0&x1=12&y1=9", a.world);
        let ids = |map: &serde_json::Value| -> Vec<i64> {
            map["companies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["id"].as_i64().unwrap())
                .collect()
        };
        let seen = |map: &serde_json::Value, x: i64, y: i64| -> bool {
            map["cells"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["x"] == x && c["y"] == y)
                .unwrap()["seen"]
                .as_bool()
                .unwrap()
        };
        let map = blue.get_json(&url).json();
        // Only what stands inside: the company 3 cells from the eyes, not the one 6 away,
        // and not the one beside the eyes, which is seen but outside the rectangle.
        assert_eq!(ids(&map), vec![near], "{map}");
        assert!(seen(&map, 4, 4) && seen(&map, 5, 4) && seen(&map, 5, 1));
        assert!(!seen(&map, 6, 4) && !seen(&map, 5, 0));
        // Red sees its own companies inside, and 3 cells from the one outside.
        let map = red.get_json(&url).json();
        assert_eq!(ids(&map), vec![near, far], "{map}");
        assert!(seen(&map, 6, 4) && seen(&map, 11, 7) && !seen(&map, 12, 4));
    }
);
