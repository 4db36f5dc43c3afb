//! What the server keeps in memory never goes stale: the world's cells follow every change to
//! them, whoever makes it, and companies read column by column or by range agree.

use crate::both;
use crate::support::fixtures::*;
use serde_json::{json, Value};

fn map_cell(map: &Value, x: i64, y: i64) -> Value {
    map["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["x"] == x && c["y"] == y)
        .cloned()
        .unwrap_or_else(|| panic!("no cell ({x}, {y}) in {map}"))
}

both!(the_map_follows_every_change_to_the_cells, |b| {
    let mut a = arena(b);
    let id = a.raise(&mut a.blue.clone(), "infantry", "Watchers");
    a.put(id, 2, 2);
    let url = format!("/api/v1/worlds/{}/map?x0=0&y0=0&x1=15&y1=9", a.world);
    let before = a.blue.get_json(&url).json();
    assert_eq!(map_cell(&before, 5, 5)["terrain"], "plain");
    // A change made outside the server (straight in the database) shows at once.
    a.paint(5, 5, "forest", None, None);
    let after = a.blue.get_json(&url).json();
    assert_eq!(map_cell(&after, 5, 5)["terrain"], "forest");
    // A capture by an order: the mine's owner changes in the same request's answer and after.
    a.paint(3, 2, "mine", Some("Red"), None);
    let owned = a.blue.get_json(&url).json();
    assert_eq!(map_cell(&owned, 3, 2)["owner"], "Red");
    let r = a.act(&mut a.blue.clone(), id, "move", json!({"path": [[3, 2]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    let captured = a.blue.get_json(&url).json();
    assert_eq!(map_cell(&captured, 3, 2)["owner"], "Blue");
    // The engine reads the same copy: an enemy fort put in the way now stops a move.
    a.paint(4, 2, "fort", Some("Red"), Some(15));
    let r = a.act(&mut a.blue.clone(), id, "move", json!({"path": [[4, 2]]}));
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["error"]["code"], "enemy_fort");
});

both!(companies_are_read_column_by_column_or_by_range_alike, |b| {
    let a = arena(b);
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let spots = [(0, 0), (3, 4), (4, 4), (7, 9), (15, 2)];
    for (i, (x, y)) in spots.iter().enumerate() {
        let who = if i % 2 == 0 { &mut blue } else { &mut red };
        let id = a.raise(who, "infantry", &format!("C{i}"));
        a.put(id, *x, *y);
    }
    let blue_nation = a.app.count(&format!(
        "SELECT CAST(nation_id AS BIGINT) AS n FROM players WHERE world_id = {} AND user_id = \
             (SELECT id FROM users WHERE username = 'blue_player')",
        a.world
    )) as i32;
    let blue_nation = grognard::ids::NationId(blue_nation);
    // PostgreSQL reads by range either way; SQLite seeks each column in a world at least 8
    // times as tall as the rectangle (a height of 0 never is).
    let read = |rect, eyes, by_column: bool| {
        let mut ids: Vec<i32> = grognard::game::play::load::companies_around(
            &mut a.app.conn(),
            grognard::ids::WorldId(a.world as i32),
            if by_column { 1_000_000 } else { 0 },
            rect,
            eyes,
        )
        .unwrap()
        .iter()
        .map(|p| p.company.id.0)
        .collect();
        ids.sort();
        ids
    };
    for (rect, eyes, expected) in [
        ((3, 4, 4, 4), None, 2),
        ((0, 0, 15, 9), None, 5),
        ((4, 3, 8, 9), None, 2),
        // Red's company inside, and Blue's at (4, 4) within 3 cells of it; not Blue's at (0, 0).
        ((5, 5, 9, 9), Some((blue_nation, 3)), 2),
        ((14, 0, 15, 9), None, 1),
        ((9, 9, 8, 9), None, 0),
    ] {
        let by_range = read(rect, eyes, false);
        assert_eq!(by_range.len(), expected, "{rect:?}");
        assert_eq!(read(rect, eyes, true), by_range, "{rect:?}");
    }
});

both!(
    the_cells_kept_in_memory_are_brought_up_to_date_cell_by_cell,
    |b| {
        use grognard::game::{maps::cells, maps::worlds};
        use grognard::rules::Pos;
        use rand::{Rng, SeedableRng};
        let a = arena(b);
        let w = a.world as i32;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        let mut conn = a.app.conn();
        let world = worlds::get(&mut conn, grognard::ids::WorldId(w)).unwrap();
        cells::of(&mut conn, &world).unwrap();
        let terrains = ["plain", "forest", "mine", "farm", "marsh", "mountain"];
        for round in 0..40 {
            // One to four cells in one statement, or two statements in one transaction.
            let n = rng.random_range(1..=4);
            let picked: Vec<String> = (0..n)
                .map(|_| {
                    format!(
                        "(x = {} AND y = {})",
                        rng.random_range(0..16),
                        rng.random_range(0..10)
                    )
                })
                .collect();
            let terrain = terrains[rng.random_range(0..terrains.len())];
            let owner = match rng.random_range(0..3) {
                0 => "NULL".to_string(),
                1 => a.nation("Blue").to_string(),
                _ => a.nation("Red").to_string(),
            };
            let sql = format!(
                "UPDATE cells SET terrain = '{terrain}', owner_id = {owner} WHERE world_id = {w} AND ({})",
                picked.join(" OR ")
            );
            if round % 5 == 0 {
                let more = format!(
                    "UPDATE cells SET structure = {round} WHERE world_id = {w} AND x = 0 AND y = 0"
                );
                grognard::db::write(&mut conn, |c| -> diesel::QueryResult<()> {
                    use diesel::RunQueryDsl;
                    diesel::sql_query(&sql).execute(c)?;
                    diesel::sql_query(&more).execute(c)?;
                    Ok(())
                })
                .unwrap();
            } else {
                a.exec(&sql);
            }
            let world = worlds::get(&mut conn, grognard::ids::WorldId(w)).unwrap();
            let kept = cells::of(&mut conn, &world).unwrap();
            let rows = cells::all_cells(&mut conn, grognard::ids::WorldId(w)).unwrap();
            assert_eq!(rows.len(), 16 * 10);
            for r in &rows {
                assert_eq!(
                    kept.get(Pos::new(r.x, r.y)),
                    Some(&r.cell()),
                    "round {round}, cell ({}, {})",
                    r.x,
                    r.y
                );
            }
        }
        // Every changed cell carries the version its change moved the world to: the last one
        // the world's own.
        assert_eq!(
            a.app.count(&format!(
                "SELECT MAX(version) AS n FROM cells WHERE world_id = {w}"
            )),
            a.app.count(&format!(
                "SELECT cells_version AS n FROM worlds WHERE id = {w}"
            ))
        );
    }
);

both!(
    the_cells_changed_since_a_version_are_read_by_their_own_index,
    |b| {
        use grognard::game::maps::cells::cells_changed_since;
        let a = arena(b);
        let version = |a: &Arena| {
            a.app.count(&format!(
                "SELECT cells_version AS n FROM worlds WHERE id = {}",
                a.world
            ))
        };
        let before = version(&a);
        a.paint(5, 5, "forest", None, None);
        a.paint(3, 2, "mine", Some("Red"), None);
        let between = version(&a);
        a.paint(7, 1, "forest", None, None);
        let mut conn = a.app.conn();
        let world = grognard::ids::WorldId(a.world as i32);
        let at = |rows: Vec<grognard::db::models::CellRow>| {
            let mut at: Vec<(i32, i32)> = rows.iter().map(|r| (r.x, r.y)).collect();
            at.sort();
            at
        };
        assert_eq!(
            at(cells_changed_since(&mut conn, world, before).unwrap()),
            [(3, 2), (5, 5), (7, 1)]
        );
        assert_eq!(
            at(cells_changed_since(&mut conn, world, between).unwrap()),
            [(7, 1)]
        );
        // The index holds only changed cells (a version above 0): the query has to say it needs
        // no others for either database to take it, which a scan of the world's cells, a million
        // on a large map, would replace.
        let statements = crate::support::recording(&mut conn);
        cells_changed_since(&mut conn, world, before).unwrap();
        let logged = statements.lock().unwrap().last().cloned().unwrap();
        let plan = match &mut *conn {
            grognard::db::DbConnection::Sqlite(_) => crate::support::plan_of(&mut conn, &logged),
            grognard::db::DbConnection::Postgres(c) => {
                use diesel::RunQueryDsl;
                // A plan for the values bound could take the index either way; on so small a
                // world a scan would be cheaper, which the helper rules out.
                diesel::sql_query("ANALYZE cells").execute(c).unwrap();
                crate::support::generic_plan_of(c, &logged, &format!("{}, {before}", a.world))
            }
        };
        assert!(plan.contains("cells_by_version"), "{plan}");
        if b == crate::support::Backend::Sqlite {
            // On SQLite the index holds every column read: the rows themselves are not.
            assert!(plan.contains("COVERING INDEX"), "{plan}");
        }
    }
);
