//! The live stream of a world (`GET /api/v1/worlds/{w}/live`): each event as its player may see
//! it, nothing through the fog, resuming with `Last-Event-ID`, and the limits.

use crate::both;
use crate::support::fixtures::*;
use crate::support::live::{self, Heard, Live};
use serde_json::{json, Value};
use std::time::Duration;

const QUIET: Duration = Duration::from_millis(1500);

fn named<'a>(heard: &'a [Heard], event: &str) -> Vec<&'a Value> {
    heard
        .iter()
        .filter(|h| h.event == event)
        .map(|h| &h.data)
        .collect()
}

/// The events of `s` until a `seen` that shows company `id` (within 10 s).
fn until_seen(s: &Live, id: i64) -> Vec<Heard> {
    s.until("seen", |d| {
        d["companies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == id)
    })
}

/// Whether any `seen` among `heard` names company `id`.
fn sees(heard: &[Heard], id: i64) -> bool {
    named(heard, "seen").iter().any(|d| {
        d["companies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == id)
            || d["gone"].as_array().unwrap().iter().any(|g| *g == id)
    })
}

fn gm_of(a: &Arena) -> crate::support::Client {
    gm_api(&a.app, "live_gm")
}

/// A stream opened, and its first burst (the world as it stands) read.
fn opened(a: &Arena, who: &crate::support::Client) -> (Live, Vec<Heard>) {
    let s = live::open(&a.app.base, who, a.world, None);
    assert_eq!(s.status, 200, "{}", s.body);
    let first = s.until("message", |_| true);
    (s, first)
}

both!(a_stream_starts_with_the_world_as_it_stands, |b| {
    let a = arena(b);
    let (blue, _red, inf, foe) = a.facing();
    let s = live::open(&a.app.base, &blue, a.world, None);
    assert_eq!(s.status, 200);
    assert!(s
        .header("content-type")
        .unwrap()
        .starts_with("text/event-stream"));
    assert_eq!(s.header("x-accel-buffering"), Some("no"));
    assert_eq!(s.header("cache-control"), Some("no-cache"));
    let first = s.until("message", |_| true);
    let turn = named(&first, "turn");
    assert_eq!(turn.len(), 1);
    let world = blue
        .clone()
        .get(&format!("/api/v1/worlds/{}", a.world))
        .json();
    assert_eq!(turn[0]["turn"], world["turn"]);
    assert_eq!(turn[0]["season"], "summer");
    let world = named(&first, "world");
    assert_eq!(world[0], &json!({"paused": false, "status": "running"}));
    let own = named(&first, "company");
    assert_eq!(own.len(), 1);
    assert_eq!(own[0]["id"], inf);
    assert_eq!(
        (own[0]["x"].as_i64(), own[0]["y"].as_i64()),
        (Some(5), Some(5))
    );
    // All the nation sees: its own company (with its figures) and the enemy in sight.
    let seen = named(&first, "seen");
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0]["all"], true);
    let companies = seen[0]["companies"].as_array().unwrap();
    let ids: Vec<i64> = companies
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![inf, foe]);
    assert_eq!(companies[0]["mine"], true);
    assert!(companies[0]["men"].is_number());
    assert_eq!(companies[1]["mine"], false);
    assert!(
        companies[1]["men"].is_null(),
        "an enemy's figures stay hidden"
    );
    assert_eq!(named(&first, "message")[0], &json!({"unread": 0}));
    // The burst ends with an id to resume from.
    assert!(first.last().unwrap().id.is_some());
});

both!(a_turn_reaches_the_stream_with_its_action_points, |b| {
    let a = arena(b);
    let (blue, _red, inf, _foe) = a.facing();
    a.set(inf, "ap = 3");
    let (s, first) = opened(&a, &blue);
    let start = Live::last_id(&first).unwrap();
    let mut gm = gm_of(&a);
    let r = gm.post_json(
        &format!("/api/v1/worlds/{}/ticks", a.world),
        json!({"kind": "turn"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let turn = named(&first, "turn")[0]["turn"].as_i64().unwrap();
    let heard = s.until("turn", |d| d["turn"] == turn + 1);
    let heard = [heard, s.drain(QUIET)].concat();
    let company = named(&heard, "company");
    assert_eq!(company.len(), 1, "{heard:#?}");
    assert_eq!(company[0]["id"], inf);
    // Infantry regains its per-turn AP (rules: 8 a turn), up to its maximum.
    assert!(company[0]["ap"].as_i64().unwrap() > 3, "{heard:#?}");
    let ids: Vec<i64> = heard.iter().filter_map(|h| h.id).collect();
    assert!(!ids.is_empty());
    assert!(
        ids.windows(2).all(|w| w[0] <= w[1]) && ids[0] > start,
        "{ids:?} after {start}"
    );
});

both!(an_enemy_moving_in_the_fog_says_nothing, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let mine = a.raise(&mut blue, "infantry", "Scouts");
    let foe = a.raise(&mut red, "infantry", "Far away");
    a.put(mine, 2, 2);
    a.put(foe, 12, 8);
    let (s, first) = opened(&a, &blue);
    assert!(!sees(&first, foe), "{first:#?}");
    // Far out of sight, the enemy moves: nothing reaches Blue.
    let r = a.act(&mut red, foe, "move", json!({"path": [[11, 8]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    let quiet = s.drain(QUIET);
    assert!(!sees(&quiet, foe), "{quiet:#?}");
    assert!(
        quiet.iter().all(|h| h.event != "report"),
        "not Blue's report: {quiet:#?}"
    );
    // Into Blue's sight (3 cells from its infantry): it appears, where it stands.
    a.put(foe, 6, 2);
    let r = a.act(&mut red, foe, "move", json!({"path": [[5, 2]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    let heard = until_seen(&s, foe);
    let seen = named(&heard, "seen");
    let c = seen.last().unwrap()["companies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == foe)
        .unwrap()
        .clone();
    assert_eq!((c["x"].as_i64(), c["y"].as_i64()), (Some(5), Some(2)));
    assert_eq!(c["friend"], false);
    // And out of sight again: gone.
    let r = a.act(&mut red, foe, "move", json!({"path": [[6, 2], [7, 2]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    s.until("seen", |d| {
        d["gone"].as_array().unwrap().iter().any(|g| *g == foe)
    });
});

both!(hidden_voltigeurs_stay_hidden_on_the_stream, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let mine = a.raise(&mut blue, "infantry", "Watch");
    let foe = a.raise(&mut red, "voltigeurs", "Lurkers");
    a.put(mine, 2, 2);
    a.put(foe, 7, 2);
    // Fields hide voltigeurs that have not fired.
    a.paint(5, 2, "fields", None, None);
    a.paint(4, 2, "fields", None, None);
    let (s, first) = opened(&a, &blue);
    assert!(!sees(&first, foe));
    // Through the fields, within the infantry's sight but never next to it: still hidden.
    a.put(foe, 5, 2);
    let r = a.act(&mut red, foe, "move", json!({"path": [[4, 2]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    let quiet = s.drain(QUIET);
    assert!(
        !sees(&quiet, foe),
        "hidden voltigeurs were given away: {quiet:#?}"
    );
});

both!(an_attack_brings_its_report_its_alert_and_the_losses, |b| {
    let a = arena(b);
    let (blue, mut red, inf, foe) = a.facing();
    let (s, first) = opened(&a, &blue);
    let men_before = named(&first, "company")[0]["men"].as_i64().unwrap();
    let r = a.act(&mut red, foe, "volley", json!({"target": inf}));
    assert_eq!(r.status, 200, "{}", r.body);
    let event_id = r.json()["event_id"].as_i64().unwrap();
    let heard = s.until("alert", |_| true);
    let heard = [heard, s.drain(QUIET)].concat();
    let report = named(&heard, "report");
    assert_eq!(report, vec![&json!({"id": event_id, "kind": "volley"})]);
    let alert = named(&heard, "alert");
    assert_eq!(alert.len(), 1);
    assert_eq!(alert[0]["kind"], "attacked");
    assert!(alert[0]["summary"].as_str().unwrap().len() > 5);
    let company = named(&heard, "company");
    let men_after = company.last().map(|c| c["men"].as_i64().unwrap());
    let hit = r.json()["report"]["casualties"].as_i64();
    if hit.unwrap_or(1) > 0 {
        assert!(men_after.unwrap() < men_before, "{heard:#?}");
    }
    // Red gave the volley: its own stream has the report, without an alert.
    let (rs, _) = opened(&a, &a.red);
    let r = a.act(&mut red, foe, "volley", json!({"target": inf}));
    let second = r.json()["event_id"].as_i64().unwrap();
    let heard = rs.until("report", |d| d["id"] == second);
    assert!(named(&heard, "alert").is_empty());
});

both!(a_private_message_changes_the_badge, |b| {
    let a = arena(b);
    let (blue, mut red, _, _) = a.facing();
    let (s, _) = opened(&a, &blue);
    let r = a.say(&mut red, "blue_player", "Parley at dawn?");
    assert_eq!(r.status, 201, "{}", r.body);
    s.until("message", |d| d["unread"] == 1);
});

both!(a_paused_world_says_so, |b| {
    let a = arena(b);
    let (blue, _, _, _) = a.facing();
    let (s, _) = opened(&a, &blue);
    let mut gm = gm_of(&a);
    let r = gm.json(
        "PATCH",
        &format!("/api/v1/worlds/{}", a.world),
        Some(json!({"paused": true})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    s.until("world", |d| {
        *d == json!({"paused": true, "status": "paused"})
    });
});

both!(a_resumed_stream_gets_what_it_missed, |b| {
    let a = arena_with(b, |s| s.live.streams_per_user = 10);
    let (blue, mut red, inf, foe) = a.facing();
    let (s, first) = opened(&a, &blue);
    let last = Live::last_id(&first).unwrap();
    drop(s);
    let r = a.act(&mut red, foe, "volley", json!({"target": inf}));
    let event_id = r.json()["event_id"].as_i64().unwrap();
    let again = live::open(&a.app.base, &blue, a.world, Some(&last.to_string()));
    assert_eq!(again.status, 200);
    let heard = again.until("message", |_| true);
    let heard = [heard, again.drain(Duration::from_millis(300))].concat();
    assert!(named(&heard, "resync").is_empty(), "{heard:#?}");
    // The volley, once; anything else replayed came in the 10 s before the id (a transaction
    // of then may have committed after it), and was told already: a repeat, older.
    let reports = named(&heard, "report");
    let volley = json!({"id": event_id, "kind": "volley"});
    assert_eq!(
        reports.iter().filter(|r| ***r == volley).count(),
        1,
        "{heard:#?}"
    );
    assert!(
        reports
            .iter()
            .all(|r| **r == volley || r["id"].as_i64() < Some(event_id)),
        "{heard:#?}"
    );
    assert_eq!(named(&heard, "alert").len(), 1);
    // From a fresh start nothing is replayed.
    let fresh = live::open(&a.app.base, &blue, a.world, None);
    let heard = fresh.until("message", |_| true);
    assert!(named(&heard, "report").is_empty() && named(&heard, "alert").is_empty());
    // An id the server never gave (a time to come), or one older than what it keeps: reload.
    let future = live::open(&a.app.base, &blue, a.world, Some("99999999999999"));
    let heard = future.until("resync", |_| true);
    assert_eq!(heard[0].data, json!({"reason": "unknown"}));
    a.exec("DELETE FROM live_log WHERE id < (SELECT MAX(id) FROM live_log)");
    let old = live::open(&a.app.base, &blue, a.world, Some("1"));
    let heard = old.until("resync", |_| true);
    assert_eq!(heard[0].data, json!({"reason": "too_old"}));
    // Not an id at all, as the header or as the query.
    let bad = live::open(&a.app.base, &blue, a.world, Some("yesterday"));
    assert_eq!(bad.status, 422, "{}", bad.body);
    let path = format!("/api/v1/worlds/{}/live?from=yesterday", a.world);
    let bad = live::open_path(&a.app.base, &blue, &path, None);
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(bad.body.contains("\"code\""), "{}", bad.body);
});

both!(the_ids_tell_nothing_of_what_happened_out_of_sight, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let mine = a.raise(&mut blue, "infantry", "Scouts");
    let foe = a.raise(&mut red, "infantry", "Far away");
    a.put(mine, 2, 2);
    a.put(foe, 12, 8);
    let ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64
    };
    let started = ms();
    let (s, first) = opened(&a, &blue);
    let before = Live::last_id(&first).unwrap();
    // Red moves back and forth in the fog, then Blue's own company moves.
    for step in [[11, 8], [12, 8], [11, 8]] {
        let r = a.act(&mut red, foe, "move", json!({ "path": [step] }));
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = a.act(&mut blue, mine, "move", json!({"path": [[3, 2]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    let heard = until_seen(&s, mine);
    // The burst ends (its id on its last message) with the move's report.
    let heard = [heard, s.drain(QUIET)].concat();
    let after = Live::last_id(&heard).unwrap();
    // The ids are the times they were sent (UNIX milliseconds), not counts of the log's rows:
    // the three moves out of sight cannot be read off them.
    assert!(
        started <= before && before < after && after <= ms(),
        "{before} {after}"
    );
});

both!(streams_are_for_the_worlds_players_and_bounded, |b| {
    // A client that went away is noticed when it closes the connection, not only when the
    // server next writes to it: no keep-alive comes within the test.
    let a = arena_with(b, |s| {
        s.live.streams_per_user = 2;
        s.live.keep_alive_seconds = 600;
    });
    let (blue, _, _, _) = a.facing();
    let nobody = a.app.client();
    let s = live::open(&a.app.base, &nobody, a.world, None);
    assert_eq!(s.status, 401, "{}", s.body);
    assert!(s.body.contains("\"code\""));
    let outsider = api_player(&a.app, "outsider");
    let s = live::open(&a.app.base, &outsider, a.world, None);
    assert_eq!(s.status, 403, "{}", s.body);
    let s = live::open(&a.app.base, &blue, 999_999, None);
    assert_eq!(s.status, 404, "{}", s.body);
    let one = live::open(&a.app.base, &blue, a.world, None);
    let two = live::open(&a.app.base, &blue, a.world, None);
    assert_eq!((one.status, two.status), (200, 200));
    let three = live::open(&a.app.base, &blue, a.world, None);
    assert_eq!(three.status, 429, "{}", three.body);
    assert!(three.header("retry-after").is_some());
    // A stream whose client leaves (a page reloaded) frees its place at once.
    drop(two);
    let mut freed = false;
    for _ in 0..50 {
        let s = live::open(&a.app.base, &blue, a.world, None);
        if s.status == 200 {
            freed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(freed, "the closed stream still counted");
    drop(one);
});

both!(a_revoked_token_or_a_logout_closes_its_streams, |b| {
    let a = arena(b);
    let (blue, _, _, _) = a.facing();
    let mut blue = blue;
    let (s, _) = opened(&a, &blue);
    let tokens = blue.get("/api/v1/tokens").json();
    let mine = tokens["tokens"].as_array().unwrap()[0]["id"]
        .as_i64()
        .unwrap();
    let r = blue.json("DELETE", &format!("/api/v1/tokens/{mine}"), None);
    assert_eq!(r.status, 204, "{}", r.body);
    assert!(
        s.ended(Duration::from_secs(10)),
        "the stream outlived its token"
    );

    // A page's session: the cookie alone opens the stream (EventSource sends no header).
    let mut page = player(&a.app, "page_player");
    join_and_raise(&mut page, a.world, "Blue", "infantry", "Pages");
    let (s, _) = opened(&a, &page);
    let csrf = page.get(&format!("/worlds/{}", a.world)).csrf();
    let r = page.post_form("/logout", &[("csrf", &csrf)]);
    assert!(r.status == 303 || r.status == 200, "{}", r.body);
    assert!(
        s.ended(Duration::from_secs(10)),
        "the stream outlived its session"
    );
});

use crate::support::{free_port, wait_for, KillOnDrop};

fn serve(url: &str, port: u16) -> KillOnDrop {
    crate::support::serve(url, port, &[])
}

// A server told to stop (SIGTERM, as a service manager does) ends its live streams first, as
// answers that end (their browsers reconnect elsewhere), rather than waiting out its graceful
// stop for them and cutting them then.
both!(a_stopping_server_ends_its_streams, |b| {
    let a = arena(b);
    let (blue, _, _, _) = a.facing();
    let port = free_port();
    let mut server = serve(&a.app.db.url, port);
    wait_for(port, "the server");
    let base = format!("http://127.0.0.1:{port}");
    let s = live::open(&base, &blue, a.world, None);
    assert_eq!(s.status, 200, "{}", s.body);
    s.until("message", |_| true);
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.0.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(s.ended(Duration::from_secs(30)), "the stream ends");
    assert!(s.finished(), "the stream was ended, not cut");
    let status = server.0.wait().unwrap();
    assert!(status.success(), "the server stopped cleanly: {status}");
});

/// The `server { … }` block of docs/operations.md's nginx configuration, its body only.
fn documented_server_block() -> String {
    let doc = include_str!("../../docs/operations.md");
    let start = doc
        .find("```nginx")
        .expect("an nginx block in docs/operations.md");
    let block = &doc[start..];
    let block = &block[..block[8..].find("```").unwrap() + 8];
    let open = block.find("server {").expect("a server block") + "server {".len();
    let mut depth = 1;
    for (i, ch) in block[open..].char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return block[open..open + i].to_string();
                }
            }
            _ => {}
        }
    }
    panic!("the server block does not close");
}

/// Two `serve` processes on one PostgreSQL, each behind Debian's nginx with the documented
/// configuration: a player streaming through one sees an enemy move given through the other,
/// as it happens (nginx does not hold the events back).
#[test]
fn two_processes_behind_nginx_share_the_stream() {
    let a = arena(crate::support::Backend::Postgres);
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let mine = a.raise(&mut blue, "infantry", "Pickets");
    let foe = a.raise(&mut red, "infantry", "Column");
    a.put(mine, 2, 2);
    a.put(foe, 6, 2);
    let (pa, pb) = (free_port(), free_port());
    let _one = serve(&a.app.db.url, pa);
    let _two = serve(&a.app.db.url, pb);
    wait_for(pa, "process A");
    wait_for(pb, "process B");
    // nginx in front of each process (one upstream each, so that the test knows which one
    // serves what), every location as docs/operations.md writes it.
    let dir = std::env::temp_dir().join(format!("grognard-nginx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let body = documented_server_block();
    let (na, nb) = (free_port(), free_port());
    let server = |port: u16, upstream: &str| {
        body.replace("listen 80;", &format!("listen 127.0.0.1:{port};"))
            .replace("http://grognard", &format!("http://{upstream}"))
    };
    let d = dir.display();
    let conf = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
         error_log {d}/error.log warn;\nevents {{ worker_connections 256; }}\n\
         http {{\n access_log off;\n client_body_temp_path {d}/body;\n proxy_temp_path {d}/proxy;\n\
         fastcgi_temp_path {d}/fastcgi;\n uwsgi_temp_path {d}/uwsgi;\n scgi_temp_path {d}/scgi;\n\
         upstream one {{ server 127.0.0.1:{pa}; }}\n upstream two {{ server 127.0.0.1:{pb}; }}\n\
         server {{{}}}\n server {{{}}}\n}}\n",
        server(na, "one"),
        server(nb, "two"),
    );
    std::fs::write(dir.join("nginx.conf"), conf).unwrap();
    let nginx = std::process::Command::new("/usr/sbin/nginx")
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("nginx (Debian's package nginx) runs");
    let _nginx = KillOnDrop(nginx);
    wait_for(na, "nginx");
    wait_for(nb, "nginx");

    let through_a = format!("http://127.0.0.1:{na}");
    let through_b = format!("http://127.0.0.1:{nb}");
    let s = live::open(&through_a, &blue, a.world, None);
    assert_eq!(s.status, 200, "{}", s.body);
    let first = s.until("message", |_| true);
    assert!(!sees(&first, foe), "the column starts out of sight");
    let mut red_b = red.at(&through_b);
    let r = red_b.post_json(
        &format!("/api/v1/companies/{foe}/move"),
        json!({"path": [[5, 2]]}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // `until` waits 10 s, under the 20 s keep-alive: an event held in nginx's buffer until the
    // next write pushed it out would not come in time.
    let heard = until_seen(&s, foe);
    assert!(heard.iter().any(|h| h.id.is_some()));
    let _ = std::fs::remove_dir_all(&dir);
}

both!(
    events_written_together_keep_their_order_ids_and_live_rows,
    |b| {
        use diesel::prelude::*;
        use grognard::db::models::NewEvent;
        use grognard::db::schema::{events, live_log};
        use grognard::rules::names::EventKind;
        let a = arena(b);
        let mut conn = a.app.conn();
        let world = grognard::ids::WorldId(a.world as i32);
        let batch = |from: i64, n: i64| -> Vec<NewEvent> {
            (from..from + n)
                .map(|i| {
                    let mut e = NewEvent::new(world, 0, 1_000 + i, EventKind::Move);
                    e.x = (i % 2 == 0).then_some(i as i32);
                    e.y = Some(-(i as i32));
                    e.summary = format!("event {i}");
                    e.data = format!("{{\"i\":{i}}}");
                    e
                })
                .collect()
        };
        // 75 = 64 + 8 + 1 + 1 + 1 on SQLite (each of its statements' sizes), then 3 more.
        let mut ids = Vec::new();
        for (from, n) in [(0, 75), (75, 3)] {
            let got = grognard::db::write(&mut conn, |c| {
                grognard::game::news::events::record_all(c, batch(from, n))
            })
            .unwrap();
            assert_eq!(got.len(), n as usize);
            ids.extend(got);
        }
        assert!(ids.windows(2).all(|w| w[0].0 < w[1].0), "{ids:?}");
        type Row = (i32, i64, Option<i32>, Option<i32>, String, String);
        let rows: Vec<Row> = events::table
            .filter(events::id.eq_any(ids.iter().map(|i| i.0).collect::<Vec<_>>()))
            .order(events::id)
            .select((
                events::id,
                events::at,
                events::x,
                events::y,
                events::summary,
                events::data,
            ))
            .load(&mut *conn)
            .unwrap();
        assert_eq!(rows.len(), 78);
        for (i, (id, at, x, y, summary, data)) in rows.into_iter().enumerate() {
            let i = i as i64;
            assert_eq!(id, ids[i as usize].0);
            assert_eq!(at, 1_000 + i);
            assert_eq!(x, (i % 2 == 0).then_some(i as i32));
            assert_eq!(y, Some(-(i as i32)));
            assert_eq!(summary, format!("event {i}"));
            assert_eq!(data, format!("{{\"i\":{i}}}"));
        }
        // One row of the live log an event, in the events' order (other events of the server's
        // own may come between the two calls: only these are looked at).
        let logged: Vec<Option<i32>> = live_log::table
            .filter(live_log::ref_id.eq_any(ids.iter().map(|i| i.0).collect::<Vec<_>>()))
            .filter(live_log::topic.eq("event"))
            .order(live_log::id)
            .select(live_log::ref_id)
            .load(&mut *conn)
            .unwrap();
        assert_eq!(logged, ids.iter().map(|i| Some(i.0)).collect::<Vec<_>>());
    }
);
