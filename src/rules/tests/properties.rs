//! Property tests over random small maps and figures.

use super::support::*;
use crate::rules::combat::{melee, protected_losses, volley};
use crate::rules::movement::{enter, find_path, plan_move};
use crate::rules::ruleset::Flag;
use crate::rules::state::{Area, Cell};
use crate::rules::vision::{visible_cells, Observer};
use crate::rules::{Bounds, Kind, Pos, Refusal, Season, Terrain};
use proptest::prelude::*;
use std::collections::HashMap;

fn terrain_strategy() -> impl Strategy<Value = Terrain> {
    prop::sample::select(Terrain::ALL.to_vec())
}

fn kind_strategy() -> impl Strategy<Value = Kind> {
    prop::sample::select(Kind::ALL.to_vec())
}

/// A 5×5 map of random terrains; structure cells belong to nation 1 or 2 at random strength.
fn small_map() -> impl Strategy<Value = Area> {
    (
        prop::collection::vec((terrain_strategy(), 0..3i32, 1..3i32), 25),
        prop::bool::ANY,
    )
        .prop_map(|(cells, winter)| {
            let season = if winter {
                Season::Winter
            } else {
                Season::Summer
            };
            let mut a = Area::whole(
                Bounds {
                    width: 5,
                    height: 5,
                },
                season,
            );
            for (i, (terrain, s, owner)) in cells.into_iter().enumerate() {
                let structure = rs().terrain(terrain).structure.map(|_| s * 5);
                a.set_cell(
                    Pos::new(i as i32 % 5, i as i32 / 5),
                    Cell {
                        terrain,
                        town: None,
                        owner: Some(owner),
                        structure,
                        castle: None,
                        siege: None,
                    },
                );
            }
            a
        })
}

/// A 5×5 map of castle ground and plain, as `small_map`.
fn castle_map() -> impl Strategy<Value = Area> {
    let ground = prop::sample::select(vec![
        Terrain::Plain,
        Terrain::Plain,
        Terrain::Wall,
        Terrain::FortifiedWall,
        Terrain::Tower,
        Terrain::Gate,
        Terrain::Courtyard,
        Terrain::Building,
    ]);
    prop::collection::vec((ground, 0..3i32, 1..3i32), 25).prop_map(|cells| {
        let mut a = Area::whole(
            Bounds {
                width: 5,
                height: 5,
            },
            Season::Summer,
        );
        for (i, (terrain, s, owner)) in cells.into_iter().enumerate() {
            let structure = rs().terrain(terrain).structure.map(|_| s * 5);
            a.set_cell(
                Pos::new(i as i32 % 5, i as i32 / 5),
                Cell {
                    terrain,
                    town: None,
                    owner: Some(owner),
                    structure,
                    castle: None,
                    siege: None,
                },
            );
        }
        a
    })
}

/// The cheapest legal cost from the unit to every cell, by relaxing every cell until nothing
/// changes: slow, exhaustive and independent of A*. A step that must end the move (a climb, a
/// step down a wall's outside) is counted for its cell but never gone on from.
fn exhaustive_costs(area: &Area, u: &crate::rules::state::Unit) -> HashMap<Pos, i32> {
    let rs = rs();
    let mut best: HashMap<Pos, i32> = HashMap::from([(u.pos, 0)]);
    let mut ends: HashMap<Pos, i32> = HashMap::new();
    loop {
        let mut changed = false;
        for p in area.positions() {
            let Some(&here) = best.get(&p) else { continue };
            let t = area.terrain(p).unwrap();
            if p != u.pos && rs.terrain(t).has(Flag::StopsMovement) {
                continue;
            }
            for n in area.bounds.neighbours(p) {
                let c = area.cell(n).unwrap();
                if area.unit_at(n).is_some() {
                    continue;
                }
                let from = (p, area.cell(p).unwrap());
                let Ok(e) = enter(&rs, area.season, u, from, (n, c), p == u.pos) else {
                    continue;
                };
                let cost = here + e.cost;
                let table = if e.ends_move { &mut ends } else { &mut best };
                if table.get(&n).is_none_or(|&b| cost < b) {
                    table.insert(n, cost);
                    changed = true;
                }
            }
        }
        if !changed {
            for (p, c) in ends {
                if best.get(&p).is_none_or(|&b| c < b) {
                    best.insert(p, c);
                }
            }
            best.remove(&u.pos);
            return best;
        }
    }
}

/// A* finds the cheapest path the exhaustive search finds, or none where it finds none.
fn a_star_agrees_with_exhaustive_search(
    area: &Area,
    kind: Kind,
    to: Pos,
) -> Result<(), TestCaseError> {
    let mut u = unit(1, 1, kind, 2, 2);
    u.ap = 1000;
    let best = exhaustive_costs(area, &u);
    match find_path(&rs(), area, &u, to) {
        Ok((path, cost)) => {
            prop_assert_eq!(Some(&cost), best.get(&to));
            let plan = plan_move(&rs(), area, &u, &path, &mut dice(&[100; 30])).unwrap();
            prop_assert_eq!(plan.cost, cost);
        }
        Err(Refusal::NoPath { .. }) => prop_assert!(!best.contains_key(&to)),
        Err(_) => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn a_validated_path_never_costs_more_than_the_companys_ap(
        area in small_map(),
        kind in kind_strategy(),
        ap in 0..12i32,
        steps in prop::collection::vec(0..8usize, 1..6),
        rolls in prop::collection::vec(1..=100i32, 6),
    ) {
        let mut u = unit(1, 1, kind, 2, 2);
        u.ap = ap;
        let mut path = Vec::new();
        let mut at = u.pos;
        for s in steps {
            at = at.neighbours().nth(s).unwrap();
            path.push(at);
        }
        if let Ok(plan) = plan_move(&rs(), &area, &u, &path, &mut dice(&rolls)) {
            prop_assert!(plan.cost <= u.ap);
            prop_assert!(plan.steps.iter().all(|s| s.cost <= s.base_cost && s.cost >= 0));
        }
    }

    /// docs/rules.md §10: a climb (onto an enemy wall, or onto any wall from outside the
    /// castle) is always a move of one step, and a standing gate never lets an enemy through.
    #[test]
    fn climbs_are_whole_moves_and_standing_gates_stop_enemies(
        area in castle_map(),
        kind in kind_strategy(),
        steps in prop::collection::vec(0..8usize, 1..4),
    ) {
        let rs = rs();
        let mut u = unit(1, 1, kind, 2, 2);
        u.ap = 100;
        let mut path = Vec::new();
        let mut at = u.pos;
        for s in steps {
            at = at.neighbours().nth(s).unwrap();
            path.push(at);
        }
        if let Ok(plan) = plan_move(&rs, &area, &u, &path, &mut dice(&[100; 10])) {
            let mut prev = u.pos;
            for (i, &step) in path.iter().enumerate() {
                let (from, to) = (area.cell(prev).unwrap(), area.cell(step).unwrap());
                let t = rs.terrain(to.terrain);
                let standing = t.has(Flag::Wall) && !to.is_breached(&rs);
                let enemy = to.owner.is_some_and(|o| o != u.nation);
                if standing && t.has(Flag::Gate) {
                    prop_assert!(!enemy, "through an enemy gate at {}", step);
                }
                if standing && !t.has(Flag::Gate) && (enemy || !from.in_castle(&rs)) {
                    prop_assert!(i == 0 && path.len() == 1, "a climb at step {} of {:?}", i, path);
                }
                prev = step;
            }
            prop_assert_eq!(plan.destination, *path.last().unwrap());
        }
    }

    #[test]
    fn a_star_is_never_dearer_than_exhaustive_search_among_castles(area in castle_map(), kind in kind_strategy(), tx in 0..5i32, ty in 0..5i32) {
        a_star_agrees_with_exhaustive_search(&area, kind, Pos::new(tx, ty))?;
    }

    #[test]
    fn a_star_is_never_dearer_than_exhaustive_search(area in small_map(), kind in kind_strategy(), tx in 0..5i32, ty in 0..5i32) {
        a_star_agrees_with_exhaustive_search(&area, kind, Pos::new(tx, ty))?;
    }

    #[test]
    fn losses_never_exceed_the_men_present(raw in 0..500i32, protection in -100..=100i32, men in 0..300i32) {
        let l = protected_losses(raw, protection, men);
        prop_assert!(l >= 0 && l <= men);
    }

    #[test]
    fn combat_never_increases_men_plus_wounded(
        att_kind in kind_strategy(), def_kind in kind_strategy(),
        att_men in 1..250i32, def_men in 1..250i32, def_wounded in 0..50i32,
        morale in 0..=10i32, def_terrain in terrain_strategy(), att_terrain in terrain_strategy(),
        rolls in prop::collection::vec(0..=60i32, 2),
    ) {
        let mut a = Area::whole(Bounds { width: 3, height: 1 }, Season::Summer);
        a.set_cell(Pos::new(0, 0), Cell { terrain: att_terrain, town: None, owner: None, structure: None, castle: None, siege: None });
        a.set_cell(Pos::new(1, 0), Cell { terrain: def_terrain, town: None, owner: Some(2), structure: rs().terrain(def_terrain).structure, castle: None, siege: None });
        let mut att = unit(1, 1, att_kind, 0, 0);
        att.men = att_men;
        att.morale = morale;
        let mut def = unit(2, 2, def_kind, 1, 0);
        def.men = def_men;
        def.wounded = def_wounded;
        def.volley_recency = 2;
        a.place(att.clone());
        a.place(def.clone());
        for b in [volley(&rs(), &a, &att, def.pos, &mut dice(&rolls)), melee(&rs(), &a, &att, def.pos, &mut dice(&rolls))].into_iter().flatten() {
            {
                prop_assert!(b.defender_after.men + b.defender_after.wounded <= def.men + def.wounded);
                prop_assert!(b.attacker_after.men + b.attacker_after.wounded <= att.men + att.wounded);
                prop_assert!(b.defender.losses <= def.men);
                prop_assert!(b.defender_after.men >= 0 && b.attacker_after.men >= 0);
            }
        }
    }

    #[test]
    fn vision_is_monotonic_in_perception(
        observers in prop::collection::vec((0..12i32, 0..12i32, 1..6i32), 1..5),
        extra in 0..3i32,
    ) {
        let bounds = Bounds { width: 12, height: 12 };
        let small: Vec<Observer> = observers.iter().map(|&(x, y, p)| Observer { pos: Pos::new(x, y), perception: p }).collect();
        let large: Vec<Observer> = small.iter().map(|o| Observer { perception: o.perception + extra, ..*o }).collect();
        let (a, b) = (visible_cells(bounds, &small), visible_cells(bounds, &large));
        prop_assert!(a.is_subset(&b));
    }
}
