//! The players' scores and the rankings (docs/rules.md §11): kept by each order in its own
//! transaction (men put out of action, men lost, captures, experience, turns played), ranked
//! by any of them or by the nation's points, a page of 1,000 players in one statement, the
//! caller's own row and the page that holds it, and bad requests refused.

use crate::both;
use crate::support::fixtures::{arena, Arena};
use crate::support::Backend;
use grognard::game::campaign::scores::{self, RankBy, PAGE_SIZE};
use grognard::game::time::ticks::{self, TickKind};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;

/// A player's scores, read from its row: inflicted, lost, captures, xp, turns played.
fn scores_of(a: &Arena, user: &str) -> [i64; 5] {
    let col = |c: &str| {
        a.app.count(&format!(
            "SELECT CAST(p.{c} AS BIGINT) AS n FROM players p JOIN users u ON u.id = p.user_id \
             WHERE p.world_id = {} AND u.username = '{user}'",
            a.world
        ))
    };
    [
        col("inflicted"),
        col("lost"),
        col("captures"),
        col("xp"),
        col("turns_played"),
    ]
}

fn turn(a: &Arena, at: i64) {
    let rs = a.app.config.rules.clone();
    assert!(
        ticks::apply(
            &mut a.app.conn(),
            &rs,
            grognard::ids::WorldId(a.world as i32),
            TickKind::Turn,
            at,
            false
        )
        .unwrap()
        .applied
    );
}

both!(the_orders_keep_both_sides_scores_as_the_reports_tell, |b| {
    let a = arena(b);
    let (mut blue, mut red, shooter, target) = a.facing();
    assert_eq!(scores_of(&a, "blue_player"), [0, 0, 0, 0, 0]);
    // A volley: the shooter's player put the target's losses out of action.
    let r = a.act(&mut blue, shooter, "volley", json!({"target": target}));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json()["report"].clone();
    let (hit, xp) = (
        v["defender"]["losses"].as_i64().unwrap(),
        v["attacker"]["xp_gained"].as_i64().unwrap(),
    );
    assert!(hit > 0 && xp > 0, "{v}");
    assert_eq!(scores_of(&a, "blue_player"), [hit, 0, 0, xp, 1]);
    assert_eq!(scores_of(&a, "red_player"), [0, hit, 0, 0, 0]);
    // A second order in the same turn counts no second turn played.
    let r = a.act(&mut blue, shooter, "volley", json!({"target": target}));
    assert_eq!(r.status, 200, "{}", r.body);
    let v2 = r.json()["report"].clone();
    let hit2 = v2["defender"]["losses"].as_i64().unwrap();
    let xp2 = v2["attacker"]["xp_gained"].as_i64().unwrap();
    assert_eq!(
        scores_of(&a, "blue_player"),
        [hit + hit2, 0, 0, xp + xp2, 1]
    );
    // A melee strikes both ways: each side's losses are the other's inflicted.
    a.put(target, 6, 5);
    turn(&a, grognard::db::now());
    let r = a.act(&mut red, target, "melee", json!({"target": shooter}));
    assert_eq!(r.status, 200, "{}", r.body);
    let m = r.json()["report"].clone();
    let (red_hit, red_lost) = (
        m["defender"]["losses"].as_i64().unwrap(),
        m["attacker"]["losses"].as_i64().unwrap(),
    );
    let (red_xp, blue_xp) = (
        m["attacker"]["xp_gained"].as_i64().unwrap(),
        m["defender"]["xp_gained"].as_i64().unwrap(),
    );
    assert_eq!(
        scores_of(&a, "red_player"),
        [red_hit, hit + hit2 + red_lost, 0, red_xp, 1]
    );
    assert_eq!(
        scores_of(&a, "blue_player"),
        [hit + hit2 + red_lost, red_hit, 0, xp + xp2 + blue_xp, 1]
    );
    // A move that takes a mine and a town counts two captures; in a new turn, a turn more.
    a.put(shooter, 1, 1);
    a.paint(2, 1, "mine", Some("Red"), None);
    let village = a.app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM towns WHERE world_id = {} AND name = 'Village'",
        a.world
    ));
    a.paint(3, 1, "church", Some("Red"), None);
    a.exec(&format!(
        "UPDATE cells SET town_id = {village} WHERE world_id = {} AND x = 3 AND y = 1",
        a.world
    ));
    let before = scores_of(&a, "blue_player");
    let r = a.act(
        &mut blue,
        shooter,
        "move",
        json!({"path": [[2, 1], [3, 1]]}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json()["captures"].as_array().unwrap().len(),
        2,
        "{}",
        r.body
    );
    let after = scores_of(&a, "blue_player");
    assert_eq!(after[2], before[2] + 2);
    assert_eq!(after[4], 2, "a second turn in which Blue gave an order");
    // A refused order changes no score.
    let before = (scores_of(&a, "blue_player"), scores_of(&a, "red_player"));
    a.refused(
        &mut blue,
        shooter,
        "move",
        json!({"path": [[9, 9]]}),
        "not_adjacent",
    );
    assert_eq!(
        (scores_of(&a, "blue_player"), scores_of(&a, "red_player")),
        before
    );
});

both!(
    the_rankings_sort_by_each_score_with_the_callers_row_and_page,
    |b| {
        let a = arena(b);
        let (mut blue, _red, shooter, target) = a.facing();
        let r = a.act(&mut blue, shooter, "volley", json!({"target": target}));
        assert_eq!(r.status, 200, "{}", r.body);
        // The rankings are the turn's: the volley shows once it is applied.
        turn(&a, grognard::db::now());
        let w = format!("/api/v1/worlds/{}/rankings", a.world);
        let r = blue.get_json(&w);
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        assert_eq!(v["by"], "inflicted");
        assert_eq!(
            (v["page"].as_i64(), v["players"].as_i64()),
            (Some(1), Some(2))
        );
        assert_eq!(v["rows"][0]["player"], "blue_player");
        assert_eq!(v["rows"][0]["rank"], 1);
        assert_eq!(v["rows"][1]["player"], "red_player");
        assert_eq!(v["me"]["player"], "blue_player");
        // By men lost, Red leads; Red's points put Red first too.
        let lost = blue.get_json(&format!("{w}?by=lost")).json();
        assert_eq!(lost["rows"][0]["player"], "red_player");
        assert_eq!(lost["me"]["rank"], 2);
        let mut red = a.red.clone();
        let pts = red.get_json(&format!("{w}?by=points")).json();
        assert_eq!(pts["rows"][0]["player"], "red_player");
        assert_eq!(pts["rows"][0]["points"], 3, "Red's Village after one turn");
        assert_eq!(pts["me"]["player"], "red_player");
        // Level on a score, level in rank.
        let caps = red.get_json(&format!("{w}?by=captures")).json();
        assert_eq!(caps["rows"][0]["rank"], 1);
        assert_eq!(caps["rows"][1]["rank"], 1);
        // Bad requests: clear refusals; a page past the last is empty.
        for (q, code) in [
            ("?by=gold", "invalid"),
            ("?by=", "invalid"),
            ("?page=0", "invalid"),
            ("?page=-3", "invalid"),
            ("?page=99999999999999999999999", "invalid"),
            ("?page=1000001", "invalid"),
            ("?page=abc", "invalid"),
            ("?sort=xp", "invalid"),
        ] {
            let r = blue.get_json(&format!("{w}{q}"));
            assert_eq!(r.status, 422, "{q}: {}", r.body);
            assert_eq!(r.code(), code, "{q}");
        }
        let far = blue.get_json(&format!("{w}?page=50")).json();
        assert_eq!(far["rows"], json!([]));
        assert_eq!(
            (far["players"].as_i64(), far["pages"].as_i64()),
            (Some(2), Some(1))
        );
        assert_eq!(far["me"]["player"], "blue_player");
        // No such world: 404; no credentials: 401.
        assert_eq!(blue.get_json("/api/v1/worlds/999999/rankings").status, 404);
        assert_eq!(a.app.client().get_json(&w).status, 401);
    }
);

/// The rankings as `who` reads them through the API, `by` one score.
fn ranked(a: &Arena, who: &mut crate::support::client::Client, by: &str) -> Value {
    let r = who.get_json(&format!("/api/v1/worlds/{}/rankings?by={by}", a.world));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// The row of `player` in a ranking's answer.
fn row_of(v: &Value, player: &str) -> Value {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == player)
        .unwrap_or_else(|| panic!("no {player} in {v}"))
        .clone()
}

both!(an_order_in_the_fog_moves_no_ranking_until_the_turn, |b| {
    let a = arena(b);
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    // Blue's company at its spawn, far beyond the sight of Red's at the other corner.
    let ligne = a.raise(&mut blue, "infantry", "Ligne");
    a.raise(&mut red, "infantry", "Feinde");
    // Players are ranked from the turn after they join.
    assert_eq!(ranked(&a, &mut red, "turns")["players"], 0);
    let start = grognard::db::now();
    turn(&a, start);
    let bys = ["turns", "inflicted", "lost", "captures", "xp", "points"];
    let before: Vec<Value> = bys.iter().map(|by| ranked(&a, &mut red, by)).collect();
    let own_before = ranked(&a, &mut blue, "turns");
    assert_eq!(row_of(&before[0], "blue_player")["turns"], 0);
    // An order in the fog: Blue's score moves at once, no ranking anyone reads does.
    let r = a.act(&mut blue, ligne, "move", json!({"path": [[1, 0]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(scores_of(&a, "blue_player")[4], 1);
    let after: Vec<Value> = bys.iter().map(|by| ranked(&a, &mut red, by)).collect();
    assert_eq!(after, before, "Red's rankings moved before the turn");
    assert_eq!(ranked(&a, &mut blue, "turns"), own_before);
    let mut anyone = a.app.client();
    let page = |c: &mut crate::support::client::Client| {
        let r = c.get(&format!("/worlds/{}/standings?by=turns", a.world));
        assert_eq!(r.status, 200);
        rankings_table(&r.body)
    };
    let visitor_before = page(&mut anyone);
    assert!(visitor_before.contains("blue_player"), "{visitor_before}");
    // The turn applied, the order shows.
    turn(&a, start + 10);
    let v = ranked(&a, &mut red, "turns");
    assert_eq!(row_of(&v, "blue_player")["turns"], 1, "{v}");
    assert_eq!(v["rows"][0]["player"], "blue_player");
    assert_eq!(
        row_of(&ranked(&a, &mut blue, "turns"), "blue_player")["turns"],
        1
    );
    assert_ne!(page(&mut anyone), visitor_before);
});

/// The rankings' table of the standings page.
fn rankings_table(body: &str) -> String {
    let start = body
        .find("<table class=\"data rankings\">")
        .expect("a rankings table");
    let end = start + body[start..].find("</table>").unwrap();
    body[start..end].to_string()
}

both!(
    a_ranking_tells_a_players_nation_as_the_nations_list_does,
    |b| {
        use crate::support::fixtures::{join_and_raise, player};
        let a = arena(b);
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        let mut blue_two = a.join("blue_two", "Blue");
        // A player of the pages, signed in by cookie, with Red.
        let mut page_red = player(&a.app, "page_red");
        join_and_raise(
            &mut page_red,
            a.world,
            &a.nation("Red").to_string(),
            "infantry",
            "Garde",
        );
        turn(&a, grognard::db::now());
        let w = format!("/api/v1/worlds/{}", a.world);
        // The nations list: members of one's own nation only.
        let nations = red.get_json(&format!("{w}/nations")).json();
        let members = |v: &Value, n: &str| {
            v["nations"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["name"] == n)
                .unwrap()["members"]
                .clone()
        };
        assert_eq!(members(&nations, "Blue"), Value::Null);
        assert_eq!(members(&nations, "Red"), json!(["page_red", "red_player"]));
        // The rankings the same: Red reads no Blue player's nation, nor its points.
        for by in ["inflicted", "points"] {
            let v = ranked(&a, &mut red, by);
            for p in ["blue_player", "blue_two"] {
                let r = row_of(&v, p);
                assert_eq!(
                    (&r["nation"], &r["color"], &r["points"]),
                    (&Value::Null, &Value::Null, &Value::Null),
                    "{by}: {r}"
                );
            }
            assert_eq!(row_of(&v, "red_player")["nation"], "Red");
            assert_eq!(row_of(&v, "red_player")["points"], 3);
            assert_eq!(v["me"]["nation"], "Red");
        }
        // By points a player of another nation has no rank and comes last, in the order they
        // joined: Red's two first, ranked against everyone.
        let v = ranked(&a, &mut blue, "points");
        let order: Vec<(String, Value)> = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["player"].as_str().unwrap().to_string(), r["rank"].clone()))
            .collect();
        assert_eq!(
            order,
            vec![
                ("blue_player".to_string(), json!(3)),
                ("blue_two".to_string(), json!(3)),
                ("red_player".to_string(), Value::Null),
                ("page_red".to_string(), Value::Null),
            ]
        );
        assert_eq!(row_of(&v, "blue_two")["nation"], "Blue");
        let v = ranked(&a, &mut blue_two, "xp");
        assert_eq!(row_of(&v, "red_player")["nation"], Value::Null);
        // A visitor is told no one's nation on the page; a player of Red is told Red's.
        let mut anyone = a.app.client();
        for by in ["inflicted", "points"] {
            let r = anyone.get(&format!("/worlds/{}/standings?by={by}", a.world));
            assert_eq!(r.status, 200);
            let table = rankings_table(&r.body);
            assert!(
                table.contains("blue_two") && table.contains("red_player"),
                "{table}"
            );
            assert!(
                !table.contains("Blue") && !table.contains("Red"),
                "{by}: {table}"
            );
            assert!(
                !table.contains("#0000ff") && !table.contains("#ff0000"),
                "{table}"
            );
            let r = page_red.get(&format!("/worlds/{}/standings?by={by}", a.world));
            let table = rankings_table(&r.body);
            assert!(
                table.contains("Red") && !table.contains("Blue"),
                "{by}: {table}"
            );
        }
    }
);

fn rankings_of_a_thousand(b: Backend) {
    let a = arena(b);
    let (blue, red) = (a.nation("Blue"), a.nation("Red"));
    // 1,000 more players with scores that repeat (ties), straight in the database.
    let users: Vec<String> = (0..1000)
        .map(|i| format!("('p{i:04}', 'p{i:04}', 'x', 'player', FALSE, 0)"))
        .collect();
    a.exec(&format!(
        "INSERT INTO users (username, username_key, password_hash, role, banned, created_at) VALUES {}",
        users.join(",")
    ));
    a.exec(&format!(
        "INSERT INTO players (world_id, user_id, nation_id, reserve, joined_at, first_steps, inflicted, lost, captures, xp, turns_played) \
         SELECT {w}, id, CASE WHEN id % 2 = 0 THEN {blue} ELSE {red} END, 0, 0, 0, \
           (id * 37) % 101, (id * 11) % 53, id % 5, (id * 7) % 89, id % 13 \
         FROM users WHERE username LIKE 'p%'",
        w = a.world
    ));
    // As a turn would have ranked them (the arena's two players with them).
    a.exec(&format!(
        "UPDATE players SET ranked_turn = 1, ranked_inflicted = inflicted, ranked_lost = lost, \
         ranked_captures = captures, ranked_xp = xp, ranked_turns = turns_played WHERE world_id = {}",
        a.world
    ));
    let me: i32 = a
        .app
        .count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'p0777'")
        as i32;
    // What the rankings must say, worked out here from the rows.
    let everyone: Vec<(i32, i64, String)> = {
        let mut conn = a.app.conn();
        #[derive(diesel::QueryableByName)]
        struct Row {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            user_id: i32,
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            xp: i64,
            #[diesel(sql_type = diesel::sql_types::Text)]
            username: String,
        }
        let rows: Vec<Row> = grognard::on_backend!(&mut *conn, c => diesel::RunQueryDsl::load(
            diesel::sql_query(format!(
                "SELECT p.user_id, p.xp, u.username FROM players p JOIN users u ON u.id = p.user_id \
                 WHERE p.world_id = {} ORDER BY p.xp DESC, p.id", a.world)),
            c))
        .unwrap();
        rows.into_iter()
            .map(|r| (r.user_id, r.xp, r.username))
            .collect()
    };
    assert_eq!(everyone.len(), 1002);
    let rank_of = |i: usize| 1 + everyone.iter().filter(|e| e.1 > everyone[i].1).count() as i64;
    let mut conn = a.app.conn();
    let statements = crate::support::counting(&mut conn);
    let pages = (1002 + PAGE_SIZE - 1) / PAGE_SIZE;
    for page in [1, 2, pages / 2, pages] {
        let before = statements.load(Ordering::SeqCst);
        let r = scores::rankings(
            &mut conn,
            grognard::ids::WorldId(a.world as i32),
            RankBy::Xp,
            Some(page),
            Some(grognard::ids::UserId(me)),
        )
        .unwrap();
        assert_eq!(
            statements.load(Ordering::SeqCst) - before,
            1,
            "page {page} in one statement"
        );
        assert_eq!((r.players, r.pages, r.page), (1002, pages, page));
        let first = ((page - 1) * PAGE_SIZE) as usize;
        let expected: Vec<(&str, Option<i64>)> = everyone
            .iter()
            .enumerate()
            .skip(first)
            .take(PAGE_SIZE as usize)
            .map(|(i, e)| (e.2.as_str(), Some(rank_of(i))))
            .collect();
        let got: Vec<(&str, Option<i64>)> =
            r.rows.iter().map(|r| (r.player.as_str(), r.rank)).collect();
        assert_eq!(got, expected, "page {page}");
        assert_eq!(r.me.as_ref().unwrap().player, "p0777");
    }
    // Without a page: the one that holds the caller's row, still one statement.
    let place = everyone.iter().position(|e| e.0 == me).unwrap() as i64;
    let before = statements.load(Ordering::SeqCst);
    let r = scores::rankings(
        &mut conn,
        grognard::ids::WorldId(a.world as i32),
        RankBy::Xp,
        None,
        Some(grognard::ids::UserId(me)),
    )
    .unwrap();
    assert_eq!(statements.load(Ordering::SeqCst) - before, 1);
    assert_eq!(r.page, place / PAGE_SIZE + 1);
    assert!(r.rows.iter().any(|row| row.player == "p0777"));
    // The same through the API's answer shape.
    let me_row: Value =
        serde_json::to_value(grognard::wire::campaign::Rankings::from(&r).me).unwrap();
    assert_eq!(me_row["rank"], rank_of(place as usize));
    assert!(
        me_row.get("user_id").is_none(),
        "no internal ids in the answer"
    );
}

#[test]
fn rankings_of_a_thousand_players_answer_a_page_in_one_statement_sqlite() {
    rankings_of_a_thousand(Backend::Sqlite);
}

#[test]
fn rankings_of_a_thousand_players_answer_a_page_in_one_statement_postgres() {
    rankings_of_a_thousand(Backend::Postgres);
}
