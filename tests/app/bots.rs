//! Bots (docs/rules.md §14): seated by game masters, playing each turn once through the same
//! order code as a person, from what their nation sees; absent players held; the simulator.

use crate::both;
use crate::support::fixtures::*;
use crate::support::*;
use serde_json::json;
use std::time::{Duration, Instant};

both!(
    a_game_master_seats_lists_and_removes_bots_and_no_one_else_may,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut blue = a.blue.clone();
        let r = blue.post_json(
            &format!("/api/v1/worlds/{w}/bots"),
            json!({"nation": "Red", "level": "hard"}),
        );
        assert_eq!(r.status, 403, "{}", r.body);
        let mut gm = gm_api(&a.app, "gm_bots");
        for (body, code) in [
            (json!({"nation": "Red", "level": "godlike"}), "invalid"),
            (json!({"nation": "Atlantis"}), "invalid"),
            (json!({"nation": "Red", "extra": 1}), "invalid"),
        ] {
            let r = gm.post_json(&format!("/api/v1/worlds/{w}/bots"), body.clone());
            assert_eq!(
                (r.status, r.code().as_str()),
                (422, code),
                "{body}: {}",
                r.body
            );
        }
        assert_eq!(a.app.count("SELECT COUNT(*) FROM bots"), 0);
        // The editor's panel refuses the same, with its page and nothing written.
        let mut web = user_with_role(&a.app, "gm_web", grognard::game::accounts::Role::Gm);
        let csrf = web.get(&format!("/gm/worlds/{w}")).csrf();
        for (nation, level) in [("Red", "godlike"), ("Atlantis", "easy")] {
            let r = web.post_form(
                &format!("/gm/worlds/{w}/bots"),
                &[("csrf", &csrf), ("nation", nation), ("level", level)],
            );
            assert_eq!(r.status, 422, "{nation} {level}: {}", r.body);
        }
        let r = web.post_form(
            &format!("/gm/worlds/{w}/bots/remove"),
            &[("csrf", &csrf), ("name", "Nobody-bot")],
        );
        assert_eq!(r.status, 404, "{}", r.body);
        assert_eq!(a.app.count("SELECT COUNT(*) FROM bots"), 0);
        let r = gm.post_json(
            &format!("/api/v1/worlds/{w}/bots"),
            json!({"nation": "Red", "level": "hard"}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        assert_eq!(r.json()["name"], "Red-bot");
        assert_eq!(r.json()["bot"], true);
        // A second bot of the nation takes the next free name.
        let r = gm.post_json(
            &format!("/api/v1/worlds/{w}/bots"),
            json!({"nation": "Red"}),
        );
        assert_eq!(
            (r.status, r.json()["name"].as_str()),
            (201, Some("Red-bot2"))
        );
        let list = gm.get_json(&format!("/api/v1/worlds/{w}/bots")).json();
        let bots = list["bots"].as_array().unwrap();
        assert_eq!(bots.len(), 2);
        assert_eq!(
            (bots[0]["nation"].as_str(), bots[0]["level"].as_str()),
            (Some("Red"), Some("hard"))
        );
        assert_eq!(
            blue.get_json(&format!("/api/v1/worlds/{w}/bots")).status,
            403
        );
        assert_eq!(gm.get_json("/api/v1/worlds/9999/bots").status, 404);
        // No password opens a bot's account.
        let mut c = a.app.client();
        for pw in ["!", "", "Red-bot"] {
            let r = login(&mut c, "Red-bot", pw);
            assert_ne!(r.status, 303, "logged in as a bot with `{pw}`");
        }
        // Removing: an unknown name is not found; a bot's is gone from the list.
        let gone = gm.json("DELETE", &format!("/api/v1/worlds/{w}/bots/Blue-bot"), None);
        assert_eq!(gone.status, 404, "{}", gone.body);
        let r = gm.json("DELETE", &format!("/api/v1/worlds/{w}/bots/red-bot2"), None);
        assert_eq!(r.status, 204, "{}", r.body);
        let list = gm.get_json(&format!("/api/v1/worlds/{w}/bots")).json();
        assert_eq!(list["bots"].as_array().unwrap().len(), 1);
        // Both stay players of Red, marked as bots in the rankings once a turn has ranked them.
        a.turn(grognard::db::now());
        let rows = blue
            .get_json(&format!("/api/v1/worlds/{w}/rankings"))
            .json();
        let bots: Vec<&str> = rows["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["bot"] == true)
            .map(|r| r["player"].as_str().unwrap())
            .collect();
        assert_eq!(bots, ["Red-bot", "Red-bot2"]);
        let page = blue.get(&format!("/worlds/{w}/standings"));
        assert!(page.body.contains("(computer)"), "the standings mark bots");
    }
);

both!(
    a_bot_raises_moves_and_captures_through_the_order_code_once_a_turn,
    |b| {
        let a = arena(b);
        a.paint(12, 9, "mine", None, None);
        let bot = a.seat_bot("Red", "normal");
        let played = a.bots_play();
        assert_eq!((played.bots, played.raised), (1, 2), "{played:?}");
        assert_eq!(a.companies_of(&bot).len(), 2);
        assert_eq!(a.events_by("raise", &bot), 2);
        assert!(a.events_by("move", &bot) >= 1);
        // Raised at 100 each from Red's treasury; the mine three cells from Red's spawn taken.
        assert_eq!(
            a.app
                .count("SELECT CAST(treasury AS BIGINT) AS n FROM nations WHERE name = 'Red'"),
            800
        );
        assert_eq!(a.cell_owner(12, 9), a.nation("Red"));
        // Once a turn: asked again, it gives nothing more.
        let before = a.state();
        assert_eq!(a.bots_play(), grognard::game::bots::Played::default());
        assert_eq!(a.state(), before);
        // The world page says who plays Red.
        let page = a.app.client().get(&format!("/worlds/{}", a.world));
        assert!(
            page.body.contains("Red is played by the computer."),
            "{}",
            page.body
        );
    }
);

both!(
    a_bots_chunk_writes_each_orders_event_with_its_own_alert_and_live_row,
    |b| {
        // A chunk's events are written together at its end: each must still get its own id,
        // its own row of the live log and, for ground taken from a nation, its alert.
        let a = arena(b);
        a.red_bot_infantry_at([(5, 5), (12, 2)]);
        a.paint(7, 5, "mine", Some("Blue"), None);
        a.paint(13, 2, "mine", None, None);
        let w = a.world;
        let before = a.app.count(&format!(
            "SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) AS n FROM events WHERE world_id = {w}"
        ));
        a.turn(grognard::db::now());
        let played = a.bots_play();
        assert!(played.orders >= 2, "{played:?}");
        assert_eq!(a.cell_owner(7, 5), a.nation("Red"), "Blue's mine taken");
        assert_eq!(a.cell_owner(13, 2), a.nation("Red"), "the free mine taken");
        let orders = a.app.count(&format!(
            "SELECT COUNT(*) FROM events WHERE world_id = {w} AND id > {before} AND kind IN ('move', 'volley', 'melee')"
        ));
        assert_eq!(orders, played.orders as i64);
        // One live row an event, naming that event, and no other.
        let unmatched = a.app.count(&format!(
            "SELECT COUNT(*) FROM events e WHERE e.world_id = {w} AND e.id > {before} \
             AND (SELECT COUNT(*) FROM live_log l WHERE l.ref_id = e.id AND l.topic = 'event') <> 1"
        ));
        assert_eq!(unmatched, 0, "an event without its one live row");
        let strays = a.app.count(&format!(
            "SELECT COUNT(*) FROM live_log l WHERE l.world_id = {w} AND l.topic = 'event' AND l.ref_id > {before} \
             AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = l.ref_id)"
        ));
        assert_eq!(strays, 0, "a live row naming no event");
        // Blue's player is alerted of the mine lost, by the very move that took it.
        let alerted = a.app.count(&format!(
            "SELECT COUNT(*) FROM alerts al JOIN users u ON u.id = al.user_id \
             JOIN events e ON e.id = al.event_id \
             WHERE u.username = 'blue_player' AND al.kind = 'lost_ground' \
             AND e.kind = 'move' AND e.x = 7 AND e.y = 5 AND e.id > {before}"
        ));
        assert_eq!(alerted, 1);
        let alerts = a.app.count(&format!(
            "SELECT COUNT(*) FROM alerts WHERE world_id = {w} AND event_id > {before}"
        ));
        assert_eq!(alerts, 1, "the free mine alerts no one");
    }
);

both!(
    a_bots_move_refused_by_an_unseen_company_changes_nothing_and_the_bot_goes_on,
    |b| {
        // A bot's chunk gives its companies' orders one after another in one transaction:
        // a move refused must leave its company as it was, and the chunk go on with the next
        // company.
        let a = arena(b);
        let (_, mine) = a.red_bot_infantry_at([(5, 5), (12, 2)]);
        a.paint(8, 5, "mine", None, None);
        a.paint(13, 2, "mine", None, None);
        // Mountains either side: the cheapest way to the mine is straight along row 5.
        for (x, y) in [(6, 4), (7, 4), (6, 6), (7, 6)] {
            a.paint(x, y, "mountain", None, None);
        }
        // On it, two cells off, Blue's voltigeurs hide in fields: Red does not see them.
        let mut blue = a.blue.clone();
        let hid = a.raise(&mut blue, "voltigeurs", "Caches");
        a.put(hid, 7, 5);
        a.paint(7, 5, "fields", None, None);
        a.turn(grognard::db::now());
        // The figures a move writes: its AP and its random stream.
        let ap = || {
            a.app.count(&format!(
                "SELECT CAST(ap AS BIGINT) AS n FROM companies WHERE id = {}",
                mine[0]
            ))
        };
        let rng = || {
            a.app.count(&format!(
                "SELECT rng_pos AS n FROM companies WHERE id = {}",
                mine[0]
            ))
        };
        let (before, stream) = (ap(), rng());
        let played = a.bots_play();
        assert!(played.refused >= 1, "{played:?}");
        assert_eq!(a.position(mine[0]), (5, 5), "the refused move moved it");
        assert_eq!(ap(), before, "the refused move spent AP");
        assert_eq!(rng(), stream);
        assert_eq!(a.position(hid), (7, 5));
        // The next company's orders went on in the same pass.
        assert_eq!(a.position(mine[1]), (13, 2));
        assert_eq!(a.cell_owner(13, 2), a.nation("Red"));
        assert_eq!(a.cell_owner(8, 5), 0);
    }
);

both!(
    a_bots_move_that_fails_after_writing_is_undone_and_the_chunk_goes_on,
    |b| {
        // A move that fails in the database after it wrote the company (here the mine's
        // capture, failed on purpose) must leave nothing of it, and cost that order alone: the
        // chunk goes on with the next company.
        let a = arena(b);
        let (bot, mine) = a.red_bot_infantry_at([(6, 5), (12, 2)]);
        a.paint(8, 5, "mine", None, None);
        a.paint(13, 2, "mine", None, None);
        match b {
            Backend::Sqlite => a.exec(
                "CREATE TRIGGER refuse_mine BEFORE UPDATE OF owner_id ON cells \
                 WHEN NEW.x = 8 AND NEW.y = 5 BEGIN SELECT RAISE(ABORT, 'refused on purpose'); END",
            ),
            Backend::Postgres => {
                a.exec(
                    "CREATE FUNCTION refuse_mine() RETURNS trigger AS $$ \
                     BEGIN RAISE EXCEPTION 'refused on purpose'; END $$ LANGUAGE plpgsql",
                );
                a.exec(
                    "CREATE TRIGGER refuse_mine BEFORE UPDATE OF owner_id ON cells FOR EACH ROW \
                     WHEN (NEW.x = 8 AND NEW.y = 5) EXECUTE FUNCTION refuse_mine()",
                );
            }
        }
        a.turn(grognard::db::now());
        // Nothing raised this turn: only the two companies act.
        a.exec("UPDATE nations SET treasury = 0 WHERE name = 'Red'");
        let moves = a.events_by("move", &bot);
        let played = a.bots_play();
        assert_eq!(played.raised, 0, "{played:?}");
        assert!(played.refused >= 1, "{played:?}");
        assert_eq!(a.position(mine[0]), (6, 5), "the failed move was kept");
        assert_eq!(a.cell_owner(8, 5), 0);
        assert_eq!(
            a.position(mine[1]),
            (13, 2),
            "the next company's orders were lost"
        );
        assert_eq!(a.cell_owner(13, 2), a.nation("Red"));
        assert_eq!(played.orders, 1, "{played:?}");
        assert_eq!(
            a.events_by("move", &bot),
            moves + 1,
            "one move event, the kept one's"
        );
    }
);

both!(
    a_bot_fires_where_the_dice_favour_it_and_never_at_what_its_nation_cannot_see,
    |b| {
        let a = arena(b);
        let bot = a.seat_bot("Red", "normal");
        a.bots_play();
        let mine = a.companies_of(&bot);
        a.set(mine[0], "kind = 'infantry', men = 200, x = 5, y = 5");
        a.set(mine[1], "kind = 'infantry', men = 200, x = 15, y = 0");
        let mut blue = a.blue.clone();
        let hid = a.raise(&mut blue, "voltigeurs", "Caches");
        a.put(hid, 7, 5);
        // Voltigeurs in fields are seen from one cell only (docs/rules.md §5): two cells off,
        // Red does not see them, and its bot neither fires at them nor heads for them.
        a.paint(7, 5, "fields", None, None);
        let unseen = a
            .blue
            .clone()
            .get_json(&format!("/api/v1/companies/{hid}"))
            .json();
        assert_eq!(unseen["men"], 120);
        a.turn(grognard::db::now());
        a.bots_play();
        assert_eq!(a.events_by("volley", &bot) + a.events_by("melee", &bot), 0);
        assert_eq!(
            a.position(mine[0]),
            (5, 5),
            "it headed for a company it cannot see"
        );
        // In the open the same voltigeurs are seen, and the line fires: 200 men against 120 with
        // no protection, nothing shot back.
        a.paint(7, 5, "plain", None, None);
        a.turn(grognard::db::now() + 10);
        a.bots_play();
        assert!(a.events_by("volley", &bot) >= 1);
        let men = a.app.count(&format!(
            "SELECT CAST(COALESCE(SUM(men), 0) AS BIGINT) AS n FROM companies WHERE id = {hid}"
        ));
        assert!(men < 120, "the volleys hit: {men}");
    }
);

both!(
    a_bot_rams_an_enemy_gate_and_climbs_its_wall_by_ladder,
    |b| {
        let a = arena(b);
        let bot = a.seat_bot("Red", "normal");
        a.bots_play();
        let mine = a.companies_of(&bot);
        // Blue's wall along x = 8 with its gate at (8, 5).
        for y in 3..=7 {
            a.paint(8, y, "wall", Some("Blue"), Some(20));
        }
        a.paint(8, 5, "gate", Some("Blue"), Some(20));
        a.set(mine[0], "kind = 'infantry', men = 200, x = 9, y = 5");
        a.set(mine[1], "kind = 'voltigeurs', men = 120, x = 9, y = 3");
        a.turn(grognard::db::now());
        a.bots_play();
        assert!(a.events_by("ram", &bot) >= 1, "the infantry rams the gate");
        let gate = a.app.count(&format!(
        "SELECT CAST(structure AS BIGINT) AS n FROM cells WHERE world_id = {} AND x = 8 AND y = 5",
        a.world
    ));
        assert!(gate < 20, "the gate lost structure: {gate}");
        // The voltigeurs climbed the wall next to them by ladder, which takes it.
        assert_eq!(a.position(mine[1]), (8, 3));
        assert_eq!(a.cell_owner(8, 3), a.nation("Red"));
    }
);

both!(removing_a_bot_stops_its_orders, |b| {
    let a = arena(b);
    a.paint(0, 9, "mine", None, None);
    let bot = a.seat_bot("Red", "normal");
    a.bots_play();
    let mut gm = gm_api(&a.app, "bot_remover");
    let r = gm.json(
        "DELETE",
        &format!("/api/v1/worlds/{}/bots/{bot}", a.world),
        None,
    );
    assert_eq!(r.status, 204, "{}", r.body);
    a.turn(grognard::db::now());
    let before = a.events_by("move", &bot);
    assert_eq!(a.bots_play().bots, 0);
    assert_eq!(a.events_by("move", &bot), before);
    // Its companies stay in the world, its player's.
    assert_eq!(a.companies_of(&bot).len(), 2);
});

both!(
    the_demo_worlds_bot_raises_and_moves_from_the_first_turns,
    |b| {
        let app = TestApp::spawn(b);
        let world = grognard::ids::WorldId(1);
        let seated = grognard::game::bots::seat_demo(&mut app.conn(), world)
            .unwrap()
            .unwrap();
        assert_eq!(
            (seated.nation.as_str(), seated.name.as_str()),
            ("Russia", "Russia-bot")
        );
        bots_and_turns(&app, world, 3);
        let moved = app.count(
            "SELECT COUNT(*) FROM events e JOIN users u ON u.id = e.actor_user_id \
         WHERE e.world_id = 1 AND e.kind = 'move' AND u.username = 'Russia-bot' AND e.turn <= 2",
        );
        assert!(moved >= 2, "the demo's bot moved {moved} times by turn 3");
        let page = app.client().get("/worlds/1");
        assert!(page.body.contains("Russia is played by the computer."));
        let fr = app
            .client()
            .get_with("/worlds/1", &[("Accept-Language", "fr")]);
        assert!(fr.body.contains("Russie est jouée par l"), "{}", fr.body);
    }
);

both!(
    an_absent_players_companies_are_held_by_the_bot_and_given_back_on_return,
    |b| {
        let a = arena(b);
        a.seat_bot("Red", "normal");
        let mut red = a.red.clone();
        let garde = a.raise(&mut red, "infantry", "Garde");
        a.set(garde, "men = 80, wounded = 60, x = 10, y = 5");
        a.paint(5, 5, "mine", None, None);
        // The opt-in, through the account page's form.
        let mut web = player(&a.app, "red_web");
        let csrf = web.get("/account").csrf();
        let r = web.post_form("/account/away", &[("csrf", &csrf), ("hand", "maybe")]);
        assert_eq!(r.status, 422, "{}", r.body);
        let r = web.post_form("/account/away", &[("csrf", &csrf), ("hand", "on")]);
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(
            a.app
                .count("SELECT COUNT(*) FROM users WHERE username = 'red_web' AND hand_to_bot"),
            1
        );
        a.exec("UPDATE users SET hand_to_bot = TRUE WHERE username = 'red_player'");
        let start = grognard::db::now();
        // Four turns without an order (`[bots] away_turns`): Red's player is away.
        // Red's player joined long before these four turns, and gave no order in them.
        a.exec(&format!(
            "UPDATE players SET joined_at = {} WHERE user_id = (SELECT id FROM users WHERE username = 'red_player')",
            start - 1000
        ));
        for t in 0..4 {
            a.turn(start - 10 + t);
        }
        a.set(garde, "men = 80, wounded = 60, ap = 24");
        // Someone who joins now has not had four turns to play: not away, whatever their last
        // order.
        let mut late = a.join("red_late", "Red");
        let recrue = a.raise(&mut late, "infantry", "Recrue");
        a.set(recrue, "men = 80, wounded = 60, x = 12, y = 2");
        a.exec("UPDATE users SET hand_to_bot = TRUE WHERE username = 'red_late'");
        // Nor is someone who joined long ago and has just raised a company.
        let mut raiser = a.join("red_raiser", "Red");
        a.exec(&format!(
            "UPDATE players SET joined_at = {} WHERE user_id = (SELECT id FROM users WHERE username = 'red_raiser')",
            start - 1000
        ));
        let fresh = a.raise(&mut raiser, "infantry", "Fraiche");
        a.set(fresh, "men = 80, wounded = 60, x = 12, y = 4");
        a.exec("UPDATE users SET hand_to_bot = TRUE WHERE username = 'red_raiser'");
        a.bots_play();
        assert_eq!(a.events_by("heal", "red_late"), 0, "a newcomer held");
        assert_eq!(a.events_by("heal", "red_raiser"), 0, "held after raising");
        // Held: healed, as the player's own order; kept where it stood, away from the mine.
        let healed = a.events_by("heal", "red_player");
        assert!(healed >= 1);
        assert_eq!(a.position(garde), (10, 5));
        let played = |sql: &str| a.app.count(sql);
        assert_eq!(
        played("SELECT CAST(p.played_turn AS BIGINT) AS n FROM players p JOIN users u ON u.id = p.user_id WHERE u.username = 'red_player'"),
        -1,
        "held orders count no turn as played"
    );
        // Back: the player's first order takes the company back.
        let r = a.act(&mut red, garde, "move", json!({"path": [[10, 6]]}));
        assert_eq!(r.status, 200, "{}", r.body);
        a.turn(start + 10);
        a.set(garde, "men = 80, wounded = 60, ap = 24");
        a.bots_play();
        assert_eq!(
            a.events_by("heal", "red_player"),
            healed,
            "held after the player came back"
        );
        assert_eq!(a.position(garde), (10, 6));
    }
);

both!(bots_play_each_turn_once_with_two_processes, |b| {
    let a = arena(b);
    let bot = a.seat_bot("Red", "normal");
    a.bots_play();
    let mine = a.companies_of(&bot);
    for (i, c) in mine.iter().enumerate() {
        a.set(*c, &format!("x = 15, y = {}, ap = 0", 9 - i as i32));
    }
    for y in [0, 2, 4, 6, 8] {
        a.paint(0, y, "mine", None, None);
    }
    a.turn(grognard::db::now());
    let url = a.app.db.url.clone();
    let env = [
        ("GROGNARD__SCHEDULER__ENABLED", "true"),
        ("GROGNARD__SCHEDULER__TURN", "0 0 0 1 1 *"),
        ("GROGNARD__SCHEDULER__POLL_MS", "50"),
        ("GROGNARD__BOTS__ORDERS_PER_COMPANY", "1"),
        ("GROGNARD__BOTS__CHUNK_MS", "0"),
    ];
    let (p1, p2) = (free_port(), free_port());
    let _one = serve(&url, p1, &env);
    let _two = serve(&url, p2, &env);
    let started = Instant::now();
    while a
        .app
        .count("SELECT COUNT(*) FROM bots WHERE turn = 1 AND done")
        < 1
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the bot never played turn 1"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Time for a second playing to show, had there been one.
    std::thread::sleep(Duration::from_millis(500));
    let companies = a.companies_of(&bot);
    assert_eq!(companies.len(), 3, "one company raised in turn 1, not two");
    for c in companies {
        let orders = a.app.count(&format!(
            "SELECT COUNT(*) FROM events WHERE world_id = {} AND turn = 1 AND company_id = {c} \
             AND kind <> 'raise'",
            a.world
        ));
        assert_eq!(
            orders, 1,
            "company {c} was ordered {orders} times in turn 1"
        );
    }
});

#[test]
fn a_campaign_of_bots_on_borodino_always_ends_and_hard_beats_easy() {
    use grognard::game::bots::simulate::{run, MapSource, Options};
    use grognard::rules::bot::BotLevel;
    let dir = config_dir();
    let config = grognard::config::Config::load(&dir).unwrap();
    let options = Options {
        map: MapSource::File(grognard::game::maps::worlds::DEMO_MAP.to_string()),
        nations: 2,
        turns: 200,
        seed: 1,
        levels: vec![BotLevel::Hard, BotLevel::Easy],
        runs: 20,
        points: None,
    };
    let mut out = Vec::new();
    let endings = run(&config, &options, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(endings.len(), 20);
    for e in &endings {
        assert!(
            ["points", "towns", "last_turn"].contains(&e.reason.as_str()) && e.turn <= 200,
            "{e:?}"
        );
    }
    let hard = endings
        .iter()
        .filter(|e| e.winner.as_deref() == Some("France"))
        .count();
    assert!(hard > 10, "hard France won {hard} of 20:\n{text}");
    assert_eq!(text.matches("result: ").count(), 20);
    assert!(text.lines().last().unwrap().starts_with("runs: 20  wins: "));
    // The same arguments print the same lines.
    let again = Options {
        runs: 2,
        ..options.clone()
    };
    let (mut one, mut two) = (Vec::new(), Vec::new());
    run(&config, &again, &mut one).unwrap();
    run(&config, &again, &mut two).unwrap();
    assert_eq!(one, two);
}

both!(
    orders_given_on_a_board_write_what_the_same_orders_write_one_by_one,
    |b| {
        // A bot's chunk gives its orders on a board (kept in memory, written at its end); the
        // same orders given one by one on the database must leave the very same world: the
        // companies, the events, the scores, the ground. Among them a company moving into the
        // cell another has just left and staying there (written at the end, where the two
        // would meet row by row: the other steps aside first), a capture, a volley and a
        // refused move. The orders are given in two transactions, as two chunks; a board kept
        // from the first to the second goes on only if no one else wrote in between (here,
        // when asked, another connection moves the target between the two).
        use grognard::game::play::access::Actor;
        use grognard::game::play::orders::{Order, Together};
        use grognard::ids::{CompanyId, UserId, WorldId};
        use grognard::rules::Pos;
        let at = grognard::db::now();
        #[derive(Clone, Copy, PartialEq)]
        enum Ground {
            Database,
            Board,
            BoardKept,
        }
        // What the orders left, and how many chunks the second transaction's board had seen.
        let play = |ground: Ground, moved_between: bool| -> (Vec<String>, Option<u32>) {
            let a = arena(b);
            let mut red = a.red.clone();
            let first = a.raise(&mut red, "infantry", "First");
            let second = a.raise(&mut red, "infantry", "Second");
            let mut blue = a.blue.clone();
            let target = a.raise(&mut blue, "infantry", "Target");
            a.put(first, 5, 5);
            a.put(second, 4, 5);
            a.put(target, 8, 5);
            a.paint(6, 6, "mine", None, None);
            a.turn(at);
            // The same dice in both worlds (a turn draws the world's seed anew).
            a.exec(&format!(
                "UPDATE worlds SET rng_seed = 99 WHERE id = {}",
                a.world
            ));
            let user = a
                .app
                .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'red_player'");
            let actor = Actor {
                user_id: UserId(user as i32),
                username: "red_player".into(),
                role: grognard::rules::names::Role::Player,
                held: false,
            };
            let id = |c: i64| CompanyId(c as i32);
            let orders = [
                (first, Order::MovePath(vec![Pos::new(6, 5)])),
                (second, Order::MovePath(vec![Pos::new(5, 5)])),
                (first, Order::MovePath(vec![Pos::new(6, 6)])),
                (second, Order::MovePath(vec![Pos::new(6, 6)])),
                (first, Order::Volley { target: id(target) }),
            ];
            let w = WorldId(a.world as i32);
            // One connection for both chunks, as a bot's turn has.
            let mut conn = a.app.conn();
            let mut out = Vec::new();
            let (mut kept, mut chunks) = (None, None);
            let mut orders = orders.into_iter();
            for (chunk, n) in [3, 2].into_iter().enumerate() {
                if chunk == 1 && moved_between {
                    a.exec(&format!("UPDATE companies SET y = 6 WHERE id = {target}"));
                }
                let part: Vec<_> = orders.by_ref().take(n).collect();
                let given = grognard::db::write(&mut conn, |c| {
                    let mut t = match ground {
                        Ground::Database => Together::in_world(c, w)?,
                        Ground::Board => Together::on_board(c, w, None)?,
                        Ground::BoardKept => Together::on_board(c, w, kept.take())?,
                    };
                    chunks = t.board_chunks();
                    let mut given = Vec::new();
                    for (company, order) in part {
                        let g = t.give_apart(c, &a.app.config, &actor, id(company), order);
                        given.push(format!(
                            "{:?}",
                            g.map(|g| (
                                g.company.map(|c| (c.x, c.y, c.ap, c.men, c.rng_pos)),
                                g.hidden,
                                g.summary
                            ))
                        ));
                    }
                    kept = t.finish_keeping(c)?.1;
                    Ok::<_, grognard::game::error::GameError>(given)
                })
                .unwrap();
                out.extend(given);
            }
            for c in [first, second, target] {
                out.push(a.app.text(&format!(
                    "SELECT x || ',' || y || ',' || men || ',' || wounded || ',' || ap || ',' || \
                     morale || ',' || xp || ',' || volley_recency || ',' || rng_pos AS t \
                     FROM companies WHERE id = {c}"
                )));
            }
            let events = a.app.count(&format!(
                "SELECT COUNT(*) FROM events WHERE world_id = {}",
                a.world
            ));
            for k in 0..events {
                out.push(a.app.text(&format!(
                    "SELECT kind || '|' || COALESCE(company_id, 0) || '|' || \
                     COALESCE(target_company_id, 0) || '|' || COALESCE(other_nation_id, 0) || '|' \
                     || COALESCE(x, 0) || ',' || COALESCE(y, 0) || '|' || summary || '|' || data \
                     AS t FROM events WHERE world_id = {} ORDER BY id LIMIT 1 OFFSET {k}",
                    a.world
                )));
            }
            for k in 0..2 {
                out.push(a.app.text(&format!(
                    "SELECT inflicted || ',' || lost || ',' || captures || ',' || xp || ',' || \
                     turns_played || ',' || played_turn || ',' || first_steps AS t FROM players \
                     WHERE world_id = {} ORDER BY id LIMIT 1 OFFSET {k}",
                    a.world
                )));
            }
            out.push(a.cell_owner(6, 6).to_string());
            out.push(a.nation("Red").to_string());
            (out, chunks)
        };
        let (one_by_one, _) = play(Ground::Database, false);
        assert_eq!(play(Ground::Board, false), (one_by_one.clone(), Some(1)));
        let (kept, chunks) = play(Ground::BoardKept, false);
        assert_eq!(kept, one_by_one);
        // SQLite tells exactly whether another connection wrote; PostgreSQL's mark is whether
        // any other transaction of the cluster took an id meanwhile (the other tests' do).
        if b == Backend::Sqlite {
            assert_eq!(chunks, Some(2), "the board went on into the second chunk");
        }
        let (moved, _) = play(Ground::Database, true);
        assert_ne!(moved, one_by_one, "the target moved between the chunks");
        let (kept, chunks) = play(Ground::BoardKept, true);
        assert_eq!(kept, moved, "the board kept saw the target move");
        assert_eq!(
            chunks,
            Some(1),
            "a write between two chunks drops the board"
        );
        // What both did, by the rules: the two moves, the mine's capture, a move refused (the
        // cell is taken), the volley.
        assert!(one_by_one[0].starts_with("Ok(("), "{}", one_by_one[0]);
        assert!(one_by_one[2].contains("captured"), "{}", one_by_one[2]);
        assert!(one_by_one[3].contains("Occupied"), "{}", one_by_one[3]);
        assert!(one_by_one[4].starts_with("Ok(("), "{}", one_by_one[4]);
        assert!(one_by_one[5].starts_with("6,6,"), "{}", one_by_one[5]);
        assert!(
            one_by_one[6].starts_with("5,5,"),
            "the second ends where the first began"
        );
        let n = one_by_one.len();
        assert_eq!(one_by_one[n - 2], one_by_one[n - 1], "Red took the mine");
        assert!(
            one_by_one.iter().any(|e| e.starts_with("volley|")),
            "{one_by_one:?}"
        );
    }
);

both!(
    a_write_between_two_chunks_is_seen_even_when_it_ends_while_a_chunk_waits_for_its_lock,
    |b| {
        // A bot's board goes on into its next chunk only when no one else wrote in between
        // (`db::quiet`). A chunk takes its transaction id at its first write, then may wait for
        // the world's lock while another transaction writes and ends: that write is seen.
        use grognard::db::quiet;
        let app = TestApp::spawn(b);
        for name in ["first_writer", "second_writer"] {
            grognard::game::accounts::create_user(
                &mut app.conn(),
                name,
                fixtures::PASSWORD,
                grognard::game::accounts::Role::Player,
            )
            .unwrap();
        }
        let touch = |c: &mut grognard::db::DbConnection, name: &str| {
            use diesel::RunQueryDsl;
            diesel::sql_query(format!(
                "UPDATE users SET unread_alerts = unread_alerts + 1 WHERE username = '{name}'"
            ))
            .execute(c)
            .unwrap();
        };
        let (mut ours, mut theirs) = (app.conn(), app.conn());
        // A chunk: its write, then its mark.
        let chunk = |c: &mut grognard::db::DbConnection, between: &mut dyn FnMut()| {
            grognard::db::write(c, |c| {
                touch(c, "first_writer");
                between();
                quiet::mark(c)
            })
            .unwrap()
        };
        let first = chunk(&mut ours, &mut || {});
        if b == Backend::Sqlite {
            // No one wrote: the board may go on.
            let second = chunk(&mut ours, &mut || {});
            assert!(quiet::none_between(first, second));
            // Another connection wrote between the two chunks.
            touch(&mut theirs, "second_writer");
            let third = chunk(&mut ours, &mut || {});
            assert!(!quiet::none_between(second, third));
        } else {
            // Another transaction writes and commits after the chunk's first write, before
            // its mark (SQLite's single writer cannot: it waits for the chunk to end).
            let second = chunk(&mut ours, &mut || touch(&mut theirs, "second_writer"));
            assert!(!quiet::none_between(first, second));
            // And one between two chunks.
            touch(&mut theirs, "second_writer");
            let third = chunk(&mut ours, &mut || {});
            assert!(!quiet::none_between(second, third));
        }
    }
);

both!(
    a_chunk_given_ahead_is_written_only_if_no_one_else_wrote_first,
    |b| {
        // A bot gives each chunk of orders in memory while the chunk before is written, on a
        // connection of its own, in a transaction that first checks that no one else wrote
        // since. Here the bot gives one company a chunk, first with no one else writing, then
        // with a player's account written again and again meanwhile: a chunk that finds such
        // a write is not written, nor the one given after it, and the turn goes on a chunk a
        // transaction from the last one written. Either way every order counted is written
        // once, no company is ordered twice, and each stands where its move ended.
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let (a, companies) = thirty_a_chunk(b);
        let start = grognard::db::now();
        let check = |turn: i64, played: &grognard::game::bots::Played| {
            orders_written_once(&a, &companies, turn, played)
        };
        // No one else writing: every chunk is written as given, after the one before.
        a.turn(start);
        let quiet = a.bots_play();
        let written = check(1, &quiet);
        assert!(
            written >= 20,
            "the bot's companies head for the mines: {quiet:?}"
        );
        // The first chunk in a transaction of its own, the 29 others given ahead, each but the
        // first of them on the board of the one before.
        assert_eq!(
            (quiet.chunks, quiet.kept, quiet.undone),
            (30, 28, 0),
            "{quiet:?}"
        );
        // A player's account written all along.
        let stop = Arc::new(AtomicBool::new(false));
        let writer = {
            let (stop, mut conn) = (stop.clone(), a.app.conn());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    use diesel::RunQueryDsl;
                    diesel::sql_query(
                        "UPDATE users SET unread_alerts = unread_alerts + 1 \
                         WHERE username = 'blue_player'",
                    )
                    .execute(&mut *conn)
                    .unwrap();
                    std::thread::sleep(Duration::from_micros(200));
                }
            })
        };
        let mut undone = 0;
        for turn in 2..=5 {
            for c in &companies {
                a.set(*c, "ap = 12");
            }
            a.turn(start + turn);
            let played = a.bots_play();
            check(turn, &played);
            undone += played.undone;
            if undone > 0 {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
        writer.join().unwrap();
        assert!(undone > 0, "no chunk given ahead met another's write");
    }
);

both!(
    a_bot_goes_ahead_again_after_a_write_that_came_once_its_run_had_gone_on,
    |b| {
        // Someone else's write between two chunks given ahead ends the run: its last chunks
        // are given again, the next in a transaction of its own. A write that came once the
        // run had gone on for a while does not leave the rest of the turn to a chunk a
        // transaction: the bot goes ahead again. Here one player's write comes once the bot
        // has ordered its ninth company of 30, a company a chunk.
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let (a, companies) = thirty_a_chunk(b);
        let ninth = companies[8];
        let start = grognard::db::now();
        // Other tests' transactions on the same PostgreSQL cluster count as writes too: the
        // turn is played again (five at most) until the one write came where it is meant to.
        let mut again = None;
        for turn in 1..=5 {
            for c in &companies {
                a.set(*c, "ap = 12");
            }
            a.turn(start + turn);
            let stop = Arc::new(AtomicBool::new(false));
            let writer = {
                let (stop, mut conn) = (stop.clone(), a.app.conn());
                std::thread::spawn(move || {
                    use diesel::RunQueryDsl;
                    let past = format!(
                        "EXISTS (SELECT 1 FROM bots WHERE turn = {turn} \
                         AND last_company >= {ninth} AND NOT done)"
                    );
                    while !stop.load(Ordering::Relaxed) {
                        let now: bool =
                            diesel::select(diesel::dsl::sql::<diesel::sql_types::Bool>(&past))
                                .get_result(&mut *conn)
                                .unwrap();
                        if now {
                            diesel::sql_query(
                                "UPDATE users SET unread_alerts = unread_alerts + 1 \
                                 WHERE username = 'blue_player'",
                            )
                            .execute(&mut *conn)
                            .unwrap();
                            return true;
                        }
                        std::thread::sleep(Duration::from_micros(100));
                    }
                    false
                })
            };
            let played = a.bots_play();
            stop.store(true, Ordering::Relaxed);
            let wrote = writer.join().unwrap();
            orders_written_once(&a, &companies, turn, &played);
            // Every run's first chunk, and the chunk in a transaction before each run, start
            // on a board of their own; every other chunk goes on on the board of the one before
            // (a chunk a transaction to the end would have started 20 boards more).
            let went_on = played.chunks - played.kept <= 2 * played.ahead;
            if wrote && played.undone > 0 && played.ahead >= 2 && went_on {
                again = Some(played);
                break;
            }
        }
        // SQLite's test of someone else's write looks at this database's file alone: the one
        // write is the only one. PostgreSQL's looks at the whole cluster, which the other tests
        // may keep busy for five turns: then only each turn's orders, each written once, are
        // checked there.
        assert!(
            again.is_some() || b != Backend::Sqlite,
            "the bot did not go ahead again"
        );
    }
);

/// A bot's 30 companies, given one a chunk and one order each, east of 30 free mines: the
/// arena and the companies, in id order.
fn thirty_a_chunk(b: Backend) -> (Arena, Vec<i64>) {
    let a = arena_with(b, |s| {
        s.bots.chunk_ms = 0;
        s.bots.orders_per_company = 1;
        s.bots.raise_per_turn = 0;
    });
    let bot = bot_with_companies(&a, 30, |i| (8 + i % 8, i / 8 * 2));
    for y in 0..10 {
        for x in [0, 2, 4] {
            a.paint(x, y, "mine", None, None);
        }
    }
    let companies = a.companies_of(&bot);
    assert_eq!(companies.len(), 30);
    (a, companies)
}

/// A `normal` bot seated in Red with `n` infantry companies of its own, the i-th named `c{i}`
/// and standing at `at(i)`, fresh (100 men, 12 AP): the bot's name.
fn bot_with_companies(a: &Arena, n: i32, at: impl Fn(i32) -> (i32, i32)) -> String {
    let w = a.world;
    let bot = a.seat_bot("Red", "normal");
    let player = a.app.count(&format!(
        "SELECT CAST(p.id AS BIGINT) AS n FROM players p JOIN users u ON u.id = p.user_id \
         WHERE u.username = '{bot}'"
    ));
    let rows: Vec<String> = (0..n)
        .map(|i| {
            let (x, y) = at(i);
            format!("({w}, {player}, 'c{i}', 'infantry', {x}, {y}, 100, 0, 12, 5, 0, 0, 0)")
        })
        .collect();
    a.exec(&format!(
        "INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, \
         morale, xp, volley_recency, created_at) VALUES {}",
        rows.join(", ")
    ));
    bot
}

/// The field with Red's bot of 300 companies (one order each a turn, none raised) on ten rows
/// of thirty, and 160 free mines west of them: more than a chunk's companies.
fn bot_of_300_and_160_mines(b: Backend) -> (Arena, String) {
    let a = field_with(b, |s| {
        s.bots.orders_per_company = 1;
        s.bots.raise_per_turn = 0;
    });
    let bot = bot_with_companies(&a, 300, |i| (10 + i % 30, i / 30 * 2));
    for y in 0..20 {
        for x in 0..8 {
            a.paint(x, y, "mine", None, None);
        }
    }
    (a, bot)
}

/// Checks that each order the bot counted in `turn` was written once: no company of
/// `companies` ordered twice, each standing where its move ended. The orders written.
fn orders_written_once(
    a: &Arena,
    companies: &[i64],
    turn: i64,
    played: &grognard::game::bots::Played,
) -> i64 {
    let w = a.world;
    let mut written = 0;
    for c in companies {
        let orders = a.app.count(&format!(
            "SELECT COUNT(*) FROM events WHERE world_id = {w} AND turn = {turn} \
             AND company_id = {c}"
        ));
        assert!(
            orders <= 1,
            "company {c} ordered {orders} times in turn {turn}"
        );
        written += orders;
        let moved = a.app.count(&format!(
            "SELECT COUNT(*) FROM events WHERE world_id = {w} AND turn = {turn} \
             AND company_id = {c} AND kind = 'move'"
        ));
        if orders == 1 && moved == 1 {
            let data = a.app.text(&format!(
                "SELECT data AS t FROM events WHERE world_id = {w} AND turn = {turn} \
                 AND company_id = {c}"
            ));
            let data: serde_json::Value = serde_json::from_str(&data).unwrap();
            let last = data["steps"].as_array().unwrap().last().unwrap().clone();
            let end = (
                last["x"].as_i64().unwrap() as i32,
                last["y"].as_i64().unwrap() as i32,
            );
            assert_eq!(a.position(*c), end, "company {c} in turn {turn}");
        }
    }
    assert_eq!(
        played.orders as i64, written,
        "orders counted and written in turn {turn}: {played:?}"
    );
    written
}

both!(
    a_bot_of_more_than_a_chunk_of_companies_gives_them_all_ahead,
    |b| {
        // A bot with more companies than a chunk reads (256) gives its chunks ahead from its
        // first: each written after the one before on its board, the first two of a few
        // orders (their writes not measured yet), none undone when no one else writes. And
        // each order counted is written once.
        let (a, bot) = bot_of_300_and_160_mines(b);
        let w = a.world;
        let companies = a.companies_of(&bot);
        assert_eq!(companies.len(), 300);
        // Other tests' transactions on the same PostgreSQL cluster count as writes between
        // two chunks: the turn is played again, from the same start, until one is played
        // with no one else writing (five at most; see the end).
        let start = grognard::db::now();
        let mut all_ahead = None;
        for turn in 1..=5 {
            if turn > 1 {
                // Every company back where it began (off the map first: no two on a cell),
                // the mines free again.
                a.exec(&format!(
                    "UPDATE companies SET x = -1 - id WHERE world_id = {w}"
                ));
                a.exec(&format!(
                    "UPDATE companies SET x = 10 + CAST(substr(name, 2) AS INTEGER) % 30, \
                     y = CAST(substr(name, 2) AS INTEGER) / 30 * 2, ap = 12 \
                     WHERE world_id = {w}"
                ));
                a.exec(&format!(
                    "UPDATE cells SET owner_id = NULL WHERE world_id = {w} AND terrain = 'mine'"
                ));
            }
            a.turn(start + turn);
            let played = a.bots_play();
            let written = orders_written_once(&a, &companies, turn, &played);
            assert!(
                written >= 150,
                "the bot's companies head for the 160 mines: {played:?}"
            );
            // At least the two first chunks of 64 orders at most, and the rest: every chunk
            // on the board of the one before but the first, none given twice.
            if played.undone == 0 && played.kept + 1 == played.chunks {
                all_ahead = Some(played);
                break;
            }
        }
        // SQLite's test of someone else's write looks at this database's file alone, so the
        // first turn is undisturbed; PostgreSQL's looks at the whole cluster, which the other
        // tests share and may keep busy for five turns: then only each turn's orders, each
        // written once, are checked there.
        match all_ahead {
            Some(played) => assert!(played.chunks >= 3, "{played:?}"),
            None => assert!(b != Backend::Sqlite, "a turn with no one else writing"),
        }
    }
);

both!(
    a_bots_chunks_wait_while_the_worlds_orders_are_held_off,
    |b| {
        // Each chunk a bot writes first holds the world's orders off, as a turn's chunk does,
        // and so waits for whoever holds them: none of its orders is written meanwhile.
        let (a, bot) = bot_of_300_and_160_mines(b);
        let w = a.world;
        a.turn(grognard::db::now());
        let given = || {
            a.app.count(&format!(
                "SELECT COUNT(*) FROM events e JOIN users u ON u.id = e.actor_user_id \
                 WHERE e.world_id = {w} AND e.kind <> 'raise' AND u.username = '{bot}'"
            ))
        };
        std::thread::scope(|s| {
            let playing = s.spawn(|| a.bots_play());
            // Once its first chunk is written, the world's orders are held off for a while.
            let t = Instant::now();
            while given() == 0 {
                assert!(t.elapsed() < Duration::from_secs(60), "no chunk written");
                std::thread::sleep(Duration::from_millis(1));
            }
            let mut conn = a.app.conn();
            let (before, after) = grognard::db::write(&mut conn, |c| {
                grognard::game::time::ticks::hold_world_orders(
                    c,
                    grognard::ids::WorldId(w as i32),
                )?;
                let before = given();
                std::thread::sleep(Duration::from_millis(400));
                diesel::QueryResult::Ok((before, given()))
            })
            .unwrap();
            assert_eq!(
                before, after,
                "orders written while the world's were held off"
            );
            let played = playing.join().unwrap();
            assert!(
                before < played.orders as i64,
                "the bot was still giving orders: {before} written then, {played:?}"
            );
            assert_eq!(given(), played.orders as i64, "each order written once");
        });
    }
);
