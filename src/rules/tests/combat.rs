use super::support::*;
use crate::rules::combat::{melee, protected_losses, raw_losses, split_losses, volley, xp_for};
use crate::rules::state::Cell;
use crate::rules::{Kind, Refusal, Season, Terrain};

on_both_grids! {
fn raw_losses_are_damage_times_men_over_full_strength_rounded() {
    assert_eq!(raw_losses(15, 200, 200), 15);
    assert_eq!(raw_losses(20, 100, 200), 10);
    assert_eq!(raw_losses(15, 50, 200), 4); // 3.75
    assert_eq!(raw_losses(30, 60, 120), 15);
}
}

on_both_grids! {
fn protection_reduces_losses_and_a_negative_one_increases_them() {
    assert_eq!(protected_losses(15, 25, 200), 11); // 11.25
    assert_eq!(protected_losses(10, 75, 200), 3); // 2.5 rounds away from zero
    assert_eq!(protected_losses(10, -20, 200), 12);
    assert_eq!(protected_losses(10, 100, 200), 0);
    assert_eq!(
        protected_losses(40, 0, 25),
        25,
        "never more than the men present"
    );
}
}

on_both_grids! {
fn losses_split_by_effective_morale_with_confidence() {
    let rs = rs();
    // m = 5 + 10/10 = 6; wounded = round(11/2 × 6/5) = round(6.6) = 7.
    assert_eq!(split_losses(&rs, 11, 5, 10), (4, 7));
    // m = 5 - 1 = 4; wounded = round(12/2 × 4/5) = round(4.8) = 5.
    assert_eq!(split_losses(&rs, 12, 5, -10), (7, 5));
    // m clamped to 10: wounded = min(losses, round(losses/2 × 2)) = losses.
    assert_eq!(split_losses(&rs, 9, 10, 30), (0, 9));
    // m clamped to 0: everybody hit is killed.
    assert_eq!(split_losses(&rs, 9, 0, -10), (9, 0));
    // Both factors come from the ruleset: confidence 10 is 2 morale at 5 per point, and all
    // the losses at half morale are wounded at 100 %: m = 5 + 2 = 7, round(10 × 7/5) = 14 → 10.
    let mut other = rs.clone();
    other.combat.confidence_per_morale = 5;
    other.combat.wounded_percent = 100;
    assert_eq!(split_losses(&other, 10, 5, 10), (0, 10));
    // m = 3 + 2 = 5: round(10 × 5/5) = 10 at 100 %, 3 at 30 %.
    assert_eq!(split_losses(&other, 10, 3, 10), (0, 10));
    other.combat.wounded_percent = 30;
    assert_eq!(split_losses(&other, 10, 3, 10), (7, 3));
}
}

on_both_grids! {
fn xp_is_one_per_ten_losses_and_at_least_one() {
    let rs = rs();
    assert_eq!(xp_for(&rs, 0), 0);
    assert_eq!(xp_for(&rs, 3), 1);
    assert_eq!(xp_for(&rs, 19), 1);
    assert_eq!(xp_for(&rs, 20), 2);
}
}

on_both_grids! {
fn volley_on_forest_applies_25_percent_protection_and_forest_confidence() {
    let mut a = map(Season::Summer, &["..f"]);
    let shooter = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(shooter.clone());
    a.place(unit(2, 2, Kind::Infantry, 2, 0));
    let b = volley(&rs(), &a, &shooter, p(2, 0), &mut dice(&[15])).unwrap();
    assert_eq!(b.defender.damage_roll, Some(15));
    assert_eq!(b.defender.raw_losses, 15);
    assert_eq!(b.defender.protection, 25);
    assert_eq!(
        (b.defender.losses, b.defender.killed, b.defender.wounded),
        (11, 4, 7)
    );
    assert_eq!((b.defender_after.men, b.defender_after.wounded), (189, 7));
    assert_eq!(
        b.defender_after.morale, 5,
        "11 of 200 is not more than 10 %"
    );
    assert_eq!(b.attacker_after.ap, 24 - 4);
    assert_eq!(b.attacker_after.xp, 1);
    assert_eq!(b.attacker_after.volley_recency, 2);
    assert_eq!(b.attacker.losses, 0);
    assert_eq!(b.draws.len(), 1);
}
}

on_both_grids! {
fn a_breached_fort_protects_as_plain_but_keeps_the_forts_confidence() {
    let mut a = map(Season::Summer, &["..."]);
    a.set_cell(
        p(2, 0),
        Cell {
            terrain: Terrain::Fort,
            town: None,
            owner: Some(2),
            structure: Some(0),
            castle: None,
            siege: None,
        },
    );
    let shooter = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(shooter.clone());
    a.place(unit(2, 2, Kind::Infantry, 2, 0));
    let b = volley(&rs(), &a, &shooter, p(2, 0), &mut dice(&[10])).unwrap();
    // No protection: 10 losses. m = 5 + 30/10 = 8; wounded = round(10/2 × 8/5) = 8.
    assert_eq!(b.defender.protection, 0);
    assert_eq!(b.defender.confidence, 30);
    assert_eq!(
        (b.defender.losses, b.defender.killed, b.defender.wounded),
        (10, 2, 8)
    );
}
}

on_both_grids! {
fn volley_on_a_village_from_a_half_strength_company() {
    let mut a = map(Season::Summer, &["..v"]);
    let mut shooter = unit(1, 1, Kind::Infantry, 0, 0);
    shooter.men = 100;
    a.place(shooter.clone());
    a.place(unit(2, 2, Kind::Infantry, 2, 0));
    let b = volley(&rs(), &a, &shooter, p(2, 0), &mut dice(&[20])).unwrap();
    assert_eq!((b.defender.raw_losses, b.defender.losses), (10, 3));
}
}

on_both_grids! {
fn volley_on_a_marsh_increases_losses_by_20_percent() {
    let mut a = map(Season::Summer, &["..m"]);
    let shooter = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(shooter.clone());
    a.place(unit(2, 2, Kind::Infantry, 2, 0));
    let b = volley(&rs(), &a, &shooter, p(2, 0), &mut dice(&[10])).unwrap();
    assert_eq!(
        (b.defender.losses, b.defender.killed, b.defender.wounded),
        (12, 7, 5)
    );
}
}

on_both_grids! {
fn a_side_losing_more_than_ten_percent_loses_one_morale() {
    let mut a = map(Season::Summer, &["..."]);
    // Sappers at full strength: losses equal the 5–10 damage roll.
    let shooter = unit(1, 1, Kind::Sappers, 1, 0);
    a.place(shooter.clone());
    let mut target = unit(2, 2, Kind::Infantry, 2, 0);
    target.men = 50;
    a.place(target.clone());
    // 6 of 50 is more than 10 %.
    let b = volley(&rs(), &a, &shooter, p(2, 0), &mut dice(&[6])).unwrap();
    assert_eq!((b.defender.losses, b.defender_after.morale), (6, 4));
    // 5 of 50 is exactly 10 %: no loss.
    let b = volley(&rs(), &a, &shooter, p(2, 0), &mut dice(&[5])).unwrap();
    assert_eq!((b.defender.losses, b.defender_after.morale), (5, 5));
}
}

on_both_grids! {
fn a_company_with_no_men_left_is_destroyed_and_its_wounded_lost() {
    let mut a = map(Season::Summer, &["..."]);
    let shooter = unit(1, 1, Kind::Artillery, 0, 0);
    a.place(shooter.clone());
    let mut target = unit(2, 2, Kind::Infantry, 2, 0);
    target.men = 8;
    target.wounded = 30;
    a.place(target.clone());
    let b = volley(&rs(), &a, &shooter, p(2, 0), &mut dice(&[40])).unwrap();
    assert_eq!(b.defender.losses, 8);
    assert!(b.defender.destroyed);
    assert_eq!((b.defender_after.men, b.defender_after.wounded), (0, 0));
    assert_eq!(b.attacker_after.ap, 16 - 6, "artillery volleys cost 6");
}
}

on_both_grids! {
fn volley_refusals() {
    let rs = rs();
    let mut a = map(Season::Summer, &["....f...", "......d."]);
    let inf = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(inf.clone());
    a.place(unit(2, 2, Kind::Infantry, 3, 0)); // out of range 2
    a.place(unit(3, 2, Kind::Infantry, 5, 0)); // behind forest from (3,.. ) later
    a.place(unit(5, 2, Kind::Voltigeurs, 6, 1)); // hidden on fields
    let cav = unit(4, 1, Kind::Cavalry, 1, 1);
    a.place(cav.clone());
    assert_eq!(
        volley(&rs, &a, &cav, p(3, 0), &mut dice(&[10])),
        Err(Refusal::CannotVolley(Kind::Cavalry))
    );
    assert_eq!(
        volley(&rs, &a, &inf, p(3, 0), &mut dice(&[10])),
        Err(Refusal::OutOfRange {
            distance: 3,
            range: 2
        })
    );
    assert_eq!(
        volley(&rs, &a, &inf, p(7, 1), &mut dice(&[10])),
        Err(Refusal::NotSeen),
        "an empty cell"
    );
    assert_eq!(
        volley(&rs, &a, &inf, p(1, 1), &mut dice(&[10]))
            .unwrap_err()
            .code(),
        "own_nation",
        "own nation"
    );
    // Line of sight: an infantry at (3,1)... use a shooter at (3,0) firing at (5,0) over the forest.
    let mut b = a.clone();
    let s2 = unit(6, 1, Kind::Infantry, 3, 0);
    b.place(s2.clone());
    assert_eq!(
        volley(&rs, &b, &s2, p(5, 0), &mut dice(&[10])),
        Err(Refusal::NoLineOfSight {
            blocked_at: p(4, 0)
        })
    );
    // Hidden voltigeurs, seen from next to them, can still only be attacked in melee.
    let s3 = unit(7, 1, Kind::Infantry, 5, 1);
    b.place(s3.clone());
    assert_eq!(
        volley(&rs, &b, &s3, p(6, 1), &mut dice(&[10])),
        Err(Refusal::HiddenTarget)
    );
    let mut tired = s3.clone();
    tired.ap = 3;
    b.place(tired.clone());
    b.place(unit(8, 2, Kind::Infantry, 5, 0));
    assert_eq!(
        volley(&rs, &b, &tired, p(5, 0), &mut dice(&[10])),
        Err(Refusal::NotEnoughAp { need: 4, have: 3 })
    );
}
}

on_both_grids! {
fn artillery_on_a_plateau_reaches_one_cell_further() {
    let rs = rs();
    let mut a = map(Season::Summer, &["p.....", "......"]);
    let gun = unit(1, 1, Kind::Artillery, 0, 0);
    a.place(gun.clone());
    // A cavalry scout sees the targets; the guns see only 4 cells from the plateau.
    a.place(unit(9, 1, Kind::Cavalry, 3, 1));
    a.place(unit(2, 2, Kind::Infantry, 5, 0));
    assert!(volley(&rs, &a, &gun, p(5, 0), &mut dice(&[20])).is_ok());
    let gun2 = unit(3, 1, Kind::Artillery, 0, 1);
    a.place(gun2.clone());
    a.place(unit(4, 2, Kind::Infantry, 5, 1));
    assert_eq!(
        volley(&rs, &a, &gun2, p(5, 1), &mut dice(&[20])),
        Err(Refusal::OutOfRange {
            distance: 5,
            range: 4
        })
    );
}
}

on_both_grids! {
fn melee_is_simultaneous_with_strike_back() {
    let mut a = map(Season::Summer, &[".."]);
    let cav = unit(1, 1, Kind::Cavalry, 0, 0);
    a.place(cav.clone());
    a.place(unit(2, 2, Kind::Infantry, 1, 0));
    let b = melee(&rs(), &a, &cav, p(1, 0), &mut dice(&[20, 12])).unwrap();
    // Defender: round(20 × 120/120) = 20 on plain; m = 5: wounded = round(20/2 × 5/5) = 10.
    assert_eq!(
        (b.defender.losses, b.defender.killed, b.defender.wounded),
        (20, 10, 10)
    );
    // Attacker: round(12 × 200/200) = 12, no protection.
    assert_eq!((b.attacker.losses, b.attacker.protection), (12, 0));
    assert_eq!(b.attacker_after.men, 108);
    assert_eq!(b.attacker_after.ap, 32 - 6);
    assert_eq!(b.attacker_after.xp, 2);
    // 12 of 120 is exactly 10 %: no morale lost; 20 of 200 neither.
    assert_eq!((b.attacker_after.morale, b.defender_after.morale), (5, 5));
    assert_eq!(b.draws.len(), 2);
}
}

on_both_grids! {
fn melee_plateau_protection_applies_only_against_an_attacker_on_a_slope() {
    let rs = rs();
    let mut a = map(Season::Summer, &["sp", ".."]);
    a.place(unit(2, 2, Kind::Infantry, 1, 0));
    let from_slope = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(from_slope.clone());
    let b = melee(&rs, &a, &from_slope, p(1, 0), &mut dice(&[20, 10])).unwrap();
    assert_eq!((b.defender.protection, b.defender.losses), (50, 10));
    let from_plain = unit(3, 1, Kind::Infantry, 0, 1);
    a.place(from_plain.clone());
    let b = melee(&rs, &a, &from_plain, p(1, 0), &mut dice(&[20, 10])).unwrap();
    assert_eq!((b.defender.protection, b.defender.losses), (0, 20));
}
}

on_both_grids! {
fn melee_against_a_mountain_gets_its_25_percent() {
    let mut a = map(Season::Summer, &[".M"]);
    let att = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(att.clone());
    a.place(unit(2, 2, Kind::Infantry, 1, 0));
    let b = melee(&rs(), &a, &att, p(1, 0), &mut dice(&[20, 10])).unwrap();
    assert_eq!(b.defender.losses, 15);
}
}

on_both_grids! {
fn melee_refusals() {
    let rs = rs();
    let mut a = map(Season::Summer, &[".X.W", "...."]);
    let inf = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(inf.clone());
    a.place(unit(2, 2, Kind::Infantry, 1, 0)); // in a fort
    a.place(unit(3, 2, Kind::Infantry, 3, 0)); // in fortifications
    a.place(unit(4, 2, Kind::Infantry, 0, 1));
    assert_eq!(
        melee(&rs, &a, &inf, p(1, 0), &mut dice(&[10, 10])),
        Err(Refusal::RangedOnly {
            terrain: Terrain::Fort
        })
    );
    let inf2 = unit(5, 1, Kind::Infantry, 2, 1);
    a.place(inf2.clone());
    assert_eq!(
        melee(&rs, &a, &inf2, p(3, 0), &mut dice(&[10, 10]))
            .unwrap_err()
            .code(),
        "ranged_only"
    );
    assert_eq!(
        melee(&rs, &a, &inf, p(3, 0), &mut dice(&[10, 10]))
            .unwrap_err()
            .code(),
        "not_adjacent"
    );
    let gun = unit(6, 1, Kind::Artillery, 1, 1);
    a.place(gun.clone());
    assert_eq!(
        melee(&rs, &a, &gun, p(0, 1), &mut dice(&[10, 10])),
        Err(Refusal::CannotMelee(Kind::Artillery))
    );
    // A breached fort protects as plain and, in the shipped ruleset, lets melee in; a ruleset
    // may keep it ranged-only.
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
    assert!(melee(&rs, &a, &inf, p(1, 0), &mut dice(&[10, 10])).is_ok());
    let mut closed = rs.clone();
    closed.combat.breach_opens_melee = false;
    assert_eq!(
        melee(&closed, &a, &inf, p(1, 0), &mut dice(&[10, 10]))
            .unwrap_err()
            .code(),
        "ranged_only"
    );
}
}

on_both_grids! {
fn artillery_attacked_in_melee_strikes_back_for_nothing() {
    let mut a = map(Season::Summer, &[".."]);
    let cav = unit(1, 1, Kind::Cavalry, 0, 0);
    a.place(cav.clone());
    a.place(unit(2, 2, Kind::Artillery, 1, 0));
    let b = melee(&rs(), &a, &cav, p(1, 0), &mut dice(&[30])).unwrap();
    assert_eq!(b.attacker.losses, 0);
    assert_eq!(b.attacker.damage_roll, None);
    assert_eq!(b.defender.losses, 30);
    assert_eq!(b.draws.len(), 1);
}
}

on_both_grids! {
fn hidden_voltigeurs_can_be_attacked_in_melee() {
    let mut a = map(Season::Summer, &[".d"]);
    let att = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(att.clone());
    a.place(unit(2, 2, Kind::Voltigeurs, 1, 0));
    assert!(melee(&rs(), &a, &att, p(1, 0), &mut dice(&[10, 6])).is_ok());
}
}

on_both_grids! {
fn an_unseen_target_is_not_found_before_any_other_refusal() {
    // 12 cells apart: beyond every perception, so the refusal must not be `not_adjacent`
    // (which would name the target's cell).
    let mut a = map(Season::Summer, &["............."]);
    let inf = unit(1, 1, Kind::Infantry, 0, 0);
    a.place(inf.clone());
    a.place(unit(2, 2, Kind::Infantry, 12, 0));
    assert_eq!(
        melee(&rs(), &a, &inf, p(12, 0), &mut dice(&[10, 10])),
        Err(Refusal::NotSeen)
    );
    assert_eq!(
        volley(&rs(), &a, &inf, p(12, 0), &mut dice(&[10])),
        Err(Refusal::NotSeen)
    );
}
}
