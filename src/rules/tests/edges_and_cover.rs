//! Ramparts on cell sides and cover along a volley's line (docs/rules.md §13), each on both
//! grids: the scenes lie along one row, where the two grids agree on neighbours and lines.
//! Dice roll 20, the most of an infantry's blow: 20 losses to a company of 150 men, more than
//! the 10 % that costs a point of morale.

use super::support::*;
use crate::rules::combat::{melee, volley, BattleNote};
use crate::rules::names::EdgeFeature;
use crate::rules::state::Unit;
use crate::rules::{Grid, Kind, Season, Side};

/// A defender of 150 men.
fn defender(kind: Kind, x: i32, y: i32) -> Unit {
    Unit {
        men: 150,
        ..unit(2, 2, kind, x, y)
    }
}

const GRIDS: [Grid; 2] = [Grid::Square, Grid::Hex];

#[test]
fn a_rampart_halves_melee_losses_and_keeps_morale_on_the_side_it_faces() {
    for g in GRIDS {
        let mut a = map_on(g, Season::Summer, &["....", "....", "...."]);
        let attacker = unit(1, 1, Kind::Infantry, 1, 1);
        a.place(attacker.clone());
        a.place(defender(Kind::Infantry, 2, 1));
        // Without the rampart: 20 losses of 150 men, more than 10 %: morale 5 → 4.
        let open = melee(&rs(), &a, &attacker, p(2, 1), &mut dice(&[20, 10])).unwrap();
        assert_eq!(open.defender.losses, 20, "{g:?}");
        assert_eq!(open.defender_after.morale, 4, "{g:?}");
        assert!(!open.notes.contains(&BattleNote::Rampart));
        // A rampart on the defender's west side, named from the attacker's cell (its east):
        // the same edge.
        a.set_edge(p(1, 1), Side::E, Some(EdgeFeature::Rampart));
        assert_eq!(a.edge(p(2, 1), Side::W), Some(EdgeFeature::Rampart));
        let held = melee(&rs(), &a, &attacker, p(2, 1), &mut dice(&[20, 10])).unwrap();
        assert_eq!(held.defender.losses, 10, "{g:?}: half the losses");
        assert_eq!(held.defender_after.morale, 5, "{g:?}: no morale lost");
        assert!(held.notes.contains(&BattleNote::Rampart));
        // The attacker's own losses are untouched by it.
        assert_eq!(held.attacker.losses, open.attacker.losses);
        // From the other side, the rampart faces away: nothing.
        let mut b = a.clone();
        let other = unit(3, 1, Kind::Infantry, 3, 1);
        b.remove(p(1, 1));
        b.place(other.clone());
        let behind = melee(&rs(), &b, &other, p(2, 1), &mut dice(&[20, 10])).unwrap();
        assert_eq!(behind.defender.losses, 20, "{g:?}");
        assert!(!behind.notes.contains(&BattleNote::Rampart));
    }
}

#[test]
fn cavalry_behind_a_rampart_gets_nothing_of_it() {
    for g in GRIDS {
        let mut a = map_on(g, Season::Summer, &["....", "...."]);
        let attacker = unit(1, 1, Kind::Infantry, 1, 0);
        a.place(attacker.clone());
        a.place(defender(Kind::Cavalry, 2, 0));
        a.set_edge(p(2, 0), Side::W, Some(EdgeFeature::Rampart));
        let b = melee(&rs(), &a, &attacker, p(2, 0), &mut dice(&[20, 10])).unwrap();
        let raw = b.defender.raw_losses;
        assert_eq!(b.defender.losses, raw.min(b.defender.men_before), "{g:?}");
        assert!(!b.notes.contains(&BattleNote::Rampart));
    }
}

#[test]
fn on_a_square_grid_a_diagonal_blow_crosses_both_sides_of_its_corner() {
    let mut a = map(Season::Summer, &["...", "...", "..."]);
    let attacker = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(attacker.clone());
    a.place(defender(Kind::Infantry, 1, 1));
    for side in [Side::N, Side::W] {
        let mut b = a.clone();
        b.set_edge(p(1, 1), side, Some(EdgeFeature::Rampart));
        let fight = melee(&rs(), &b, &attacker, p(1, 1), &mut dice(&[20, 10])).unwrap();
        assert_eq!(fight.defender.losses, 10, "{side:?}");
    }
    // The east side is not on the way.
    a.set_edge(p(1, 1), Side::E, Some(EdgeFeature::Rampart));
    let fight = melee(&rs(), &a, &attacker, p(1, 1), &mut dice(&[20, 10])).unwrap();
    assert_eq!(fight.defender.losses, 20);
}

#[test]
fn a_volley_through_a_rampart_costs_no_morale_but_the_same_men() {
    for g in GRIDS {
        let mut a = map_on(g, Season::Summer, &["....", "...."]);
        let shooter = unit(1, 1, Kind::Infantry, 0, 1);
        a.place(shooter.clone());
        a.place(defender(Kind::Infantry, 2, 1));
        let open = volley(&rs(), &a, &shooter, p(2, 1), &mut dice(&[20])).unwrap();
        assert_eq!(
            open.defender_after.morale, 4,
            "{g:?}: 20 of 150 costs morale"
        );
        a.set_edge(p(2, 1), Side::W, Some(EdgeFeature::Rampart));
        let held = volley(&rs(), &a, &shooter, p(2, 1), &mut dice(&[20])).unwrap();
        assert_eq!(held.defender.losses, open.defender.losses, "{g:?}");
        assert_eq!(held.defender_after.morale, 5, "{g:?}");
        assert_eq!(held.notes, vec![BattleNote::Rampart]);
    }
}

#[test]
fn a_volley_past_cover_finds_its_target_obscured() {
    for g in GRIDS {
        // Fields and a farm (light) between; a plain row for the open shot.
        let a = map_on(g, Season::Summer, &[".d..", ".F..", "...."]);
        for (row, cover) in [(0, true), (1, true), (2, false)] {
            let shooter = unit(1, 1, Kind::Infantry, 0, row);
            let target = unit(2, 2, Kind::Infantry, 2, row);
            let mut b = a.clone();
            b.place(shooter.clone());
            b.place(target);
            let fight = volley(&rs(), &b, &shooter, p(2, row), &mut dice(&[20])).unwrap();
            assert_eq!(
                fight.defender.protection,
                if cover { 15 } else { 0 },
                "{g:?} row {row}"
            );
            assert_eq!(
                fight.notes.contains(&BattleNote::Obscured),
                cover,
                "{g:?} row {row}"
            );
        }
    }
}

#[test]
fn light_cover_can_be_for_foot_companies_only() {
    // A farm is light cover with a volley protection of its own (50 in the shipped rules).
    let mut rs = rs();
    let mut a = map(Season::Summer, &["..F"]);
    let shooter = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(shooter.clone());
    a.place(unit(2, 2, Kind::Cavalry, 2, 0));
    let farm = rs.terrain(crate::rules::Terrain::Farm).volley_protection;
    assert!(farm > 0);
    let shot = volley(&rs, &a, &shooter, p(2, 0), &mut dice(&[20])).unwrap();
    assert_eq!(shot.defender.protection, farm);
    rs.cover.light_foot_only = true;
    let shot = volley(&rs, &a, &shooter, p(2, 0), &mut dice(&[20])).unwrap();
    assert_eq!(shot.defender.protection, 0, "mounted: no cover of the farm");
    let mut foot = a.clone();
    foot.remove(p(2, 0));
    foot.place(unit(2, 2, Kind::Infantry, 2, 0));
    let shot = volley(&rs, &foot, &shooter, p(2, 0), &mut dice(&[20])).unwrap();
    assert_eq!(shot.defender.protection, farm);
}

#[test]
fn a_forest_fired_over_from_high_ground_is_cover_not_a_wall() {
    // From a plateau over a forest (which blocks the line of sight of the low ground): the
    // shot passes, and the forest between obscures its target.
    for g in GRIDS {
        let mut a = map_on(g, Season::Summer, &["pf.", "..."]);
        let shooter = unit(1, 1, Kind::Infantry, 0, 0);
        a.place(shooter.clone());
        a.place(defender(Kind::Infantry, 2, 0));
        let shot = volley(&rs(), &a, &shooter, p(2, 0), &mut dice(&[20])).unwrap();
        assert!(shot.notes.contains(&BattleNote::Obscured), "{g:?}");
        assert_eq!(shot.defender.protection, rs().cover.obscured, "{g:?}");
    }
}

#[test]
fn cover_and_ramparts_follow_each_grid_s_own_line() {
    // Off the row: from (0, 0) to (1, 2), two steps on either grid. Each grid draws its own
    // line; a rampart counts on the side (or, on squares from a diagonal, the sides) by which
    // that line enters the target's cell, and on no other.
    for g in GRIDS {
        let mut a = map_on(g, Season::Summer, &["...", "...", "..."]);
        let shooter = unit(1, 1, Kind::Infantry, 0, 0);
        a.place(shooter.clone());
        a.place(defender(Kind::Infantry, 1, 2));
        let line = a.bounds.line(p(0, 0), p(1, 2));
        let before = line[line.len() - 2];
        // Fields on every cell between: the target is obscured on either grid.
        let mut covered = a.clone();
        for q in &line[1..line.len() - 1] {
            covered.set_cell(
                *q,
                crate::rules::state::Cell {
                    terrain: crate::rules::Terrain::Fields,
                    ..crate::rules::state::Cell::plain()
                },
            );
        }
        let shot = volley(&rs(), &covered, &shooter, p(1, 2), &mut dice(&[20])).unwrap();
        assert!(shot.notes.contains(&BattleNote::Obscured), "{g:?} {line:?}");
        // A rampart on each side the line crosses into the target counts; the others do not.
        for &side in g.sides() {
            let mut b = a.clone();
            b.set_edge(p(1, 2), side, Some(EdgeFeature::Rampart));
            let shot = volley(&rs(), &b, &shooter, p(1, 2), &mut dice(&[20])).unwrap();
            let crossed = g.sides_towards(p(1, 2), before).contains(&side);
            assert_eq!(
                shot.notes.contains(&BattleNote::Rampart),
                crossed,
                "{g:?} side {side:?}, the line enters from {before:?}"
            );
        }
    }
    // On squares a diagonal step enters through the corner of two sides.
    assert_eq!(
        Grid::Square.sides_towards(p(2, 2), p(1, 1)),
        vec![Side::N, Side::W]
    );
}

#[test]
fn the_share_of_losses_behind_a_rampart_is_the_ruleset_s() {
    let mut rs = rs();
    rs.cover.rampart_melee_losses = 25;
    let mut a = map(Season::Summer, &["...."]);
    let attacker = unit(1, 1, Kind::Infantry, 1, 0);
    a.place(attacker.clone());
    a.place(defender(Kind::Infantry, 2, 0));
    a.set_edge(p(2, 0), Side::W, Some(EdgeFeature::Rampart));
    // 20 losses in the open, a quarter of them behind the rampart.
    let held = melee(&rs, &a, &attacker, p(2, 0), &mut dice(&[20, 10])).unwrap();
    assert_eq!(held.defender.losses, 5);
    let bad = crate::rules::ruleset::SHIPPED
        .replace("rampart_melee_losses = 50", "rampart_melee_losses = 101");
    let e = crate::rules::Ruleset::from_toml(&bad).unwrap_err();
    assert_eq!(e.key, "cover.rampart_melee_losses");
}
