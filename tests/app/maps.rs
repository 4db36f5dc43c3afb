//! Map files and the database they land in: migrations, import and export round trips, and every
//! import refusal naming its entry, through the library and the CLI, on both databases.

use crate::both;
use crate::support::{cli, db::TestDb, Backend};
use grognard::game::maps::mapfile::MAX_PLACE_NAME;
use serde_json::Value;

fn counts(url: &str) -> (i64, i64, i64) {
    let pool = grognard::db::open_pool(url, 1, 5000).unwrap();
    let mut conn = pool.get().unwrap();
    let c = |conn: &mut grognard::db::DbConnection, t: &str| {
        crate::support::db::count(conn, &format!("SELECT COUNT(*) FROM {t}"))
    };
    (
        c(&mut conn, "worlds"),
        c(&mut conn, "nations"),
        c(&mut conn, "cells"),
    )
}

both!(migrations_run_twice_are_a_no_op, |b| {
    let db = TestDb::new(b);
    let (code, out, err) = cli(&db.url, &["migrate"], "");
    assert_eq!(code, 0, "{err}");
    let folder = match b {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let migrations = std::fs::read_dir(format!(
        "{}/migrations/{folder}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .count();
    assert!(
        out.starts_with(&migrations.to_string()),
        "first run applies every migration ({migrations}): {out}"
    );
    let (code, out, err) = cli(&db.url, &["migrate"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with('0'), "second run applies nothing: {out}");
    assert_eq!(counts(&db.url), (0, 0, 0));
});

both!(export_then_import_gives_the_same_map_back, |b| {
    let db = TestDb::new(b);
    let (code, out, err) = cli(&db.url, &["world", "demo"], "");
    assert_eq!((code, out.trim()), (0, "1"), "{err}");
    let (code, first, err) = cli(&db.url, &["world", "export", "1"], "");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = cli(&db.url, &["world", "import", "-"], &first);
    assert_eq!((code, out.trim()), (0, "2"), "{err}");
    let (code, second, _) = cli(&db.url, &["world", "export", "2"], "");
    assert_eq!(code, 0);
    let (a, b): (Value, Value) = (
        serde_json::from_str(&first).unwrap(),
        serde_json::from_str(&second).unwrap(),
    );
    assert_eq!(a, b);
    assert_eq!(a["width"], 40);
    assert_eq!(a["nations"].as_array().unwrap().len(), 2);
    assert_eq!(counts(&db.url), (2, 4, 2 * 40 * 30));
    // A new name can be given on import.
    let (code, _, _) = cli(
        &db.url,
        &["world", "import", "-", "--name", "Austerlitz"],
        &first,
    );
    assert_eq!(code, 0);
    let (_, third, _) = cli(&db.url, &["world", "export", "3"], "");
    assert_eq!(
        serde_json::from_str::<Value>(&third).unwrap()["name"],
        "Austerlitz"
    );
});

both!(
    every_import_refusal_names_the_entry_and_writes_nothing,
    |b| {
        let db = TestDb::new(b);
        assert_eq!(cli(&db.url, &["world", "demo"], "").0, 0);
        let demo: Value = serde_json::from_str(grognard::game::maps::worlds::DEMO_MAP).unwrap();
        let before = counts(&db.url);
        type Change = Box<dyn Fn(&mut Value)>;
        let cases: Vec<(&str, Change)> = vec![
            (
                "unknown terrain `lava`",
                Box::new(|m| m["cells"][5]["terrain"] = "lava".into()),
            ),
            (
                "outside the 40×30 map",
                Box::new(|m| m["cells"][7]["x"] = 40.into()),
            ),
            (
                "duplicate cell",
                Box::new(|m| {
                    let c = m["cells"][0].clone();
                    m["cells"].as_array_mut().unwrap().push(c);
                }),
            ),
            (
                "unknown nation `Prussia`",
                Box::new(|m| m["towns"][0]["owner"] = "Prussia".into()),
            ),
            (
                "unknown town `Atlantis`",
                Box::new(|m| m["cells"][9]["town"] = "Atlantis".into()),
            ),
            (
                "a town needs a name of 1 to 40 characters",
                Box::new(|m| m["towns"][0]["name"] = "x".repeat(MAX_PLACE_NAME + 1).into()),
            ),
            (
                "a nation needs a name of 1 to 40 characters",
                Box::new(|m| m["nations"][0]["name"] = " ".into()),
            ),
            (
                "bad colour",
                Box::new(|m| m["nations"][1]["color"] = "green".into()),
            ),
            (
                "missing spawn",
                Box::new(|m| {
                    m["nations"][0].as_object_mut().unwrap().remove("spawn");
                }),
            ),
            (
                "line 1",
                Box::new(|m| *m = Value::String("not a map".into())),
            ),
        ];
        for (expect, change) in cases {
            let mut m = demo.clone();
            change(&mut m);
            let (code, _, err) = cli(&db.url, &["world", "import", "-"], &m.to_string());
            assert_ne!(code, 0, "{expect}: accepted");
            assert!(err.contains(expect), "{expect}: {err}");
            assert_eq!(counts(&db.url), before, "{expect}: something was written");
        }
        // The entry is named by its index and coordinates.
        let mut m = demo.clone();
        m["cells"][5]["terrain"] = "lava".into();
        let (_, _, err) = cli(&db.url, &["world", "import", "-"], &m.to_string());
        assert!(err.contains("cells[5]"), "{err}");
    }
);

// What the keys hold: an event names a world there is, a cell a nation there is (on
// PostgreSQL checked once a statement by triggers, on SQLite by its foreign keys).
both!(an_event_needs_its_world_and_a_cell_its_owner, |b| {
    let db = TestDb::new(b);
    let (code, _, err) = cli(&db.url, &["world", "demo"], "");
    assert_eq!(code, 0, "{err}");
    let pool = grognard::db::open_pool(&db.url, 1, 5000).unwrap();
    let mut conn = pool.get().unwrap();
    use diesel::connection::SimpleConnection;
    let mut refused = |sql: &str| conn.batch_execute(sql).is_err();
    let event = |world: i64| format!("({world}, 0, 0, 'move', 'checked')");
    let insert = "INSERT INTO events (world_id, turn, at, kind, summary) VALUES ";
    // A world that is not there, alone or among others: the statement writes nothing.
    assert!(refused(&format!("{insert}{}", event(999))));
    assert!(refused(&format!("{insert}{}, {}", event(1), event(999))));
    assert!(!refused(&format!("{insert}{}, {}", event(1), event(1))));
    assert!(refused(
        "UPDATE events SET world_id = 999 WHERE summary = 'checked'"
    ));
    // A nation of its own, owning nothing yet.
    assert!(!refused(
        "INSERT INTO nations (world_id, name, color, spawn_x, spawn_y) \
         VALUES (1, 'Prussia', '#333333', 0, 0)"
    ));
    let cell = "world_id = 1 AND x = 0 AND y = 0";
    assert!(refused(&format!(
        "UPDATE cells SET owner_id = 999 WHERE {cell}"
    )));
    assert!(!refused(&format!(
        "UPDATE cells SET owner_id = (SELECT id FROM nations WHERE name = 'Prussia') WHERE {cell}"
    )));
    // A nation that owns ground stays; once it owns none it may go.
    assert!(refused("DELETE FROM nations WHERE name = 'Prussia'"));
    assert!(!refused(&format!(
        "UPDATE cells SET owner_id = NULL WHERE {cell}"
    )));
    assert!(!refused("DELETE FROM nations WHERE name = 'Prussia'"));
    // A world's events go with it.
    assert!(!refused(&format!(
        "{insert}{}; DELETE FROM worlds WHERE id = 1",
        event(1)
    )));
    let n = |conn: &mut grognard::db::DbConnection, sql: &str| crate::support::db::count(conn, sql);
    assert_eq!(n(&mut conn, "SELECT COUNT(*) FROM events"), 0);
    assert_eq!(n(&mut conn, "SELECT COUNT(*) FROM cells"), 0);
    assert_eq!(
        n(
            &mut conn,
            "SELECT COUNT(*) FROM events WHERE world_id = 999"
        ),
        0
    );
    assert_eq!(
        n(&mut conn, "SELECT COUNT(*) FROM cells WHERE owner_id = 999"),
        0
    );
    assert_eq!(
        n(
            &mut conn,
            "SELECT COUNT(*) FROM nations WHERE name = 'Prussia'"
        ),
        0
    );
});

// The world's cells kept in memory: brought up to date after a capture (in place when no one
// holds them, else as a copy), while a copy read before the capture stays as it was read.
both!(
    kept_cells_follow_captures_and_a_copy_held_stays_as_read,
    |b| {
        use grognard::game::maps::{cells, worlds};
        use grognard::ids::WorldId;
        use grognard::rules::Pos;
        let db = TestDb::new(b);
        let (code, _, err) = cli(&db.url, &["world", "demo"], "");
        assert_eq!(code, 0, "{err}");
        let pool = grognard::db::open_pool(&db.url, 1, 5000).unwrap();
        let mut conn = pool.get().unwrap();
        let nation = crate::support::db::count(
            &mut conn,
            "SELECT CAST(MIN(id) AS BIGINT) AS n FROM nations",
        ) as i32;
        let read = |conn: &mut grognard::db::DbConnection| {
            let w = worlds::get(conn, WorldId(1)).unwrap();
            cells::of(conn, &w).unwrap()
        };
        let take = |conn: &mut grognard::db::DbConnection, x: i32| {
            crate::support::db::exec(
                conn,
                &format!(
                    "UPDATE cells SET owner_id = {} WHERE world_id = 1 AND x = {x} AND y = 0",
                    nation
                ),
            )
        };
        let owner = |c: &cells::WorldCells, x: i32| c.get(Pos::new(x, 0)).and_then(|c| c.owner);
        let first = read(&mut conn);
        assert_eq!((owner(&first, 0), owner(&first, 1)), (None, None));
        take(&mut conn, 0);
        let second = read(&mut conn);
        assert_eq!(owner(&second, 0), Some(nation));
        assert_eq!(owner(&first, 0), None, "a copy held stays as it was read");
        drop((first, second));
        take(&mut conn, 1);
        let third = read(&mut conn);
        assert_eq!(
            (owner(&third, 0), owner(&third, 1)),
            (Some(nation), Some(nation))
        );
        // Read again with nothing changed: the same.
        let again = read(&mut conn);
        assert_eq!(
            (owner(&again, 0), owner(&again, 1)),
            (Some(nation), Some(nation))
        );
    }
);
