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
            a.world as i32,
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
        turn(&a, grognard::db::now());
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
        let r =
            scores::rankings(&mut conn, a.world as i32, RankBy::Xp, Some(page), Some(me)).unwrap();
        assert_eq!(
            statements.load(Ordering::SeqCst) - before,
            1,
            "page {page} in one statement"
        );
        assert_eq!((r.players, r.pages, r.page), (1002, pages, page));
        let first = ((page - 1) * PAGE_SIZE) as usize;
        let expected: Vec<(&str, i64)> = everyone
            .iter()
            .enumerate()
            .skip(first)
            .take(PAGE_SIZE as usize)
            .map(|(i, e)| (e.2.as_str(), rank_of(i)))
            .collect();
        let got: Vec<(&str, i64)> = r.rows.iter().map(|r| (r.player.as_str(), r.rank)).collect();
        assert_eq!(got, expected, "page {page}");
        assert_eq!(r.me.as_ref().unwrap().player, "p0777");
    }
    // Without a page: the one that holds the caller's row, still one statement.
    let place = everyone.iter().position(|e| e.0 == me).unwrap() as i64;
    let before = statements.load(Ordering::SeqCst);
    let r = scores::rankings(&mut conn, a.world as i32, RankBy::Xp, None, Some(me)).unwrap();
    assert_eq!(statements.load(Ordering::SeqCst) - before, 1);
    assert_eq!(r.page, place / PAGE_SIZE + 1);
    assert!(r.rows.iter().any(|row| row.player == "p0777"));
    // The same through the API's answer shape.
    let me_row: Value = serde_json::to_value(&r.me).unwrap();
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
