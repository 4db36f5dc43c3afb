use super::support::*;
use crate::rules::movement::{find_path, plan_move, Capture};
use crate::rules::state::Cell;
use crate::rules::{Kind, Refusal, Season, Terrain};

fn cost_of_entering(t: Terrain, season: Season) -> i32 {
    let mut a = map(season, &["..."]);
    a.set_cell(
        p(1, 0),
        Cell {
            terrain: t,
            town: None,
            owner: Some(1),
            structure: rs().terrain(t).structure,
            castle: None,
            siege: None,
        },
    );
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    plan_move(&rs(), &a, &u, &[p(1, 0)], &mut dice(&[100]))
        .unwrap()
        .cost
}

on_both_grids! {
fn move_cost_of_every_terrain_follows_the_season() {
    let expect = [
        (Terrain::Plain, 1, 1),
        (Terrain::Marsh, 2, 3),
        (Terrain::Forest, 2, 3),
        (Terrain::River, 4, 2),
        (Terrain::Mountain, 4, 10),
        (Terrain::Plateau, 1, 1),
        (Terrain::Slope, 1, 1),
        (Terrain::Village, 1, 1),
        (Terrain::Town, 1, 1),
        (Terrain::Church, 1, 1),
        (Terrain::Farm, 1, 1),
        (Terrain::Mine, 1, 1),
        (Terrain::Mill, 1, 1),
        (Terrain::Fields, 1, 1),
        (Terrain::Animals, 1, 1),
        (Terrain::Road, 1, 1),
        (Terrain::Bridge, 1, 1),
        (Terrain::Fort, 1, 1),
        (Terrain::Fortifications, 1, 1),
    ];
    for (t, summer, winter) in expect {
        assert_eq!(cost_of_entering(t, Season::Summer), summer, "{t} in summer");
        assert_eq!(cost_of_entering(t, Season::Winter), winter, "{t} in winter");
    }
}
}

on_both_grids! {
fn slope_to_plateau_costs_two() {
    let a = map(Season::Summer, &["sp.p"]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let plan = plan_move(&rs(), &a, &u, &[p(1, 0)], &mut dice(&[])).unwrap();
    assert_eq!(plan.cost, 2);
    // From plain onto a plateau it is the plateau's own 1 AP.
    let u = unit(1, 1, Kind::Infantry, 2, 0);
    assert_eq!(
        plan_move(&rs(), &a, &u, &[p(3, 0)], &mut dice(&[]))
            .unwrap()
            .cost,
        1
    );
}
}

on_both_grids! {
fn a_bridge_costs_one_where_the_river_costs_four() {
    let a = map(Season::Summer, &[".rb"]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    assert_eq!(
        plan_move(&rs(), &a, &u, &[p(1, 0)], &mut dice(&[]))
            .unwrap()
            .cost,
        4
    );
    let u = unit(1, 1, Kind::Infantry, 1, 0);
    assert_eq!(
        plan_move(&rs(), &a, &u, &[p(2, 0)], &mut dice(&[]))
            .unwrap()
            .cost,
        1
    );
}
}

on_both_grids! {
fn road_step_from_road_is_discounted_when_the_d100_is_at_most_30() {
    let a = map(Season::Summer, &["b==="]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    // Three road steps, all from road or bridge: rolls 30 (hit), 31 (miss), 1 (hit).
    let plan = plan_move(
        &rs(),
        &a,
        &u,
        &[p(1, 0), p(2, 0), p(3, 0)],
        &mut dice(&[30, 31, 1]),
    )
    .unwrap();
    let costs: Vec<i32> = plan.steps.iter().map(|s| s.cost).collect();
    assert_eq!(costs, vec![0, 1, 0]);
    assert_eq!(plan.cost, 1);
    assert_eq!(plan.draws.len(), 3);
    assert!(plan.steps.iter().all(|s| s.base_cost == 1));
}
}

on_both_grids! {
fn road_step_from_plain_is_never_discounted() {
    let a = map(Season::Summer, &[".="]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let plan = plan_move(&rs(), &a, &u, &[p(1, 0)], &mut dice(&[1])).unwrap();
    assert_eq!(plan.cost, 1);
    assert!(plan.draws.is_empty());
}
}

on_both_grids! {
fn road_discount_never_makes_an_unaffordable_path_affordable() {
    let a = map(Season::Summer, &["===="]);
    let mut u = unit(1, 1, Kind::Infantry, 0, 0);
    u.ap = 2;
    let r = plan_move(
        &rs(),
        &a,
        &u,
        &[p(1, 0), p(2, 0), p(3, 0)],
        &mut dice(&[1, 1, 1]),
    );
    assert_eq!(r, Err(Refusal::NotEnoughAp { need: 3, have: 2 }));
}
}

on_both_grids! {
fn a_path_cannot_go_on_after_a_marsh() {
    let a = map(Season::Summer, &[".m.."]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let r = plan_move(&rs(), &a, &u, &[p(1, 0), p(2, 0)], &mut dice(&[]));
    assert_eq!(r.unwrap_err().code(), "stops_movement");
    // Ending on the marsh is fine, and leaving it next time too.
    assert_eq!(
        plan_move(&rs(), &a, &u, &[p(1, 0)], &mut dice(&[]))
            .unwrap()
            .cost,
        2
    );
    let u = unit(1, 1, Kind::Infantry, 1, 0);
    assert_eq!(
        plan_move(&rs(), &a, &u, &[p(2, 0), p(3, 0)], &mut dice(&[]))
            .unwrap()
            .cost,
        2
    );
}
}

on_both_grids! {
fn a_path_cannot_go_on_after_a_church() {
    let a = map(Season::Summer, &[".c.."]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let r = plan_move(&rs(), &a, &u, &[p(1, 0), p(2, 0)], &mut dice(&[]));
    assert!(matches!(
        r,
        Err(Refusal::StopsMovement {
            terrain: Terrain::Church,
            ..
        })
    ));
}
}

on_both_grids! {
fn artillery_cannot_enter_marsh_or_mountain() {
    let a = map(Season::Summer, &["m.M"]);
    let u = unit(1, 1, Kind::Artillery, 1, 0);
    for target in [p(0, 0), p(2, 0)] {
        let r = plan_move(&rs(), &a, &u, &[target], &mut dice(&[]));
        assert_eq!(r.unwrap_err().code(), "impassable");
    }
    let u = unit(1, 1, Kind::Infantry, 1, 0);
    assert!(plan_move(&rs(), &a, &u, &[p(2, 0)], &mut dice(&[])).is_ok());
}
}

on_both_grids! {
fn an_enemy_fort_is_closed_until_breached() {
    let mut a = map(Season::Summer, &[".X."]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let r = plan_move(&rs(), &a, &u, &[p(1, 0)], &mut dice(&[]));
    assert_eq!(r, Err(Refusal::EnemyFort(p(1, 0))));
    // Its own nation walks in.
    let friend = unit(2, 2, Kind::Infantry, 0, 0);
    let plan = plan_move(&rs(), &a, &friend, &[p(1, 0)], &mut dice(&[])).unwrap();
    assert!(plan.captures.is_empty());
    // Breached: anyone enters, and an enemy entering it empty captures it.
    a.set_cell(
        p(1, 0),
        Cell {
            terrain: Terrain::Fort,
            town: None,
            owner: Some(2),
            structure: Some(0),
            castle: None,
            siege: None,
        },
    );
    let plan = plan_move(&rs(), &a, &u, &[p(1, 0)], &mut dice(&[])).unwrap();
    assert_eq!(
        plan.captures,
        vec![Capture::Fort {
            x: 1,
            y: 0,
            from: Some(2)
        }]
    );
}
}

on_both_grids! {
fn an_occupied_cell_cannot_be_entered_by_anyone() {
    let mut a = map(Season::Summer, &["..."]);
    a.place(unit(2, 1, Kind::Infantry, 1, 0));
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(u.clone());
    let r = plan_move(&rs(), &a, &u, &[p(1, 0), p(2, 0)], &mut dice(&[]));
    assert_eq!(r, Err(Refusal::Occupied(p(1, 0))));
}
}

on_both_grids! {
fn a_step_off_the_map_or_not_to_a_neighbour_is_refused() {
    let a = map(Season::Summer, &["...", "..."]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    assert_eq!(
        plan_move(&rs(), &a, &u, &[p(-1, 0)], &mut dice(&[])),
        Err(Refusal::OutOfMap(p(-1, 0)))
    );
    assert_eq!(
        plan_move(&rs(), &a, &u, &[p(2, 0)], &mut dice(&[])),
        Err(Refusal::NotAdjacent {
            from: p(0, 0),
            to: p(2, 0)
        })
    );
    assert_eq!(
        plan_move(&rs(), &a, &u, &[p(1, 1), p(1, 1)], &mut dice(&[]))
            .unwrap_err()
            .code(),
        "not_adjacent"
    );
    assert_eq!(
        plan_move(&rs(), &a, &u, &[], &mut dice(&[]))
            .unwrap_err()
            .code(),
        "invalid"
    );
}
}

on_both_grids! {
fn the_whole_path_is_checked_before_any_step() {
    // The last step is blocked: the refusal comes before any dice are rolled.
    let mut a = map(Season::Summer, &["===X"]);
    a.place(unit(9, 2, Kind::Infantry, 3, 0));
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let mut d = dice(&[1, 1, 1]);
    let r = plan_move(&rs(), &a, &u, &[p(1, 0), p(2, 0), p(3, 0)], &mut d);
    assert_eq!(r.unwrap_err().code(), "occupied");
    assert!(crate::rules::dice::Roll::draws(&d).is_empty());
}
}

on_both_grids! {
fn entering_a_mine_captures_it() {
    let mut a = map(Season::Summer, &[".n"]);
    a.set_cell(
        p(1, 0),
        Cell {
            terrain: Terrain::Mine,
            town: None,
            owner: Some(2),
            structure: None,
            castle: None,
            siege: None,
        },
    );
    let u = unit(1, 1, Kind::Cavalry, 0, 0);
    let plan = plan_move(&rs(), &a, &u, &[p(1, 0)], &mut dice(&[])).unwrap();
    assert_eq!(
        plan.captures,
        vec![Capture::Mine {
            x: 1,
            y: 0,
            from: Some(2)
        }]
    );
    // One's own mine is not captured again.
    let friend = unit(2, 2, Kind::Cavalry, 0, 0);
    assert!(plan_move(&rs(), &a, &friend, &[p(1, 0)], &mut dice(&[]))
        .unwrap()
        .captures
        .is_empty());
}
}

on_both_grids! {
fn entering_a_church_captures_its_whole_town() {
    let mut a = map(Season::Summer, &[".vc"]);
    a.set_cell(
        p(2, 0),
        Cell {
            terrain: Terrain::Church,
            town: Some(7),
            owner: Some(2),
            structure: None,
            castle: None,
            siege: None,
        },
    );
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let plan = plan_move(&rs(), &a, &u, &[p(1, 0), p(2, 0)], &mut dice(&[])).unwrap();
    assert_eq!(
        plan.captures,
        vec![Capture::Town {
            town: 7,
            x: 2,
            y: 0,
            from: Some(2)
        }]
    );
}
}

on_both_grids! {
fn a_star_finds_the_cheapest_path_around_forest() {
    // Winter: forest 3, mountain 10. Through the forest: 3+3+1 = 7; round the mountains by
    // the bottom row: on squares (0,1) (1,2) (2,2) (3,1) (3,0) = 5, on hexes (0,1) (1,2)
    // (2,2) (3,2) (3,1) (3,0) = 6.
    let a = map(Season::Winter, &[".ff.", ".MM.", "...."]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let (path, cost) = find_path(&rs(), &a, &u, p(3, 0)).unwrap();
    assert_eq!(cost, on_grid(5, 6));
    assert_eq!(path.last(), Some(&p(3, 0)));
    let plan = plan_move(&rs(), &a, &u, &path, &mut dice(&[])).unwrap();
    assert_eq!(plan.cost, on_grid(5, 6));
}
}

on_both_grids! {
fn a_star_refuses_when_the_cheapest_path_is_beyond_the_ap() {
    let a = map(Season::Summer, &["......"]);
    let mut u = unit(1, 1, Kind::Infantry, 0, 0);
    u.ap = 3;
    assert_eq!(
        find_path(&rs(), &a, &u, p(5, 0)),
        Err(Refusal::NotEnoughAp { need: 5, have: 3 })
    );
}
}

on_both_grids! {
fn a_star_refuses_when_no_legal_path_exists() {
    let mut a = map(Season::Summer, &[".X.", "XXX", "..."]);
    for x in 0..3 {
        for y in 0..3 {
            if a.terrain(p(x, y)) == Some(Terrain::Fort) {
                a.set_cell(
                    p(x, y),
                    Cell {
                        terrain: Terrain::Fort,
                        town: None,
                        owner: Some(2),
                        structure: Some(15),
                        castle: None,
                        siege: None,
                    },
                );
            }
        }
    }
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    assert_eq!(
        find_path(&rs(), &a, &u, p(0, 2)),
        Err(Refusal::NoPath { to: p(0, 2) })
    );
    assert_eq!(
        find_path(&rs(), &a, &u, p(1, 1)).unwrap_err().code(),
        "enemy_fort"
    );
}
}

on_both_grids! {
fn a_star_does_not_path_through_a_marsh() {
    // Through the marsh would cost 2+1 but must stop there; over a mountain it is 4+1 on
    // squares, 4+2+1 on hexes (a mountain, then a forest: the far side is two steps away).
    let a = map(Season::Summer, &["fMf", ".m.", "fMf"]);
    let u = unit(1, 1, Kind::Infantry, 0, 1);
    let (path, cost) = find_path(&rs(), &a, &u, p(2, 1)).unwrap();
    assert!(!path.contains(&p(1, 1)), "{path:?}");
    assert_eq!(cost, on_grid(5, 7));
}
}

#[test]
fn steps_by_terrain_answer_as_enter_does() {
    use crate::rules::movement::{enter, TerrainSteps};
    let rs = rs();
    // Cells of every kind of owner, structure and castle, on each side of the step.
    let variants = |t: Terrain| {
        let mut out = Vec::new();
        for owner in [None, Some(1), Some(2)] {
            for structure in [None, Some(0), Some(5)] {
                for castle in [None, Some(1)] {
                    out.push(Cell {
                        terrain: t,
                        owner,
                        structure,
                        castle,
                        ..Cell::plain()
                    });
                }
            }
        }
        out
    };
    let mut answered = 0;
    for kind in Kind::ALL {
        for season in [Season::Summer, Season::Winter] {
            let u = unit(1, 1, *kind, 0, 0);
            let steps = TerrainSteps::new(&rs, season, &u);
            for from in Terrain::ALL {
                for to in Terrain::ALL {
                    let Some(said) = steps.step(&rs, *from, *to) else {
                        continue;
                    };
                    answered += 1;
                    for a in variants(*from) {
                        for b in variants(*to) {
                            let e = enter(&rs, season, &u, (p(0, 0), &a), (p(1, 0), &b), false);
                            assert_eq!(e.ok(), said, "{kind:?} {season:?} {a:?} → {b:?}");
                        }
                    }
                }
            }
        }
    }
    // Most steps are answered by their terrains alone.
    assert!(answered > Kind::ALL.len() * 2 * 25 * 25 / 2, "{answered}");
}
