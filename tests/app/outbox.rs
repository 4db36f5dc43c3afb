//! The outbox across processes and crashes: real `grognard serve` processes deliver what the
//! alerts queued, to a real local receiver. A process killed (SIGKILL) in the middle of a
//! delivery loses nothing: another sends it again once the claim's lease ends, with the same
//! delivery key (webhooks) and the same tag (pushes), so the receiver and the device can tell
//! it from a new alert; everything else goes exactly once. Two processes share the outbox and
//! never send one delivery twice.

use crate::both;
use crate::support::fixtures::{arena_with, Arena};
use crate::support::receiver::{Browser, Received, Receiver};
use crate::support::{free_port, serve, wait_for};
use serde_json::json;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The settings of the delivering processes: the receiver is local, the outbox looked at
/// often, a request given 1 s (so a claim's lease is (1 + 5) × 2 = 12 s).
const FAST: &[(&str, &str)] = &[
    ("GROGNARD__PUSH__ALLOW_PRIVATE", "true"),
    ("GROGNARD__PUSH__POLL_MS", "50"),
    ("GROGNARD__PUSH__TIMEOUT_SECONDS", "1"),
];

fn wait(secs: u64, what: &str, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed().as_secs() < secs, "{what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `n` alerts for Blue, queued as the game queues them (one per attack).
fn alerts(a: &Arena, n: usize) {
    let user = grognard::ids::UserId(
        a.app
            .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'blue_player'")
            as i32,
    );
    let mut conn = a.app.conn();
    for i in 0..n {
        let said = grognard::said::Said::new("said-message-from").s("player", format!("p{i}"));
        grognard::game::news::alerts::tell(
            &mut conn,
            user,
            &grognard::game::news::alerts::Told {
                world_id: grognard::ids::WorldId(a.world as i32),
                event_id: None,
                kind: grognard::game::news::alerts::MESSAGE,
                summary: &said.render(grognard::i18n::Lang::En),
                said: &said.encode(),
                at: grognard::db::now(),
            },
        )
        .unwrap();
    }
}

/// A receiver that is both Blue's webhook (`/hook`) and the push service of Blue's browser.
fn both_ways(a: &Arena) -> (Receiver, Browser, crate::support::Client) {
    let r = Receiver::start();
    let mut blue = a.blue.clone();
    let res = blue.post_json("/api/v1/webhooks", json!({ "url": r.url("/hook") }));
    assert_eq!(res.status, 201, "{}", res.body);
    let phone = Browser::new(&r, "phone");
    let res = blue.post_json("/api/v1/push/subscriptions", phone.subscription());
    assert_eq!(res.status, 201, "{}", res.body);
    (r, phone, blue)
}

/// The webhook requests received, by delivery key.
fn by_key(got: &[Received]) -> HashMap<String, usize> {
    let mut keys = HashMap::new();
    for g in got.iter().filter(|g| g.path == "/hook") {
        *keys
            .entry(g.header("x-grognard-delivery").unwrap().to_string())
            .or_insert(0) += 1;
    }
    keys
}

both!(
    a_delivery_cut_by_a_kill_is_sent_again_and_nothing_else_twice,
    |b| {
        let a = arena_with(b, |s| s.push.allow_private = true);
        let (r, phone, _) = both_ways(&a);
        alerts(&a, 3);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM deliveries"), 6);

        // The first request is held: the process is killed while it waits for the answer.
        r.delay(&[Duration::from_secs(30)]);
        let port = free_port();
        let mut first = serve(&a.app.db.url, port, FAST);
        wait(30, "the first delivery", || !r.received().is_empty());
        first.0.kill().unwrap();
        first.0.wait().unwrap();
        let cut = r.received()[0].clone();
        assert_eq!(r.received().len(), 1);
        assert_eq!(
            a.app.count("SELECT COUNT(*) FROM deliveries"),
            6,
            "nothing recorded as sent"
        );

        // Another process takes them once the lease ends: the cut one again, the rest once.
        let port = free_port();
        let _second = serve(&a.app.db.url, port, FAST);
        wait_for(port, "the second process");
        wait(40, "the outbox emptied", || {
            a.app.count("SELECT COUNT(*) FROM deliveries") == 0
        });
        std::thread::sleep(Duration::from_millis(500));
        let got = r.received();
        assert_eq!(got.len(), 7, "{got:#?}");
        let keys = by_key(&got);
        assert_eq!(keys.len(), 3, "three alerts, three keys: {keys:?}");
        let pushes = phone.pushes(&r);
        let mut tags: HashMap<String, usize> = HashMap::new();
        for p in &pushes {
            let shown = phone.open(p);
            *tags
                .entry(shown["body"].as_str().unwrap().to_string())
                .or_insert(0) += 1;
        }
        assert_eq!(tags.len(), 3, "three alerts pushed: {tags:?}");
        // Only the delivery that was cut went twice, the same each time.
        let twice: Vec<_> = keys
            .values()
            .chain(tags.values())
            .filter(|n| **n > 1)
            .collect();
        assert_eq!(twice, [&2], "{keys:?} {tags:?}");
        if cut.path == "/hook" {
            assert_eq!(keys[cut.header("x-grognard-delivery").unwrap()], 2);
        } else {
            let again = pushes[1..]
                .iter()
                .filter(|p| phone.open(p) == phone.open(&cut))
                .count();
            assert_eq!(again, 1, "the cut push went again, with the same tag");
        }
    }
);

both!(
    two_processes_share_the_outbox_and_send_each_delivery_once,
    |b| {
        let a = arena_with(b, |s| s.push.allow_private = true);
        let (r, phone, mut blue) = both_ways(&a);
        let res = blue.json(
            "PUT",
            "/api/v1/push/settings",
            Some(json!({"daily_cap": 200})),
        );
        assert_eq!(res.status, 200, "{}", res.body);
        // Each answer takes a little while, so both processes are at work at once.
        r.delay(&[Duration::from_millis(20); 400]);
        let (pa, pb) = (free_port(), free_port());
        let _one = serve(&a.app.db.url, pa, FAST);
        let _two = serve(&a.app.db.url, pb, FAST);
        wait_for(pa, "process A");
        wait_for(pb, "process B");
        alerts(&a, 150);
        wait(60, "the outbox emptied", || {
            a.app.count("SELECT COUNT(*) FROM deliveries") == 0
        });
        std::thread::sleep(Duration::from_millis(500));
        let got = r.received();
        assert_eq!(got.len(), 300, "150 alerts, a webhook and a browser each");
        let keys = by_key(&got);
        assert_eq!(keys.len(), 150);
        assert!(keys.values().all(|n| *n == 1), "{keys:?}");
        let mut bodies: Vec<String> = phone
            .pushes(&r)
            .iter()
            .map(|p| phone.open(p)["body"].as_str().unwrap().to_string())
            .collect();
        bodies.sort();
        bodies.dedup();
        assert_eq!(bodies.len(), 150, "each pushed once");
    }
);
