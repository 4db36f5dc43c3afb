//! Every route of `src/web/routes.rs`, walked by a hostile player: without credentials, with
//! another player's, as a player on the game masters' routes, with empty, malformed,
//! oversized, NUL-laden and huge-number bodies and path parameters. No answer is a 5xx, and
//! nothing in the database changes (row counts of every table, and a checksum of the
//! companies, cells, players, nations and worlds). A route added to `routes.rs` without being
//! listed here fails the test.

use crate::both;
use crate::support::fixtures::*;
use crate::support::Client;
use diesel::prelude::*;
use serde_json::json;

/// (method, path) of every route, as `routes.rs` declares them.
const ROUTES: &[(&str, &str)] = &[
    ("GET", "/worlds/{w}"),
    ("GET", "/healthz"),
    ("GET", "/metrics"),
    ("GET", "/static/{file}"),
    ("GET", "/"),
    ("GET", "/register"),
    ("POST", "/register"),
    ("GET", "/login"),
    ("POST", "/login"),
    ("POST", "/logout"),
    ("GET", "/account"),
    ("POST", "/account/away"),
    ("POST", "/account/tokens"),
    ("POST", "/account/password"),
    ("POST", "/account/tokens/{id}/revoke"),
    ("GET", "/admin/users"),
    ("POST", "/admin/users/{id}"),
    ("POST", "/worlds/{w}/join"),
    ("POST", "/worlds/{w}/companies"),
    ("GET", "/worlds/{w}/reports"),
    ("GET", "/worlds/{w}/nations"),
    ("GET", "/worlds/{w}/standings"),
    ("POST", "/worlds/{w}/regiments"),
    ("POST", "/worlds/{w}/regiments/{r}/join"),
    ("POST", "/worlds/{w}/regiments/{r}/headquarters"),
    ("POST", "/worlds/{w}/leave"),
    ("GET", "/alerts"),
    ("GET", "/rules"),
    ("GET", "/lang/{code}"),
    ("POST", "/account/alerts"),
    ("POST", "/account/push"),
    ("GET", "/unsubscribe/{token}"),
    ("POST", "/unsubscribe/{token}"),
    ("GET", "/gm/worlds"),
    ("POST", "/gm/worlds"),
    ("GET", "/gm/worlds/{w}"),
    ("POST", "/gm/worlds/{w}/control"),
    ("POST", "/gm/worlds/{w}/campaign"),
    ("POST", "/gm/worlds/{w}/cells"),
    ("POST", "/gm/worlds/{w}/edges"),
    ("POST", "/gm/worlds/{w}/undo"),
    ("POST", "/gm/worlds/{w}/spawn"),
    ("POST", "/gm/worlds/{w}/bots"),
    ("POST", "/gm/worlds/{w}/bots/remove"),
    ("GET", "/gm/worlds/{w}/export"),
    ("GET", "/gm/worlds/{w}/audit"),
    ("POST", "/gm/companies/{c}"),
    ("GET", "/companies/{c}"),
    ("POST", "/companies/{c}/{action}"),
    ("POST", "/api/v1/companies/{c}/{action}"),
    ("GET", "/api/v1/companies/{c}"),
    ("GET", "/api/v1/companies/{c}/options"),
    ("GET", "/api/v1/companies/{c}/screen"),
    ("GET", "/api/v1/worlds/{w}/screen"),
    ("GET", "/api/v1/worlds/{w}/map"),
    ("POST", "/api/v1/users"),
    ("POST", "/api/v1/tokens"),
    ("GET", "/api/v1/tokens"),
    ("DELETE", "/api/v1/tokens/{id}"),
    ("POST", "/api/v1/webhooks"),
    ("GET", "/api/v1/webhooks"),
    ("DELETE", "/api/v1/webhooks/{id}"),
    ("GET", "/api/v1/push/key"),
    ("POST", "/api/v1/push/subscriptions"),
    ("GET", "/api/v1/push/subscriptions"),
    ("DELETE", "/api/v1/push/subscriptions/{id}"),
    ("GET", "/api/v1/push/settings"),
    ("PUT", "/api/v1/push/settings"),
    ("GET", "/api/v1/openapi.json"),
    ("GET", "/api/v1/me"),
    ("GET", "/api/v1/worlds"),
    ("POST", "/api/v1/worlds"),
    ("POST", "/api/v1/worlds/generate"),
    ("POST", "/api/v1/worlds/import-tiled"),
    ("GET", "/api/v1/worlds/{w}/export"),
    ("GET", "/api/v1/worlds/{w}/audit"),
    ("PUT", "/api/v1/worlds/{w}/cells"),
    ("PUT", "/api/v1/worlds/{w}/cells/{x}/{y}"),
    ("PUT", "/api/v1/worlds/{w}/edges/{x}/{y}/{side}"),
    ("POST", "/api/v1/worlds/{w}/undo"),
    ("PUT", "/api/v1/worlds/{w}/nations/{n}/spawn"),
    ("PATCH", "/api/v1/companies/{c}"),
    ("DELETE", "/api/v1/companies/{c}"),
    ("GET", "/api/v1/worlds/{w}"),
    ("GET", "/api/v1/worlds/{w}/dice/{turn}"),
    ("PATCH", "/api/v1/worlds/{w}"),
    ("POST", "/api/v1/worlds/{w}/ticks"),
    ("POST", "/api/v1/worlds/{w}/bots"),
    ("GET", "/api/v1/worlds/{w}/bots"),
    ("DELETE", "/api/v1/worlds/{w}/bots/{name}"),
    ("POST", "/api/v1/worlds/{w}/end"),
    ("POST", "/api/v1/worlds/{w}/next"),
    ("GET", "/api/v1/worlds/{w}/castles"),
    ("GET", "/api/v1/worlds/{w}/rankings"),
    ("GET", "/api/v1/worlds/{w}/standings"),
    ("GET", "/api/v1/worlds/{w}/history"),
    ("POST", "/api/v1/worlds/{w}/join"),
    ("POST", "/api/v1/worlds/{w}/companies"),
    ("GET", "/api/v1/worlds/{w}/events"),
    ("GET", "/api/v1/worlds/{w}/live"),
    ("GET", "/api/v1/worlds/{w}/nations"),
    ("POST", "/api/v1/worlds/{w}/regiments"),
    ("POST", "/api/v1/worlds/{w}/regiments/{r}/join"),
    ("PUT", "/api/v1/worlds/{w}/regiments/{r}/headquarters"),
    ("POST", "/api/v1/worlds/{w}/leave"),
    ("GET", "/api/v1/alerts"),
    ("GET", "/messages"),
    ("GET", "/worlds/{w}/messages"),
    ("POST", "/worlds/{w}/messages"),
    ("POST", "/worlds/{w}/messages/{id}/report"),
    ("POST", "/worlds/{w}/blocks"),
    ("POST", "/worlds/{w}/markers"),
    ("POST", "/worlds/{w}/markers/{id}/delete"),
    ("GET", "/gm/worlds/{w}/moderation"),
    ("POST", "/gm/worlds/{w}/moderation"),
    ("POST", "/api/v1/worlds/{w}/messages"),
    ("GET", "/api/v1/worlds/{w}/messages"),
    ("POST", "/api/v1/messages/{id}/report"),
    ("DELETE", "/api/v1/messages/{id}"),
    ("GET", "/api/v1/worlds/{w}/message-reports"),
    ("DELETE", "/api/v1/worlds/{w}/message-reports/{id}"),
    ("POST", "/api/v1/worlds/{w}/mutes"),
    ("POST", "/api/v1/worlds/{w}/blocks"),
    ("GET", "/api/v1/worlds/{w}/blocks"),
    ("DELETE", "/api/v1/worlds/{w}/blocks/{player}"),
    ("POST", "/api/v1/worlds/{w}/markers"),
    ("GET", "/api/v1/worlds/{w}/markers"),
    ("DELETE", "/api/v1/markers/{id}"),
];

/// The (method, path) pairs declared in `routes.rs`, read from its text: `.route("…", web::m()`
/// and `web::resource("…").guard(guard::M())`, under `web::scope("…")` where they are.
pub fn declared_routes() -> Vec<(String, String)> {
    let text = include_str!("../../src/web/routes.rs");
    let mut out = Vec::new();
    let mut prefix = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("\"/") {
        let before = rest[..start].trim_end();
        let after = &rest[start + 1..];
        let end = after.find('"').expect("closing quote");
        let path = &after[..end];
        let tail = &after[end..];
        let method_after = |marker: &str| {
            ["get", "post", "put", "patch", "delete"]
                .iter()
                .filter_map(|m| {
                    let needle = if marker == "web::" {
                        format!("web::{m}()")
                    } else {
                        let mut c = m.chars();
                        let cap: String = c
                            .next()
                            .map(|f| f.to_ascii_uppercase())
                            .into_iter()
                            .chain(c)
                            .collect();
                        format!("guard::{cap}()")
                    };
                    tail.find(&needle).map(|i| (i, m.to_ascii_uppercase()))
                })
                .min()
                .map(|(_, m)| m)
                .expect("a method after the path")
        };
        if before.ends_with("scope(") {
            prefix = path.to_string();
        } else if before.ends_with("route(") {
            out.push((method_after("web::"), format!("{prefix}{path}")));
        } else if before.ends_with("resource(") {
            out.push((method_after("guard::"), format!("{prefix}{path}")));
        }
        rest = &after[end + 1..];
    }
    out
}

#[test]
fn every_route_is_listed_for_the_hostile_walk() {
    let declared = declared_routes();
    let listed: Vec<(String, String)> = ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    for r in &declared {
        assert!(
            listed.contains(r),
            "{r:?} is not walked by tests/app/routes.rs"
        );
    }
    for r in &listed {
        assert!(declared.contains(r), "{r:?} is no longer a route");
    }
}

/// Row counts of every table and a checksum of the game's state.
fn fingerprint(a: &crate::support::Arena) -> Vec<i64> {
    #[derive(QueryableByName)]
    struct Sum {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = a.app.conn();
    let mut q = |sql: &str| -> i64 {
        diesel::sql_query(sql)
            .get_result::<Sum>(&mut *conn)
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .n
    };
    let mut out = Vec::new();
    for table in [
        "worlds",
        "nations",
        "towns",
        "cells",
        "users",
        "sessions",
        "api_tokens",
        "regiments",
        "players",
        "companies",
        "events",
        "ticks",
        "bots",
        "gm_audit",
        "messages",
        "message_reports",
        "blocks",
        "markers",
        "alerts",
    ] {
        out.push(q(&format!(
            "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM {table}"
        )));
    }
    for sql in [
        "SELECT CAST(COALESCE(SUM(x * 7 + y * 13 + men * 17 + wounded * 19 + ap * 23 + morale * 29 + xp * 31), 0) AS BIGINT) AS n FROM companies",
        "SELECT CAST(COALESCE(SUM((x + 1) * (y + 3) * (LENGTH(terrain) + COALESCE(owner_id, 0) * 5 + COALESCE(structure, 0) * 11 + COALESCE(town_id, 0) * 13)), 0) AS BIGINT) AS n FROM cells",
        "SELECT CAST(COALESCE(SUM(reserve * 3 + nation_id * 5 + COALESCE(regiment_id, 0) * 7), 0) AS BIGINT) AS n FROM players",
        "SELECT CAST(COALESCE(SUM(treasury + spawn_x * 3 + spawn_y * 5), 0) AS BIGINT) AS n FROM nations",
        "SELECT CAST(COALESCE(SUM(turn * 3 + LENGTH(season) + CASE WHEN paused THEN 7 ELSE 0 END), 0) AS BIGINT) AS n FROM worlds",
        "SELECT CAST(COALESCE(SUM(LENGTH(role) + CASE WHEN banned THEN 11 ELSE 0 END), 0) AS BIGINT) AS n FROM users",
    ] {
        out.push(q(sql));
    }
    out
}

/// Path parameters: the real ones first (the other player's objects), then hostile ones.
fn params(w: i64, theirs: i64, token: i64) -> Vec<[String; 8]> {
    let real = [
        w.to_string(),
        theirs.to_string(),
        token.to_string(),
        "1".into(),
        "3".into(),
        "4".into(),
        "move".into(),
        "style.css".into(),
    ];
    let mut out = vec![real];
    for bad in [
        "abc",
        "-1",
        "0",
        "2147483648",
        "99999999999999999999",
        "%00",
        "%E2%82%AC",
        "..%2F..%2Fetc%2Fpasswd",
    ] {
        out.push(std::array::from_fn(|_| bad.to_string()));
    }
    out
}

fn concrete(path: &str, p: &[String; 8]) -> String {
    path.replace("{w}", &p[0])
        .replace("{c}", &p[1])
        .replace("{id}", &p[2])
        .replace("{r}", &p[3])
        .replace("{n}", &p[3])
        .replace("{x}", &p[4])
        .replace("{y}", &p[5])
        .replace("{action}", &p[6])
        .replace("{turn}", &p[3])
        .replace("{file}", &p[7])
        .replace("{code}", &p[7])
        .replace("{player}", &p[7])
        .replace("{side}", &p[7])
        .replace("{name}", &p[7])
        // A well-formed unsubscribe token that is nobody's.
        .replace("{token}", &"ab".repeat(24))
}

/// Bodies: none, broken, hostile values in the right shape, and one over every limit.
fn bodies() -> Vec<(&'static str, Vec<u8>)> {
    // Over the 64 KB every route but the map uploads takes (those refuse a player unread).
    let big = vec![b'['; 100 * 1024];
    vec![
        ("application/json", Vec::new()),
        ("application/json", b"{".to_vec()),
        ("application/json", b"null".to_vec()),
        ("application/json", b"[]".to_vec()),
        (
            "application/json",
            json!({"name": "a\u{0}b", "username": "\u{0}", "password": "\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}",
                   "target": 99_999_999_999i64, "to": [2147483647, -2147483648], "path": [[1e300, 2]],
                   "men": -2147483648i64, "at": ["x", null], "kind": "\u{0}", "nation": {"a": 1},
                   "x": 1e300, "y": -1, "terrain": "lava", "paused": "maybe", "season": "spring",
                   "width": 2147483647, "height": 2147483647, "seed": -1, "cells": [{"x": null}]})
            .to_string()
            .into_bytes(),
        ),
        (
            "application/x-www-form-urlencoded",
            b"csrf=&name=%00&to=2147483648,1&path=9999999999,1&target=-0&men=1e9&at=%00,%00&x=&y=&terrain=%00&back=//evil.example"
                .to_vec(),
        ),
        ("text/plain", vec![0u8, 159, 146, 150]),
        ("application/json", big),
    ]
}

fn walk(c: &mut Client, w: i64, theirs: i64, token: i64, who: &str) {
    for (method, path) in ROUTES {
        for p in params(w, theirs, token) {
            // A stream that opens does not end: tests/app/live.rs holds its refusals.
            if path.ends_with("/live") && p[0] == w.to_string() {
                continue;
            }
            let url = concrete(path, &p);
            let list = if p[0] == w.to_string() {
                bodies()
            } else {
                vec![("application/json", Vec::new())]
            };
            for (ct, body) in list {
                // Past every limit, the server may answer and close before the body is all
                // sent: a reset connection is a refusal too (nothing is read, nothing changes).
                let r = match c.try_raw(method, &url, ct, &body) {
                    Ok(r) => r,
                    Err(e) if body.len() > 64 * 1024 => {
                        assert!(
                            e.contains("disconnected") || e.contains("reset") || e.contains("pipe"),
                            "{who}: {method} {url}: {e}"
                        );
                        continue;
                    }
                    Err(e) => panic!("{who}: {method} {url}: {e}"),
                };
                assert!(
                    r.status < 500,
                    "{who}: {method} {url} ({ct}, {} bytes) answered {}: {}",
                    body.len(),
                    r.status,
                    &r.body[..r.body.len().min(300)]
                );
            }
        }
    }
}

both!(
    a_hostile_walk_of_every_route_gets_4xx_and_changes_nothing,
    |b| {
        let a = arena(b);
        let w = a.world;
        // The other player's company and token: what an attacker aims at.
        let theirs = a.raise(&mut a.red.clone(), "infantry", "Target");
        a.put(theirs, 12, 8);
        let token = a
            .app
            .count("SELECT CAST(MAX(id) AS BIGINT) AS n FROM api_tokens");
        // The other nation's board message, private message and marker: ids to aim at.
        let mut red = a.red.clone();
        for to in ["nation", "blue_player"] {
            let r = red.post_json(
                &format!("/api/v1/worlds/{w}/messages"),
                json!({"to": to, "body": "for our eyes"}),
            );
            assert_eq!(r.status, 201, "{}", r.body);
        }
        let r = red.post_json(
            &format!("/api/v1/worlds/{w}/markers"),
            json!({"at": [3, 3], "label": "rally"}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let mut web = player(&a.app, "walker");
        let mut api = api_player(&a.app, "walker_api");
        let mut gm = gm_api(&a.app, "walker_gm");
        let before = fingerprint(&a);
        walk(&mut a.app.client(), w, theirs, token, "nobody");
        walk(&mut web, w, theirs, token, "a player's session");
        walk(&mut api, w, theirs, token, "a player's token");
        // A game master's upload routes, with every hostile upload.
        for u in crate::support::uploads::hostile_uploads() {
            let r = gm.raw("POST", u.path, u.content_type, u.body.as_bytes());
            assert_eq!(r.status, 422, "{}: {}", u.what, r.body);
        }
        assert_eq!(
            fingerprint(&a),
            before,
            "a hostile request changed the database"
        );
        // The walk did not lock the player's own session or token out of anything legitimate.
        assert_eq!(api.get_json("/api/v1/me").status, 200);
    }
);
