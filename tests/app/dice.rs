//! Dice: each company draws from its own stream, and a turn's seed is committed before it is
//! revealed, so that its battles can be replayed from the reports.

use crate::both;
use crate::support::fixtures::*;
use serde_json::{json, Value};

both!(each_company_draws_dice_from_its_own_stream, |b| {
    let a = arena(b);
    let one = a.raise(&mut a.blue.clone(), "infantry", "First");
    let two = a.raise(&mut a.blue.clone(), "infantry", "Second");
    a.put(one, 2, 2);
    a.put(two, 6, 6);
    let world_pos = |a: &crate::support::Arena| {
        a.app.count(&format!(
            "SELECT rng_word_pos AS n FROM worlds WHERE id = {}",
            a.world
        ))
    };
    let start = world_pos(&a);
    let rng_of = |event_id: &Value| -> Value {
        let data = a.app.text(&format!(
            "SELECT data AS t FROM events WHERE id = {}",
            event_id.as_i64().unwrap()
        ));
        serde_json::from_str::<Value>(&data).unwrap()["rng"].clone()
    };
    let m1 = a.act(&mut a.blue.clone(), one, "move", json!({"path": [[3, 2]]}));
    let m2 = a.act(&mut a.blue.clone(), one, "move", json!({"path": [[4, 2]]}));
    let m3 = a.act(&mut a.blue.clone(), two, "move", json!({"path": [[7, 6]]}));
    for m in [&m1, &m2, &m3] {
        assert_eq!(m.status, 200, "{}", m.body);
    }
    let (r1, r2, r3) = (
        rng_of(&m1.json()["event_id"]),
        rng_of(&m2.json()["event_id"]),
        rng_of(&m3.json()["event_id"]),
    );
    assert_eq!(r1, json!({"stream": one, "word_pos": 0}));
    assert_eq!(r2, json!({"stream": one, "word_pos": 1024}));
    assert_eq!(r3, json!({"stream": two, "word_pos": 0}));
    // No order writes the world's row any more, and the seed is not published.
    assert_eq!(world_pos(&a), start);
    assert!(r1.get("seed").is_none());
});

both!(
    a_turns_seed_is_committed_then_revealed_and_replays_its_battles,
    |b| {
        use grognard::rules::dice::{Dice, Roll};
        use rand::SeedableRng;
        let mut a = arena(b);
        let shooter = a.raise(&mut a.blue.clone(), "infantry", "Tirailleurs");
        let target = a.raise(&mut a.red.clone(), "infantry", "Semenovsky");
        a.put(shooter, 5, 5);
        a.put(target, 7, 5);
        let world = a
            .blue
            .get_json(&format!("/api/v1/worlds/{}", a.world))
            .json();
        let committed = world["dice"]["commitment"].as_str().unwrap().to_string();
        assert_eq!(world["dice"]["turn"], 0);
        assert_eq!(committed.len(), 64);
        let r = a.act(
            &mut a.blue.clone(),
            shooter,
            "volley",
            json!({"target": target}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let report = r.json()["report"].clone();
        // While the turn runs its seed stays secret.
        let url = format!("/api/v1/worlds/{}/dice/0", a.world);
        assert_eq!(a.blue.get_json(&url).status, 404);
        grognard::game::time::ticks::apply(
            &mut a.app.conn(),
            &a.app.config.rules,
            grognard::ids::WorldId(a.world as i32),
            grognard::game::time::ticks::TickKind::Turn,
            grognard::db::now(),
            false,
        )
        .unwrap();
        let seed = a.blue.get_json(&url).json();
        assert_eq!(
            seed["commitment"],
            committed.as_str(),
            "the revealed seed is the committed one"
        );
        let next = a
            .blue
            .get_json(&format!("/api/v1/worlds/{}", a.world))
            .json();
        assert_eq!(next["dice"]["turn"], 1);
        assert_ne!(next["dice"]["commitment"], committed.as_str());
        // Anyone can now replay the volley's draws from the seed, the stream and the position.
        let mut rng =
            rand_chacha::ChaCha20Rng::seed_from_u64(seed["seed"].as_i64().unwrap() as u64);
        rng.set_stream(report["rng"]["stream"].as_u64().unwrap());
        rng.set_word_pos(report["rng"]["word_pos"].as_u64().unwrap() as u128);
        let mut dice = Dice::new(rng);
        let draws = report["draws"].as_array().unwrap();
        assert!(!draws.is_empty());
        for d in draws {
            let replayed = dice.roll(
                d["label"].as_str().unwrap(),
                d["min"].as_i64().unwrap() as i32,
                d["max"].as_i64().unwrap() as i32,
            );
            assert_eq!(i64::from(replayed), d["value"].as_i64().unwrap(), "{d}");
        }
    }
);
