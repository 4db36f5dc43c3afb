//! The first day's checklist is ticked by the game, whichever way a player plays: through the
//! JSON API as through the pages.

use crate::both;
use crate::support::client::Client;
use crate::support::fixtures::*;
use serde_json::json;

const FOG: i64 = 1;
const REPORT: i64 = 2;

/// Whether the world page's checklist shows `step` done; None once the list is gone.
fn ticked(c: &mut Client, w: i64, step: &str) -> Option<bool> {
    let page = c.get(&format!("/worlds/{w}"));
    assert_eq!(page.status, 200);
    let at = page.body.find(&format!("data-step=\"{step}\""))?;
    Some(page.body[at..].starts_with(&format!("data-step=\"{step}\" class=\"done\"")))
}

both!(a_player_of_the_api_ticks_the_report_and_the_fog, |b| {
    let a = arena(b);
    let w = a.world;
    let mut blue = a.blue.clone();
    a.raise(&mut blue, "infantry", "Eclaireurs");
    assert_eq!(a.first_steps("blue_player") & (FOG | REPORT), 0);
    // Nothing new to read is no report read.
    let r = blue.get_json(&format!("/api/v1/worlds/{w}/events?since=2000000000"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["events"].as_array().map(Vec::len), Some(0));
    assert_eq!(a.first_steps("blue_player") & REPORT, 0);
    let r = blue.get_json(&format!("/api/v1/worlds/{w}/events"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.json()["events"].as_array().unwrap().is_empty());
    assert_eq!(a.first_steps("blue_player") & REPORT, REPORT);
    assert_eq!(a.first_steps("blue_player") & FOG, 0);
    // A rectangle the company sees all of holds no fog; the whole map does.
    let r = blue.get_json(&format!("/api/v1/worlds/{w}/map?x0=0&y0=0&x1=1&y1=1"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["cells"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["seen"] == true));
    assert_eq!(a.first_steps("blue_player") & FOG, 0);
    let r = blue.get_json(&format!("/api/v1/worlds/{w}/map"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["cells"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["seen"] == false));
    assert_eq!(a.first_steps("blue_player") & (FOG | REPORT), FOG | REPORT);
    // Read again: the bits stay as they are.
    assert_eq!(
        blue.get_json(&format!("/api/v1/worlds/{w}/map")).status,
        200
    );
    assert_eq!(
        blue.get_json(&format!("/api/v1/worlds/{w}/events")).status,
        200
    );
    assert_eq!(a.first_steps("blue_player") & (FOG | REPORT), FOG | REPORT);
    // Someone who has not joined reads the world's events and its map with no row to tick.
    let mut outsider = api_player(&a.app, "outsider");
    assert_eq!(
        outsider.get_json(&format!("/api/v1/worlds/{w}/map")).status,
        200
    );
    assert_eq!(
        outsider
            .get_json(&format!("/api/v1/worlds/{w}/events"))
            .status,
        200
    );
});

both!(the_pages_tick_the_report_and_the_fog, |b| {
    let a = arena(b);
    let w = a.world;
    let mut c = player(&a.app, "page_player");
    join_and_raise(&mut c, w, "Blue", "infantry", "Voltigeurs");
    assert_eq!(ticked(&mut c, w, "report"), Some(false));
    assert_eq!(
        ticked(&mut c, w, "fog"),
        Some(false),
        "the map alone is no look"
    );
    assert_eq!(c.get(&format!("/worlds/{w}/reports")).status, 200);
    assert_eq!(ticked(&mut c, w, "report"), Some(true));
    // A cell in sight picked is no look into the fog; one out of sight is.
    assert_eq!(c.get(&format!("/worlds/{w}?cell=1,1")).status, 200);
    assert_eq!(ticked(&mut c, w, "fog"), Some(false));
    let page = c.get(&format!("/worlds/{w}?cell=15,9"));
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("data-step=\"fog\" class=\"done\""),
        "ticked on the page that looked"
    );
    assert_eq!(ticked(&mut c, w, "fog"), Some(true));
    assert_eq!(a.first_steps("page_player") & (FOG | REPORT), FOG | REPORT);
});

both!(a_charge_ticks_the_fight_as_a_volley_does, |b| {
    // Cavalry fires no volley: its charge is its fight, and the checklist says so.
    let a = arena(b);
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let hussars = a.raise(&mut blue, "cavalry", "Hussards");
    let foe = a.raise(&mut red, "infantry", "Ligne");
    a.put(hussars, 5, 5);
    a.put(foe, 6, 5);
    let fired = grognard::game::play::first_steps::FIRED as i64;
    assert_eq!(a.first_steps("blue_player") & fired, 0);
    let r = a.act(&mut blue, hussars, "melee", json!({"target": foe}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(a.first_steps("blue_player") & fired, fired);
    // The step's words name both ways.
    let mut web = a.app.client();
    assert_eq!(login(&mut web, "blue_player", PASSWORD).status, 303);
    let page = web.get(&format!("/worlds/{}", a.world));
    assert!(page
        .body
        .contains("Fight: a volley at an enemy in range, or a charge at one next to you"));
});
