//! Whether a player may raise a company is one answer of the game: the world's `raise` field in
//! the API, the world page's raise form (or its reason) and the raise order itself agree, on
//! both databases.

use crate::both;
use crate::support::client::Client;
use crate::support::fixtures::*;
use serde_json::json;

/// A player of Blue in the arena who plays through the pages and the API alike.
fn pat(a: &Arena) -> Client {
    let mut c = player(&a.app, "pat");
    let t = c.post_json(
        "/api/v1/tokens",
        json!({"username": "pat", "password": PASSWORD}),
    );
    assert_eq!(t.status, 201, "{}", t.body);
    c.bearer = Some(t.json()["token"].as_str().unwrap().to_string());
    let r = c.post_json(
        &format!("/api/v1/worlds/{}/join", a.world),
        json!({"nation": "Blue"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    c
}

/// The text between `start` and the next `end`.
fn between<'a>(body: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = body.find(start)? + start.len();
    let len = body[from..].find(end)?;
    Some(&body[from..from + len])
}

fn raise_form(w: i64) -> String {
    format!("action=\"/worlds/{w}/companies\"")
}

/// The API's `raise` field and the world page refuse with `code`, and a raise attempted through
/// the API and through the form is refused with the same code and the same sentence, changing
/// nothing.
fn refused_alike(a: &Arena, c: &mut Client, code: &str) {
    let w = a.world;
    let before = a.state();
    let world = c.get_json(&format!("/api/v1/worlds/{w}"));
    assert_eq!(world.status, 200, "{}", world.body);
    let raise = world.json()["raise"].clone();
    assert_eq!(raise["allowed"], false, "{raise}");
    assert_eq!(raise["reason"]["code"], code, "{raise}");
    let r = c.post_json(
        &format!("/api/v1/worlds/{w}/companies"),
        json!({"kind": "infantry", "name": "Another"}),
    );
    assert!(r.status >= 400 && r.status < 500, "{}", r.body);
    assert_eq!(r.code(), code, "{}", r.body);
    assert_eq!(r.json()["error"]["message"], raise["reason"]["message"]);

    let page = c.get(&format!("/worlds/{w}"));
    assert_eq!(page.status, 200);
    assert!(!page.body.contains(&raise_form(w)), "the form is offered");
    let shown = between(
        &page.body,
        &format!("id=\"raise-refused\" data-code=\"{code}\">"),
        "</p>",
    )
    .unwrap_or_else(|| panic!("no reason on the page for {code}"));
    let tried = c.post_form(
        &format!("/worlds/{w}/companies"),
        &[
            ("csrf", &page.csrf()),
            ("kind", "infantry"),
            ("name", "Another"),
        ],
    );
    assert!(tried.status >= 400 && tried.status < 500, "{}", tried.body);
    let said = between(&tried.body, &format!("data-code=\"{code}\">"), "</p>")
        .unwrap_or_else(|| panic!("the refused raise does not say {code}: {}", tried.body));
    // The page's line is "No company can be raised now: <reason>"; the refused raise says the
    // reason on its own, as a sentence: a capital, a full stop.
    let reason = shown.split_once(": ").map_or(shown, |(_, r)| r);
    assert!(
        said.contains(&grognard::web::templates::as_sentence(reason)),
        "the page says {shown:?}, the refused raise {said:?}"
    );
    assert_eq!(a.state(), before, "a refused raise changed something");
}

both!(a_player_may_raise_while_the_world_allows_it, |b| {
    let a = arena(b);
    let w = a.world;
    let mut c = pat(&a);
    let world = c.get_json(&format!("/api/v1/worlds/{w}"));
    assert_eq!(
        world.json()["raise"],
        json!({"allowed": true, "reason": null})
    );
    let page = c.get(&format!("/worlds/{w}"));
    assert!(page.body.contains(&raise_form(w)));
    assert!(!page.body.contains("id=\"raise-refused\""));
    // Only a player of the world is told.
    let mut outsider = api_player(&a.app, "outsider");
    let world = outsider.get_json(&format!("/api/v1/worlds/{w}"));
    assert_eq!(world.status, 200);
    assert!(world.json()["raise"].is_null());
    let world = a.app.client().get_json(&format!("/api/v1/worlds/{w}"));
    assert_eq!(world.status, 200);
    assert!(world.json()["raise"].is_null());
});

both!(an_empty_treasury_refuses_the_raise_beforehand, |b| {
    let a = arena(b);
    let mut c = pat(&a);
    a.exec(&format!(
        "UPDATE nations SET treasury = 99 WHERE id = {}",
        a.nation("Blue")
    ));
    refused_alike(&a, &mut c, "treasury");
});

both!(the_company_limit_refuses_the_raise_beforehand, |b| {
    let a = arena(b);
    let mut c = pat(&a);
    for name in ["Un", "Deux", "Trois"] {
        a.raise(&mut c, "infantry", name);
    }
    refused_alike(&a, &mut c, "company_limit");
    // The limit is said before the treasury, asked beforehand as attempted.
    a.exec(&format!(
        "UPDATE nations SET treasury = 0 WHERE id = {}",
        a.nation("Blue")
    ));
    refused_alike(&a, &mut c, "company_limit");
});

both!(a_paused_world_refuses_the_raise_beforehand, |b| {
    let a = arena(b);
    let mut c = pat(&a);
    a.exec(&format!(
        "UPDATE worlds SET paused = TRUE WHERE id = {}",
        a.world
    ));
    refused_alike(&a, &mut c, "paused");
});

both!(an_ended_campaign_refuses_the_raise_beforehand, |b| {
    let a = arena(b);
    let mut c = pat(&a);
    // Over and paused: the end is what is said.
    a.exec(&format!(
        "UPDATE worlds SET ended_turn = turn, paused = TRUE WHERE id = {}",
        a.world
    ));
    refused_alike(&a, &mut c, "campaign_over");
    // In the page's language, on the page and in the API's answers alike.
    c.get("/lang/fr");
    refused_alike(&a, &mut c, "campaign_over");
    let page = c.get(&format!("/worlds/{}", a.world));
    assert!(
        page.body.contains("la campagne est terminée"),
        "the reason is not in French"
    );
    let world = c.get_json(&format!("/api/v1/worlds/{}", a.world));
    let message = world.json()["raise"]["reason"]["message"].clone();
    assert!(
        message.as_str().is_some_and(|m| m.contains("campagne")),
        "{message}"
    );
});
