//! The world and company screens: the game assembles them (`game::screens`), the pages draw
//! them and the API serves them, so a player of the API reads what the page shows and ticks
//! the same first-day steps.

use crate::both;
use crate::support::fixtures::*;
use serde_json::json;

both!(the_world_screen_is_the_world_page_s, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, _, inf, foe) = a.facing();
    let s = blue.get_json(&format!("/api/v1/worlds/{w}/screen?company={inf}&cell=7,5"));
    assert_eq!(s.status, 200, "{}", s.body);
    let s = s.json();
    assert_eq!(s["selected"], inf);
    assert_eq!(s["player"]["nation"], "Blue");
    assert_eq!(s["companies"][0]["name"], "Ligne");
    assert_eq!(s["cell"]["x"], 7);
    assert_eq!(s["cell"]["y"], 5);
    // The foe two cells away is in sight and in range: the page offers the volley too.
    let targets = s["options"]["targets"].as_array().unwrap();
    assert!(targets.iter().any(|t| t["id"] == foe), "{targets:?}");
    // The same player on the page, signed in.
    let mut site = a.app.client();
    assert_eq!(login(&mut site, "blue_player", PASSWORD).status, 303);
    let page = site.get(&format!("/worlds/{w}?company={inf}&cell=7,5"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Feinde"));
    assert!(page
        .body
        .contains(&format!("action=\"/companies/{inf}/volley\"")));
    // 30×20 cells at most around the company in hand, inside the 16×10 world.
    assert_eq!(
        [
            &s["map"]["x0"],
            &s["map"]["y0"],
            &s["map"]["x1"],
            &s["map"]["y1"]
        ],
        [0, 0, 15, 9]
    );
    assert_eq!(s["map"]["cells"].as_array().unwrap().len(), 160);
    assert_eq!(s["raise"]["allowed"], true);
    assert_eq!(s["first_day"]["raise"], true);
    assert_eq!(s["first_day"]["fog"], false);
    // A rectangle asked for is the one shown.
    let s = blue
        .get_json(&format!("/api/v1/worlds/{w}/screen?x0=2&y0=3&x1=4&y1=5"))
        .json();
    assert_eq!(s["map"]["cells"].as_array().unwrap().len(), 9);
    // A visitor sees the ground: no player, no company, no raise.
    let s = a
        .app
        .client()
        .get_json(&format!("/api/v1/worlds/{w}/screen"));
    assert_eq!(s.status, 200, "{}", s.body);
    let s = s.json();
    assert!(s["player"].is_null() && s["raise"].is_null() && s["first_day"].is_null());
    assert_eq!(s["companies"], json!([]));
    assert_eq!(s["map"]["companies"], json!([]));
    // A bad cell is refused by name.
    let r = blue.get_json(&format!("/api/v1/worlds/{w}/screen?cell=here"));
    assert_eq!(r.code(), "invalid");
    // So are a query field the screen does not take and a company that is not a number, and
    // a world that does not exist is not found.
    for q in ["zoom=2", "company=abc", "x0=1e9"] {
        let r = blue.get_json(&format!("/api/v1/worlds/{w}/screen?{q}"));
        assert_eq!(r.code(), "invalid", "{q}: {}", r.body);
    }
    assert_eq!(
        blue.get_json("/api/v1/worlds/987654/screen").code(),
        "not_found"
    );
});

both!(
    a_look_into_the_fog_through_the_api_ticks_the_first_day,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut blue = a.blue.clone();
        let id = a.raise(&mut blue, "infantry", "Eclaireurs");
        a.put(id, 1, 1);
        assert_eq!(a.first_steps("blue_player") & 1, 0);
        // A cell the company sees is no look into the fog.
        let s = blue.get_json(&format!("/api/v1/worlds/{w}/screen?cell=1,2"));
        assert_eq!(s.json()["first_day"]["fog"], false);
        assert_eq!(a.first_steps("blue_player") & 1, 0);
        // The far corner is shaded: the screen shows the step done, and the row says so.
        let s = blue.get_json(&format!("/api/v1/worlds/{w}/screen?cell=15,9"));
        assert_eq!(s.status, 200, "{}", s.body);
        assert_eq!(s.json()["first_day"]["fog"], true);
        assert_eq!(a.first_steps("blue_player") & 1, 1);
    }
);

both!(the_company_screen_is_the_company_page_s, |b| {
    let a = arena(b);
    let (mut blue, mut red, inf, foe) = a.facing();
    let r = a.act(&mut blue, inf, "volley", json!({"target": foe}));
    assert_eq!(r.status, 200, "{}", r.body);
    let event = r.json()["event_id"].as_i64().unwrap();
    let s = blue.get_json(&format!("/api/v1/companies/{inf}/screen?report={event}"));
    assert_eq!(s.status, 200, "{}", s.body);
    let s = s.json();
    assert_eq!(s["company"]["id"], inf);
    assert_eq!(s["cell"]["x"], 5);
    assert_eq!(s["enemies"][0]["id"], foe);
    assert_eq!(s["enemies"][0]["distance"], 2);
    assert_eq!(s["report"]["id"], event);
    assert_eq!(s["report"]["kind"], "volley");
    let mut site = a.app.client();
    assert_eq!(login(&mut site, "blue_player", PASSWORD).status, 303);
    let page = site.get(&format!("/companies/{inf}?report={event}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Feinde"));
    // Another player's company is not found, as on the page.
    let r = red.get_json(&format!("/api/v1/companies/{inf}/screen"));
    assert_eq!(r.status, 404, "{}", r.body);
    // Reasons come in the reader's language.
    let fr = blue.clone().get_with(
        &format!("/api/v1/companies/{inf}/screen"),
        &[("Accept-Language", "fr")],
    );
    let en = blue.get_json(&format!("/api/v1/companies/{inf}/screen"));
    assert_ne!(
        fr.json()["options"]["heal"]["reason"],
        en.json()["options"]["heal"]["reason"]
    );
});
