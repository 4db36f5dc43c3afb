//! Castles (docs/rules.md §10): stairs, ladders, hooks, gates, breaches, the step down the
//! outside and the path finder around them. Nation 2 holds the castle; nation 1 storms it.

use super::support::*;
use crate::rules::movement::{find_path, plan_move, Capture};
use crate::rules::state::Area;
use crate::rules::{Kind, Pos, Refusal, Season};

/// ```text
///   0 1 2 3 4 5
/// 0 . . . . . .
/// 1 . T # G # T
/// 2 . # _ _ _ #
/// 3 . # _ B _ #
/// 4 . T # # # T
/// 5 . . . . . .
/// ```
fn castle() -> Area {
    map(
        Season::Summer,
        &["......", ".T#G#T", ".#___#", ".#_B_#", ".T###T", "......"],
    )
}

fn go(
    a: &Area,
    kind: Kind,
    nation: i32,
    from: (i32, i32),
    path: &[(i32, i32)],
) -> Result<crate::rules::movement::MovePlan, Refusal> {
    let mut a = a.clone();
    let u = unit(1, nation, kind, from.0, from.1);
    a.place(u.clone());
    let path: Vec<Pos> = path.iter().map(|&(x, y)| p(x, y)).collect();
    plan_move(&rs(), &a, &u, &path, &mut dice(&[100; 10]))
}

fn breach(a: &mut Area, x: i32, y: i32) {
    let mut c = a.cell(p(x, y)).unwrap().clone();
    c.structure = Some(0);
    a.set_cell(p(x, y), c);
}

#[test]
fn the_defenders_take_the_stairs_from_the_courtyard_for_the_walls_own_ap() {
    let a = castle();
    let plan = go(&a, Kind::Infantry, 2, (2, 2), &[(2, 1), (1, 1), (1, 2)]).unwrap();
    // Courtyard → wall (2) → tower (2) → wall (2), along the wall.
    assert_eq!(plan.cost, 6);
    assert!(plan.captures.is_empty(), "their own walls");
}

#[test]
fn an_enemy_wall_is_climbed_by_ladder_as_a_whole_move_and_taken() {
    let a = castle();
    let plan = go(&a, Kind::Infantry, 1, (2, 0), &[(2, 1)]).unwrap();
    assert_eq!(plan.cost, rs().castle.ladder);
    assert_eq!(
        plan.captures,
        vec![Capture::Castle {
            x: 2,
            y: 1,
            from: Some(2)
        }]
    );
    // Not as a later step of a move, and nothing after it.
    assert_eq!(
        go(&a, Kind::Infantry, 1, (1, 0), &[(2, 0), (2, 1)]),
        Err(Refusal::LadderFirstStep(p(2, 1)))
    );
    assert_eq!(
        go(&a, Kind::Infantry, 1, (2, 0), &[(2, 1), (2, 2)]),
        Err(Refusal::LadderFirstStep(p(2, 1)))
    );
    // Sappers and voltigeurs climb walls too; a company already in the castle uses no ladder.
    assert!(go(&a, Kind::Sappers, 1, (2, 0), &[(2, 1)]).is_ok());
    assert!(go(&a, Kind::Voltigeurs, 1, (2, 0), &[(2, 1)]).is_ok());
    assert_eq!(
        go(&a, Kind::Infantry, 1, (2, 2), &[(2, 1)]),
        Err(Refusal::LadderFirstStep(p(2, 1)))
    );
}

#[test]
fn only_voltigeurs_climb_an_enemy_tower_and_no_one_a_fortified_wall() {
    let mut a = castle();
    let tower = go(&a, Kind::Infantry, 1, (0, 0), &[(1, 1)]);
    assert!(
        matches!(tower, Err(Refusal::CannotClimb { .. })),
        "{tower:?}"
    );
    let hooks = go(&a, Kind::Voltigeurs, 1, (0, 0), &[(1, 1)]).unwrap();
    assert_eq!(hooks.cost, rs().castle.ladder);
    a.set_cell(p(2, 1), {
        let mut c = a.cell(p(2, 1)).unwrap().clone();
        c.terrain = crate::rules::Terrain::FortifiedWall;
        c
    });
    for (kind, nation, from) in [
        (Kind::Voltigeurs, 1, (2, 0)),
        (Kind::Infantry, 1, (2, 0)),
        (Kind::Infantry, 2, (2, 2)),
    ] {
        let r = go(&a, kind, nation, from, &[(2, 1)]);
        assert!(
            matches!(r, Err(Refusal::CannotClimb { .. })),
            "{kind} of {nation}: {r:?}"
        );
    }
    // Breached, it lets anyone in but war machines.
    breach(&mut a, 2, 1);
    assert_eq!(
        go(&a, Kind::Infantry, 1, (2, 0), &[(2, 1), (2, 2)])
            .unwrap()
            .cost,
        2 + 1
    );
}

#[test]
fn mounted_companies_and_war_machines_never_climb() {
    let a = castle();
    for kind in [Kind::Cavalry, Kind::Artillery] {
        for (nation, from) in [(1, (2, 0)), (2, (2, 2))] {
            let r = go(&a, kind, nation, from, &[(2, 1)]);
            assert!(
                matches!(r, Err(Refusal::CannotClimb { .. })),
                "{kind} {nation}: {r:?}"
            );
        }
    }
}

#[test]
fn a_gate_lets_its_own_nation_through_and_no_enemy_while_it_stands() {
    let mut a = castle();
    assert_eq!(
        go(&a, Kind::Infantry, 1, (3, 0), &[(3, 1)]),
        Err(Refusal::GateClosed(p(3, 1)))
    );
    // Any kind of its own nation passes, in and out.
    for kind in [Kind::Cavalry, Kind::Artillery, Kind::Infantry] {
        let plan = go(&a, kind, 2, (3, 2), &[(3, 1), (3, 0)]).unwrap();
        assert_eq!(plan.cost, 2, "{kind}");
    }
    // Broken, it lets everyone through, and the enemy entering takes it.
    breach(&mut a, 3, 1);
    for kind in [Kind::Cavalry, Kind::Artillery] {
        let plan = go(&a, kind, 1, (3, 0), &[(3, 1), (3, 2)]).unwrap();
        assert_eq!(plan.cost, rs().castle.breach + 1, "{kind}");
        assert!(plan.captures.contains(&Capture::Castle {
            x: 3,
            y: 1,
            from: Some(2)
        }));
    }
}

#[test]
fn a_breached_wall_opens_to_all_but_war_machines_for_the_breachs_ap() {
    let mut a = castle();
    breach(&mut a, 2, 4);
    let plan = go(&a, Kind::Cavalry, 1, (2, 5), &[(2, 4), (2, 3)]).unwrap();
    assert_eq!(plan.cost, rs().castle.breach + 1);
    assert_eq!(plan.captures.len(), 1);
    let r = go(&a, Kind::Artillery, 1, (2, 5), &[(2, 4)]);
    assert!(matches!(r, Err(Refusal::CannotClimb { .. })), "{r:?}");
}

#[test]
fn down_the_outside_of_a_wall_is_a_move_of_one_step() {
    let a = castle();
    let plan = go(&a, Kind::Infantry, 2, (2, 1), &[(2, 0)]).unwrap();
    assert_eq!(plan.cost, 1);
    assert_eq!(
        go(&a, Kind::Infantry, 2, (2, 1), &[(2, 0), (1, 0)]),
        Err(Refusal::LadderFirstStep(p(2, 0)))
    );
    // By the stairs into the courtyard and out of the gate, the move goes on.
    assert_eq!(
        go(
            &a,
            Kind::Infantry,
            2,
            (2, 1),
            &[(2, 2), (3, 1), (3, 0), (4, 0)]
        )
        .unwrap()
        .cost,
        4
    );
}

#[test]
fn a_building_takes_foot_companies_only_and_stops_them() {
    let a = castle();
    let r = go(&a, Kind::Cavalry, 2, (2, 3), &[(3, 3)]);
    assert!(matches!(r, Err(Refusal::Impassable { .. })), "{r:?}");
    assert!(go(&a, Kind::Infantry, 2, (2, 3), &[(3, 3)]).is_ok());
    assert!(matches!(
        go(&a, Kind::Infantry, 2, (2, 3), &[(3, 3), (4, 3)]),
        Err(Refusal::StopsMovement { .. })
    ));
}

#[test]
fn the_path_finder_climbs_only_as_a_move_of_its_own() {
    let a = castle();
    let find = |kind, nation, from: (i32, i32), to: (i32, i32)| {
        let mut a = a.clone();
        let mut u = unit(1, nation, kind, from.0, from.1);
        u.ap = 100;
        a.place(u.clone());
        find_path(&rs(), &a, &u, p(to.0, to.1))
    };
    // Next to the wall: the climb alone.
    assert_eq!(
        find(Kind::Infantry, 1, (2, 0), (2, 1)),
        Ok((vec![p(2, 1)], 4))
    );
    // Into the courtyard from outside: no single move does it.
    assert_eq!(
        find(Kind::Infantry, 1, (2, 0), (2, 2)),
        Err(Refusal::NoPath { to: p(2, 2) })
    );
    // Not next to the wall: it would have to climb mid-path, so there is no path.
    assert_eq!(
        find(Kind::Infantry, 1, (0, 5), (2, 4)),
        Err(Refusal::NoPath { to: p(2, 4) })
    );
    // The defenders go round by the gate rather than down the outside and along.
    let (path, cost) = find(Kind::Infantry, 2, (2, 2), (2, 0)).unwrap();
    assert_eq!(cost, 2);
    assert_eq!(path.last(), Some(&p(2, 0)));
    assert!(path.contains(&p(3, 1)), "through the gate: {path:?}");
}
