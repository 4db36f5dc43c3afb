//! Every fixture the feature tests share: players logged in through the forms or the API, game
//! masters, the arena world with one player per nation, and the set-up helpers on it.

use super::client::{Client, Resp};
use super::{Backend, TestApp};
use serde_json::{json, Value};

pub const PASSWORD: &str = "correct horse battery";

/// Registers through the form (which also logs in); returns the response to the POST.
pub fn register(c: &mut Client, name: &str, password: &str) -> Resp {
    let form = c.get("/register");
    assert_eq!(form.status, 200);
    let csrf = form.csrf();
    c.post_form(
        "/register",
        &[("csrf", &csrf), ("username", name), ("password", password)],
    )
}

pub fn login(c: &mut Client, name: &str, password: &str) -> Resp {
    let form = c.get("/login");
    let csrf = form.csrf();
    c.post_form(
        "/login",
        &[("csrf", &csrf), ("username", name), ("password", password)],
    )
}

/// A client logged in as a new player.
pub fn player(app: &TestApp, name: &str) -> Client {
    let mut c = app.client();
    let r = register(&mut c, name, PASSWORD);
    assert_eq!(r.status, 303, "{}", r.body);
    c
}

/// The hex demo world (Aspern-Essling), made beside the square one as `serve` makes it.
pub fn hex_demo(app: &TestApp) -> i64 {
    i64::from(
        grognard::game::maps::worlds::ensure_hex_demo(
            &mut app.conn(),
            &app.config.rules,
            grognard::game::maps::worlds::DEMO_HEX_MAP,
        )
        .unwrap()
        .expect("no hex world yet")
        .0,
    )
}

/// A user of the given role, created through the CLI path, logged in.
pub fn user_with_role(app: &TestApp, name: &str, role: grognard::game::accounts::Role) -> Client {
    grognard::game::accounts::create_user(&mut app.conn(), name, PASSWORD, role).unwrap();
    let mut c = app.client();
    assert_eq!(login(&mut c, name, PASSWORD).status, 303);
    c
}

/// An API client with a bearer token for a new player.
pub fn api_player(app: &TestApp, name: &str) -> Client {
    let mut c = app.client();
    assert_eq!(
        c.post_json(
            "/api/v1/users",
            json!({"username": name, "password": PASSWORD})
        )
        .status,
        201
    );
    let t = c.post_json(
        "/api/v1/tokens",
        json!({"username": name, "password": PASSWORD}),
    );
    assert_eq!(t.status, 201, "{}", t.body);
    c.bearer = Some(t.json()["token"].as_str().unwrap().to_string());
    c
}

/// An API client with a bearer token for a new game master.
pub fn gm_api(app: &TestApp, name: &str) -> Client {
    let c = api_player(app, name);
    app.exec(&format!(
        "UPDATE users SET role = 'gm' WHERE username = '{name}'"
    ));
    c
}

/// `turns` turns of `world` as the scheduler gives them: the bots play, then the turn is
/// applied (at instants from now on), its dice seed then set by the test.
pub fn bots_and_turns(app: &TestApp, world: grognard::ids::WorldId, turns: i64) {
    let start = grognard::db::now();
    for turn in 0..turns {
        grognard::game::bots::play_world(&mut app.conn(), &app.config, world).unwrap();
        grognard::game::time::ticks::apply(
            &mut app.conn(),
            &app.config.rules,
            world,
            grognard::game::time::ticks::TickKind::Turn,
            start + turn,
            false,
        )
        .unwrap();
        // The next turn's dice from a seed of the test's, not at random: the same moves each run.
        app.exec(&format!(
            "UPDATE worlds SET rng_seed = {} WHERE id = {}",
            1812 + turn,
            world.0
        ));
    }
}

/// Joins world `w` through the form and raises one company; returns its id.
pub fn join_and_raise(c: &mut Client, w: i64, nation: &str, kind: &str, name: &str) -> i64 {
    let page = c.get(&format!("/worlds/{w}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains(&format!("action=\"/worlds/{w}/join\"")));
    let csrf = page.csrf();
    assert_eq!(
        c.post_form(
            &format!("/worlds/{w}/join"),
            &[("csrf", &csrf), ("nation", nation)]
        )
        .status,
        303
    );
    let r = c.post_form(
        &format!("/worlds/{w}/companies"),
        &[("csrf", &csrf), ("kind", kind), ("name", name)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let loc = r.header("location").unwrap().to_string();
    loc.rsplit('=').next().unwrap().parse().unwrap()
}

/// A 16×10 plain world with nations Blue (spawn 0,0) and Red (spawn 15,9), two towns with no
/// cells (Red's Village and the unowned Hamlet: half the towns, short of a campaign's end), and
/// one API player in each.
pub struct Arena {
    pub app: TestApp,
    pub world: i64,
    pub blue: Client,
    pub red: Client,
}

pub const ARENA: &str = r##"{"name": "Arena", "width": 16, "height": 10, "season": "summer", "rng_seed": 99,
  "nations": [{"name": "Blue", "color": "#0000ff", "spawn": [0, 0], "treasury": 1000},
              {"name": "Red", "color": "#ff0000", "spawn": [15, 9], "treasury": 1000}],
  "towns": [{"name": "Village", "owner": "Red"}, {"name": "Hamlet", "owner": null}],
  "cells": []}"##;

pub fn arena(b: Backend) -> Arena {
    arena_with(b, |_| {})
}

/// The arena on a server whose settings `tweak` changes.
pub fn arena_with(b: Backend, tweak: impl FnOnce(&mut grognard::config::Settings)) -> Arena {
    arena_on(TestApp::spawn_with(b, tweak, true))
}

/// A field of 40 by 20 cells with the arena's nations and towns: room for hundreds of
/// companies.
pub const FIELD: &str = r##"{"name": "Field", "width": 40, "height": 20, "season": "summer", "rng_seed": 7,
  "nations": [{"name": "Blue", "color": "#0000ff", "spawn": [0, 0], "treasury": 1000},
              {"name": "Red", "color": "#ff0000", "spawn": [39, 19], "treasury": 1000}],
  "towns": [{"name": "Village", "owner": "Red"}, {"name": "Hamlet", "owner": null}],
  "cells": []}"##;

/// The field on a server whose settings `tweak` changes, its players joined as the arena's.
pub fn field_with(b: Backend, tweak: impl FnOnce(&mut grognard::config::Settings)) -> Arena {
    arena_of(TestApp::spawn_with(b, tweak, true), FIELD)
}

/// The arena on a server already running.
pub fn arena_on(app: TestApp) -> Arena {
    arena_of(app, ARENA)
}

/// The world of `map` on a server already running, a player joined to each of its nations
/// Blue and Red.
fn arena_of(app: TestApp, map: &str) -> Arena {
    let world =
        grognard::game::maps::worlds::import_text(&mut app.conn(), &app.config.rules, map, None)
            .unwrap()
            .0 as i64;
    let mut blue = api_player(&app, "blue_player");
    let mut red = api_player(&app, "red_player");
    assert_eq!(
        blue.post_json(
            &format!("/api/v1/worlds/{world}/join"),
            json!({"nation": "Blue"})
        )
        .status,
        201
    );
    assert_eq!(
        red.post_json(
            &format!("/api/v1/worlds/{world}/join"),
            json!({"nation": "Red"})
        )
        .status,
        201
    );
    Arena {
        app,
        world,
        blue,
        red,
    }
}

impl Arena {
    pub fn exec(&self, sql: &str) {
        self.app.exec(sql)
    }

    pub fn nation(&self, name: &str) -> i64 {
        self.app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = {} AND name = '{name}'",
            self.world
        ))
    }

    /// Another API player, joined to `nation`.
    pub fn join(&self, name: &str, nation: &str) -> Client {
        let mut c = api_player(&self.app, name);
        let r = c.post_json(
            &format!("/api/v1/worlds/{}/join", self.world),
            json!({ "nation": nation }),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        c
    }

    /// Writes a message through the API (`to`: a player's name, `nation` or `world`).
    pub fn say(&self, who: &mut Client, to: &str, body: &str) -> Resp {
        who.post_json(
            &format!("/api/v1/worlds/{}/messages", self.world),
            json!({ "to": to, "body": body }),
        )
    }

    /// The bodies of the messages a player reads through the API, oldest first.
    pub fn heard(&self, who: &mut Client) -> Vec<String> {
        let r = who.get_json(&format!("/api/v1/worlds/{}/messages", self.world));
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["body"].as_str().unwrap().to_string())
            .collect()
    }

    /// Drops a marker through the API.
    pub fn mark(&self, who: &mut Client, x: i32, y: i32, label: &str) -> Resp {
        who.post_json(
            &format!("/api/v1/worlds/{}/markers", self.world),
            json!({ "at": [x, y], "label": label }),
        )
    }

    /// The labels of the markers a player's nation sees through the API.
    pub fn markers(&self, who: &mut Client) -> Vec<String> {
        let r = who.get_json(&format!("/api/v1/worlds/{}/markers", self.world));
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()["markers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["label"].as_str().unwrap().to_string())
            .collect()
    }

    /// Row counts of what talking writes: messages, reports, blocks, markers, alerts.
    pub fn talk_rows(&self) -> Vec<i64> {
        ["messages", "message_reports", "blocks", "markers", "alerts"]
            .iter()
            .map(|t| self.app.count(&format!("SELECT COUNT(*) FROM {t}")))
            .collect()
    }

    /// `players.first_steps` of a user in the arena's world: the first day's steps done.
    pub fn first_steps(&self, user: &str) -> i64 {
        self.app.count(&format!(
            "SELECT CAST(p.first_steps AS BIGINT) AS n FROM players p JOIN users u ON u.id = p.user_id \
             WHERE p.world_id = {} AND u.username = '{user}'",
            self.world
        ))
    }

    /// Raises a company through the API and returns its id.
    pub fn raise(&self, who: &mut Client, kind: &str, name: &str) -> i64 {
        let r = who.post_json(
            &format!("/api/v1/worlds/{}/companies", self.world),
            json!({"kind": kind, "name": name}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["id"].as_i64().unwrap()
    }

    /// Blue's "Ligne" at (5, 5) and Red's "Feinde" at (7, 5), in volley range of each other:
    /// the players' clients and the two companies.
    pub fn facing(&self) -> (Client, Client, i64, i64) {
        let mut blue = self.blue.clone();
        let mut red = self.red.clone();
        let inf = self.raise(&mut blue, "infantry", "Ligne");
        let foe = self.raise(&mut red, "infantry", "Feinde");
        self.put(inf, 5, 5);
        self.put(foe, 7, 5);
        (blue, red, inf, foe)
    }

    /// Applies the arena's turn of instant `at` (as the scheduler does).
    pub fn turn(&self, at: i64) {
        let rs = self.app.config.rules.clone();
        assert!(
            grognard::game::time::ticks::apply(
                &mut self.app.conn(),
                &rs,
                grognard::ids::WorldId(self.world as i32),
                grognard::game::time::ticks::TickKind::Turn,
                at,
                false,
            )
            .unwrap()
            .applied
        );
    }

    /// The instant of the arena's first scheduled turn.
    pub fn first_turn_at(&self) -> i64 {
        let anchor = self.app.count(&format!(
            "SELECT schedule_anchor AS n FROM worlds WHERE id = {}",
            self.world
        ));
        grognard::game::time::clock::next_due(&self.app.config.turn_schedule, None, anchor)
            .expect("a turn scheduled")
    }

    /// Seats a bot in `nation` through the API, as a game master; returns its name.
    pub fn seat_bot(&self, nation: &str, level: &str) -> String {
        let mut gm = gm_api(&self.app, "bot_keeper");
        let r = gm.post_json(
            &format!("/api/v1/worlds/{}/bots", self.world),
            json!({"nation": nation, "level": level}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["name"].as_str().unwrap().to_string()
    }

    /// Red's `normal` bot seated and its first turn played (two companies raised), the two
    /// made infantry and put on `at`: the bot's name and its companies, oldest first.
    pub fn red_bot_infantry_at(&self, at: [(i32, i32); 2]) -> (String, Vec<i64>) {
        let bot = self.seat_bot("Red", "normal");
        self.bots_play();
        let mine = self.companies_of(&bot);
        for (id, (x, y)) in mine.iter().zip(at) {
            self.set(*id, &format!("kind = 'infantry', x = {x}, y = {y}"));
        }
        (bot, mine)
    }

    /// Lets the bots of the arena's world play its turn, as the scheduler does after one.
    pub fn bots_play(&self) -> grognard::game::bots::Played {
        grognard::game::bots::play_world(
            &mut self.app.conn(),
            &self.app.config,
            grognard::ids::WorldId(self.world as i32),
        )
        .unwrap()
    }

    /// The events of `kind` in the arena's world given by the account `user`.
    pub fn events_by(&self, kind: &str, user: &str) -> i64 {
        self.app.count(&format!(
            "SELECT COUNT(*) FROM events e JOIN users u ON u.id = e.actor_user_id \
             WHERE e.world_id = {} AND e.kind = '{kind}' AND u.username = '{user}'",
            self.world
        ))
    }

    /// The ids of the companies of the account `user` in the arena's world, oldest first.
    pub fn companies_of(&self, user: &str) -> Vec<i64> {
        let n = self.app.count(&format!(
            "SELECT COUNT(*) FROM companies c JOIN players p ON p.id = c.player_id \
             JOIN users u ON u.id = p.user_id WHERE c.world_id = {} AND u.username = '{user}'",
            self.world
        ));
        (0..n)
            .map(|i| {
                self.app.count(&format!(
                    "SELECT CAST(c.id AS BIGINT) AS n FROM companies c JOIN players p ON p.id = c.player_id \
                     JOIN users u ON u.id = p.user_id WHERE c.world_id = {} AND u.username = '{user}' \
                     ORDER BY c.id LIMIT 1 OFFSET {i}",
                    self.world
                ))
            })
            .collect()
    }

    /// Puts a company on a cell (test set-up, straight in the database).
    pub fn put(&self, company: i64, x: i32, y: i32) {
        self.exec(&format!(
            "UPDATE companies SET x = {x}, y = {y} WHERE id = {company}"
        ));
    }

    pub fn set(&self, company: i64, assignments: &str) {
        self.exec(&format!(
            "UPDATE companies SET {assignments} WHERE id = {company}"
        ));
    }

    /// Paints a cell (test set-up).
    pub fn paint(
        &self,
        x: i32,
        y: i32,
        terrain: &str,
        owner: Option<&str>,
        structure: Option<i32>,
    ) {
        let owner = owner.map_or("NULL".to_string(), |n| self.nation(n).to_string());
        let structure = structure.map_or("NULL".to_string(), |s| s.to_string());
        self.exec(&format!(
            "UPDATE cells SET terrain = '{terrain}', owner_id = {owner}, structure = {structure} WHERE world_id = {} AND x = {x} AND y = {y}",
            self.world
        ));
    }

    pub fn company(&self, who: &mut Client, id: i64) -> Value {
        let r = who.get_json(&format!("/api/v1/companies/{id}"));
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    }

    pub fn act(&self, who: &mut Client, id: i64, action: &str, body: Value) -> Resp {
        who.post_json(&format!("/api/v1/companies/{id}/{action}"), body)
    }

    /// Where a company stands.
    pub fn position(&self, company: i64) -> (i32, i32) {
        let at = |c: &str| {
            self.app.count(&format!(
                "SELECT CAST({c} AS BIGINT) AS n FROM companies WHERE id = {company}"
            )) as i32
        };
        (at("x"), at("y"))
    }

    pub fn cell_owner(&self, x: i32, y: i32) -> i64 {
        self.app.count(&format!(
            "SELECT CAST(COALESCE(owner_id, 0) AS BIGINT) AS n FROM cells WHERE world_id = {} AND x = {x} AND y = {y}",
            self.world
        ))
    }

    /// A fingerprint of everything an order could change.
    pub fn state(&self) -> Vec<i64> {
        let w = self.world;
        [
            format!("SELECT CAST(COALESCE(SUM(x * 1000 + y * 10 + ap + men * 7 + wounded * 13 + morale * 17 + xp * 19), 0) AS BIGINT) AS n FROM companies WHERE world_id = {w}"),
            format!("SELECT COUNT(*) FROM companies WHERE world_id = {w}"),
            format!("SELECT CAST(COALESCE(SUM(COALESCE(owner_id, 0) * 31 + COALESCE(structure, 0) * 7 + LENGTH(terrain)), 0) AS BIGINT) AS n FROM cells WHERE world_id = {w}"),
            format!("SELECT CAST(SUM(treasury) AS BIGINT) AS n FROM nations WHERE world_id = {w}"),
            format!("SELECT CAST(SUM(reserve) AS BIGINT) AS n FROM players WHERE world_id = {w}"),
            format!("SELECT COUNT(*) FROM events WHERE world_id = {w}"),
        ]
        .iter()
        .map(|q| self.app.count(q))
        .collect()
    }

    /// Sends an order that must be refused with `code`, and checks nothing changed.
    pub fn refused(
        &self,
        who: &mut Client,
        id: i64,
        action: &str,
        body: Value,
        code: &str,
    ) -> Value {
        let before = self.state();
        let r = self.act(who, id, action, body.clone());
        assert!(
            r.status >= 400 && r.status < 500,
            "{action} {body}: status {} {}",
            r.status,
            r.body
        );
        assert_eq!(r.code(), code, "{action} {body}: {}", r.body);
        assert!(!r.json()["error"]["message"]
            .as_str()
            .unwrap_or("")
            .is_empty());
        assert_eq!(self.state(), before, "{action} {body} changed something");
        r.json()
    }
}

/// A world of 100×60 with one player of one nation commanding 5,000 infantry without AP (a
/// turn gives each 6, in chunks of at most 2,048); returns the world's id.
pub fn wide_world(app: &TestApp) -> i32 {
    let map = r##"{"name": "Wide", "width": 100, "height": 60, "season": "summer", "rng_seed": 5,
      "nations": [{"name": "Blue", "color": "#0000ff", "spawn": [0, 0], "treasury": 0}],
      "cells": []}"##;
    let world =
        grognard::game::maps::worlds::import_text(&mut app.conn(), &app.config.rules, map, None)
            .unwrap();
    app.exec("INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES ('wide', 'wide', 'x', 'player', FALSE, 0)");
    app.exec(&format!("INSERT INTO players (world_id, user_id, nation_id, reserve, joined_at) \
         SELECT {world}, u.id, n.id, 0, 0 FROM users u, nations n WHERE u.username = 'wide' AND n.world_id = {world}"));
    app.exec(&format!("INSERT INTO companies (world_id, player_id, name, kind, x, y, men, wounded, ap, morale, xp, volley_recency, created_at) \
         WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999) \
         SELECT {world}, p.id, 'c' || i, 'infantry', i % 100, i / 100, 100, 0, 0, 10, 0, 0, 0 FROM n, players p WHERE p.world_id = {world}"));
    world.0
}

/// The map's layout a page carries for its scripts (`#map-layout`).
pub fn page_layout(body: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"map-layout\">";
    let start = body.find(open).expect("the page carries the map's layout") + open.len();
    let end = start + body[start..].find("</script>").unwrap();
    serde_json::from_str(&body[start..end]).unwrap()
}
