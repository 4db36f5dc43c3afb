//! Issue: the player's day beyond the peers. Alerts while away: on the site (a badge and a
//! list, read once seen) and by mail through a real SMTP conversation with a sink started here,
//! at most one mail an hour, with a one-click way out.

use crate::both;
use crate::support::fixtures::*;
use crate::support::smtp::SmtpSink;
use crate::support::TestApp;
use grognard::config::Config;
use grognard::game::news::alerts;
use lettre::SmtpTransport;
use serde_json::json;

/// An SMTP sink and the app's settings that send mail to it.
fn mail_to_sink(app: &TestApp) -> (SmtpSink, Config, SmtpTransport) {
    let sink = SmtpSink::start();
    let mut config = (*app.config).clone();
    config.settings.mail.smtp_host = "127.0.0.1".into();
    config.settings.mail.smtp_port = sink.port;
    config.settings.mail.tls = "none".into();
    let smtp = grognard::mail::transport(&config.settings.mail).unwrap();
    (sink, config, smtp)
}

both!(
    alerts_reach_the_player_on_the_site_and_by_mail_at_most_hourly,
    |b| {
        let a = arena(b);
        let (mut blue, mut red, inf, foe) = a.facing();
        let blue_id = a
            .app
            .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'blue_player'")
            as i32;
        let unread = || {
            a.app.count(&format!(
                "SELECT CAST(unread_alerts AS BIGINT) AS n FROM users WHERE id = {blue_id}"
            ))
        };
        alerts::set_mail(
            &mut a.app.conn(),
            grognard::ids::UserId(blue_id),
            Some("blue@example.org".into()),
            true,
        )
        .unwrap();
        let (sink, config, smtp) = mail_to_sink(&a.app);
        let send =
            |at: i64| grognard::mail::send_due(&mut a.app.conn(), &config, &smtp, at).unwrap();

        // Red fires twice at Blue's company: two alerts for Blue, none for Red.
        for _ in 0..2 {
            let r = a.act(&mut red, foe, "volley", json!({"target": inf}));
            assert_eq!(r.status, 200, "{}", r.body);
        }
        assert_eq!(unread(), 2);
        assert_eq!(
            a.app
                .count("SELECT COUNT(*) FROM alerts WHERE kind = 'attacked'"),
            2
        );
        // One mail with both, and the way out.
        let now = grognard::db::now();
        assert_eq!(send(now), 1);
        let mails = sink.delivered();
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0].to, vec!["blue@example.org".to_string()]);
        let data = mails[0].data.replace("=\r\n", "");
        assert!(
            data.contains("Subject: Grognard: 2 things happened while you were away"),
            "{data}"
        );
        assert_eq!(
            data.matches("Feinde fired a volley at Ligne").count(),
            2,
            "{data}"
        );
        assert!(
            data.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
            "{data}"
        );
        let token = a
            .app
            .count("SELECT COUNT(*) FROM users WHERE unsubscribe_token IS NOT NULL");
        assert_eq!(token, 1);
        let link_at = data.find("/unsubscribe/").expect("an unsubscribe link");
        let link: String = data[link_at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '/')
            .collect();
        // Nothing new: no mail. A third shot within the hour waits for the hour.
        assert_eq!(send(now), 0);
        let r = a.act(&mut red, foe, "volley", json!({"target": inf}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(send(now + 60), 0);
        assert_eq!(send(now + 3600), 1);
        let third = sink.delivered()[1].data.replace("=\r\n", "");
        assert!(
            third.contains("Subject: Grognard: 1 thing happened"),
            "{third}"
        );
        // On the site: a badge, then the list, which marks them read.
        let r = blue.get_json("/api/v1/alerts");
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["alerts"].as_array().unwrap().len(), 3);
        assert_eq!(unread(), 0);
        // One click on the link (no session needed): no more mail.
        let mut stranger = a.app.client();
        let page = stranger.get(&link);
        assert_eq!(page.status, 200, "{}", page.body);
        assert!(page.body.contains("You will get no more alert mails"));
        let page = stranger.get(&link);
        assert!(page.body.contains("no longer in use"));
        let r = a.act(&mut red, foe, "volley", json!({"target": inf}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(send(now + 8000), 0);
        assert_eq!(sink.delivered().len(), 2);

        // Ground lost: every player of the nation is told.
        a.paint(9, 5, "mine", Some("Blue"), None);
        a.put(foe, 8, 5);
        let r = a.act(&mut red, foe, "move", json!({"path": [[9, 5]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM alerts WHERE kind = 'lost_ground' AND user_id = {blue_id}"
            )),
            1
        );
        // A turn about to begin: each player told once, whoever looks.
        let next = a.first_turn_at();
        let told =
            grognard::scheduler::alert_turns_soon(&mut a.app.conn(), &config, next - 600).unwrap();
        assert!(told >= 2, "both players of the arena: {told}");
        assert_eq!(
            grognard::scheduler::alert_turns_soon(&mut a.app.conn(), &config, next - 300).unwrap(),
            0
        );
        assert_eq!(
            a.app.count(&format!("SELECT COUNT(*) FROM alerts WHERE kind = 'turn_soon' AND user_id = {blue_id} AND at = {next}")),
            1
        );
        // Long before the turn, nobody is told.
        assert_eq!(
            grognard::scheduler::alert_turns_soon(&mut a.app.conn(), &config, next - 7200).unwrap(),
            0
        );
    }
);

both!(the_badge_the_list_and_the_mail_settings_in_the_pages, |b| {
    let a = arena(b);
    let w = a.world;
    let mut c = crate::support::player(&a.app, "lecteur");
    let id = crate::support::join_and_raise(&mut c, w, "Blue", "infantry", "Garde");
    let mut red = a.red.clone();
    let foe = a.raise(&mut red, "infantry", "Feinde");
    let (x, y) = a.position(id);
    a.put(foe, x + 1, y);
    assert_eq!(
        a.act(&mut red, foe, "melee", json!({"target": id})).status,
        200
    );
    let page = c.get(&format!("/worlds/{w}"));
    assert!(
        page.body.contains("id=\"alerts-badge\">1</span>"),
        "a badge with one alert"
    );
    let list = c.get("/alerts");
    assert!(list.body.contains("Feinde charged Garde"), "{}", list.body);
    assert!(!list.body.contains("alerts-badge"));
    assert!(!c.get(&format!("/worlds/{w}")).body.contains("alerts-badge"));
    // Mail settings: a bad address is refused and changes nothing; a good one is kept.
    let account = c.get("/account");
    let csrf = account.csrf();
    let r = c.post_form(
        "/account/alerts",
        &[("csrf", &csrf), ("email", "not an address"), ("mail", "on")],
    );
    assert_eq!(r.status, 422, "{}", r.body);
    let r = c.post_form(
        "/account/alerts",
        &[("csrf", &csrf), ("email", ""), ("mail", "on")],
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        a.app
            .count("SELECT COUNT(*) FROM users WHERE alert_mail = TRUE"),
        0
    );
    let r = c.post_form(
        "/account/alerts",
        &[
            ("csrf", &csrf),
            ("email", "lecteur@example.org"),
            ("mail", "on"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let account = c.get("/account?mail=1");
    assert!(account.body.contains("value=\"lecteur@example.org\""));
    assert!(account.body.contains("name=\"mail\" value=\"on\" checked"));
    // Without CSRF: refused.
    let r = c.post_form("/account/alerts", &[("email", "x@example.org")]);
    assert_eq!(r.status, 403);
});

both!(what_happened_is_said_in_each_reader_s_language, |b| {
    let a = arena(b);
    let w = a.world;
    let mut c = crate::support::player(&a.app, "lecteur");
    c.get("/lang/fr");
    let id = crate::support::join_and_raise(&mut c, w, "Blue", "infantry", "Garde");
    let mut red = a.red.clone();
    let foe = a.raise(&mut red, "infantry", "Feinde");
    let (x, y) = a.position(id);
    a.put(foe, x + 1, y);
    let r = a.act(&mut red, foe, "melee", json!({"target": id}));
    assert_eq!(r.status, 200, "{}", r.body);
    let losses = r.json()["report"]["defender"]["losses"].as_i64().unwrap();
    let french_losses = if losses <= 1 {
        format!("Garde perd {losses} homme ")
    } else {
        format!("Garde perd {losses} hommes ")
    };
    let said_fr = format!("Feinde charge Garde en ({x}, {y}) : {french_losses}");
    let said_en = format!("Feinde charged Garde at ({x}, {y}): Garde lost {losses} (");
    // The French reader's alert, report and mail are in French; the attacker reads English.
    let list = c.get("/alerts");
    assert!(list.body.contains(&said_fr), "{}", list.body);
    let reports = c.get(&format!("/worlds/{w}/reports"));
    assert!(reports.body.contains(&said_fr), "{}", reports.body);
    assert!(
        reports.body.contains("Garde (infanterie de ligne)"),
        "{}",
        reports.body
    );
    let mut red_pages = a.app.client();
    crate::support::login(&mut red_pages, "red_player", crate::support::PASSWORD);
    let theirs = red_pages.get(&format!("/worlds/{w}/reports"));
    assert!(theirs.body.contains(&said_en), "{}", theirs.body);
    // The API keeps English and gives the clauses, for clients in any language.
    let r = red.get_json(&format!("/api/v1/worlds/{w}/events"));
    let melee = r.json()["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "melee")
        .cloned()
        .expect("the charge");
    assert!(melee["summary"].as_str().unwrap().starts_with(&said_en));
    assert_eq!(melee["said"][0]["k"], "said-charge");
    assert_eq!(melee["said"][0]["a"]["target"], "Garde");
    assert_eq!(melee["said"][0]["a"]["losses"], losses);
    // A turn, then the mail: both in French.
    let turn = a.app.count(&format!(
        "SELECT CAST(turn AS BIGINT) AS n FROM worlds WHERE id = {w}"
    ));
    let rs = a.app.config.rules.clone();
    let kind = grognard::game::time::ticks::TickKind::Turn;
    let now = grognard::db::now();
    let out = grognard::game::time::ticks::apply(
        &mut a.app.conn(),
        &rs,
        grognard::ids::WorldId(w as i32),
        kind,
        now,
        false,
    );
    assert!(out.unwrap().applied);
    let reports = c.get(&format!("/worlds/{w}/reports"));
    let begins = format!("Le tour {} commence", turn + 1);
    assert!(reports.body.contains(&begins), "{}", reports.body);
    let user = a
        .app
        .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'lecteur'");
    alerts::set_mail(
        &mut a.app.conn(),
        grognard::ids::UserId(user as i32),
        Some("l@example.org".into()),
        true,
    )
    .unwrap();
    // Seen on the site already: made unread again, so that they go by mail.
    a.exec("UPDATE alerts SET read_at = NULL");
    let (sink, config, smtp) = mail_to_sink(&a.app);
    let sent = grognard::mail::send_due(&mut a.app.conn(), &config, &smtp, grognard::db::now());
    assert_eq!(sent.unwrap(), 1);
    let body = sink.delivered()[0].body();
    assert!(body.contains(&format!("- {said_fr}")), "{body}");
});

both!(
    bots_are_never_told_and_the_people_of_their_nation_are,
    |b| {
        // A bot reads no alert and gets no mail: a bots' turn of captures wrote hundreds.
        let a = arena(b);
        let (mut blue, _red, inf, _foe) = a.facing();
        let (bot, theirs) = a.red_bot_infantry_at([(5, 7), (12, 2)]);
        a.set(inf, "ap = 60");
        let told = |kind: &str, user: &str| {
            a.app.count(&format!(
                "SELECT COUNT(*) FROM alerts al JOIN users u ON u.id = al.user_id \
             WHERE al.kind = '{kind}' AND u.username = '{user}'"
            ))
        };
        // Fired at: the bot's company is hit, the bot is not told.
        let r = a.act(&mut blue, inf, "volley", json!({"target": theirs[0]}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(told("attacked", &bot), 0);
        // Ground of Red taken: Red's person is told, Red's bot is not.
        a.paint(4, 5, "mine", Some("Red"), None);
        let r = a.act(&mut blue, inf, "move", json!({"path": [[4, 5]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(a.cell_owner(4, 5), a.nation("Blue"));
        assert_eq!(told("lost_ground", "red_player"), 1);
        assert_eq!(told("lost_ground", &bot), 0);
        assert_eq!(
            a.app.count(&format!(
                "SELECT CAST(unread_alerts AS BIGINT) AS n FROM users WHERE username = '{bot}'"
            )),
            0
        );
        // A turn about to begin: the people told, not the bot.
        let next = a.first_turn_at();
        grognard::scheduler::alert_turns_soon(&mut a.app.conn(), &a.app.config, next - 600)
            .unwrap();
        assert_eq!(told("turn_soon", "red_player"), 1);
        assert_eq!(told("turn_soon", &bot), 0);
    }
);

both!(events_written_together_alert_whom_each_would_alone, |b| {
    // A chunk's events are written at once, and who among their defenders and losers are
    // people is asked once for them all: the alerts must be those, and in the order, that
    // the same events written one by one give.
    use grognard::db::models::NewEvent;
    use grognard::ids::{NationId, UserId, WorldId};
    use grognard::rules::names::EventKind;
    let a = arena(b);
    let bot = a.seat_bot("Red", "normal");
    let user = |name: &str| {
        UserId(a.app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{name}'"
        )) as i32)
    };
    let (blue, red, robot) = (user("blue_player"), user("red_player"), user(&bot));
    let (blue_n, red_n) = (
        NationId(a.nation("Blue") as i32),
        NationId(a.nation("Red") as i32),
    );
    let w = WorldId(a.world as i32);
    let event = |kind: EventKind, actor: UserId, target: Option<UserId>, lost: Option<NationId>| {
        let mut e = NewEvent::new(w, 1, grognard::db::now(), kind);
        e.actor_user_id = Some(actor);
        e.target_user_id = target;
        e.other_nation_id = lost;
        e.summary = format!("{kind:?}");
        e
    };
    let all = || {
        vec![
            event(EventKind::Volley, blue, Some(red), None),
            event(EventKind::Volley, blue, Some(robot), None),
            event(EventKind::Melee, blue, Some(red), None),
            event(EventKind::Volley, red, Some(red), None),
            event(EventKind::Move, blue, None, Some(red_n)),
            event(EventKind::Move, red, None, Some(blue_n)),
            event(EventKind::Move, blue, None, None),
            event(EventKind::Heal, red, Some(blue), Some(blue_n)),
        ]
    };
    // Each alert as (its user, its kind, the place of its event among those written).
    let told = |ids: &[grognard::ids::EventId]| -> Vec<(UserId, String, usize)> {
        use diesel::prelude::*;
        use grognard::db::schema::alerts;
        let rows: Vec<(UserId, String, Option<grognard::ids::EventId>)> = alerts::table
            .filter(alerts::event_id.eq_any(ids.to_vec()))
            .order(alerts::id)
            .select((alerts::user_id, alerts::kind, alerts::event_id))
            .load(&mut *a.app.conn())
            .unwrap();
        rows.into_iter()
            .map(|(u, k, e)| (u, k, ids.iter().position(|i| Some(*i) == e).unwrap()))
            .collect()
    };
    let together = grognard::game::news::events::record_all(&mut a.app.conn(), all()).unwrap();
    let one_by_one: Vec<_> = all()
        .into_iter()
        .map(|e| grognard::game::news::events::record_all(&mut a.app.conn(), vec![e]).unwrap()[0])
        .collect();
    let expected = vec![
        (red, "attacked".to_string(), 0),
        (red, "attacked".to_string(), 2),
        (red, "lost_ground".to_string(), 4),
        (blue, "lost_ground".to_string(), 5),
    ];
    assert_eq!(told(&together), expected);
    assert_eq!(told(&one_by_one), expected);
    assert_eq!(
        a.app.count(&format!(
            "SELECT CAST(unread_alerts AS BIGINT) AS n FROM users WHERE username = '{bot}'"
        )),
        0
    );
});
