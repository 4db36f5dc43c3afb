//! Fog of war against a hostile player: orders and previews aimed at what the nation does not
//! see answer as if nothing were there, and never name the unseen company's cell.

use crate::both;
use crate::pages::join_and_raise;
use crate::play::arena;
use crate::support::client::Resp;
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
        let mut c = crate::accounts::player(&a.app, "curious");
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
