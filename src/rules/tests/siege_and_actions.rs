use super::support::*;
use crate::rules::actions::{heal, may_raise, raise, reinforce, Shortfall};
use crate::rules::siege::{bombard, build_bridge, repair};
use crate::rules::state::{Cell, Unit};
use crate::rules::{Kind, Refusal, Season, Terrain};

fn fort(owner: i32, structure: i32) -> Cell {
    Cell {
        terrain: Terrain::Fort,
        town: None,
        owner: Some(owner),
        structure: Some(structure),
        castle: None,
        siege: None,
    }
}

on_both_grids! {
fn bombard_takes_one_to_three_points_and_breaches_at_zero() {
    let rs = rs();
    let mut a = map(Season::Summer, &[".....X"]);
    let gun = unit(1, 1, Kind::Artillery, 1, 0);
    let s = bombard(&rs, &a, &gun, p(5, 0), &mut dice(&[3])).unwrap();
    assert_eq!(
        (s.before, s.after, s.breached, s.ap_cost),
        (15, 12, false, 6)
    );
    a.set_cell(p(5, 0), fort(2, 2));
    let s = bombard(&rs, &a, &gun, p(5, 0), &mut dice(&[3])).unwrap();
    assert_eq!((s.before, s.after, s.breached), (2, 0, true));
}
}

on_both_grids! {
fn bombard_refusals() {
    let rs = rs();
    let mut a = map(Season::Summer, &["..f..X", "......"]);
    let gun = unit(1, 1, Kind::Artillery, 0, 0);
    assert_eq!(
        bombard(&rs, &a, &gun, p(5, 0), &mut dice(&[1])),
        Err(Refusal::OutOfRange {
            distance: 5,
            range: 4
        })
    );
    let gun = unit(1, 1, Kind::Artillery, 1, 0);
    assert_eq!(
        bombard(&rs, &a, &gun, p(5, 0), &mut dice(&[1])),
        Err(Refusal::NoLineOfSight {
            blocked_at: p(2, 0)
        })
    );
    let inf = unit(2, 1, Kind::Infantry, 4, 1);
    assert_eq!(
        bombard(&rs, &a, &inf, p(5, 0), &mut dice(&[1]))
            .unwrap_err()
            .code(),
        "cannot_bombard"
    );
    let gun = unit(3, 1, Kind::Artillery, 3, 1);
    assert_eq!(
        bombard(&rs, &a, &gun, p(4, 0), &mut dice(&[1]))
            .unwrap_err()
            .code(),
        "no_structure",
        "plain has no structure"
    );
    a.set_cell(p(5, 0), fort(1, 15));
    assert_eq!(
        bombard(&rs, &a, &gun, p(5, 0), &mut dice(&[1]))
            .unwrap_err()
            .code(),
        "own_nation",
        "own fort"
    );
}
}

on_both_grids! {
fn sappers_repair_two_points_up_to_the_maximum_and_unbreach() {
    let rs = rs();
    let mut a = map(Season::Summer, &["..W"]);
    a.set_cell(
        p(2, 0),
        Cell {
            terrain: Terrain::Fortifications,
            town: None,
            owner: Some(1),
            structure: Some(0),
            castle: None,
            siege: None,
        },
    );
    let sap = unit(1, 1, Kind::Sappers, 1, 0);
    let s = repair(&rs, &a, &sap, p(2, 0)).unwrap();
    assert_eq!((s.before, s.after, s.breached, s.ap_cost), (0, 2, false, 4));
    a.set_cell(
        p(2, 0),
        Cell {
            terrain: Terrain::Fortifications,
            town: None,
            owner: Some(1),
            structure: Some(11),
            castle: None,
            siege: None,
        },
    );
    assert_eq!(repair(&rs, &a, &sap, p(2, 0)).unwrap().after, 12);
}
}

on_both_grids! {
fn repair_refusals() {
    let rs = rs();
    let mut a = map(Season::Summer, &["..X"]);
    let sap = unit(1, 1, Kind::Sappers, 1, 0);
    assert_eq!(
        repair(&rs, &a, &sap, p(2, 0)),
        Err(Refusal::NotOwned(p(2, 0)))
    );
    a.set_cell(p(2, 0), fort(1, 10));
    let inf = unit(2, 1, Kind::Infantry, 1, 0);
    assert_eq!(
        repair(&rs, &a, &inf, p(2, 0)),
        Err(Refusal::NotSappers(Kind::Infantry))
    );
    let far = unit(3, 1, Kind::Sappers, 0, 0);
    assert_eq!(
        repair(&rs, &a, &far, p(2, 0)).unwrap_err().code(),
        "not_adjacent"
    );
    a.set_cell(p(2, 0), fort(1, 15));
    assert_eq!(
        repair(&rs, &a, &sap, p(2, 0)).unwrap_err().code(),
        "full_structure",
        "already full"
    );
}
}

on_both_grids! {
fn sappers_bridge_a_river_next_to_them() {
    let rs = rs();
    let a = map(Season::Summer, &[".r.r"]);
    let sap = unit(1, 1, Kind::Sappers, 0, 0);
    let b = build_bridge(&rs, &a, &sap, p(1, 0)).unwrap();
    assert_eq!(
        (b.from, b.to, b.ap_cost),
        (Terrain::River, Terrain::Bridge, 8)
    );
    assert_eq!(
        build_bridge(&rs, &a, &sap, p(3, 0)).unwrap_err().code(),
        "not_adjacent"
    );
    assert_eq!(
        build_bridge(&rs, &a, &sap, p(0, 0)),
        Err(Refusal::NotRiver(p(0, 0))),
        "their own plain cell"
    );
    let inf = unit(2, 1, Kind::Infantry, 0, 0);
    assert_eq!(
        build_bridge(&rs, &a, &inf, p(1, 0)),
        Err(Refusal::NotSappers(Kind::Infantry))
    );
}
}

on_both_grids! {
fn heal_returns_ten_wounded_and_fifteen_on_animals() {
    let rs = rs();
    let mut u = unit(1, 1, Kind::Infantry, 0, 0);
    u.men = 150;
    u.wounded = 30;
    let plain = Cell::plain();
    let h = heal(&rs, &u, &plain).unwrap();
    assert_eq!(
        (h.healed, h.men_after, h.wounded_after, h.ap_cost),
        (10, 160, 20, 4)
    );
    let animals = Cell {
        terrain: Terrain::Animals,
        ..Cell::plain()
    };
    assert_eq!(heal(&rs, &u, &animals).unwrap().healed, 15);
    u.wounded = 4;
    assert_eq!(heal(&rs, &u, &animals).unwrap().healed, 4);
    u.wounded = 0;
    assert_eq!(heal(&rs, &u, &plain), Err(Refusal::NoWounded));
    u.wounded = 20;
    u.ap = 3;
    assert_eq!(
        heal(&rs, &u, &plain),
        Err(Refusal::NotEnoughAp { need: 4, have: 3 })
    );
}
}

on_both_grids! {
fn reinforce_moves_reserve_men_into_the_company_at_one_resource_each() {
    let rs = rs();
    let mut u = unit(1, 1, Kind::Infantry, 0, 0);
    u.men = 150;
    let town = Cell {
        terrain: Terrain::Town,
        town: Some(1),
        owner: Some(1),
        structure: None,
        castle: None,
        siege: None,
    };
    let r = reinforce(&rs, &u, p(0, 0), &town, 60, 1000, 40).unwrap();
    assert_eq!(
        (
            r.men_after,
            r.reserve_after,
            r.treasury_after,
            r.cost,
            r.ap_cost
        ),
        (190, 20, 960, 40, 2)
    );
    // Up to full strength: 51 asked, 50 of room.
    let r = reinforce(&rs, &u, p(0, 0), &town, 60, 1000, 51).unwrap();
    assert_eq!(
        (r.men, r.asked, r.limited_by, r.men_after, r.cost),
        (50, 51, Some(Shortfall::Room), 200, 50)
    );
    // A smaller reserve reinforces as far as it goes.
    let r = reinforce(&rs, &u, p(0, 0), &town, 30, 1000, 40).unwrap();
    assert_eq!(
        (r.men, r.limited_by, r.reserve_after, r.treasury_after),
        (30, Some(Shortfall::Reserve), 0, 970)
    );
    // So does a smaller treasury, at one resource a man.
    let r = reinforce(&rs, &u, p(0, 0), &town, 60, 39, 40).unwrap();
    assert_eq!(
        (r.men, r.limited_by, r.treasury_after, r.men_after),
        (39, Some(Shortfall::Treasury), 0, 189)
    );
    // Refused only when not one man can join.
    assert_eq!(
        reinforce(&rs, &u, p(0, 0), &town, 60, 0, 40),
        Err(Refusal::Treasury { need: 1, have: 0 })
    );
    assert_eq!(
        reinforce(&rs, &u, p(0, 0), &town, 0, 1000, 40),
        Err(Refusal::ReserveEmpty)
    );
    let full = Unit {
        men: 200,
        ..u.clone()
    };
    assert_eq!(
        reinforce(&rs, &full, p(0, 0), &town, 60, 1000, 40),
        Err(Refusal::FullStrength(200))
    );
    assert_eq!(
        reinforce(&rs, &u, p(0, 0), &town, 60, 1000, 0)
            .unwrap_err()
            .code(),
        "invalid",
        "a number of men to ask for"
    );
    let enemy_town = Cell {
        owner: Some(2),
        ..town
    };
    assert_eq!(
        reinforce(&rs, &u, p(0, 0), &enemy_town, 60, 1000, 40),
        Err(Refusal::NotOwned(p(0, 0)))
    );
    let farm = Cell {
        terrain: Terrain::Farm,
        town: None,
        owner: Some(1),
        structure: None,
        castle: None,
        siege: None,
    };
    assert!(reinforce(&rs, &u, p(0, 0), &farm, 60, 1000, 40).is_ok());
    assert_eq!(
        reinforce(&rs, &u, p(0, 0), &Cell::plain(), 60, 1000, 40),
        Err(Refusal::NoReinforcementHere(Terrain::Plain))
    );
    // The church is its own terrain: in the shipped rules it does not take reinforcements.
    let church = Cell {
        terrain: Terrain::Church,
        ..town
    };
    assert_eq!(
        reinforce(&rs, &u, p(0, 0), &church, 60, 1000, 40)
            .unwrap_err()
            .code(),
        "no_reinforcement_here"
    );
}
}

on_both_grids! {
fn raise_places_a_full_company_at_spawn_or_the_nearest_free_cell() {
    let rs = rs();
    let mut a = map(Season::Summer, &["m....", ".....", "....."]);
    let r = raise(&rs, &a, 1, Kind::Artillery, 0, 1000, p(1, 1)).unwrap();
    assert_eq!(
        (r.pos, r.men, r.ap, r.morale, r.cost),
        (p(1, 1), 60, 16, 5, 100)
    );
    a.place(unit(9, 1, Kind::Infantry, 1, 1));
    // Nearest at distance 1, first by row then column; (0,0) is marsh, impassable to guns
    // (and on hexes no neighbour of (1, 1)).
    let r = raise(&rs, &a, 1, Kind::Artillery, 0, 1000, p(1, 1)).unwrap();
    assert_eq!(r.pos, p(1, 0));
    let r = raise(&rs, &a, 1, Kind::Infantry, 0, 1000, p(1, 1)).unwrap();
    assert_eq!(r.pos, on_grid(p(0, 0), p(1, 0)));
    assert_eq!(
        raise(&rs, &a, 1, Kind::Infantry, 3, 1000, p(1, 1)),
        Err(Refusal::CompanyLimit(3))
    );
    assert_eq!(
        raise(&rs, &a, 1, Kind::Infantry, 0, 99, p(1, 1)),
        Err(Refusal::Treasury {
            need: 100,
            have: 99
        })
    );
    // Raising may cost the new company AP of its first day.
    let mut tired = rs.clone();
    tired.actions.raise = 6;
    let r = raise(&tired, &a, 1, Kind::Infantry, 0, 1000, p(1, 1)).unwrap();
    assert_eq!(r.ap, 24 - 6);
}
}

#[test]
fn may_raise_under_the_limit_when_the_treasury_pays() {
    let rs = rs();
    assert_eq!(may_raise(&rs, 0, 100), Ok(100));
    assert_eq!(may_raise(&rs, 2, 1000), Ok(100));
    // The limit is said before the treasury: a player at the limit cannot raise at any price.
    assert_eq!(may_raise(&rs, 3, 0), Err(Refusal::CompanyLimit(3)));
    assert_eq!(may_raise(&rs, 4, 1000), Err(Refusal::CompanyLimit(3)));
    assert_eq!(
        may_raise(&rs, 0, 99),
        Err(Refusal::Treasury {
            need: 100,
            have: 99
        })
    );
    assert_eq!(
        may_raise(&rs, 1, -5),
        Err(Refusal::Treasury {
            need: 100,
            have: -5
        })
    );
}
