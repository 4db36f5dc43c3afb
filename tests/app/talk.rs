//! Nations that talk: who reads what (three players, two nations), escaping, limits, the rate
//! limit, blocks, reports, removal, mutes, markers and their expiry, alerts and retention.

use crate::both;
use crate::support::fixtures::*;
use crate::support::{Backend, Client};
use serde_json::json;

/// A client with a session of an API player (the pages), logged in through the form.
fn page_client(a: &Arena, name: &str) -> Client {
    let mut c = a.app.client();
    assert_eq!(login(&mut c, name, PASSWORD).status, 303);
    c
}

both!(who_reads_what_three_players_two_nations, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let mut blue2 = a.join("blue_second", "Blue");

    // The board: Blue's players read it, Red never does.
    let r = a.say(&mut blue, "nation", "Rally at the mill at dawn");
    assert_eq!(r.status, 201, "{}", r.body);
    let m = r.json();
    assert_eq!(
        (m["from"].as_str(), m["to"].as_str()),
        (Some("blue_player"), Some("nation"))
    );
    let board_id = m["id"].as_i64().unwrap();
    assert_eq!(a.heard(&mut blue2), vec!["Rally at the mill at dawn"]);
    assert!(a.heard(&mut red).is_empty());

    // A private message, across nations: its two players read it, nobody else.
    let r = a.say(&mut red, "blue_player", "Parley?");
    assert_eq!(r.status, 201, "{}", r.body);
    let private_id = r.json()["id"].as_i64().unwrap();
    assert_eq!(r.json()["to"], "blue_player");
    assert_eq!(
        a.heard(&mut blue),
        vec!["Rally at the mill at dawn", "Parley?"]
    );
    assert_eq!(a.heard(&mut red), vec!["Parley?"]);
    assert_eq!(a.heard(&mut blue2), vec!["Rally at the mill at dawn"]);
    // `since` gives what follows an id, oldest first.
    let r = blue.get_json(&format!("/api/v1/worlds/{w}/messages?since={board_id}"));
    assert_eq!(r.json()["messages"].as_array().unwrap().len(), 1);
    assert_eq!(r.json()["messages"][0]["body"], "Parley?");

    // The recipient is told: an alert, and the badge's count.
    assert_eq!(
        a.app.count(
            "SELECT COUNT(*) FROM alerts a JOIN users u ON u.id = a.user_id \
             WHERE u.username = 'blue_player' AND a.kind = 'message'"
        ),
        1
    );
    assert_eq!(
        a.app.count(
            "SELECT CAST(unread_messages AS BIGINT) AS n FROM users WHERE username = 'blue_player'"
        ),
        1
    );
    let mut blue_web = page_client(&a, "blue_player");
    let home = blue_web.get("/");
    assert!(
        home.body.contains("id=\"messages-badge\">1<"),
        "{}",
        home.body
    );
    // Reading the conversation reads the message; the badge goes.
    let thread = blue_web.get(&format!("/worlds/{w}/messages?with=red_player"));
    assert_eq!(thread.status, 200);
    assert!(thread.body.contains("Parley?"));
    assert_eq!(
        a.app.count(
            "SELECT CAST(unread_messages AS BIGINT) AS n FROM users WHERE username = 'blue_player'"
        ),
        0
    );
    assert!(!blue_web.get("/").body.contains("messages-badge"));

    // Another nation's board message and someone else's private message: not found, by every
    // route that takes an id.
    for (who, id) in [(&mut red, board_id), (&mut blue2, private_id)] {
        let r = who.post_json(&format!("/api/v1/messages/{id}/report"), json!({}));
        assert_eq!(
            (r.status, r.code().as_str()),
            (404, "not_found"),
            "{}",
            r.body
        );
    }
    // The pages: Red's messages page shows no word of Blue's board; Blue's second player does
    // not see the conversation.
    let red_page = page_client(&a, "red_player").get(&format!("/worlds/{w}/messages"));
    assert_eq!(red_page.status, 200);
    assert!(!red_page.body.contains("Rally at the mill"));
    let blue2_page = page_client(&a, "blue_second").get(&format!("/worlds/{w}/messages"));
    assert!(blue2_page.body.contains("Rally at the mill"));
    assert!(!blue2_page.body.contains("Parley?"));
    let peek = page_client(&a, "blue_second").get(&format!("/worlds/{w}/messages?with=red_player"));
    assert!(!peek.body.contains("Parley?"));
    // Nor do events, alerts of others, or the GM's export carry a word of it.
    assert_eq!(
        a.app.count(
            "SELECT COUNT(*) FROM events WHERE summary LIKE '%Rally%' OR summary LIKE '%Parley%'"
        ),
        0
    );
    assert_eq!(
        a.app.count("SELECT COUNT(*) FROM alerts WHERE summary LIKE '%Rally%' OR summary LIKE '%Parley%' OR said LIKE '%Parley%'"),
        0
    );
    let mut gm = gm_api(&a.app, "gm_reader");
    let export = gm.get(&format!("/api/v1/worlds/{w}/export"));
    assert_eq!(export.status, 200);
    assert!(!export.body.contains("Rally") && !export.body.contains("Parley"));

    // Someone who did not join reads nothing; writing to nobody is not found.
    let mut stranger = api_player(&a.app, "stranger");
    assert_eq!(
        stranger
            .get_json(&format!("/api/v1/worlds/{w}/messages"))
            .status,
        403
    );
    let before = a.talk_rows();
    let r = a.say(&mut blue, "nobody_here", "hello");
    assert_eq!((r.status, r.code().as_str()), (404, "not_found"));
    let r = a.say(&mut blue, "blue_player", "me, myself");
    assert_eq!((r.status, r.code().as_str()), (422, "invalid"));
    let r = a.say(&mut blue, "world", "I am no game master");
    assert_eq!((r.status, r.code().as_str()), (403, "forbidden"));
    assert_eq!(blue.get_json("/api/v1/worlds/999999/messages").status, 404);
    assert_eq!(a.talk_rows(), before, "a refused message wrote something");
});

both!(markers_are_the_nation_s_own_and_expire, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let mut blue2 = a.join("blue_second", "Blue");
    let r = a.mark(&mut blue, 4, 3, "enemy guns");
    assert_eq!(r.status, 201, "{}", r.body);
    let m = r.json();
    assert_eq!(m["at"], json!([4, 3]));
    assert_eq!(m["by"], "blue_player");
    // Dropped on turn 0, lasting the 8 turns of `talk.marker_turns`.
    assert_eq!(m["expires_turn"], 8);
    let id = m["id"].as_i64().unwrap();
    assert_eq!(a.markers(&mut blue2), vec!["enemy guns"]);
    assert!(a.markers(&mut red).is_empty());

    // On the map of Blue's players, not of Red's.
    let mut blue2_web = page_client(&a, "blue_second");
    let page = blue2_web.get(&format!("/worlds/{w}?x=4&y=3&zoom=3&cell=4,3"));
    assert!(
        page.body.contains("<title>enemy guns</title>"),
        "{}",
        page.body
    );
    assert!(page.body.contains("id=\"cell-markers\""));
    // Blue's second player may not remove it: no button for them.
    assert!(!page.body.contains(&format!("/markers/{id}/delete")));
    let red_page =
        page_client(&a, "red_player").get(&format!("/worlds/{w}?x=4&y=3&zoom=3&cell=4,3"));
    assert!(!red_page.body.contains("enemy guns"));

    // Another nation's marker is not found; one of the nation by someone else is forbidden.
    let before = a.talk_rows();
    let r = red.json("DELETE", &format!("/api/v1/markers/{id}"), None);
    assert_eq!((r.status, r.code().as_str()), (404, "not_found"));
    let r = blue2.json("DELETE", &format!("/api/v1/markers/{id}"), None);
    assert_eq!((r.status, r.code().as_str()), (403, "forbidden"));
    // Off the map, a label too long or of two lines, a cell that is no cell: 422.
    for (at, label) in [
        (json!([16, 0]), "x".to_string()),
        (json!([-1, 3]), "x".to_string()),
        (json!([1, 1]), "x".repeat(41)),
        (json!([1, 1]), "two\nlines".to_string()),
        (json!([1, 1]), "  ".to_string()),
        (json!("a,b"), "x".to_string()),
    ] {
        let r = blue.post_json(
            &format!("/api/v1/worlds/{w}/markers"),
            json!({"at": at, "label": label}),
        );
        assert_eq!(
            (r.status, r.code().as_str()),
            (422, "invalid"),
            "{at} {label}: {}",
            r.body
        );
    }
    assert_eq!(a.talk_rows(), before);

    // Ten standing markers at most a player.
    for i in 0..9 {
        assert_eq!(a.mark(&mut blue, i, 0, &format!("m{i}")).status, 201);
    }
    let r = a.mark(&mut blue, 9, 0, "one too many");
    assert_eq!((r.status, r.code().as_str()), (409, "conflict"));
    assert_eq!(a.markers(&mut blue).len(), 10);

    // The author removes one; then the world reaches turn 8 and the rest are gone.
    assert_eq!(
        blue.json("DELETE", &format!("/api/v1/markers/{id}"), None)
            .status,
        204
    );
    assert_eq!(a.markers(&mut blue).len(), 9);
    a.exec(&format!("UPDATE worlds SET turn = 7 WHERE id = {w}"));
    assert_eq!(a.markers(&mut blue).len(), 9);
    a.exec(&format!("UPDATE worlds SET turn = 8 WHERE id = {w}"));
    assert!(a.markers(&mut blue2).is_empty());
    let page = blue2_web.get(&format!("/worlds/{w}?x=4&y=3&zoom=3&cell=1,0"));
    assert!(!page.body.contains("<title>m1</title>"));
    // And the scheduler's retention deletes their rows.
    assert_eq!(a.app.count("SELECT COUNT(*) FROM markers"), 9);
    let purged = grognard::game::time::retention::purge(
        &mut a.app.conn(),
        &a.app.config,
        grognard::db::now(),
    )
    .unwrap();
    assert_eq!(purged.markers, 9);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM markers"), 0);
});

both!(markers_from_the_world_page_s_cell_panel, |b| {
    let a = arena(b);
    let w = a.world;
    let mut web = page_client(&a, "blue_player");
    let here = format!("/worlds/{w}?x=5&y=5&zoom=3&cell=5,5");
    let page = web.get(&here);
    let csrf = page.csrf();
    assert!(page.body.contains("id=\"drop-marker\""));
    let r = web.post_form(
        &format!("/worlds/{w}/markers"),
        &[
            ("csrf", &csrf),
            ("cell", "5,5"),
            ("label", "<b>rally</b>"),
            ("back", &here),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let page = web.get(&here);
    // Escaped on the map and in the panel.
    assert!(
        page.body
            .contains("<title>&lt;b&gt;rally&lt;&#x2F;b&gt;</title>")
            || page
                .body
                .contains("<title>&lt;b&gt;rally&lt;/b&gt;</title>"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("<b>rally</b>"));
    let id = a
        .app
        .count("SELECT CAST(MAX(id) AS BIGINT) AS n FROM markers");
    assert!(page
        .body
        .contains(&format!("/worlds/{w}/markers/{id}/delete")));
    // A bad label: a page that says why, nothing written.
    let before = a.talk_rows();
    let r = web.post_form(
        &format!("/worlds/{w}/markers"),
        &[
            ("csrf", &csrf),
            ("cell", "5,5"),
            ("label", ""),
            ("back", &here),
        ],
    );
    assert_eq!(r.status, 422);
    assert!(r.body.contains("label"), "{}", r.body);
    let r = web.post_form(
        &format!("/worlds/{w}/markers"),
        &[
            ("csrf", &csrf),
            ("cell", "nowhere"),
            ("label", "x"),
            ("back", &here),
        ],
    );
    assert_eq!(r.status, 422);
    assert_eq!(a.talk_rows(), before);
    // Removed from the panel.
    let r = web.post_form(
        &format!("/worlds/{w}/markers/{id}/delete"),
        &[("csrf", &csrf), ("back", &here)],
    );
    assert_eq!(r.status, 303);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM markers"), 0);
});

both!(bodies_are_plain_text_escaped_everywhere, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let evil = "<script>alert('x')</script> see https://example.org/a?b=1&c=2.\nline two";
    assert_eq!(a.say(&mut blue, "nation", evil).status, 201);
    assert_eq!(a.say(&mut red, "blue_player", evil).status, 201);
    // The API gives the text as it was written, in JSON.
    assert_eq!(a.heard(&mut blue)[0], evil);
    let mut web = page_client(&a, "blue_player");
    for path in [
        format!("/worlds/{w}/messages"),
        format!("/worlds/{w}/messages?with=red_player"),
        "/alerts".to_string(),
    ] {
        let page = web.get(&path);
        assert_eq!(page.status, 200, "{path}");
        assert!(
            !page.body.contains("<script>alert"),
            "{path}: {}",
            page.body
        );
    }
    let board = web.get(&format!("/worlds/{w}/messages"));
    assert!(
        board.body.contains("&lt;script&gt;alert("),
        "{}",
        board.body
    );
    assert!(board.body.contains(
        "<a href=\"https://example.org/a?b=1&amp;c=2\" rel=\"nofollow noopener noreferrer ugc\" target=\"_blank\">"
    ));
    assert!(board.body.contains("<br>line two"));
    // The game masters' queue too.
    let id = a
        .app
        .count("SELECT CAST(MIN(id) AS BIGINT) AS n FROM messages");
    let mut blue2 = a.join("blue_second", "Blue");
    assert_eq!(
        blue2
            .post_json(
                &format!("/api/v1/messages/{id}/report"),
                json!({"reason": "<img src=x onerror=alert(1)>"})
            )
            .status,
        200
    );
    let mut gm = user_with_role(&a.app, "gm_page", grognard::game::accounts::Role::Gm);
    let queue = gm.get(&format!("/gm/worlds/{w}/moderation"));
    assert_eq!(queue.status, 200);
    assert!(!queue.body.contains("<script>alert") && !queue.body.contains("<img src=x"));
    assert!(queue.body.contains("&lt;img src=x onerror=alert(1)&gt;"));
});

both!(lengths_controls_and_the_rate_limit, |b| {
    let a = arena(b);
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let before = a.talk_rows();
    for body in [
        String::new(),
        " \n\t ".to_string(),
        "x".repeat(2001),
        "a\u{0}b".to_string(),
        "bell\u{7}".to_string(),
    ] {
        let r = a.say(&mut blue, "nation", &body);
        assert_eq!(
            (r.status, r.code().as_str()),
            (422, "invalid"),
            "{body:?}: {}",
            r.body
        );
    }
    // Bodies that are not the right shape.
    for raw in [
        json!({"to": "nation"}),
        json!({"to": "nation", "body": 5}),
        json!({"to": ["nation"], "body": "x"}),
        json!({"to": "nation", "body": "x", "extra": 1}),
    ] {
        let r = blue.post_json(&format!("/api/v1/worlds/{}/messages", a.world), raw.clone());
        assert!((400..500).contains(&r.status), "{raw}: {}", r.status);
    }
    assert_eq!(a.talk_rows(), before);
    // 2,000 characters of any script are one message.
    assert_eq!(a.say(&mut blue, "nation", &"é".repeat(2000)).status, 201);
    // Ten messages a minute, the eleventh refused with the wait.
    for i in 1..10 {
        assert_eq!(a.say(&mut blue, "red_player", &format!("m{i}")).status, 201);
    }
    let before = a.talk_rows();
    let r = a.say(&mut blue, "nation", "one too many");
    assert_eq!(
        (r.status, r.code().as_str()),
        (429, "rate_limited"),
        "{}",
        r.body
    );
    let wait: i64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(a.talk_rows(), before);
    // Another player is not held up by it.
    assert_eq!(a.say(&mut red, "nation", "we are fine").status, 201);
    // A minute later (the messages dated back), the player writes again.
    a.exec("UPDATE messages SET at = at - 61");
    assert_eq!(a.say(&mut blue, "nation", "back again").status, 201);
});

both!(a_blocked_player_is_not_heard, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let mut blue2 = a.join("blue_second", "Blue");
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/blocks"),
        json!({"player": "red_player"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["blocked"], json!(["red_player"]));
    // Twice: the same list.
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/blocks"),
        json!({"player": "RED_player"}),
    );
    assert_eq!(r.json()["blocked"], json!(["red_player"]));
    let before = a.talk_rows();
    let r = a.say(&mut red, "blue_player", "listen to me");
    assert_eq!(
        (r.status, r.code().as_str()),
        (403, "blocked"),
        "{}",
        r.body
    );
    assert_eq!(a.talk_rows(), before);
    // Blue's own side still talks; a blocked board member is not shown to the blocker.
    assert_eq!(
        blue2
            .post_json(
                &format!("/api/v1/worlds/{w}/blocks"),
                json!({"player": "blue_player"})
            )
            .status,
        201
    );
    assert_eq!(
        a.say(&mut blue, "nation", "orders for tomorrow").status,
        201
    );
    assert!(a.heard(&mut blue2).is_empty());
    assert_eq!(a.heard(&mut blue), vec!["orders for tomorrow"]);
    // Unblocked, heard again.
    assert_eq!(
        blue2
            .json(
                "DELETE",
                &format!("/api/v1/worlds/{w}/blocks/blue_player"),
                None
            )
            .status,
        204
    );
    assert_eq!(a.heard(&mut blue2), vec!["orders for tomorrow"]);
    assert_eq!(
        blue.get_json(&format!("/api/v1/worlds/{w}/blocks")).json()["blocked"],
        json!(["red_player"])
    );
    // Blocking oneself, or nobody: refused.
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/blocks"),
        json!({"player": "blue_player"}),
    );
    assert_eq!(r.status, 422);
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/blocks"),
        json!({"player": "ghost"}),
    );
    assert_eq!(r.status, 404);
});

both!(reports_removal_mutes_and_announcements, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let id = a.say(&mut blue, "red_player", "you are a coward").json()["id"]
        .as_i64()
        .unwrap();
    // Red reports it, twice: one report. Blue cannot report their own.
    for _ in 0..2 {
        let r = red.post_json(
            &format!("/api/v1/messages/{id}/report"),
            json!({"reason": "insult"}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    assert_eq!(a.app.count("SELECT COUNT(*) FROM message_reports"), 1);
    let r = blue.post_json(&format!("/api/v1/messages/{id}/report"), json!({}));
    assert_eq!(r.status, 422);
    // Players do not see the queue nor moderate.
    assert_eq!(
        red.get_json(&format!("/api/v1/worlds/{w}/message-reports"))
            .status,
        403
    );
    assert_eq!(
        red.json("DELETE", &format!("/api/v1/messages/{id}"), None)
            .status,
        403
    );
    let r = red.post_json(
        &format!("/api/v1/worlds/{w}/mutes"),
        json!({"player": "blue_player", "hours": 5}),
    );
    assert_eq!(r.status, 403);
    let mut red_web = page_client(&a, "red_player");
    assert_eq!(
        red_web.get(&format!("/gm/worlds/{w}/moderation")).status,
        403
    );

    let mut gm = gm_api(&a.app, "moderator");
    let q = gm.get_json(&format!("/api/v1/worlds/{w}/message-reports"));
    assert_eq!(q.status, 200);
    let reports = q.json()["reports"].as_array().unwrap().clone();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["body"], "you are a coward");
    assert_eq!(reports[0]["from"], "blue_player");
    assert_eq!(reports[0]["reporter"], "red_player");
    assert_eq!(reports[0]["channel"], "private");
    // Removed: nobody reads it; the report is settled; the audit log has it.
    assert_eq!(
        gm.json("DELETE", &format!("/api/v1/messages/{id}"), None)
            .status,
        204
    );
    assert!(a.heard(&mut red).is_empty());
    assert!(a.heard(&mut blue).is_empty());
    assert_eq!(
        gm.json("DELETE", &format!("/api/v1/messages/{id}"), None)
            .status,
        404
    );
    assert_eq!(
        gm.get_json(&format!("/api/v1/worlds/{w}/message-reports"))
            .json()["reports"],
        json!([])
    );
    assert_eq!(
        a.app.count("SELECT COUNT(*) FROM gm_audit WHERE action = 'remove_message' AND old_value LIKE '%coward%'"),
        1
    );

    // Muted for two hours: no message, no marker; the mute is in the audit log.
    let r = gm.post_json(
        &format!("/api/v1/worlds/{w}/mutes"),
        json!({"player": "blue_player", "hours": 2}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["muted_until"].is_string());
    let before = a.talk_rows();
    let r = a.say(&mut blue, "nation", "still here");
    assert_eq!((r.status, r.code().as_str()), (403, "muted"));
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("120 minutes"));
    let r = a.mark(&mut blue, 1, 1, "x");
    assert_eq!((r.status, r.code().as_str()), (403, "muted"));
    assert_eq!(a.talk_rows(), before);
    assert_eq!(
        a.app
            .count("SELECT COUNT(*) FROM gm_audit WHERE action = 'mute'"),
        1
    );
    // Out of range: refused. Lifted with 0 hours.
    for hours in [-1, 721] {
        let r = gm.post_json(
            &format!("/api/v1/worlds/{w}/mutes"),
            json!({"player": "blue_player", "hours": hours}),
        );
        assert_eq!(r.status, 422, "{hours}");
    }
    let r = gm.post_json(
        &format!("/api/v1/worlds/{w}/mutes"),
        json!({"player": "nobody", "hours": 1}),
    );
    assert_eq!(r.status, 404);
    assert_eq!(
        gm.post_json(
            &format!("/api/v1/worlds/{w}/mutes"),
            json!({"player": "blue_player", "hours": 0})
        )
        .status,
        200
    );
    assert_eq!(a.say(&mut blue, "nation", "still here").status, 201);

    // A report dismissed from the queue's page.
    let board = a.heard(&mut blue);
    assert_eq!(board, vec!["still here"]);
    let mut blue2 = a.join("blue_second", "Blue");
    let mid = a
        .app
        .count("SELECT CAST(MAX(id) AS BIGINT) AS n FROM messages");
    assert_eq!(
        blue2
            .post_json(&format!("/api/v1/messages/{mid}/report"), json!({}))
            .status,
        200
    );
    let mut gm_web = user_with_role(&a.app, "gm_web", grognard::game::accounts::Role::Gm);
    let page = gm_web.get(&format!("/gm/worlds/{w}/moderation"));
    assert!(page.body.contains("still here"));
    let rid = a
        .app
        .count("SELECT CAST(MAX(id) AS BIGINT) AS n FROM message_reports");
    let csrf = page.csrf();
    let r = gm_web.post_form(
        &format!("/gm/worlds/{w}/moderation"),
        &[
            ("csrf", &csrf),
            ("action", "dismiss"),
            ("report", &rid.to_string()),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        a.app
            .count("SELECT COUNT(*) FROM message_reports WHERE settled_at IS NULL"),
        0
    );
    let r = gm_web.post_form(
        &format!("/gm/worlds/{w}/moderation"),
        &[
            ("csrf", &csrf),
            ("action", "mute"),
            ("player", "blue_player"),
            ("hours", "lots"),
        ],
    );
    assert_eq!(r.status, 422);

    // A game master's announcement: every player reads it and is told.
    let alerts_before = a
        .app
        .count("SELECT COUNT(*) FROM alerts WHERE kind = 'announcement'");
    let r = a.say(&mut gm, "world", "Armistice at noon");
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["to"], "world");
    for who in [&mut blue, &mut red, &mut blue2] {
        assert!(a.heard(who).contains(&"Armistice at noon".to_string()));
    }
    assert_eq!(
        a.app
            .count("SELECT COUNT(*) FROM alerts WHERE kind = 'announcement'")
            - alerts_before,
        3
    );
    let page = page_client(&a, "red_player").get(&format!("/worlds/{w}/messages"));
    assert!(page.body.contains("Armistice at noon"));
});

both!(messages_are_mailed_and_purged_by_retention, |b| {
    let a = arena(b);
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let blue_id = a
        .app
        .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'blue_player'");
    grognard::game::news::alerts::set_mail(
        &mut a.app.conn(),
        grognard::ids::UserId(blue_id as i32),
        Some("blue@example.org".into()),
        true,
    )
    .unwrap();
    assert_eq!(
        a.say(&mut red, "blue_player", "meet me at the bridge")
            .status,
        201
    );
    // The mail of alerts carries it, in the player's mail.
    let mails =
        grognard::game::news::alerts::claim_mails(&mut a.app.conn(), grognard::db::now(), 3600)
            .unwrap();
    let mail = mails
        .iter()
        .find(|m| m.username == "blue_player")
        .expect("a mail for blue");
    assert!(
        mail.alerts.iter().any(|(_, s)| s.contains("red_player")),
        "{:?}",
        mail.alerts
    );
    // Retention: messages older than `talk.keep_messages_days` (90) go, with their reports.
    let id = a.say(&mut blue, "nation", "old news").json()["id"]
        .as_i64()
        .unwrap();
    let mut blue2 = a.join("blue_second", "Blue");
    assert_eq!(
        blue2
            .post_json(&format!("/api/v1/messages/{id}/report"), json!({}))
            .status,
        200
    );
    a.exec(&format!(
        "UPDATE messages SET at = at - 91 * 86400 WHERE id = {id}"
    ));
    let purged = grognard::game::time::retention::purge(
        &mut a.app.conn(),
        &a.app.config,
        grognard::db::now(),
    )
    .unwrap();
    assert_eq!(purged.messages, 1);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM message_reports"), 0);
    assert_eq!(a.heard(&mut blue), vec!["meet me at the bridge"]);
});

both!(the_messages_page_writes_and_reads_without_the_api, |b| {
    let a = arena(b);
    let w = a.world;
    let mut web = page_client(&a, "blue_player");
    let page = web.get(&format!("/worlds/{w}/messages"));
    assert_eq!(page.status, 200);
    let csrf = page.csrf();
    let r = web.post_form(
        &format!("/worlds/{w}/messages"),
        &[("csrf", &csrf), ("to", "nation"), ("body", "hold the ford")],
    );
    assert_eq!(r.status, 303);
    assert_eq!(
        r.header("location"),
        Some(format!("/worlds/{w}/messages").as_str())
    );
    let r = web.post_form(
        &format!("/worlds/{w}/messages"),
        &[("csrf", &csrf), ("to", "red_player"), ("body", "terms?")],
    );
    assert_eq!(
        r.header("location"),
        Some(format!("/worlds/{w}/messages?with=red_player").as_str())
    );
    let thread = web.get(&format!("/worlds/{w}/messages?with=red_player"));
    assert!(thread.body.contains("terms?"));
    let board = web.get(&format!("/worlds/{w}/messages"));
    assert!(board.body.contains("hold the ford"));
    assert!(
        board.body.contains("red_player"),
        "the conversation is listed"
    );
    // Refusals: a page that says why, nothing written; a name that is no name goes back to the
    // board, not into the address.
    let before = a.talk_rows();
    let r = web.post_form(
        &format!("/worlds/{w}/messages"),
        &[("csrf", &csrf), ("to", "nation"), ("body", "")],
    );
    assert_eq!(r.status, 422);
    let r = web.post_form(
        &format!("/worlds/{w}/messages"),
        &[
            ("csrf", &csrf),
            ("to", "evil\r\nLocation: x"),
            ("body", "hi"),
        ],
    );
    assert_eq!(r.status, 404);
    let r = web.post_form(
        &format!("/worlds/{w}/messages"),
        &[("csrf", "wrong"), ("to", "nation"), ("body", "hi")],
    );
    assert_eq!(r.status, 403);
    assert_eq!(a.talk_rows(), before);
    // The header's /messages leads to the world of the newest unread message.
    let mut red_web = page_client(&a, "red_player");
    let r = red_web.get("/messages");
    assert_eq!(r.status, 303);
    assert_eq!(
        r.header("location"),
        Some(format!("/worlds/{w}/messages").as_str())
    );
    // Block from the conversation's page.
    let red_csrf = red_web.get("/").csrf();
    let r = red_web.post_form(
        &format!("/worlds/{w}/blocks"),
        &[("csrf", &red_csrf), ("player", "blue_player")],
    );
    assert_eq!(r.status, 303);
    let r = a.say(&mut a.blue.clone(), "red_player", "again");
    assert_eq!(r.code(), "blocked");
});

both!(
    a_board_of_ten_thousand_is_read_a_page_at_a_time_by_one_indexed_query,
    |b| {
        let a = arena(b);
        let w = a.world;
        let blue_nation = a.nation("Blue");
        let blue_user = a
            .app
            .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'blue_player'");
        // 10,000 board messages and 2,000 of Red's, straight in the database.
        let values = |n: i64, nation: i64, user: i64| -> String {
            (0..n)
                .map(|i| format!("({w}, 'n{nation}', {user}, {nation}, 'message {i}', {i})"))
                .collect::<Vec<_>>()
                .join(",")
        };
        for _ in 0..10 {
            a.exec(&format!(
            "INSERT INTO messages (world_id, channel, from_user_id, nation_id, body, at) VALUES {}",
            values(1000, blue_nation, blue_user)
        ));
        }
        let red_user = a
            .app
            .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'red_player'");
        a.exec(&format!(
            "INSERT INTO messages (world_id, channel, from_user_id, nation_id, body, at) VALUES {}",
            values(2000, a.nation("Red"), red_user)
        ));
        let mut conn = a.app.conn();
        let player = {
            use diesel::prelude::*;
            use grognard::db::schema::players;
            players::table
                .filter(players::user_id.eq(blue_user as i32))
                .select(grognard::db::models::Player::as_select())
                .first(&mut *conn)
                .unwrap()
        };
        let n = crate::support::counting(&mut conn);
        let page = grognard::game::talk::messages::board(&mut conn, &player, None, 30).unwrap();
        assert_eq!(
            n.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "one statement a page"
        );
        let statements = crate::support::recording(&mut conn);
        grognard::game::talk::messages::board(&mut conn, &player, None, 30).unwrap();
        let board_sql = statements.lock().unwrap().last().cloned().unwrap();
        let n = crate::support::counting(&mut conn);
        assert_eq!(page.messages.len(), 30);
        assert_eq!(page.messages[0].body, "message 999");
        let older = page.older.unwrap();
        let next =
            grognard::game::talk::messages::board(&mut conn, &player, Some(older), 30).unwrap();
        assert_eq!(n.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert!(next
            .messages
            .iter()
            .all(|m| m.id < older && m.from == "blue_player"));
        // The plan of the page's own statement reads the messages by an index in the page's
        // order: no scan of the table, no sort. (SQLite takes the channel's index; PostgreSQL
        // may walk the key backwards instead when the board is most of the table, as here.)
        if let grognard::db::DbConnection::Postgres(c) = &mut *conn {
            use diesel::RunQueryDsl;
            diesel::sql_query("ANALYZE messages").execute(c).unwrap();
        }
        let plan = crate::support::plan_of(&mut conn, &board_sql);
        assert!(plan.contains("Index") || plan.contains("INDEX"), "{plan}");
        assert!(
            !plan.contains("Seq Scan on messages")
                && !plan.contains("Sort")
                && !plan.contains("TEMP B-TREE"),
            "{plan}"
        );
        if conn.is_sqlite() {
            assert!(plan.contains("messages_channel"), "{plan}");
        }
        drop(conn);
        // And the page: 30 messages, a link to the older ones.
        let mut web = page_client(&a, "blue_player");
        let page = web.get(&format!("/worlds/{w}/messages"));
        assert_eq!(page.body.matches("<li class=\"message").count(), 30);
        assert!(page.body.contains("before="));
    }
);

both!(hostile_bodies_on_the_talking_routes_change_nothing, |b| {
    let a = arena(b);
    let w = a.world;
    let mut blue = a.blue.clone();
    let id = a.say(&mut a.red.clone(), "nation", "red only").json()["id"]
        .as_i64()
        .unwrap();
    let marker = a.mark(&mut a.red.clone(), 2, 2, "red only").json()["id"]
        .as_i64()
        .unwrap();
    let before = a.talk_rows();
    let huge = format!(
        "{{\"to\": \"nation\", \"body\": \"{}\"}}",
        "x".repeat(70 * 1024)
    );
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("application/json", b"".to_vec()),
        (
            "application/json",
            b"{\"to\": \"nation\", \"body\": \"\\u0000\"}".to_vec(),
        ),
        ("application/json", vec![b'{', 0xff, 0xfe, b'}']),
        ("application/json", huge.into_bytes()),
        (
            "application/json",
            b"{\"to\": \"nation\", \"body\": \"\\ud800\"}".to_vec(),
        ),
        (
            "application/json",
            b"{\"to\": 1e999, \"body\": []}".to_vec(),
        ),
        (
            "application/json",
            b"{\"at\": [2147483647, -2147483648], \"label\": \"x\"}".to_vec(),
        ),
        (
            "application/json",
            b"{\"at\": [1, 1], \"label\": \"\\u001b[2J\"}".to_vec(),
        ),
        ("text/plain", "to=nation&body=hi".as_bytes().to_vec()),
        (
            "application/x-www-form-urlencoded",
            b"to=nation&body=%FF%FE".to_vec(),
        ),
    ];
    let routes = [
        ("POST", format!("/api/v1/worlds/{w}/messages")),
        ("POST", format!("/api/v1/worlds/{w}/markers")),
        ("POST", format!("/api/v1/worlds/{w}/blocks")),
        ("POST", format!("/api/v1/messages/{id}/report")),
    ];
    for (method, path) in &routes {
        for (ct, body) in &bodies {
            let r = blue.raw(method, path, ct, body);
            assert!(
                (400..500).contains(&r.status),
                "{method} {path} ({ct}, {} bytes): {} {}",
                body.len(),
                r.status,
                &r.body[..r.body.len().min(200)]
            );
        }
    }
    // Red's ids, aimed at by Blue: not found, never forbidden.
    let r = blue.json("DELETE", &format!("/api/v1/markers/{marker}"), None);
    assert_eq!(r.status, 404);
    let r = blue.post_json(
        &format!("/api/v1/messages/{id}/report"),
        json!({"reason": "x"}),
    );
    assert_eq!(r.status, 404);
    let mut web = page_client(&a, "blue_player");
    let csrf = web.get("/").csrf();
    let r = web.post_form(
        &format!("/worlds/{w}/markers/{marker}/delete"),
        &[("csrf", &csrf)],
    );
    assert_eq!(r.status, 404);
    let r = web.post_form(
        &format!("/worlds/{w}/messages/{id}/report"),
        &[("csrf", &csrf), ("reason", "x")],
    );
    assert_eq!(r.status, 404);
    assert_eq!(a.talk_rows(), before);
    assert_eq!(a.markers(&mut a.red.clone()), vec!["red only"]);
});

both!(names_that_are_no_names_are_nobody_s, |b| {
    let a = arena(b);
    let w = a.world;
    let mut blue = a.blue.clone();
    let before = a.talk_rows();
    let long = "n".repeat(300);
    for name in [
        "a\u{0}b",
        "\u{0}",
        "x'; DROP TABLE users; --",
        long.as_str(),
    ] {
        let r = a.say(&mut blue, name, "hello");
        assert_eq!(r.status, 404, "{name:?}: {}", r.body);
        let r = blue.post_json(
            &format!("/api/v1/worlds/{w}/blocks"),
            json!({ "player": name }),
        );
        assert_eq!(r.status, 404, "{name:?}: {}", r.body);
    }
    for path in ["%00", "a%00b"] {
        let r = blue.json("DELETE", &format!("/api/v1/worlds/{w}/blocks/{path}"), None);
        assert_eq!(r.status, 404, "{path}: {}", r.body);
    }
    let mut gm = gm_api(&a.app, "moderator");
    let r = gm.post_json(
        &format!("/api/v1/worlds/{w}/mutes"),
        json!({"player": "a\u{0}", "hours": 1}),
    );
    assert_eq!(r.status, 404, "{}", r.body);
    let mut web = page_client(&a, "blue_player");
    assert_eq!(
        web.get(&format!("/worlds/{w}/messages?with=%00")).status,
        404
    );
    assert_eq!(a.talk_rows(), before);
});

both!(at_once_a_limit_lets_one_through, |b| {
    let a = arena_with(b, |s| {
        s.talk.messages_per_window = 1;
        s.talk.markers_per_player = 1;
    });
    let mut handles = Vec::new();
    for i in 0..8 {
        let (mut blue, w) = (a.blue.clone(), a.world);
        handles.push(std::thread::spawn(move || {
            let m = blue.post_json(
                &format!("/api/v1/worlds/{w}/messages"),
                json!({"to": "nation", "body": format!("m{i}")}),
            );
            let k = blue.post_json(
                &format!("/api/v1/worlds/{w}/markers"),
                json!({"at": [i, 1], "label": "x"}),
            );
            (m.status, k.status)
        }));
    }
    let answers: Vec<(u16, u16)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(
        answers.iter().filter(|(m, _)| *m == 201).count(),
        1,
        "{answers:?}"
    );
    assert!(
        answers.iter().all(|(m, _)| *m == 201 || *m == 429),
        "{answers:?}"
    );
    assert_eq!(
        answers.iter().filter(|(_, k)| *k == 201).count(),
        1,
        "{answers:?}"
    );
    assert!(
        answers.iter().all(|(_, k)| *k == 201 || *k == 409),
        "{answers:?}"
    );
    assert_eq!(a.app.count("SELECT COUNT(*) FROM messages"), 1);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM markers"), 1);
    // The page form says when to come back too.
    let mut web = page_client(&a, "blue_player");
    let csrf = web.get("/").csrf();
    let r = web.post_form(
        &format!("/worlds/{}/messages", a.world),
        &[("csrf", &csrf), ("to", "nation"), ("body", "again")],
    );
    assert_eq!(r.status, 429);
    let wait: i64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait));
});

both!(the_badge_counts_what_is_left_to_read, |b| {
    let a = arena(b);
    let w = a.world;
    let mut red = a.red.clone();
    let unread = || {
        a.app.count(
            "SELECT CAST(unread_messages AS BIGINT) AS n FROM users WHERE username = 'blue_player'",
        )
    };
    let first = a.say(&mut red, "blue_player", "one").json()["id"]
        .as_i64()
        .unwrap();
    let second = a.say(&mut red, "blue_player", "two").json()["id"]
        .as_i64()
        .unwrap();
    assert_eq!(unread(), 2);
    // An older page of the conversation reads nothing.
    let mut web = page_client(&a, "blue_player");
    let page = web.get(&format!(
        "/worlds/{w}/messages?with=red_player&before={second}"
    ));
    assert!(
        page.body.contains(">one<") && !page.body.contains(">two<"),
        "{}",
        page.body
    );
    assert_eq!(unread(), 2);
    // A message a game master removes is no longer waiting.
    let mut gm = gm_api(&a.app, "moderator");
    assert_eq!(
        gm.json("DELETE", &format!("/api/v1/messages/{second}"), None)
            .status,
        204
    );
    assert_eq!(unread(), 1);
    // Nor one that retention deletes.
    a.exec(&format!(
        "UPDATE messages SET at = at - 91 * 86400 WHERE id = {first}"
    ));
    grognard::game::time::retention::purge(&mut a.app.conn(), &a.app.config, grognard::db::now())
        .unwrap();
    assert_eq!(unread(), 0);
    assert!(!web.get("/").body.contains("messages-badge"));
});

/// The badge's count as stored.
fn badge(a: &Arena, name: &str) -> i64 {
    a.app.count(&format!(
        "SELECT CAST(unread_messages AS BIGINT) AS n FROM users WHERE username = '{name}'"
    ))
}

/// Another arena world on the same server, joined by the given (client, nation) pairs.
fn second_world(a: &Arena, name: &str, joins: &mut [(&mut Client, &str)]) -> i64 {
    let w = grognard::game::maps::worlds::import_text(
        &mut a.app.conn(),
        &a.app.config.rules,
        ARENA,
        Some(name),
    )
    .unwrap()
    .0 as i64;
    for (c, nation) in joins.iter_mut() {
        let r = c.post_json(
            &format!("/api/v1/worlds/{w}/join"),
            json!({ "nation": *nation }),
        );
        assert_eq!(r.status, 201, "{}", r.body);
    }
    w
}

both!(a_block_follows_the_account_and_puts_the_badge_out, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let w2 = second_world(
        &a,
        "Arena II",
        &mut [(&mut blue, "Blue"), (&mut red, "Red")],
    );
    let say_in = |who: &mut Client, world: i64, to: &str, body: &str| {
        who.post_json(
            &format!("/api/v1/worlds/{world}/messages"),
            json!({ "to": to, "body": body }),
        )
    };
    // Red writes to Blue in both worlds; Blue reads none of it.
    assert_eq!(a.say(&mut red, "blue_player", "surrender").status, 201);
    assert_eq!(
        say_in(&mut red, w2, "blue_player", "surrender now").status,
        201
    );
    assert_eq!(badge(&a, "blue_player"), 2);
    let mut blue_web = page_client(&a, "blue_player");
    assert!(blue_web.get("/").body.contains("id=\"messages-badge\">2<"));

    // Blocked in the first world: the badge goes out at once, and stays out.
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w}/blocks"),
        json!({"player": "red_player"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(badge(&a, "blue_player"), 0);
    assert!(!blue_web.get("/").body.contains("messages-badge"));
    // The conversation lists show nothing unread of Red's, in either world, and `/messages`
    // does not send Blue to a message it will not show.
    for world in [w, w2] {
        let page = blue_web.get(&format!("/worlds/{world}/messages"));
        assert_eq!(page.status, 200);
        assert!(page.body.contains(">red_player</a>"), "{}", page.body);
        assert!(
            !page.body.contains(">red_player</a> <span class=\"badge\">"),
            "{}",
            page.body
        );
    }
    let r = blue_web.get("/messages");
    assert_eq!(
        r.header("location"),
        Some(format!("/worlds/{w}/messages").as_str())
    );
    // Reading another conversation counts again, and still leaves Red out.
    let mut blue2 = a.join("blue_second", "Blue");
    assert_eq!(a.say(&mut blue2, "blue_player", "hello").status, 201);
    assert_eq!(badge(&a, "blue_player"), 1);
    assert_eq!(
        blue_web
            .get(&format!("/worlds/{w}/messages?with=blue_second"))
            .status,
        200
    );
    assert_eq!(badge(&a, "blue_player"), 0);

    // The block holds in the other world: Red cannot write there, nor be heard there.
    let before = a.talk_rows();
    let r = say_in(&mut red, w2, "blue_player", "and here?");
    assert_eq!(
        (r.status, r.code().as_str()),
        (403, "blocked"),
        "{}",
        r.body
    );
    assert_eq!(a.talk_rows(), before);
    let r = blue.get_json(&format!("/api/v1/worlds/{w2}/messages"));
    assert_eq!(r.json()["messages"], json!([]), "{}", r.body);
    assert_eq!(
        blue.get_json(&format!("/api/v1/worlds/{w2}/blocks")).json()["blocked"],
        json!(["red_player"])
    );
    // Blocking again from the other world: still one block.
    let r = blue.post_json(
        &format!("/api/v1/worlds/{w2}/blocks"),
        json!({"player": "red_player"}),
    );
    assert_eq!(r.json()["blocked"], json!(["red_player"]));
    assert_eq!(a.app.count("SELECT COUNT(*) FROM blocks"), 1);
    // Red's own side is untouched: Red still hears Blue.
    assert_eq!(say_in(&mut blue, w2, "red_player", "no").status, 201);
    assert_eq!(badge(&a, "red_player"), 1);

    // Lifted from a world Red never joined: Red is heard everywhere again, and what Red wrote
    // and Blue never read is unread again.
    let w3 = second_world(&a, "Arena III", &mut [(&mut blue, "Blue")]);
    let r = blue.json(
        "DELETE",
        &format!("/api/v1/worlds/{w3}/blocks/red_player"),
        None,
    );
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM blocks"), 0);
    assert_eq!(badge(&a, "blue_player"), 2);
    assert_eq!(say_in(&mut red, w2, "blue_player", "parley").status, 201);
    assert_eq!(badge(&a, "blue_player"), 3);
});

both!(blocks_made_per_world_become_one_per_account, |b| {
    let a = arena(b);
    let (w, mut blue, mut red) = (a.world, a.blue.clone(), a.red.clone());
    let w2 = second_world(
        &a,
        "Arena II",
        &mut [(&mut blue, "Blue"), (&mut red, "Red")],
    );
    assert_eq!(a.say(&mut red, "blue_player", "surrender").status, 201);
    assert_eq!(badge(&a, "blue_player"), 1);
    // The database as the earlier release left it: blocks per world, one made twice.
    let migration = "2026-12-06-000002_account_blocks";
    let folder = match b {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let down = std::fs::read_to_string(format!(
        "{}/migrations/{folder}/{migration}/down.sql",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    a.exec(&down);
    a.exec(&format!(
        "DELETE FROM __diesel_schema_migrations WHERE version = '{}'",
        migration[..17].replace('-', "")
    ));
    let (bl, rd) = (
        a.app
            .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'blue_player'"),
        a.app
            .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'red_player'"),
    );
    a.exec(&format!(
        "INSERT INTO blocks (world_id, user_id, blocked_id, at) VALUES \
         ({w}, {bl}, {rd}, 200), ({w2}, {bl}, {rd}, 100), ({w2}, {rd}, {bl}, 300)"
    ));
    assert_eq!(grognard::db::migrate(&mut a.app.conn()).unwrap(), 1);
    assert_eq!(a.app.count("SELECT COUNT(*) FROM blocks"), 2);
    assert_eq!(
        a.app.count(&format!(
            "SELECT at AS n FROM blocks WHERE user_id = {bl} AND blocked_id = {rd}"
        )),
        100
    );
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) FROM blocks WHERE user_id = {rd} AND blocked_id = {bl}"
        )),
        1
    );
    // The badge lit by a blocked author went out with the migration.
    assert_eq!(badge(&a, "blue_player"), 0);
    let r = a.say(&mut red, "blue_player", "again");
    assert_eq!(r.code(), "blocked", "{}", r.body);
});

both!(direction_marks_are_refused_in_bodies_and_labels, |b| {
    let a = arena(b);
    let mut blue = a.blue.clone();
    let before = a.talk_rows();
    for mark in ['\u{200e}', '\u{200f}', '\u{061c}'] {
        let text = format!("see a.org/{mark}exe.txt");
        for to in ["nation", "red_player"] {
            let r = a.say(&mut blue, to, &text);
            assert_eq!(
                (r.status, r.code().as_str()),
                (422, "invalid"),
                "{mark:?} to {to}: {}",
                r.body
            );
        }
        let r = a.mark(&mut blue, 3, 3, &format!("guns{mark}"));
        assert_eq!(
            (r.status, r.code().as_str()),
            (422, "invalid"),
            "{mark:?}: {}",
            r.body
        );
    }
    // The page forms refuse them too, with a message and no change.
    let mut web = page_client(&a, "blue_player");
    let w = a.world;
    let page = web.get(&format!("/worlds/{w}/messages"));
    let csrf = page.csrf();
    let r = web.post_form(
        &format!("/worlds/{w}/messages"),
        &[("csrf", &csrf), ("to", "nation"), ("body", "a\u{200f}b")],
    );
    assert!((400..500).contains(&r.status), "{}: {}", r.status, r.body);
    assert_eq!(a.talk_rows(), before);
    // The same text without the mark goes through.
    assert_eq!(a.say(&mut blue, "nation", "see a.org/exe.txt").status, 201);
});

both!(
    a_conversation_opened_shows_no_unread_count_on_its_own_page,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut red = a.red.clone();
        assert_eq!(a.say(&mut red, "blue_player", "ahoy").status, 201);
        let mut web = page_client(&a, "blue_player");
        let list = web.get(&format!("/worlds/{w}/messages"));
        assert!(
            list.body
                .contains(">red_player</a> <span class=\"badge\">1</span>"),
            "{}",
            list.body
        );
        // Opening the conversation reads it: the list beside it says so at once.
        let open = web.get(&format!("/worlds/{w}/messages?with=red_player"));
        assert!(open.body.contains(">ahoy<"), "{}", open.body);
        assert!(
            !open.body.contains(">red_player</a> <span class=\"badge\">"),
            "{}",
            open.body
        );
    }
);

both!(
    a_mistyped_name_keeps_the_messages_page_and_offers_the_names,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut web = page_client(&a, "blue_player");
        let r = web.get(&format!("/worlds/{w}/messages?with=red_playr"));
        assert_eq!(r.status, 404);
        // The whole page: the header, the board, the forms; the name said back with the nearest.
        assert!(r.body.contains("<header class=\"top\">"));
        assert!(r.body.contains("id=\"no-such-player\""));
        assert!(r
            .body
            .contains("No player called “red_playr” plays in this world."));
        assert!(r.body.contains(&format!(
            "Did you mean <a href=\"/worlds/{w}/messages?with=red_player\">red_player</a>?"
        )));
        assert!(r
            .body
            .contains("<datalist id=\"player-names\"><option value=\"red_player\"></datalist>"));
        assert!(r.body.contains("value=\"red_playr\" aria-invalid=\"true\""));
        // Nothing like it: the list to pick from is named instead.
        let r = web.get(&format!("/worlds/{w}/messages?with=wellington"));
        assert_eq!(r.status, 404);
        assert!(r.body.contains("Pick a name from the list"));
        assert!(!r.body.contains("Did you mean"));
    }
);
