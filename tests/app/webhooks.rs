//! Webhooks: a player's alerts posted to an address of theirs (Discord, Slack, Matrix), only
//! a public one, once each, retried on failure and turned off when it keeps failing.

use crate::both;
use crate::support::fixtures::{arena, arena_with, Arena};
use crate::support::receiver::Receiver;
use serde_json::json;

/// Runs the deliveries due at `at` as the delivery thread does; how many it claimed.
fn deliver(a: &Arena, at: i64) -> usize {
    let out = grognard::outgoing::Outgoing::new(&a.app.config.settings.push);
    grognard::delivery::deliver_due(&mut a.app.conn(), &a.app.config, &out, at).unwrap()
}

const LATER: i64 = 4_000_000_000;

both!(a_webhook_must_be_a_public_https_address, |b| {
    let a = arena(b);
    let r = Receiver::start();
    let mut blue = a.blue.clone();
    for url in [
        r.url("/hook"),
        "https://127.0.0.1/hook".into(),
        "https://localhost:8443/hook".into(),
        "https://169.254.169.254/latest/meta-data".into(),
        "https://[::1]/hook".into(),
        "https://[::ffff:127.0.0.1]/hook".into(),
        "https://10.0.0.7/hook".into(),
        "https://192.168.1.1/hook".into(),
        "ftp://example.org/hook".into(),
        "not an address".into(),
    ] {
        let res = blue.post_json("/api/v1/webhooks", json!({ "url": url }));
        assert_eq!(res.status, 422, "{url}: {}", res.body);
        assert_eq!(res.json()["error"]["code"], "not_public", "{url}");
    }
    // Too long: refused before its host is looked up.
    let long = format!("https://example.org/{}", "a".repeat(2000));
    let res = blue.post_json("/api/v1/webhooks", json!({ "url": long }));
    assert_eq!(res.status, 422, "{}", res.body);
    assert_eq!(res.json()["error"]["code"], "invalid");
    let res = blue.post_json("/api/v1/webhooks", json!({ "address": r.url("/hook") }));
    assert_eq!(res.status, 422, "{}", res.body);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM webhooks"), 0);
    // One written while private addresses were allowed is checked again when it is used: the
    // loopback receiver hears nothing.
    let (_, mut red, inf, foe) = a.facing();
    a.exec(&format!(
        "INSERT INTO webhooks (user_id, url, created_at) \
         SELECT id, '{}', 0 FROM users WHERE username = 'blue_player'",
        r.url("/hook")
    ));
    let res = a.act(&mut red, foe, "volley", json!({ "target": inf }));
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(deliver(&a, LATER), 1);
    assert!(r.received().is_empty(), "{:?}", r.received());
    assert_eq!(
        a.app.count("SELECT COUNT(*) FROM deliveries"),
        0,
        "given up"
    );
    assert_eq!(
        a.app
            .count("SELECT CAST(failures AS BIGINT) AS n FROM webhooks"),
        1
    );
});

both!(an_attack_reaches_the_defender_s_webhook_once, |b| {
    let a = arena_with(b, |s| s.push.allow_private = true);
    let r = Receiver::start();
    let (mut blue, mut red, inf, foe) = a.facing();
    let res = blue.post_json(
        "/api/v1/webhooks",
        json!({ "url": r.url("/api/webhooks/secret") }),
    );
    assert_eq!(res.status, 201, "{}", res.body);
    let id = res.json()["id"].as_i64().unwrap();
    // The address's path is its secret: it is not shown again.
    let list = blue.get_json("/api/v1/webhooks").json();
    assert_eq!(list["webhooks"][0]["host"], format!("127.0.0.1:{}", r.port));
    assert!(!list.to_string().contains("secret"), "{list}");
    assert_eq!(
        red.get_json("/api/v1/webhooks").json()["webhooks"],
        json!([])
    );
    let res = red.json("DELETE", &format!("/api/v1/webhooks/{id}"), None);
    assert_eq!(res.status, 404, "another player's webhook");
    // Three per player at most.
    for n in 0..3 {
        let res = red.post_json(
            "/api/v1/webhooks",
            json!({ "url": r.url(&format!("/red/{n}")) }),
        );
        assert_eq!(res.status, 201, "{n}: {}", res.body);
    }
    let res = red.post_json("/api/v1/webhooks", json!({ "url": r.url("/red/3") }));
    assert_eq!(res.status, 409, "{}", res.body);
    assert_eq!(res.json()["error"]["code"], "conflict");
    a.exec("DELETE FROM webhooks WHERE url LIKE '%/red/%'");

    let res = a.act(&mut red, foe, "volley", json!({ "target": inf }));
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(deliver(&a, grognard::db::now()), 1);
    assert_eq!(deliver(&a, LATER), 0, "sent once");
    let got = r.received();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].path, "/api/webhooks/secret");
    assert_eq!(got[0].header("content-type"), Some("application/json"));
    let body = got[0].json();
    assert_eq!(body["kind"], "attacked");
    assert_eq!(body["world"], a.world);
    let content = body["content"].as_str().unwrap();
    assert!(
        content.contains("Feinde fired a volley at Ligne"),
        "{content}"
    );
    assert_eq!(body["text"], body["content"]);
    assert!(
        body["url"].as_str().unwrap().contains("/reports#report-"),
        "{body}"
    );
    assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);

    // Removed, it gets nothing more.
    let res = blue.json("DELETE", &format!("/api/v1/webhooks/{id}"), None);
    assert_eq!(res.status, 204);
    let res = a.act(&mut red, foe, "volley", json!({ "target": inf }));
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(deliver(&a, LATER), 0);
    assert_eq!(r.received().len(), 1);
});

both!(
    a_failing_webhook_is_retried_then_turned_off_and_its_player_told,
    |b| {
        let a = arena_with(b, |s| {
            s.push.allow_private = true;
            s.push.webhook_failures = 3;
        });
        let r = Receiver::start();
        let (mut blue, mut red, inf, foe) = a.facing();
        let res = blue.post_json("/api/v1/webhooks", json!({ "url": r.url("/hook") }));
        assert_eq!(res.status, 201, "{}", res.body);
        let volley = |red: &mut crate::support::Client| {
            let res = a.act(red, foe, "volley", json!({ "target": inf }));
            assert_eq!(res.status, 200, "{}", res.body);
        };
        let failures = || {
            a.app
                .count("SELECT CAST(failures AS BIGINT) AS n FROM webhooks")
        };

        // A server error, then "too many requests": tried again later each time, then it goes.
        r.answer(&[500, 429]);
        volley(&mut red);
        let now = grognard::db::now();
        assert_eq!(deliver(&a, now), 1);
        assert_eq!(deliver(&a, now), 0, "not before its time");
        assert_eq!(failures(), 1);
        assert_eq!(deliver(&a, LATER), 1);
        assert_eq!(failures(), 2);
        assert_eq!(deliver(&a, LATER), 1);
        assert_eq!(
            failures(),
            0,
            "a delivery that goes through resets the count"
        );
        let got = r.received();
        assert_eq!(got.len(), 3);
        assert!(
            got.iter().all(|g| g.body == got[0].body),
            "the same alert each time"
        );
        // The delivery's key is the same on each try, and random: not a count of deliveries.
        let key = got[0].header("x-grognard-delivery").unwrap().to_string();
        assert_eq!(key.len(), 32, "{key}");
        assert!(key.bytes().all(|b| b.is_ascii_hexdigit()), "{key}");
        assert!(got
            .iter()
            .all(|g| g.header("x-grognard-delivery") == Some(key.as_str())));
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);

        // Three failures in a row: it is turned off, its player told on the site, and nothing
        // more is queued for it.
        r.answer(&[500, 404, 500]);
        for _ in 0..3 {
            volley(&mut red);
        }
        assert_eq!(deliver(&a, LATER), 3);
        let keys: std::collections::HashSet<String> = r.received()[3..]
            .iter()
            .map(|g| g.header("x-grognard-delivery").unwrap().to_string())
            .collect();
        assert_eq!(keys.len(), 3, "each alert its own key");
        let hooks = blue.get_json("/api/v1/webhooks").json();
        assert!(hooks["webhooks"][0]["disabled_at"].is_number(), "{hooks}");
        assert_eq!(hooks["webhooks"][0]["failures"], 3);
        let alerts = blue.get_json("/api/v1/alerts").json();
        let off: Vec<_> = alerts["alerts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|al| al["kind"] == "webhook_off")
            .collect();
        assert_eq!(off.len(), 1, "{alerts}");
        assert!(
            off[0]["summary"]
                .as_str()
                .unwrap()
                .contains(&format!("127.0.0.1:{}", r.port)),
            "{}",
            off[0]
        );
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);
        volley(&mut red);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);
        assert_eq!(r.received().len(), 6);
    }
);
