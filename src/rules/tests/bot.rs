//! Bots (docs/rules.md §14): each choice of the evaluator, move by move, on small drawn maps.
//! Nation 1 is the bot's; nation 2 the enemy's (castle walls drawn belong to it).

use super::support::*;
use crate::rules::bot::{choose, kind_to_raise, BotLevel, Choice, Mode, Plan};
use crate::rules::combat::expect;
use crate::rules::state::{Area, Unit};
use crate::rules::{vision, Kind, Pos, Ruleset, Season};
use std::collections::{HashMap, HashSet};

fn plan<'a>(
    rs: &'a Ruleset,
    area: &'a Area,
    level: BotLevel,
    goal: Option<Pos>,
    none: &'a HashSet<i32>,
    struck: &'a HashMap<i32, i32>,
) -> Plan<'a> {
    Plan {
        rs,
        area,
        level,
        mode: Mode::Play,
        goal,
        refuge: None,
        untouchable: none,
        struck,
        keep_ap: 0,
    }
}

fn with(mut a: Area, units: Vec<Unit>) -> Area {
    for u in units {
        a.place(u);
    }
    a
}

#[test]
fn a_company_heads_for_its_goal_by_the_cheapest_way_it_can_pay() {
    let rs = rs();
    let me = Unit {
        ap: 6,
        ..unit(1, 1, Kind::Infantry, 0, 2)
    };
    let a = with(
        map(Season::Summer, &["........", "........", "........"]),
        vec![me.clone()],
    );
    let (none, struck) = (HashSet::new(), HashMap::new());
    let pl = plan(&rs, &a, BotLevel::Normal, Some(p(7, 2)), &none, &struck);
    // Plain costs 1 AP a step (docs/rules.md §4): 6 AP walk six cells, to one from the goal.
    let Some(Choice::Move(path)) = choose(&pl, &me) else {
        panic!("no move")
    };
    assert_eq!(path.len(), 6);
    assert_eq!(path.last().map(|e| e.distance(p(7, 2))), Some(1));
    // On the goal it stays.
    let there = Unit {
        pos: p(7, 2),
        ..me.clone()
    };
    let a = with(
        map(Season::Summer, &["........", "........", "........"]),
        vec![there.clone()],
    );
    let p2 = plan(&rs, &a, BotLevel::Normal, Some(p(7, 2)), &none, &struck);
    assert_eq!(choose(&p2, &there), None);
}

#[test]
fn an_easy_bot_keeps_half_its_points() {
    let rs = rs();
    let me = Unit {
        ap: 6,
        ..unit(1, 1, Kind::Infantry, 0, 0)
    };
    let a = with(map(Season::Summer, &["........"]), vec![me.clone()]);
    let (none, struck) = (HashSet::new(), HashMap::new());
    let mut pl = plan(&rs, &a, BotLevel::Easy, Some(p(7, 0)), &none, &struck);
    pl.keep_ap = 3;
    assert_eq!(
        choose(&pl, &me),
        Some(Choice::Move(vec![p(1, 0), p(2, 0), p(3, 0)]))
    );
}

#[test]
fn it_fires_where_the_dice_favour_it_and_not_where_they_do_not() {
    let rs = rs();
    let me = unit(1, 1, Kind::Infantry, 0, 0);
    let weak = Unit {
        men: 40,
        ..unit(2, 2, Kind::Infantry, 2, 0)
    };
    let a = with(
        map(Season::Summer, &["......"]),
        vec![me.clone(), weak.clone()],
    );
    let (none, struck) = (HashSet::new(), HashMap::new());
    let pl = plan(&rs, &a, BotLevel::Normal, None, &none, &struck);
    let b = expect(&rs, &a, &me, weak.pos, true).expect("in range");
    assert!(b.defender.losses > 0 && b.attacker.losses == 0);
    assert_eq!(choose(&pl, &me), Some(Choice::Volley(weak.pos)));
    // The same enemy on leave may not be attacked: the bot walks on to nothing.
    let leave: HashSet<i32> = [2].into();
    let pl = plan(&rs, &a, BotLevel::Normal, None, &leave, &struck);
    assert_eq!(choose(&pl, &me), None);
}

#[test]
fn it_never_fires_at_a_company_its_nation_cannot_see() {
    let rs = rs();
    // Voltigeurs hidden in fields three cells off: unseen from the plain (docs/rules.md §5).
    let me = unit(1, 1, Kind::Infantry, 0, 0);
    let hid = unit(2, 2, Kind::Voltigeurs, 3, 0);
    let a = with(
        map(Season::Summer, &["...d.."]),
        vec![me.clone(), hid.clone()],
    );
    assert!(!vision::nation_sees(&rs, &a, 1, &hid));
    let seen = vision::as_seen_by(&rs, &a, 1);
    assert!(seen.unit_at(hid.pos).is_none());
    let (none, struck) = (HashSet::new(), HashMap::new());
    let pl = plan(&rs, &a, BotLevel::Hard, None, &none, &struck);
    assert_eq!(choose(&pl, &me), None, "no shot at a hidden company");
}

#[test]
fn an_easy_bot_never_joins_an_attack_and_a_hard_one_finishes_it() {
    let rs = rs();
    let me = unit(1, 1, Kind::Infantry, 0, 0);
    let a1 = unit(2, 2, Kind::Infantry, 2, 0);
    let a2 = Unit {
        men: 150,
        ..unit(3, 2, Kind::Infantry, 0, 2)
    };
    let a = with(
        map(Season::Summer, &["....", "....", "...."]),
        vec![me.clone(), a1.clone(), a2.clone()],
    );
    let none = HashSet::new();
    let struck: HashMap<i32, i32> = [(2, 2)].into();
    let easy = plan(&rs, &a, BotLevel::Easy, None, &none, &struck);
    assert_eq!(choose(&easy, &me), Some(Choice::Volley(a2.pos)));
    let hard = plan(&rs, &a, BotLevel::Hard, None, &none, &struck);
    assert_eq!(choose(&hard, &me), Some(Choice::Volley(a1.pos)));
}

#[test]
fn a_worn_company_heals_or_falls_back_to_its_refuge() {
    let rs = rs();
    let me = Unit {
        men: 80,
        wounded: 60,
        ..unit(1, 1, Kind::Infantry, 2, 0)
    };
    let a = with(map(Season::Summer, &["......"]), vec![me.clone()]);
    let (none, struck) = (HashSet::new(), HashMap::new());
    let pl = plan(&rs, &a, BotLevel::Normal, Some(p(5, 0)), &none, &struck);
    assert_eq!(choose(&pl, &me), Some(Choice::Heal));
    // With a stronger enemy upon it, it falls back towards its town first.
    let foe = unit(2, 2, Kind::Cavalry, 3, 0);
    let a = with(map(Season::Summer, &["......"]), vec![me.clone(), foe]);
    let mut pl = plan(&rs, &a, BotLevel::Normal, Some(p(5, 0)), &none, &struck);
    pl.refuge = Some(p(0, 0));
    assert!(matches!(choose(&pl, &me), Some(Choice::Move(path)) if path[0] == p(1, 0)));
}

#[test]
fn holding_an_absent_players_company_it_heads_for_nothing() {
    let rs = rs();
    let me = unit(1, 1, Kind::Infantry, 0, 0);
    let a = with(map(Season::Summer, &["......"]), vec![me.clone()]);
    let (none, struck) = (HashSet::new(), HashMap::new());
    let mut pl = plan(&rs, &a, BotLevel::Normal, Some(p(5, 0)), &none, &struck);
    pl.mode = Mode::Hold;
    assert_eq!(choose(&pl, &me), None);
}

/// ```text
///   0 1 2 3 4
/// 0 . . . . .
/// 1 . # G # .
/// 2 . # _ # .
/// ```
#[test]
fn it_storms_a_castle_by_ram_ladder_and_tower_instead_of_walking_into_walls() {
    let rs = rs();
    let castle = || map(Season::Summer, &[".....", ".#G#.", ".#_#."]);
    let (none, struck) = (HashSet::new(), HashMap::new());
    let goal = Some(p(2, 2));
    // Infantry before the gate rams it.
    let inf = unit(1, 1, Kind::Infantry, 2, 0);
    let a = with(castle(), vec![inf.clone()]);
    let pl = plan(&rs, &a, BotLevel::Normal, goal, &none, &struck);
    assert_eq!(choose(&pl, &inf), Some(Choice::Ram(p(2, 1))));
    // Cavalry cannot ram nor climb: with no way in it stays rather than bump the walls.
    let cav = unit(1, 1, Kind::Cavalry, 2, 0);
    let a = with(castle(), vec![cav.clone()]);
    let pl = plan(&rs, &a, BotLevel::Normal, goal, &none, &struck);
    assert_eq!(choose(&pl, &cav), None);
    // Voltigeurs before a wall climb it by ladder: one step, the whole move.
    let volt = unit(1, 1, Kind::Voltigeurs, 1, 0);
    let a = with(castle(), vec![volt.clone()]);
    let pl = plan(&rs, &a, BotLevel::Normal, Some(p(1, 1)), &none, &struck);
    assert_eq!(choose(&pl, &volt), Some(Choice::Move(vec![p(1, 1)])));
    // Sappers next to a wall build a siege tower where they stand.
    let sap = Unit {
        ap: rs.castle.siege_tower_cost,
        ..unit(1, 1, Kind::Sappers, 0, 2)
    };
    let a = with(castle(), vec![sap.clone()]);
    let pl = plan(&rs, &a, BotLevel::Normal, goal, &none, &struck);
    assert_eq!(choose(&pl, &sap), Some(Choice::BuildSiegeTower(p(0, 2))));
    // Guns in range bombard the walls.
    let gun = unit(1, 1, Kind::Artillery, 2, 0);
    let a = with(castle(), vec![gun.clone()]);
    let pl = plan(&rs, &a, BotLevel::Normal, goal, &none, &struck);
    assert!(matches!(choose(&pl, &gun), Some(Choice::Bombard(_))));
}

#[test]
fn it_raises_sappers_and_guns_for_a_castle_and_the_line_otherwise() {
    let none = HashMap::new();
    assert_eq!(
        kind_to_raise(BotLevel::Normal, &none, true, 50),
        Kind::Sappers
    );
    let sappers: HashMap<Kind, i32> = [(Kind::Sappers, 1)].into();
    assert_eq!(
        kind_to_raise(BotLevel::Normal, &sappers, true, 50),
        Kind::Artillery
    );
    assert_eq!(
        kind_to_raise(BotLevel::Easy, &none, true, 50),
        Kind::Infantry
    );
    assert_eq!(
        kind_to_raise(BotLevel::Normal, &none, false, 10),
        Kind::Cavalry
    );
    assert_eq!(
        kind_to_raise(BotLevel::Hard, &none, false, 10),
        Kind::Voltigeurs
    );
}

#[test]
fn a_held_company_strikes_only_at_an_enemy_upon_it() {
    let rs = rs();
    let me = unit(1, 1, Kind::Infantry, 0, 0);
    // A weak enemy in volley range, two cells off: a bot playing fires; one holding does not.
    let weak = Unit {
        men: 40,
        ..unit(2, 2, Kind::Infantry, 2, 0)
    };
    let a = with(
        map(Season::Summer, &["......"]),
        vec![me.clone(), weak.clone()],
    );
    let (none, struck) = (HashSet::new(), HashMap::new());
    let mut pl = plan(&rs, &a, BotLevel::Normal, None, &none, &struck);
    assert_eq!(choose(&pl, &me), Some(Choice::Volley(weak.pos)));
    pl.mode = Mode::Hold;
    assert_eq!(choose(&pl, &me), None);
}

proptest::proptest! {
    /// The path search stops as soon as no cell left can come nearer the goal, nor as near for
    /// less: it must end where a search of every cell within the points ends, as near the goal
    /// as the company can come and at the least cost of that, on both grids.
    #[test]
    fn the_path_towards_a_goal_ends_as_near_and_as_cheaply_as_a_search_of_every_cell(
        rows in proptest::collection::vec(
            proptest::collection::vec(
                proptest::sample::select(vec!['.', '.', '.', '.', 'f', 'r', 'M', '=', 'm', 'd', 's', 'b']),
                9,
            ),
            7,
        ),
        hex in proptest::bool::ANY,
        winter in proptest::bool::ANY,
        blocks in proptest::collection::vec((0..9i32, 0..7i32), 0..8),
        from in (0..9i32, 0..7i32),
        goal in (0..9i32, 0..7i32),
        ap in 0..16i32,
    ) {
        use crate::rules::movement::enter;
        use crate::rules::ruleset::Flag;
        use crate::rules::Grid;
        let rs = rs();
        let season = if winter { Season::Winter } else { Season::Summer };
        let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        let grid = if hex { Grid::Hex } else { Grid::Square };
        let me = Unit { ap, ..unit(1, 1, Kind::Infantry, from.0, from.1) };
        let mut a = crate::rules::tests::support::map_on(grid, season, &rows);
        a.place(me.clone());
        for (i, (x, y)) in blocks.into_iter().enumerate() {
            if (x, y) != from {
                a.place(unit(10 + i as i32, 2, Kind::Infantry, x, y));
            }
        }
        let goal = p(goal.0, goal.1);
        // Every cell within the points, by a plain search, and the best of them.
        let mut cost: HashMap<Pos, i32> = HashMap::from([(me.pos, 0)]);
        let mut todo = vec![me.pos];
        while let Some(at) = todo.pop() {
            let here = *a.cell(at).unwrap();
            if at != me.pos && rs.terrain(here.terrain).has(Flag::StopsMovement) {
                continue;
            }
            for n in a.bounds.neighbours(at) {
                let Some(c) = a.cell(n) else { continue };
                if a.unit_at(n).is_some() {
                    continue;
                }
                let Ok(e) = enter(&rs, season, &me, (at, &here), (n, c), false) else { continue };
                let next = cost[&at] + e.cost;
                if e.ends_move || next > ap || cost.get(&n).is_some_and(|c| *c <= next) {
                    continue;
                }
                cost.insert(n, next);
                todo.push(n);
            }
        }
        let best = cost
            .iter()
            .filter(|(q, _)| **q != me.pos)
            .map(|(q, c)| (a.bounds.distance(*q, goal), *c))
            .min();
        let start = a.bounds.distance(me.pos, goal);
        let (none, struck) = (HashSet::new(), HashMap::new());
        let pl = plan(&rs, &a, BotLevel::Normal, Some(goal), &none, &struck);
        match (crate::rules::bot::toward(&pl, &me, goal, ap), best) {
            (None, best) => proptest::prop_assert!(best.is_none_or(|(d, _)| d >= start), "{best:?}"),
            (Some(path), best) => {
                let (mut at, mut paid) = (me.pos, 0);
                for q in &path {
                    let e = enter(&rs, season, &me, (at, a.cell(at).unwrap()), (*q, a.cell(*q).unwrap()), false);
                    proptest::prop_assert!(e.is_ok(), "{path:?}: {e:?}");
                    paid += e.unwrap().cost;
                    at = *q;
                }
                proptest::prop_assert_eq!(Some((a.bounds.distance(at, goal), paid)), best, "{:?}", path);
            }
        }
    }
}

#[test]
fn a_terrain_passed_over_is_never_an_objective_nor_a_refuge() {
    // `may_matter` lets a bot's sight pass over most of a map without asking: a terrain it
    // says no for must take nothing on entry and shelter no one, whatever the cell holds.
    use crate::rules::bot::{may_matter, refuge};
    use crate::rules::movement::captures_on_entry;
    use crate::rules::state::Cell;
    use crate::rules::Terrain;
    let rs = rs();
    let mut passed = 0;
    for t in Terrain::ALL {
        if may_matter(&rs, *t) {
            continue;
        }
        passed += 1;
        for owner in [None, Some(1), Some(2)] {
            for structure in [None, Some(0), Some(50)] {
                let cell = Cell {
                    terrain: *t,
                    town: Some(7),
                    owner,
                    structure,
                    castle: Some(3),
                    siege: None,
                };
                assert!(
                    captures_on_entry(&rs, 1, Pos::new(0, 0), &cell).is_empty(),
                    "{t:?}"
                );
                assert!(!refuge(&rs, *t, owner, 1), "{t:?}");
            }
        }
    }
    // Plain ground and forest, at least, are passed over; mines are not.
    assert!(passed >= 2);
    assert!(!may_matter(&rs, Terrain::Plain) && !may_matter(&rs, Terrain::Forest));
    assert!(may_matter(&rs, Terrain::Mine));
}
