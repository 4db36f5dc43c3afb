//! Castles (docs/rules.md §12): stairs, ladders, hooks, gates, breaches, the step down the
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
    let mut c = *a.cell(p(x, y)).unwrap();
    c.structure = Some(0);
    a.set_cell(p(x, y), c);
}

on_both_grids! {
fn the_defenders_take_the_stairs_from_the_courtyard_for_the_walls_own_ap() {
    let a = castle();
    let plan = go(&a, Kind::Infantry, 2, (2, 2), &[(2, 1), (1, 1), (1, 2)]).unwrap();
    // Courtyard → wall (2) → tower (2) → wall (2), along the wall.
    assert_eq!(plan.cost, 6);
    assert!(plan.captures.is_empty(), "their own walls");
}
}

on_both_grids! {
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
}

on_both_grids! {
fn only_voltigeurs_climb_an_enemy_tower_and_no_one_a_fortified_wall() {
    let mut a = castle();
    // A cell outside next to the tower (1, 1): its diagonal on squares, its west on hexes.
    let outside = on_grid((0, 0), (0, 1));
    let tower = go(&a, Kind::Infantry, 1, outside, &[(1, 1)]);
    assert!(
        matches!(tower, Err(Refusal::CannotClimb { .. })),
        "{tower:?}"
    );
    let hooks = go(&a, Kind::Voltigeurs, 1, outside, &[(1, 1)]).unwrap();
    assert_eq!(hooks.cost, rs().castle.ladder);
    a.set_cell(p(2, 1), {
        let mut c = *a.cell(p(2, 1)).unwrap();
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
}

on_both_grids! {
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
}

on_both_grids! {
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
}

on_both_grids! {
fn a_breached_wall_opens_to_all_but_war_machines_for_the_breachs_ap() {
    let mut a = castle();
    breach(&mut a, 2, 4);
    let plan = go(&a, Kind::Cavalry, 1, (2, 5), &[(2, 4), (2, 3)]).unwrap();
    assert_eq!(plan.cost, rs().castle.breach + 1);
    assert_eq!(plan.captures.len(), 1);
    let r = go(&a, Kind::Artillery, 1, (2, 5), &[(2, 4)]);
    assert!(matches!(r, Err(Refusal::CannotClimb { .. })), "{r:?}");
}
}

on_both_grids! {
fn down_the_outside_of_a_wall_is_a_move_of_one_step() {
    let a = castle();
    let plan = go(&a, Kind::Infantry, 2, (2, 1), &[(2, 0)]).unwrap();
    assert_eq!(plan.cost, 1);
    // Out by the gate: on squares (2, 2) then the gate's diagonal; on hexes the courtyard's
    // (3, 2) under the gate first.
    let (way_out, cost) = on_grid(
        (vec![(2, 2), (3, 1), (3, 0), (4, 0)], 4),
        (vec![(2, 2), (3, 2), (3, 1), (3, 0), (4, 0)], 5),
    );
    assert_eq!(
        go(&a, Kind::Infantry, 2, (2, 1), &[(2, 0), (1, 0)]),
        Err(Refusal::LadderFirstStep(p(2, 0)))
    );
    // By the stairs into the courtyard and out of the gate, the move goes on.
    assert_eq!(
        go(&a, Kind::Infantry, 2, (2, 1), &way_out).unwrap().cost,
        cost
    );
}
}

on_both_grids! {
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
}

on_both_grids! {
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
    // The defenders go round by the gate rather than down the outside and along: on squares
    // the gate is the courtyard's diagonal, on hexes (3, 2) under it comes first.
    let (path, cost) = find(Kind::Infantry, 2, (2, 2), (2, 0)).unwrap();
    assert_eq!(cost, on_grid(2, 4));
    assert_eq!(path.last(), Some(&p(2, 0)));
    assert!(path.contains(&p(3, 1)), "through the gate: {path:?}");
}
}

// ----------------------------------------------------------------- fighting at the walls

use crate::rules::combat::{melee, raw_losses, volley, BattleNote};
use crate::rules::siege::{bombard, ram, repair};
use crate::rules::state::SiegeTower;
use crate::rules::vision::line_of_sight;

fn placed(a: &Area, units: &[crate::rules::state::Unit]) -> Area {
    let mut a = a.clone();
    for u in units {
        a.place(u.clone());
    }
    a
}

on_both_grids! {
fn defenders_on_a_wall_strike_first_at_half_damage() {
    let rs = rs();
    let a = castle();
    // Blue's infantry below the wall at (2, 0) charges Red's on the wall at (2, 1).
    let att = unit(1, 1, Kind::Infantry, 2, 0);
    let def = unit(2, 2, Kind::Infantry, 2, 1);
    let area = placed(&a, &[att.clone(), def.clone()]);
    // The attacker rolls 20, the defender 20.
    let b = melee(&rs, &area, &att, p(2, 1), &mut dice(&[20, 20])).unwrap();
    assert_eq!(
        b.notes,
        vec![BattleNote::CloseQuarters, BattleNote::FirstStrike]
    );
    // The defenders' blow first, at half damage: 10 × 200/200 = 10 raw, no protection.
    assert_eq!(b.attacker.raw_losses, 10);
    assert_eq!(b.attacker.losses, 10);
    // Then the attackers strike with the 190 left, at half damage: round(10 × 190/200) = 10
    // (9.5), behind the wall's 50 %.
    assert_eq!(b.defender.raw_losses, 10);
    assert_eq!(b.defender.losses, 5);
    // Without the walls, both blows of 20 with 200 men land whole, at once.
    let open = placed(
        &map(Season::Summer, &["......", "......"]),
        &[att.clone(), unit(2, 2, Kind::Infantry, 2, 1)],
    );
    let b = melee(&rs, &open, &att, p(2, 1), &mut dice(&[20, 20])).unwrap();
    assert!(b.notes.is_empty());
    assert_eq!(
        (b.attacker.raw_losses, b.defender.raw_losses),
        (raw_losses(20, 200, 200), raw_losses(20, 200, 200))
    );
}
}

on_both_grids! {
fn on_the_wall_both_sides_fight_at_half_damage_with_no_first_strike() {
    let rs = rs();
    let a = castle();
    let att = unit(1, 1, Kind::Infantry, 2, 1);
    let def = unit(2, 2, Kind::Infantry, 1, 1);
    let area = placed(&a, &[att.clone(), def]);
    let b = melee(&rs, &area, &att, p(1, 1), &mut dice(&[20, 20])).unwrap();
    assert_eq!(b.notes, vec![BattleNote::CloseQuarters]);
    assert_eq!((b.attacker.raw_losses, b.defender.raw_losses), (10, 10));
}
}

on_both_grids! {
fn from_a_siege_tower_the_defenders_get_no_first_strike() {
    let rs = rs();
    let mut a = castle();
    let mut c = *a.cell(p(2, 0)).unwrap();
    c.siege = Some(SiegeTower {
        builds: rs.castle.siege_tower_builds,
        structure: rs.castle.siege_tower_structure,
    });
    a.set_cell(p(2, 0), c);
    let att = unit(1, 1, Kind::Infantry, 2, 0);
    let area = placed(&a, &[att.clone(), unit(2, 2, Kind::Infantry, 2, 1)]);
    let b = melee(&rs, &area, &att, p(2, 1), &mut dice(&[20, 20])).unwrap();
    assert_eq!(
        b.notes,
        vec![BattleNote::CloseQuarters, BattleNote::SiegeTower]
    );
    assert_eq!(b.defender.raw_losses, 10, "all 200 men strike");
    // And from it a foot company steps onto the wall at any step, as part of a longer move.
    let plan = go(&a, Kind::Infantry, 1, (1, 0), &[(2, 0), (2, 1), (2, 2)]);
    assert!(plan.is_ok(), "{plan:?}");
}
}

on_both_grids! {
fn no_volley_is_fired_into_or_out_of_a_building() {
    let rs = rs();
    let a = castle();
    let shooter = unit(1, 1, Kind::Infantry, 3, 2);
    let inside = unit(2, 2, Kind::Infantry, 3, 3);
    let area = placed(&a, &[shooter.clone(), inside.clone()]);
    assert_eq!(
        volley(&rs, &area, &shooter, p(3, 3), &mut dice(&[15])),
        Err(Refusal::VolleyBuilding(p(3, 3)))
    );
    let area = placed(&a, &[shooter.clone(), inside.clone()]);
    assert_eq!(
        volley(&rs, &area, &inside, p(3, 2), &mut dice(&[15])),
        Err(Refusal::VolleyBuilding(p(3, 3)))
    );
    // Melee into it is allowed, at half damage.
    let b = melee(&rs, &area, &shooter, p(3, 3), &mut dice(&[20, 20])).unwrap();
    assert_eq!(b.notes, vec![BattleNote::CloseQuarters]);
}
}

on_both_grids! {
fn walls_block_the_view_except_along_the_castles_own_walls() {
    let rs = rs();
    let a = castle();
    // From outside over the wall into the courtyard: blocked at the wall.
    assert_eq!(line_of_sight(&rs, &a, p(2, 0), p(2, 3)), Err(p(2, 1)));
    // Along the north wall, tower to tower: every cell is wall, tower or gate.
    assert_eq!(line_of_sight(&rs, &a, p(1, 1), p(5, 1)), Ok(()));
    // Along the west wall, from the tower at (1, 1) to the one at (1, 4).
    assert_eq!(line_of_sight(&rs, &a, p(1, 1), p(1, 4)), Ok(()));
    // Not along two different castles' walls.
    let mut two = castle();
    for x in 1..=5 {
        let mut c = *two.cell(p(x, 1)).unwrap();
        c.castle = Some(if x < 3 { 1 } else { 2 });
        two.set_cell(p(x, 1), c);
    }
    assert_eq!(line_of_sight(&rs, &two, p(1, 1), p(5, 1)), Err(p(2, 1)));
}
}

on_both_grids! {
fn the_ram_breaks_enemy_gates_only() {
    let rs = rs();
    let a = castle();
    let inf = unit(1, 1, Kind::Infantry, 3, 0);
    let area = placed(&a, std::slice::from_ref(&inf));
    let s = ram(&rs, &area, &inf, p(3, 1), &mut dice(&[3])).unwrap();
    assert_eq!(
        (s.before, s.after, s.max, s.ap_cost),
        (7, 4, 7, rs.castle.ram_cost)
    );
    assert_eq!(s.draws.len(), 1);
    assert_eq!(
        ram(&rs, &area, &inf, p(2, 1), &mut dice(&[3])),
        Err(Refusal::NotGate(p(2, 1))),
        "walls are not rammed"
    );
    let far = unit(1, 1, Kind::Infantry, 3, 5);
    assert!(matches!(
        ram(
            &rs,
            &placed(&a, std::slice::from_ref(&far)),
            &far,
            p(3, 1),
            &mut dice(&[3])
        ),
        Err(Refusal::NotAdjacent { .. })
    ));
    let cav = unit(1, 1, Kind::Cavalry, 3, 0);
    assert_eq!(
        ram(
            &rs,
            &placed(&a, std::slice::from_ref(&cav)),
            &cav,
            p(3, 1),
            &mut dice(&[3])
        ),
        Err(Refusal::CannotRam(Kind::Cavalry))
    );
    let own = unit(1, 2, Kind::Sappers, 3, 2);
    assert_eq!(
        ram(
            &rs,
            &placed(&a, std::slice::from_ref(&own)),
            &own,
            p(3, 1),
            &mut dice(&[3])
        ),
        Err(Refusal::OwnNation)
    );
    let sappers = unit(1, 1, Kind::Sappers, 3, 0);
    let mut broken = castle();
    let mut g = *broken.cell(p(3, 1)).unwrap();
    g.structure = Some(0);
    broken.set_cell(p(3, 1), g);
    assert_eq!(
        ram(
            &rs,
            &placed(&broken, std::slice::from_ref(&sappers)),
            &sappers,
            p(3, 1),
            &mut dice(&[3])
        ),
        Err(Refusal::AlreadyBreached(p(3, 1)))
    );
    let mut tired = sappers.clone();
    tired.ap = rs.castle.ram_cost - 1;
    assert!(matches!(
        ram(
            &rs,
            &placed(&a, std::slice::from_ref(&tired)),
            &tired,
            p(3, 1),
            &mut dice(&[3])
        ),
        Err(Refusal::NotEnoughAp { .. })
    ));
}
}

proptest::proptest! {
    /// docs/rules.md §12: bombard, ram and repair never take a structure below 0 or above its
    /// maximum.
    #[test]
    fn structure_stays_between_zero_and_its_maximum(
        before in 1..=15i32,
        roll in 1..=4i32,
        which in 0..3usize,
    ) {
        let rs = rs();
        let mut a = castle();
        let at = p(3, 1);
        let mut gate = *a.cell(at).unwrap();
        let max = rs.terrain(gate.terrain).structure.unwrap();
        gate.structure = Some(before.min(max));
        if which == 2 {
            gate.owner = Some(1);
        }
        a.set_cell(at, gate);
        let (kind, pos) = match which {
            0 => (Kind::Infantry, (3, 0)),
            1 => (Kind::Artillery, (3, 0)),
            _ => (Kind::Sappers, (3, 0)),
        };
        let u = unit(1, 1, kind, pos.0, pos.1);
        let area = placed(&a, std::slice::from_ref(&u));
        let change = match which {
            0 => ram(&rs, &area, &u, at, &mut dice(&[roll.clamp(2, 4)])),
            1 => bombard(&rs, &area, &u, at, &mut dice(&[roll.min(3)])),
            _ => repair(&rs, &area, &u, at),
        };
        if let Ok(s) = change {
            proptest::prop_assert!(s.after >= 0 && s.after <= s.max, "{:?}", s);
            proptest::prop_assert_eq!(s.max, max);
        }
    }
}

// ----------------------------------------------------------------- sections

use crate::rules::castle::{holder, sections, SectionKind};

/// The demo's castle: towers at the corners, a fortified stretch and a gate.
fn mozhaisk() -> Vec<(Pos, crate::rules::Terrain)> {
    let rows = ["TWWFWWT", "WCCCCCW", "GCBCCCW", "WCCCCCW", "TWWWWWT"];
    let mut cells = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, ch) in r.chars().enumerate() {
            use crate::rules::Terrain::*;
            let t = match ch {
                'T' => Tower,
                'W' => Wall,
                'F' => FortifiedWall,
                'G' => Gate,
                'B' => Building,
                _ => Courtyard,
            };
            cells.push((p(x as i32 + 29, y as i32 + 9), t));
        }
    }
    cells
}

on_both_grids! {
fn a_castle_is_cut_into_towers_gates_runs_of_wall_and_four_quarters_of_courtyard() {
    let s = sections(&rs(), &mozhaisk());
    let count = |k: SectionKind| s.iter().filter(|x| x.kind == k).count();
    assert_eq!(count(SectionKind::Tower), 4);
    assert_eq!(count(SectionKind::Gate), 1);
    // North (with its fortified stretch), east, south, and the west wall cut by the gate.
    assert_eq!(count(SectionKind::Wall), 5);
    assert_eq!(count(SectionKind::Courtyard), 4);
    let north = s.iter().find(|x| x.name == "wall 1").unwrap();
    assert_eq!(north.cells.len(), 5, "(30..34, 9)");
    // Every cell in exactly one section.
    let mut all: Vec<Pos> = s.iter().flat_map(|x| x.cells.clone()).collect();
    all.sort_by_key(|p| (p.y, p.x));
    all.dedup();
    assert_eq!(all.len(), 35);
    assert_eq!(s.iter().map(|x| x.cells.len()).sum::<usize>(), 35);
    // The courtyard (30..34, 10..12) splits at x = 32, y = 11: the middle cells go north-west.
    let nw = s.iter().find(|x| x.name == "courtyard NW").unwrap();
    assert!(nw.cells.contains(&p(32, 11)) && nw.cells.contains(&p(30, 10)));
    assert_eq!(sections(&rs(), &mozhaisk()), s, "the same every time");
}
}

on_both_grids! {
fn a_section_is_held_by_the_one_nation_standing_in_it() {
    let cells = [p(1, 1), p(2, 1)];
    assert_eq!(holder(&cells, &[]), None);
    assert_eq!(holder(&cells, &[(p(1, 1), 1), (p(5, 5), 2)]), Some(1));
    assert_eq!(holder(&cells, &[(p(1, 1), 1), (p(2, 1), 1)]), Some(1));
    assert_eq!(
        holder(&cells, &[(p(1, 1), 1), (p(2, 1), 2)]),
        None,
        "contested"
    );
}
}
