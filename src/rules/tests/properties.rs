//! Property tests over random small maps and figures.

use super::support::*;
use crate::rules::combat::{melee, protected_losses, volley};
use crate::rules::movement::{enter, find_path, plan_move};
use crate::rules::ruleset::Flag;
use crate::rules::state::{Area, Cell};
use crate::rules::vision::{visible_cells, Observer};
use crate::rules::{Bounds, Grid, Kind, Pos, Refusal, Season, Terrain};
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
            let mut a = Area::whole(Bounds::square(5, 5), season);
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
        let mut a = Area::whole(Bounds::square(5, 5), Season::Summer);
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

    /// docs/rules.md §12: a climb (onto an enemy wall, or onto any wall from outside the
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
        let mut a = Area::whole(Bounds::square(3, 1), Season::Summer);
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
        let bounds = Bounds::square(12, 12);
        let small: Vec<Observer> = observers.iter().map(|&(x, y, p)| Observer { pos: Pos::new(x, y), perception: p, grid: Grid::Square }).collect();
        let large: Vec<Observer> = small.iter().map(|o| Observer { perception: o.perception + extra, ..*o }).collect();
        let (a, b) = (visible_cells(bounds, &small), visible_cells(bounds, &large));
        prop_assert!(a.is_subset(&b));
    }
}

fn grid_strategy() -> impl Strategy<Value = Grid> {
    prop::sample::select(vec![Grid::Square, Grid::Hex])
}

fn pos_strategy() -> impl Strategy<Value = Pos> {
    (-40..40i32, -40..40i32).prop_map(|(x, y)| Pos::new(x, y))
}

proptest! {
    #[test]
    fn neighbours_are_symmetric_distinct_and_one_step_away(g in grid_strategy(), a in pos_strategy()) {
        let n: Vec<Pos> = g.neighbours(a).collect();
        prop_assert_eq!(n.len(), if g == Grid::Square { 8 } else { 6 });
        let mut unique = n.clone();
        unique.sort();
        unique.dedup();
        prop_assert_eq!(unique.len(), n.len());
        for b in n {
            prop_assert_eq!(g.distance(a, b), 1);
            prop_assert!(g.neighbours(b).any(|c| c == a), "{:?} {:?} {:?}", g, a, b);
        }
    }

    #[test]
    fn distance_is_a_metric(g in grid_strategy(), a in pos_strategy(), b in pos_strategy(), c in pos_strategy()) {
        prop_assert_eq!(g.distance(a, a), 0);
        prop_assert_eq!(g.distance(a, b), g.distance(b, a));
        prop_assert!(a == b || g.distance(a, b) > 0);
        prop_assert!(g.distance(a, c) <= g.distance(a, b) + g.distance(b, c));
    }

    #[test]
    fn a_line_is_a_chain_of_neighbours_from_end_to_end(g in grid_strategy(), a in pos_strategy(), b in pos_strategy()) {
        let l = g.line(a, b);
        prop_assert_eq!(l.first(), Some(&a));
        prop_assert_eq!(l.last(), Some(&b));
        prop_assert_eq!(l.len() as i32, g.distance(a, b) + 1);
        prop_assert!(l.windows(2).all(|w| g.adjacent(w[0], w[1])));
        if g == Grid::Hex {
            // The same cells both ways: line of sight is symmetric.
            let mut back = g.line(b, a);
            back.reverse();
            prop_assert_eq!(back, l);
        }
    }

    #[test]
    fn within_is_every_cell_of_the_map_at_most_r_away(g in grid_strategy(), x in 0..14i32, y in 0..11i32, r in 0..6i32) {
        let bounds = Bounds { width: 14, height: 11, grid: g };
        let p = Pos::new(x, y);
        let mut got: Vec<Pos> = bounds.within(p, r).collect();
        got.sort();
        let mut want: Vec<Pos> = (0..11).flat_map(|y| (0..14).map(move |x| Pos::new(x, y)))
            .filter(|q| g.distance(p, *q) <= r)
            .collect();
        want.sort();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn sides_name_each_edge_from_both_cells(g in grid_strategy(), p in pos_strategy()) {
        for &s in g.sides() {
            let q = g.across(p, s);
            prop_assert!(g.adjacent(p, q));
            prop_assert_eq!(g.across(q, s.opposite()), p);
            prop_assert_eq!(g.canonical(p, s), g.canonical(q, s.opposite()));
            prop_assert_eq!(g.sides_towards(p, q), vec![s]);
        }
    }

    #[test]
    fn the_rectangle_s_sight_on_hexes_is_what_each_cell_would_ask(
        observers in prop::collection::vec((-3..15i32, -3..13i32, -1..6i32), 1..5),
    ) {
        use crate::rules::vision::{sees_cell, Sight};
        let obs: Vec<Observer> = observers.iter().map(|&(x, y, p)| Observer { pos: Pos::new(x, y), perception: p, grid: Grid::Hex }).collect();
        let sight = Sight::of(&obs, (0, 0, 11, 9));
        for y in 0..10 {
            for x in 0..12 {
                let p = Pos::new(x, y);
                prop_assert_eq!(sight.sees(p), sees_cell(&obs, p), "{:?}", p);
            }
        }
    }

    #[test]
    fn paths_on_hexes_are_chains_of_neighbours(
        cells in prop::collection::vec(terrain_strategy(), 64),
        to in (0..8i32, 0..8i32),
    ) {
        let rs = rs();
        let mut area = Area::whole(Bounds { width: 8, height: 8, grid: Grid::Hex }, Season::Summer);
        for (i, t) in cells.iter().enumerate() {
            let p = Pos::new(i as i32 % 8, i as i32 / 8);
            area.set_cell(p, Cell { terrain: *t, ..Cell::plain() });
        }
        area.set_cell(Pos::new(0, 0), Cell::plain());
        let u = unit(1, 1, Kind::Infantry, 0, 0);
        area.place(u.clone());
        let to = Pos::new(to.0, to.1);
        if let Ok((path, _)) = find_path(&rs, &area, &u, to) {
            let mut prev = u.pos;
            for p in &path {
                prop_assert!(Grid::Hex.adjacent(prev, *p), "{:?} → {:?}", prev, p);
                prev = *p;
            }
            prop_assert_eq!(prev, to);
        }
    }
}
