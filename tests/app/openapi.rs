//! The API's OpenAPI description (`GET /api/v1/openapi.json`) against the routes of
//! `routes.rs`, against docs/api.md, and against the real answers of every route on both
//! databases. (Every answer any test receives from `/api/v1` is held to it as well:
//! `support::openapi::hold`.)

use crate::both;
use crate::support::fixtures::*;
use crate::support::openapi::described;
use crate::support::{Client, TestApp};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// A path with its parameters' names left out: `/worlds/{}/map`.
fn shape(path: &str) -> String {
    path.split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

/// The orders `POST /api/v1/companies/{c}/{action}` takes, each described under its own path.
const ORDERS: &[&str] = &[
    "move",
    "volley",
    "melee",
    "bombard",
    "heal",
    "build-bridge",
    "repair",
    "reinforce",
    "ram",
    "build-siege-tower",
];

/// The orders the walk below sees refused: each needs ground of its own (a castle, a river,
/// artillery, a reserve), and succeeds in the tests of its rule.
const REFUSED_HERE: &[&str] = &[
    "melee",
    "bombard",
    "build-bridge",
    "repair",
    "reinforce",
    "ram",
    "build-siege-tower",
];

/// The described operations, as (method, shape).
fn described_ops() -> BTreeSet<(String, String)> {
    described()
        .operations
        .iter()
        .map(|o| (o.method.clone(), shape(&o.template)))
        .collect()
}

/// The API's routes in `routes.rs`, as (method, shape), the orders' route spelled out.
fn registered_ops() -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (method, path) in crate::routes::declared_routes() {
        if !path.starts_with("/api/v1") {
            continue;
        }
        if path == "/api/v1/companies/{c}/{action}" {
            for o in ORDERS {
                out.insert((method.clone(), format!("/api/v1/companies/{{}}/{o}")));
            }
        } else {
            out.insert((method, shape(&path)));
        }
    }
    out
}

#[test]
fn the_description_has_every_route_and_no_other() {
    let described = described_ops();
    let registered = registered_ops();
    let missing: Vec<_> = registered.difference(&described).collect();
    let extra: Vec<_> = described.difference(&registered).collect();
    assert!(missing.is_empty(), "routes not described: {missing:?}");
    assert!(extra.is_empty(), "described but not routed: {extra:?}");
    assert_eq!(described.len(), 79);
}

/// The API's routes as docs/api.md's tables list them: `| \`METHOD /api/v1/…\``.
fn documented_ops() -> BTreeSet<(String, String)> {
    let text = include_str!("../../docs/api.md");
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let Some(cell) = line.strip_prefix("| `") else {
            continue;
        };
        let Some(end) = cell.find('`') else { continue };
        let Some((method, path)) = cell[..end].split_once(' ') else {
            continue;
        };
        if !path.starts_with("/api/v1") {
            continue;
        }
        let path = path.split('?').next().unwrap();
        out.insert((method.to_string(), shape(path)));
    }
    out
}

#[test]
fn docs_and_description_agree() {
    let documented = documented_ops();
    let described = described_ops();
    let undocumented: Vec<_> = described.difference(&documented).collect();
    let undescribed: Vec<_> = documented.difference(&described).collect();
    assert!(
        undocumented.is_empty(),
        "described, missing from docs/api.md: {undocumented:?}"
    );
    assert!(
        undescribed.is_empty(),
        "in docs/api.md, not described: {undescribed:?}"
    );
    let text = include_str!("../../docs/api.md");
    assert!(text.contains("/api/v1/openapi.json"));
    assert!(include_str!("../../README.md").contains("/api/v1/openapi.json"));
}

#[test]
fn every_error_is_the_error_body_with_a_bearer_scheme() {
    let doc = &described().doc;
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"],
        json!({"type": "http", "scheme": "bearer"})
    );
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|s| s.starts_with('2')),
                "{method} {path}: no success"
            );
            for status in ["500", "503"] {
                assert!(
                    responses.contains_key(status),
                    "{method} {path}: no {status}"
                );
            }
            for (status, r) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        r["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/ErrorBody",
                        "{method} {path} {status}"
                    );
                }
            }
            let needs_token = op["security"]
                .as_array()
                .is_some_and(|s| s.iter().all(|r| r.get("bearer").is_some()));
            if needs_token {
                assert!(responses.contains_key("401"), "{method} {path}");
            }
        }
    }
}

/// Calls every described operation, names its path, and keeps what a success answered.
struct Walk<'a> {
    app: &'a TestApp,
    succeeded: BTreeSet<(String, String)>,
}

impl Walk<'_> {
    /// A request that must succeed (2xx); its answer was held to the description on the way.
    fn ok(&mut self, who: &mut Client, method: &str, path: &str, body: Option<Value>) -> Value {
        let r = who.json(method, path, body);
        assert!(
            (200..300).contains(&r.status),
            "{method} {path}: {} {}",
            r.status,
            r.body
        );
        self.note(method, path);
        if r.body.is_empty() {
            Value::Null
        } else {
            r.json()
        }
    }

    fn note(&mut self, method: &str, path: &str) {
        let op = described()
            .operation(method, path)
            .unwrap_or_else(|| panic!("{method} {path} is not described"));
        self.succeeded
            .insert((op.method.clone(), shape(&op.template)));
    }
}

both!(every_route_answers_as_described, |b| {
    // Webhooks go to a receiver of the test's own, on loopback.
    let a = arena_with(b, |s| s.push.allow_private = true);
    let receiver = crate::support::receiver::Receiver::start();
    let w = a.world;
    let mut walk = Walk {
        app: &a.app,
        succeeded: BTreeSet::new(),
    };
    let mut anyone = a.app.client();
    let mut gm = gm_api(walk.app, "walk_gm");
    let (mut blue, mut red, inf, foe) = a.facing();

    // Meta, accounts and worlds.
    walk.ok(&mut anyone, "GET", "/api/v1/openapi.json", None);
    let creds = json!({"username": "walker", "password": PASSWORD});
    walk.ok(&mut anyone, "POST", "/api/v1/users", Some(creds.clone()));
    let mut walker = a.app.client();
    let token = walk.ok(&mut walker, "POST", "/api/v1/tokens", Some(creds.clone()));
    walker.bearer = Some(token["token"].as_str().unwrap().to_string());
    let spare = walk.ok(&mut walker, "POST", "/api/v1/tokens", Some(creds));
    walk.ok(&mut walker, "GET", "/api/v1/tokens", None);
    let spare = spare["id"].as_i64().unwrap();
    walk.ok(
        &mut walker,
        "DELETE",
        &format!("/api/v1/tokens/{spare}"),
        None,
    );
    walk.ok(&mut walker, "GET", "/api/v1/me", None);
    walk.ok(&mut blue, "GET", "/api/v1/alerts", None);
    let hook = walk.ok(
        &mut blue,
        "POST",
        "/api/v1/webhooks",
        Some(json!({ "url": receiver.url("/hook") })),
    );
    walk.ok(&mut blue, "GET", "/api/v1/webhooks", None);
    let hook = hook["id"].as_i64().unwrap();
    walk.ok(
        &mut blue,
        "DELETE",
        &format!("/api/v1/webhooks/{hook}"),
        None,
    );
    walk.ok(&mut anyone, "GET", "/api/v1/push/key", None);
    let phone = crate::support::receiver::Browser::new(&receiver, "phone");
    let sub = walk.ok(
        &mut blue,
        "POST",
        "/api/v1/push/subscriptions",
        Some(phone.subscription()),
    );
    walk.ok(&mut blue, "GET", "/api/v1/push/subscriptions", None);
    walk.ok(
        &mut blue,
        "DELETE",
        &format!("/api/v1/push/subscriptions/{}", sub["id"].as_i64().unwrap()),
        None,
    );
    let chosen = walk.ok(&mut blue, "GET", "/api/v1/push/settings", None);
    walk.ok(&mut blue, "PUT", "/api/v1/push/settings", Some(chosen));
    walk.ok(&mut anyone, "GET", "/api/v1/worlds", None);
    walk.ok(&mut anyone, "GET", &format!("/api/v1/worlds/{w}"), None);
    walk.ok(&mut blue, "GET", &format!("/api/v1/worlds/{w}"), None);

    // Playing.
    walk.ok(
        &mut walker,
        "POST",
        &format!("/api/v1/worlds/{w}/join"),
        Some(json!({"nation": "Blue"})),
    );
    let raised = walk.ok(
        &mut walker,
        "POST",
        &format!("/api/v1/worlds/{w}/companies"),
        Some(json!({"kind": "infantry", "name": "Voltigeurs"})),
    );
    let mine = raised["id"].as_i64().unwrap();
    walk.ok(
        &mut walker,
        "GET",
        &format!("/api/v1/companies/{mine}"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/companies/{inf}/options?at=7,5"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/map?x0=0&y0=0&x1=9&y1=9"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/nations"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/screen?cell=7,5&company={inf}"),
        None,
    );
    walk.ok(
        &mut anyone,
        "GET",
        &format!("/api/v1/worlds/{w}/screen"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/companies/{inf}/screen"),
        None,
    );
    walk.ok(
        &mut blue,
        "POST",
        &format!("/api/v1/companies/{inf}/volley"),
        Some(json!({"target": foe})),
    );
    walk.ok(
        &mut red,
        "POST",
        &format!("/api/v1/companies/{foe}/move"),
        Some(json!({"to": [7, 6]})),
    );
    walk.ok(
        &mut red,
        "POST",
        &format!("/api/v1/companies/{foe}/heal"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/events?since=0&limit=10"),
        None,
    );
    // The live stream answers as a stream: its first burst read to its end.
    let live = crate::support::live::open(&a.app.base, &blue, w, None);
    assert_eq!(live.status, 200, "{}", live.body);
    live.until("message", |_| true);
    walk.succeeded
        .insert(("GET".into(), "/api/v1/worlds/{}/live".into()));
    let regiment = walk.ok(
        &mut blue,
        "POST",
        &format!("/api/v1/worlds/{w}/regiments"),
        Some(json!({"name": "Garde"})),
    );
    let r = regiment["id"].as_i64().unwrap();
    walk.ok(
        &mut walker,
        "POST",
        &format!("/api/v1/worlds/{w}/regiments/{r}/join"),
        None,
    );
    a.paint(3, 3, "farm", Some("Blue"), None);
    walk.ok(
        &mut blue,
        "PUT",
        &format!("/api/v1/worlds/{w}/regiments/{r}/headquarters"),
        Some(json!({"at": [3, 3]})),
    );

    // Talking.
    let said = walk.ok(
        &mut walker,
        "POST",
        &format!("/api/v1/worlds/{w}/messages"),
        Some(json!({"to": "nation", "body": "En avant"})),
    );
    let message = said["id"].as_i64().unwrap();
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/messages?since=0"),
        None,
    );
    walk.ok(
        &mut blue,
        "POST",
        &format!("/api/v1/messages/{message}/report"),
        Some(json!({"reason": "rude"})),
    );
    let reports = walk.ok(
        &mut gm,
        "GET",
        &format!("/api/v1/worlds/{w}/message-reports"),
        None,
    );
    let report = reports["reports"][0]["id"].as_i64().unwrap();
    walk.ok(
        &mut gm,
        "DELETE",
        &format!("/api/v1/worlds/{w}/message-reports/{report}"),
        None,
    );
    walk.ok(
        &mut gm,
        "DELETE",
        &format!("/api/v1/messages/{message}"),
        None,
    );
    walk.ok(
        &mut gm,
        "POST",
        &format!("/api/v1/worlds/{w}/mutes"),
        Some(json!({"player": "walker", "hours": 1})),
    );
    walk.ok(
        &mut blue,
        "POST",
        &format!("/api/v1/worlds/{w}/blocks"),
        Some(json!({"player": "red_player"})),
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/blocks"),
        None,
    );
    walk.ok(
        &mut blue,
        "DELETE",
        &format!("/api/v1/worlds/{w}/blocks/red_player"),
        None,
    );
    let marker = walk.ok(
        &mut blue,
        "POST",
        &format!("/api/v1/worlds/{w}/markers"),
        Some(json!({"at": "3,3", "label": "Rendez-vous"})),
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/markers"),
        None,
    );
    let marker = marker["id"].as_i64().unwrap();
    walk.ok(
        &mut blue,
        "DELETE",
        &format!("/api/v1/markers/{marker}"),
        None,
    );

    // Game masters.
    walk.ok(
        &mut gm,
        "PATCH",
        &format!("/api/v1/worlds/{w}"),
        Some(json!({"paused": false})),
    );
    walk.ok(
        &mut gm,
        "POST",
        &format!("/api/v1/worlds/{w}/ticks"),
        Some(json!({"kind": "turn"})),
    );
    walk.ok(
        &mut gm,
        "POST",
        &format!("/api/v1/worlds/{w}/bots"),
        Some(json!({"nation": "Red", "level": "easy"})),
    );
    walk.ok(&mut gm, "GET", &format!("/api/v1/worlds/{w}/bots"), None);
    walk.ok(
        &mut gm,
        "DELETE",
        &format!("/api/v1/worlds/{w}/bots/Red-bot"),
        None,
    );
    walk.ok(
        &mut anyone,
        "GET",
        &format!("/api/v1/worlds/{w}/dice/0"),
        None,
    );
    walk.ok(
        &mut gm,
        "PUT",
        &format!("/api/v1/worlds/{w}/cells/9/2"),
        Some(json!({"terrain": "forest"})),
    );
    walk.ok(
        &mut gm,
        "PUT",
        &format!("/api/v1/worlds/{w}/cells"),
        Some(json!({"cells": [{"x": 9, "y": 3, "terrain": "marsh", "town": null}]})),
    );
    walk.ok(
        &mut gm,
        "PUT",
        &format!("/api/v1/worlds/{w}/edges/9/4/N"),
        Some(json!({"feature": "rampart"})),
    );
    walk.ok(&mut gm, "POST", &format!("/api/v1/worlds/{w}/undo"), None);
    walk.ok(
        &mut gm,
        "PUT",
        &format!("/api/v1/worlds/{w}/nations/Blue/spawn"),
        Some(json!({"at": [0, 1]})),
    );
    walk.ok(
        &mut gm,
        "PATCH",
        &format!("/api/v1/companies/{mine}"),
        Some(json!({"ap": 5, "morale": 8})),
    );
    walk.ok(
        &mut gm,
        "DELETE",
        &format!("/api/v1/companies/{mine}"),
        None,
    );
    walk.ok(
        &mut gm,
        "GET",
        &format!("/api/v1/worlds/{w}/audit?before=1000"),
        None,
    );
    let map = walk.ok(&mut gm, "GET", &format!("/api/v1/worlds/{w}/export"), None);
    let made = walk.ok(
        &mut gm,
        "POST",
        "/api/v1/worlds",
        Some(json!(map)).map(|mut m| {
            m["name"] = json!("Arena II");
            m
        }),
    );
    assert!(made["id"].as_i64().is_some());
    walk.ok(
        &mut gm,
        "POST",
        "/api/v1/worlds/generate",
        Some(json!({"width": 12, "height": 10, "seed": 3})),
    );
    let tiled = gm.post_raw(
        "/api/v1/worlds/import-tiled?format=tmx&name=Csv",
        "application/xml",
        include_str!("../fixtures/tiled/csvmap.tmx"),
    );
    assert_eq!(tiled.status, 201, "{}", tiled.body);
    walk.note("POST", "/api/v1/worlds/import-tiled");

    // The campaign, its end and the next one.
    walk.ok(
        &mut anyone,
        "GET",
        &format!("/api/v1/worlds/{w}/standings"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/history"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/castles"),
        None,
    );
    walk.ok(
        &mut blue,
        "GET",
        &format!("/api/v1/worlds/{w}/rankings?by=xp"),
        None,
    );
    walk.ok(
        &mut walker,
        "POST",
        &format!("/api/v1/worlds/{w}/leave"),
        Some(json!({"days": 2})),
    );
    walk.ok(&mut gm, "POST", &format!("/api/v1/worlds/{w}/end"), None);
    walk.ok(
        &mut gm,
        "POST",
        &format!("/api/v1/worlds/{w}/next"),
        Some(json!({"name": "Arena, again"})),
    );

    // The orders that need a castle, a river or artillery succeed in their own tests
    // (castles.rs, play.rs), whose answers are held to the description too; here each is
    // refused, an answer the description must also allow.
    let mut blue2 = a.blue.clone();
    for o in REFUSED_HERE {
        let r = blue2.post_json(
            &format!("/api/v1/companies/{inf}/{o}"),
            json!({"at": [6, 5], "target": foe, "men": 5}),
        );
        assert!(
            (400..500).contains(&r.status),
            "{o}: {} {}",
            r.status,
            r.body
        );
    }
    let left: Vec<_> = described_ops()
        .into_iter()
        .filter(|op| !walk.succeeded.contains(op))
        .filter(|(_, p)| {
            !REFUSED_HERE
                .iter()
                .any(|o| *p == format!("/api/v1/companies/{{}}/{o}"))
        })
        .collect();
    assert!(left.is_empty(), "not walked to a success: {left:?}");

    // Every operation refused: without credentials, and on ids that name nothing.
    let mut stranger = a.app.client();
    for op in &described().operations {
        let path = op
            .template
            .split('/')
            .map(|s| if s.starts_with('{') { "987654" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        for who in [&mut stranger, &mut blue] {
            let r = who.json(&op.method, &path, Some(json!({})));
            assert!(r.status < 500, "{} {path}: {}", op.method, r.body);
        }
    }
});

both!(
    a_path_of_the_api_asked_with_another_method_is_405_with_the_methods_it_takes,
    |b| {
        let app = TestApp::spawn(b);
        let mut c = app.client();
        let r = c.json("PATCH", "/api/v1/worlds", Some(json!({})));
        assert_eq!(r.status, 405, "{}", r.body);
        assert_eq!(r.header("allow"), Some("GET, POST"));
        assert_eq!(r.code(), "method_not_allowed");
        let r = c.json("DELETE", "/api/v1/worlds/1/dice/3", None);
        assert_eq!((r.status, r.header("allow")), (405, Some("GET")));
        let r = c.json("PUT", "/api/v1/companies/7", Some(json!({})));
        assert_eq!(r.header("allow"), Some("GET, PATCH, DELETE"));
        // A literal path the router hands to a pattern (`/worlds/{w}`) is told apart too, once
        // the credentials, read first, are good.
        let mut c = api_player(&app, "asker");
        let r = c.json("PATCH", "/api/v1/worlds/generate", Some(json!({})));
        assert_eq!((r.status, r.header("allow")), (405, Some("POST")));
        // A pattern's method with a bad parameter is still not found.
        assert_eq!(
            c.json("PATCH", "/api/v1/worlds/abc", Some(json!({})))
                .status,
            404
        );
        // A path the API does not have is not found, whatever the method.
        for m in ["GET", "POST", "DELETE"] {
            assert_eq!(c.json(m, "/api/v1/armies", None).code(), "not_found");
        }
    }
);
