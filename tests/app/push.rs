//! Web Push: a player's browsers get each alert once, signed with the server's VAPID key and
//! encrypted for that browser alone, through a real local push service; gone subscriptions
//! are dropped, busy services tried again; quiet hours and the daily cap hold pushes back; the
//! fog holds everything back.

use crate::both;
use crate::support::fixtures::{arena_with, Arena};
use crate::support::receiver::{Browser, Receiver};
use crate::support::Client;
use serde_json::json;

/// Runs the deliveries due at `at` as the delivery thread does; how many it claimed.
fn deliver(a: &Arena, at: i64) -> usize {
    let out = grognard::outgoing::Outgoing::new(&a.app.config.settings.push);
    grognard::delivery::deliver_due(&mut a.app.conn(), &a.app.config, &out, at).unwrap()
}

const LATER: i64 = 4_000_000_000;

fn pushing(b: crate::support::Backend) -> Arena {
    arena_with(b, |s| {
        s.push.allow_private = true;
        s.push.devices_per_user = 2;
    })
}

fn subscribe(c: &mut Client, browser: &Browser) -> i64 {
    let res = c.post_json("/api/v1/push/subscriptions", browser.subscription());
    assert_eq!(res.status, 201, "{}", res.body);
    res.json()["id"].as_i64().unwrap()
}

/// The arena's two companies facing each other, and Blue's phone subscribed to `r`.
fn facing_with_phone(a: &Arena, r: &Receiver) -> (Client, Client, i64, i64, Browser) {
    let (mut blue, red, inf, foe) = a.facing();
    let phone = Browser::new(r, "phone");
    subscribe(&mut blue, &phone);
    (blue, red, inf, foe, phone)
}

/// Sets a player's daily cap of pushes.
fn daily_cap(c: &mut Client, cap: i32) {
    let res = c.json(
        "PUT",
        "/api/v1/push/settings",
        Some(json!({ "daily_cap": cap })),
    );
    assert_eq!(res.status, 200, "{}", res.body);
}

fn turn_soon(a: &Arena, turn_at: i64) {
    let said = grognard::said::Said::new("said-turn-soon")
        .s("world", "Arena")
        .n("turn", 2)
        .n("minutes", 30);
    grognard::game::news::alerts::turn_soon(
        &mut a.app.conn(),
        grognard::ids::WorldId(a.world as i32),
        turn_at,
        &said,
    )
    .unwrap();
}

both!(
    each_alert_reaches_the_browser_once_signed_and_encrypted,
    |b| {
        let a = pushing(b);
        let r = Receiver::start();
        let (mut blue, mut red, inf, foe) = a.facing();
        let key = a.app.client().get_json("/api/v1/push/key").json()["key"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(grognard::webpush::unb64(&key).unwrap().len(), 65);
        let phone = Browser::new(&r, "blue-phone");
        subscribe(&mut blue, &phone);
        let list = blue.get_json("/api/v1/push/subscriptions").json();
        assert_eq!(list["subscriptions"][0]["endpoint"], phone.endpoint);
        assert_eq!(
            red.get_json("/api/v1/push/subscriptions").json()["subscriptions"],
            json!([])
        );

        // Attacked: pushed at once, urgent.
        let res = a.act(&mut red, foe, "volley", json!({ "target": inf }));
        assert_eq!(res.status, 200, "{}", res.body);
        assert_eq!(deliver(&a, grognard::db::now()), 1);
        assert_eq!(deliver(&a, LATER), 0, "sent once");
        let got = phone.pushes(&r);
        assert_eq!(got.len(), 1, "{got:?}");
        let shown = phone.open(&got[0]);
        assert_eq!(shown["kind"], "attacked");
        assert_eq!(shown["world"], a.world);
        assert!(
            shown["body"]
                .as_str()
                .unwrap()
                .contains("Feinde fired a volley at Ligne"),
            "{shown}"
        );
        assert!(
            shown["url"].as_str().unwrap().contains("/reports#report-"),
            "{shown}"
        );
        assert_eq!(got[0].header("urgency"), Some("high"));
        assert_eq!(got[0].header("ttl"), Some("86400"));
        // Signed with the key the pages subscribe with.
        let signed = got[0].header("authorization").unwrap();
        assert!(signed.ends_with(&format!("k={key}")), "{signed}");
        // The push service sees only ciphertext.
        assert!(!String::from_utf8_lossy(&got[0].body).contains("Feinde"));

        // A message: normal urgency, opens the conversation.
        let res = a.say(&mut red, "blue_player", "Surrender, Ligne");
        assert_eq!(res.status, 201, "{}", res.body);
        assert_eq!(deliver(&a, LATER), 1);
        let got = phone.pushes(&r);
        let shown = phone.open(&got[1]);
        assert_eq!(shown["kind"], "message");
        assert!(
            shown["url"].as_str().unwrap().ends_with("/messages"),
            "{shown}"
        );
        assert_eq!(got[1].header("urgency"), Some("normal"));

        // The turn is near: to both players, kept by the push service until the turn at most,
        // under one topic per world.
        let red_tablet = Browser::new(&r, "red-tablet");
        subscribe(&mut red, &red_tablet);
        // Twice for the same turn (one instant: two calls straddling a second named two turns).
        let soon = grognard::db::now() + 1800;
        turn_soon(&a, soon);
        turn_soon(&a, soon);
        // Delivered before the turn (after it, it would be worth nothing and is dropped).
        assert_eq!(deliver(&a, grognard::db::now()), 2, "once per player");
        let blue_turn = phone.pushes(&r)[2].clone();
        assert_eq!(phone.open(&blue_turn)["kind"], "turn_soon");
        assert_eq!(blue_turn.header("ttl"), Some("1800"));
        assert_eq!(
            blue_turn.header("topic"),
            Some(format!("turn-{}", a.world).as_str())
        );
        let red_turn = red_tablet.pushes(&r);
        assert_eq!(red_turn.len(), 1);
        assert_eq!(red_tablet.open(&red_turn[0])["kind"], "turn_soon");
        // One browser's push does not open with another's keys.
        assert!(std::panic::catch_unwind(|| red_tablet.open(&blue_turn)).is_err());
        assert!(r.received().iter().all(|g| g.refused.is_none()));
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);
    }
);

both!(subscriptions_are_checked_owned_and_bounded, |b| {
    let a = pushing(b);
    let r = Receiver::start();
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let phone = Browser::new(&r, "phone");
    let good = phone.subscription();
    let mut bad_key = good.clone();
    bad_key["keys"]["p256dh"] = json!(grognard::webpush::b64(&[4u8; 65]));
    let mut bad_auth = good.clone();
    bad_auth["keys"]["auth"] = json!("c2hvcnQ");
    let mut no_keys = good.clone();
    no_keys.as_object_mut().unwrap().remove("keys");
    let mut ftp = good.clone();
    ftp["endpoint"] = json!("ftp://127.0.0.1/push/x");
    let mut long = good.clone();
    long["endpoint"] = json!(r.url(&format!("/push/{}", "a".repeat(1000))));
    for body in [bad_key, bad_auth, no_keys, ftp, long, json!({}), json!([1])] {
        let res = blue.post_json("/api/v1/push/subscriptions", body.clone());
        assert_eq!(res.status, 422, "{body}: {}", res.body);
    }
    assert_eq!(a.app.count("SELECT COUNT(*) FROM push_subscriptions"), 0);
    // Without credentials.
    let res = a
        .app
        .client()
        .post_json("/api/v1/push/subscriptions", good.clone());
    assert_eq!(res.status, 401, "{}", res.body);

    let id = subscribe(&mut blue, &phone);
    // Sent again (the page does on each visit): the same row.
    assert_eq!(subscribe(&mut blue, &phone), id);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM push_subscriptions"), 1);
    // Another player cannot end it.
    let res = red.json("DELETE", &format!("/api/v1/push/subscriptions/{id}"), None);
    assert_eq!(res.status, 404, "{}", res.body);
    // Two devices per player here: a third is refused.
    subscribe(&mut blue, &Browser::new(&r, "tablet"));
    let res = blue.post_json(
        "/api/v1/push/subscriptions",
        Browser::new(&r, "laptop").subscription(),
    );
    assert_eq!(res.status, 409, "{}", res.body);
    assert_eq!(res.json()["error"]["code"], "conflict");
    // The same browser, now logged in as Red: it is Red's, and Blue's pushes stop there.
    assert_eq!(subscribe(&mut red, &phone), id);
    let blue_has = blue.get_json("/api/v1/push/subscriptions").json();
    assert_eq!(
        blue_has["subscriptions"].as_array().unwrap().len(),
        1,
        "{blue_has}"
    );
    // Another account with the endpoint but other keys would take a stranger's device.
    let mut stranger = a.join("stranger", "Red");
    let mut forged = phone.subscription();
    forged["keys"] = Browser::new(&r, "other").subscription()["keys"].clone();
    let res = stranger.post_json("/api/v1/push/subscriptions", forged);
    assert_eq!(res.status, 409, "{}", res.body);
    // Moving a browser counts in the receiving account's devices.
    subscribe(&mut stranger, &Browser::new(&r, "s1"));
    subscribe(&mut stranger, &Browser::new(&r, "s2"));
    let res = stranger.post_json("/api/v1/push/subscriptions", phone.subscription());
    assert_eq!(res.status, 409, "{}", res.body);
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) FROM push_subscriptions s JOIN users u ON u.id = s.user_id \
             WHERE u.username = 'red_player' AND s.id = {id}"
        )),
        1,
        "still Red's"
    );
    let res = red.json("DELETE", &format!("/api/v1/push/subscriptions/{id}"), None);
    assert_eq!(res.status, 204);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM push_subscriptions"), 3);
});

both!(
    a_loopback_push_service_is_refused_when_private_addresses_are_off,
    |b| {
        let a = crate::support::fixtures::arena(b);
        let r = Receiver::start();
        let mut blue = a.blue.clone();
        let phone = Browser::new(&r, "phone");
        let res = blue.post_json("/api/v1/push/subscriptions", phone.subscription());
        assert_eq!(res.status, 422, "{}", res.body);
        assert_eq!(res.json()["error"]["code"], "not_public");
        // One written while they were allowed is checked again at sending: nothing is sent.
        a.exec(&format!(
            "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) \
         SELECT id, '{}', '{}', '{}', 0 FROM users WHERE username = 'blue_player'",
            phone.endpoint,
            phone.subscription()["keys"]["p256dh"].as_str().unwrap(),
            phone.subscription()["keys"]["auth"].as_str().unwrap(),
        ));
        let (_, mut red, inf, foe) = a.facing();
        let res = a.act(&mut red, foe, "volley", json!({ "target": inf }));
        assert_eq!(res.status, 200, "{}", res.body);
        assert_eq!(deliver(&a, LATER), 1);
        assert!(r.received().is_empty(), "{:?}", r.received());
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);
    }
);

both!(
    busy_services_are_retried_and_gone_subscriptions_dropped,
    |b| {
        let a = pushing(b);
        let r = Receiver::start();
        let (mut blue, mut red, inf, foe, phone) = facing_with_phone(&a, &r);
        let volley = |red: &mut Client| {
            let res = a.act(red, foe, "volley", json!({ "target": inf }));
            assert_eq!(res.status, 200, "{}", res.body);
        };
        // 429, then 503: tried again each time (not before its time), then delivered (201).
        r.answer(&[429, 503, 201]);
        volley(&mut red);
        let now = grognard::db::now();
        assert_eq!(deliver(&a, now), 1);
        assert_eq!(deliver(&a, now), 0, "not before Retry-After");
        assert_eq!(deliver(&a, LATER), 1);
        assert_eq!(deliver(&a, LATER), 1);
        let got = phone.pushes(&r);
        assert_eq!(
            got.iter().map(|g| g.status).collect::<Vec<_>>(),
            [429, 503, 201]
        );
        let opened: Vec<_> = got.iter().map(|g| phone.open(g)).collect();
        assert!(opened.iter().all(|o| o == &opened[0]), "the same alert");
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);
        assert_eq!(
            a.app
                .count("SELECT CAST(failures AS BIGINT) AS n FROM push_subscriptions"),
            0,
            "reset by the push that went"
        );
        // 410 Gone: the subscription is deleted with what waited for it.
        r.answer(&[410]);
        volley(&mut red);
        volley(&mut red);
        assert_eq!(deliver(&a, LATER), 2);
        assert_eq!(phone.pushes(&r).len(), 4, "the second was dropped with it");
        assert_eq!(a.app.count("SELECT COUNT(*) FROM push_subscriptions"), 0);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);
        // And 404 as well.
        subscribe(&mut blue, &phone);
        r.answer(&[404]);
        volley(&mut red);
        assert_eq!(deliver(&a, LATER), 1);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM push_subscriptions"), 0);
    }
);

both!(quiet_hours_and_the_daily_cap_hold_pushes_back, |b| {
    let a = pushing(b);
    let r = Receiver::start();
    let (mut blue, mut red, inf, foe, phone) = facing_with_phone(&a, &r);
    let volley = |red: &mut Client| {
        let res = a.act(red, foe, "volley", json!({ "target": inf }));
        assert_eq!(res.status, 200, "{}", res.body);
    };
    let defaults = blue.get_json("/api/v1/push/settings").json();
    assert_eq!(defaults["daily_cap"], 20);
    assert_eq!(defaults["quiet_hours"], json!(null));

    // Bad settings are refused and change nothing.
    for bad in [
        json!({"quiet_hours": {"from": "25:00", "to": "07:00"}}),
        json!({"quiet_hours": {"from": "+7:-0", "to": "07:00"}}),
        json!({"quiet_hours": {"from": "7:5", "to": "07:00"}}),
        json!({"quiet_hours": {"from": "22:00", "to": "22:00"}}),
        json!({"quiet_hours": {"from": "22:00"}}),
        json!({"utc_offset": 2000}),
        json!({"daily_cap": 0}),
        json!({"reminders": {"everything": true}}),
    ] {
        let res = blue.json("PUT", "/api/v1/push/settings", Some(bad.clone()));
        assert_eq!(res.status, 422, "{bad}: {}", res.body);
    }
    assert_eq!(blue.get_json("/api/v1/push/settings").json(), defaults);

    // Quiet now, for the hour around this minute (at UTC+2): the push waits until it ends.
    let now = grognard::db::now();
    let local = (now + 7200).rem_euclid(86_400) / 60;
    let hhmm = |m: i64| format!("{:02}:{:02}", m.rem_euclid(1440) / 60, m.rem_euclid(60));
    let chosen = json!({
        "reminders": {"board": true},
        "quiet_hours": {"from": hhmm(local - 30), "to": hhmm(local + 30)},
        "utc_offset": 120,
        "daily_cap": 2,
    });
    let res = blue.json("PUT", "/api/v1/push/settings", Some(chosen.clone()));
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.json()["quiet_hours"], chosen["quiet_hours"]);
    assert_eq!(res.json()["reminders"]["board"], true);
    volley(&mut red);
    assert_eq!(deliver(&a, grognard::db::now()), 0, "quiet");
    let due = a.app.count("SELECT MIN(due_at) AS n FROM deliveries");
    assert!(
        (now + 29 * 60..=now + 31 * 60).contains(&due),
        "{due} is when the quiet ends, about {now} + 30 min"
    );
    assert_eq!(deliver(&a, LATER), 1);

    // The second push of the day is the last: it says so; the third is not pushed (it waits
    // on the site, as every alert does).
    let res = blue.json(
        "PUT",
        "/api/v1/push/settings",
        Some(json!({"daily_cap": 2, "utc_offset": 120})),
    );
    assert_eq!(res.status, 200, "{}", res.body);
    for body in ["Yield", "Yield!"] {
        assert_eq!(a.say(&mut red, "blue_player", body).status, 201);
    }
    assert_eq!(deliver(&a, LATER), 1);
    let got = phone.pushes(&r);
    assert_eq!(got.len(), 2);
    assert!(!phone.open(&got[0])["body"]
        .as_str()
        .unwrap()
        .contains("daily"));
    let last = phone.open(&got[1]);
    assert!(
        last["body"]
            .as_str()
            .unwrap()
            .contains("More alerts today wait on the site"),
        "{last}"
    );
    let alerts = blue.get_json("/api/v1/alerts").json();
    assert_eq!(
        alerts["alerts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|al| al["kind"] != "turn_soon")
            .count(),
        3,
        "every alert is on the site"
    );
});

both!(an_enemy_moving_in_the_fog_pushes_nothing, |b| {
    let a = pushing(b);
    let r = Receiver::start();
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let mine = a.raise(&mut blue, "infantry", "Scouts");
    let foe = a.raise(&mut red, "infantry", "Far away");
    a.put(mine, 2, 2);
    a.put(foe, 12, 8);
    let phone = Browser::new(&r, "phone");
    subscribe(&mut blue, &phone);
    let res = a.act(&mut red, foe, "move", json!({"path": [[11, 8]]}));
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(deliver(&a, LATER), 0);
    assert!(r.received().is_empty(), "{:?}", r.received());
});

both!(rotating_the_vapid_key_ends_every_subscription, |b| {
    let a = pushing(b);
    let r = Receiver::start();
    let mut blue = a.blue.clone();
    let before = a.app.client().get_json("/api/v1/push/key").json()["key"].clone();
    subscribe(&mut blue, &Browser::new(&r, "phone"));
    let (key, ended) = grognard::game::news::push::rotate_key(&mut a.app.conn()).unwrap();
    assert_eq!(ended, 1);
    let after = a.app.client().get_json("/api/v1/push/key").json()["key"].clone();
    assert_ne!(before, after);
    assert_eq!(after, key.public_base64());
    assert_eq!(a.app.count("SELECT COUNT(*) FROM push_subscriptions"), 0);
});

fn alerts_of(c: &mut Client, kind: &str) -> Vec<String> {
    c.get_json("/api/v1/alerts").json()["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|al| al["kind"] == kind)
        .map(|al| al["summary"].as_str().unwrap().to_string())
        .collect()
}

fn ask(c: &mut Client, reminders: serde_json::Value) {
    let res = c.json(
        "PUT",
        "/api/v1/push/settings",
        Some(json!({ "reminders": reminders })),
    );
    assert_eq!(res.status, 200, "{}", res.body);
}

both!(reminders_reach_only_those_who_asked, |b| {
    let a = pushing(b);
    let r = Receiver::start();
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let mut comrade = a.join("comrade", "Blue");
    ask(&mut blue, json!({"full_ap": true, "turn_unspent": true}));
    ask(&mut comrade, json!({"board": true}));
    let phone = Browser::new(&r, "blue-phone");
    subscribe(&mut blue, &phone);
    // Infantry: 24 action points at most, 6 a turn.
    let ligne = a.raise(&mut blue, "infantry", "Ligne");
    let garde = a.raise(&mut blue, "infantry", "Garde");
    let feinde = a.raise(&mut red, "infantry", "Feinde");
    a.set(ligne, "ap = 20");
    a.set(garde, "ap = 10");
    a.set(feinde, "ap = 20");

    // The turn near: Ligne would lose 2 of its 6; Garde none.
    let rs = a.app.config.rules.clone();
    let w = grognard::ids::WorldId(a.world as i32);
    let turn_at = grognard::db::now() + 1800;
    let told = |at| {
        grognard::game::news::reminders::turn_unspent(&mut a.app.conn(), &rs, w, at, 30).unwrap()
    };
    assert_eq!(told(turn_at), 1, "Blue only: Red did not ask");
    assert_eq!(told(turn_at), 0, "once per turn");
    assert_eq!(
        alerts_of(&mut blue, "turn_unspent"),
        ["The turn begins in 30 min and Ligne would lose action points to it"]
    );
    assert!(alerts_of(&mut red, "turn_unspent").is_empty());
    // Pushed before the turn (after it, it would be worth nothing).
    assert_eq!(deliver(&a, grognard::db::now()), 1);

    // At the turn Ligne reaches its 24: told; Garde (16) not.
    a.turn(turn_at);
    assert_eq!(
        alerts_of(&mut blue, "full_ap"),
        ["Ligne is at full action points"]
    );
    assert!(alerts_of(&mut red, "full_ap").is_empty(), "Red did not ask");
    // Already full, it is not told again (and Garde, at 22, not yet).
    a.turn(turn_at + 10);
    assert_eq!(alerts_of(&mut blue, "full_ap").len(), 1);

    // The board: the comrade who asked is told; not the author, not the other nation.
    let res = blue.post_json(
        &format!("/api/v1/worlds/{}/messages", a.world),
        json!({"to": "nation", "body": "Hold the ridge"}),
    );
    assert_eq!(res.status, 201, "{}", res.body);
    assert_eq!(
        alerts_of(&mut comrade, "board"),
        ["blue_player wrote on your nation's board"]
    );
    assert!(alerts_of(&mut blue, "board").is_empty());
    assert!(alerts_of(&mut red, "board").is_empty());

    // And pushed like any alert.
    assert_eq!(deliver(&a, LATER), 1);
    let kinds: Vec<_> = phone
        .pushes(&r)
        .iter()
        .map(|g| phone.open(g)["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["turn_unspent", "full_ap"]);
});

both!(every_kind_of_alert_is_pushed_once, |b| {
    let a = arena_with(b, |s| {
        s.push.allow_private = true;
        s.push.webhook_failures = 1;
    });
    let r = Receiver::start();
    let (mut blue, mut red, inf, foe) = a.facing();
    daily_cap(&mut blue, 200);
    let phone = Browser::new(&r, "phone");
    subscribe(&mut blue, &phone);
    let mut gm = crate::support::fixtures::gm_api(&a.app, "arbitre");
    // Attacked.
    let res = a.act(&mut red, foe, "volley", json!({ "target": inf }));
    assert_eq!(res.status, 200, "{}", res.body);
    // Ground lost.
    a.paint(9, 5, "mine", Some("Blue"), None);
    a.put(foe, 8, 5);
    let res = a.act(&mut red, foe, "move", json!({"path": [[9, 5]]}));
    assert_eq!(res.status, 200, "{}", res.body);
    // A message, an announcement, the turn near.
    assert_eq!(a.say(&mut red, "blue_player", "Yield").status, 201);
    assert_eq!(a.say(&mut gm, "world", "Armistice at noon").status, 201);
    turn_soon(&a, grognard::db::now() + 1800);
    // A webhook failing once (the limit here) is turned off, and its player told.
    let broken = Receiver::start();
    broken.answer(&[500]);
    let res = blue.post_json("/api/v1/webhooks", json!({ "url": broken.url("/hook") }));
    assert_eq!(res.status, 201, "{}", res.body);
    a.put(foe, 7, 5);
    let res = a.act(&mut red, foe, "volley", json!({ "target": inf }));
    assert_eq!(res.status, 200, "{}", res.body);
    while deliver(&a, grognard::db::now()) > 0 {}
    // The campaign's end.
    let res = gm.post_json(&format!("/api/v1/worlds/{}/end", a.world), json!({}));
    assert_eq!(res.status, 200, "{}", res.body);
    while deliver(&a, grognard::db::now()) > 0 {}

    let mut pushed: std::collections::BTreeMap<String, usize> = Default::default();
    for p in phone.pushes(&r) {
        *pushed
            .entry(phone.open(&p)["kind"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    let told: std::collections::BTreeMap<String, usize> = blue.get_json("/api/v1/alerts").json()
        ["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .fold(Default::default(), |mut m, al| {
            *m.entry(al["kind"].as_str().unwrap().to_string())
                .or_default() += 1;
            m
        });
    assert_eq!(pushed, told, "each alert pushed once");
    for kind in [
        "attacked",
        "lost_ground",
        "message",
        "announcement",
        "turn_soon",
        "webhook_off",
        "campaign_over",
    ] {
        assert!(
            pushed.contains_key(kind),
            "{kind} was not pushed: {pushed:?}"
        );
    }
    assert_eq!(pushed["attacked"], 2);
});

both!(the_account_page_sets_reminders_and_quiet_hours, |b| {
    let app = crate::support::TestApp::spawn(b);
    let mut c = crate::support::fixtures::player(&app, "page_player");
    let page = c.get("/account");
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("action=\"/account/push\""),
        "{}",
        page.body
    );
    let csrf = page.csrf();
    let setting = |col: &str| {
        app.count(&format!(
            "SELECT CAST({col} AS BIGINT) AS n FROM push_settings s JOIN users u ON u.id = s.user_id \
             WHERE u.username = 'page_player'"
        ))
    };
    let r = c.post_form(
        "/account/push",
        &[
            ("csrf", &csrf),
            ("board", "on"),
            ("quiet_from", "22:30"),
            ("quiet_to", "07:00"),
            ("utc_offset", "-300"),
            ("daily_cap", "5"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(setting("quiet_from"), 22 * 60 + 30);
    assert_eq!(setting("quiet_to"), 7 * 60);
    assert_eq!(setting("utc_offset"), -300);
    assert_eq!(setting("daily_cap"), 5);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM push_settings WHERE board AND NOT full_ap AND NOT turn_unspent"
        ),
        1
    );
    let page = c.get("/account?push=1");
    assert!(page.body.contains("value=\"22:30\""), "{}", page.body);
    assert!(page.body.contains("name=\"board\" value=\"on\" checked"));
    // Half of the quiet hours, a cap out of range, a word for a number: refused, unchanged.
    for bad in [
        vec![("quiet_from", "22:30")],
        vec![("daily_cap", "0")],
        vec![("daily_cap", "many")],
        vec![("utc_offset", "9999")],
    ] {
        let mut fields = vec![("csrf", csrf.as_str())];
        fields.extend(bad.iter().copied());
        let r = c.post_form("/account/push", &fields);
        assert_eq!(r.status, 422, "{bad:?}: {}", r.body);
    }
    assert_eq!(setting("daily_cap"), 5);
    assert_eq!(setting("quiet_from"), 22 * 60 + 30);
});

both!(
    a_busy_push_service_keeps_the_subscription_a_refusing_one_ends_it,
    |b| {
        let a = pushing(b);
        let r = Receiver::start();
        let (mut blue, mut red, inf, foe) = a.facing();
        daily_cap(&mut blue, 200);
        let phone = Browser::new(&r, "phone");
        subscribe(&mut blue, &phone);
        let volleys = |red: &mut Client, n: usize| {
            for _ in 0..n {
                a.set(foe, "ap = 24");
                let res = a.act(red, foe, "volley", json!({ "target": inf }));
                assert_eq!(res.status, 200, "{}", res.body);
            }
        };
        // Down for a while (503 six times, more than the five failures that end a subscription):
        // the pushes wait to be tried again, the subscription stays.
        r.answer(&[503; 6]);
        volleys(&mut red, 6);
        assert_eq!(deliver(&a, LATER), 6);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM push_subscriptions"), 1);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 6);
        assert_eq!(deliver(&a, LATER + 7200), 6, "tried again, and through");
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);
        // Refused for good five times in a row (403): it ends.
        r.answer(&[403; 5]);
        volleys(&mut red, 5);
        assert_eq!(deliver(&a, LATER + 7200), 5);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM push_subscriptions"), 0);
    }
);

both!(the_turn_near_told_after_the_turn_is_not_pushed, |b| {
    let a = pushing(b);
    let r = Receiver::start();
    let mut blue = a.blue.clone();
    let phone = Browser::new(&r, "phone");
    subscribe(&mut blue, &phone);
    // Quiet for the next hour: the turn, a minute away, has come before they end.
    let now = grognard::db::now();
    let local = now.rem_euclid(86_400) / 60;
    let hhmm = |m: i64| format!("{:02}:{:02}", m.rem_euclid(1440) / 60, m.rem_euclid(60));
    let res = blue.json(
        "PUT",
        "/api/v1/push/settings",
        Some(json!({"quiet_hours": {"from": hhmm(local - 1), "to": hhmm(local + 60)}})),
    );
    assert_eq!(res.status, 200, "{}", res.body);
    turn_soon(&a, now + 60);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 1);
    assert_eq!(deliver(&a, LATER), 1);
    assert!(r.received().is_empty(), "{:?}", r.received());
    assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 0);
    assert_eq!(alerts_of(&mut blue, "turn_soon").len(), 1, "on the site");
});

both!(the_daily_cap_never_silences_an_attack, |b| {
    let a = pushing(b);
    let r = Receiver::start();
    let (mut blue, mut red, inf, foe) = a.facing();
    daily_cap(&mut blue, 1);
    let phone = Browser::new(&r, "phone");
    subscribe(&mut blue, &phone);
    // The enemy writes first, using up the day's one push; its next message waits on the site.
    assert_eq!(a.say(&mut red, "blue_player", "Yield").status, 201);
    assert_eq!(a.say(&mut red, "blue_player", "Yield!").status, 201);
    let res = a.act(&mut red, foe, "volley", json!({ "target": inf }));
    assert_eq!(res.status, 200, "{}", res.body);
    while deliver(&a, LATER) > 0 {}
    let kinds: Vec<String> = phone
        .pushes(&r)
        .iter()
        .map(|p| phone.open(p)["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["message", "attacked"]);
});
