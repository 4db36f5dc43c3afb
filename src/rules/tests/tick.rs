use super::support::*;
use crate::rules::tick::{
    near_headquarters, season_after, turn_company, turn_reserve, turn_treasury, CompanyTurn,
};
use crate::rules::{Kind, Season};

fn c(men: i32, wounded: i32, ap: i32, morale: i32, volley_recency: i32) -> CompanyTurn {
    CompanyTurn {
        men,
        wounded,
        ap,
        morale,
        volley_recency,
    }
}

on_both_grids! {
fn a_turn_gives_each_kind_its_ap_per_turn_up_to_max() {
    let rs = rs();
    for (kind, per_turn, max) in [
        (Kind::Infantry, 6, 24),
        (Kind::Voltigeurs, 7, 28),
        (Kind::Cavalry, 8, 32),
        (Kind::Artillery, 4, 16),
        (Kind::Sappers, 6, 24),
    ] {
        assert_eq!(
            turn_company(&rs, kind, c(50, 0, 0, 5, 0), false).ap,
            per_turn,
            "{kind}"
        );
        assert_eq!(
            turn_company(&rs, kind, c(50, 0, max - 1, 5, 0), false).ap,
            max,
            "{kind}"
        );
        assert_eq!(
            turn_company(&rs, kind, c(50, 0, max, 5, 0), false).ap,
            max,
            "{kind}"
        );
    }
}
}

on_both_grids! {
fn a_turn_raises_morale_by_one_up_to_ten() {
    let rs = rs();
    assert_eq!(
        turn_company(&rs, Kind::Infantry, c(100, 0, 0, 5, 0), false).morale,
        6
    );
    assert_eq!(
        turn_company(&rs, Kind::Infantry, c(100, 0, 0, 10, 0), false).morale,
        10
    );
}
}

on_both_grids! {
fn a_turn_near_the_regiment_headquarters_gives_one_more_morale() {
    let rs = rs();
    assert_eq!(
        turn_company(&rs, Kind::Infantry, c(100, 0, 0, 5, 0), true).morale,
        7
    );
    assert_eq!(
        turn_company(&rs, Kind::Infantry, c(100, 0, 0, 9, 0), true).morale,
        10
    );
    assert!(near_headquarters(
        &rs,
        crate::rules::Grid::Square,
        p(5, 5),
        Some(p(8, 2))
    ));
    assert!(!near_headquarters(
        &rs,
        crate::rules::Grid::Square,
        p(5, 5),
        Some(p(9, 5))
    ));
    assert!(!near_headquarters(
        &rs,
        crate::rules::Grid::Square,
        p(5, 5),
        None
    ));
}
}

on_both_grids! {
fn a_turn_heals_five_wounded_never_past_full_strength() {
    let rs = rs();
    let t = turn_company(&rs, Kind::Infantry, c(100, 12, 0, 5, 0), false);
    assert_eq!((t.men, t.wounded), (105, 7));
    let t = turn_company(&rs, Kind::Infantry, c(150, 3, 0, 5, 0), false);
    assert_eq!((t.men, t.wounded), (153, 0));
    let t = turn_company(&rs, Kind::Infantry, c(198, 9, 0, 5, 0), false);
    assert_eq!((t.men, t.wounded), (200, 7));
}
}

on_both_grids! {
fn a_turn_ages_the_volley_flag() {
    let rs = rs();
    assert_eq!(
        turn_company(&rs, Kind::Voltigeurs, c(100, 0, 0, 5, 2), false).volley_recency,
        1
    );
    assert_eq!(
        turn_company(&rs, Kind::Voltigeurs, c(100, 0, 0, 5, 1), false).volley_recency,
        0
    );
    assert_eq!(
        turn_company(&rs, Kind::Voltigeurs, c(100, 0, 0, 5, 0), false).volley_recency,
        0
    );
}
}

on_both_grids! {
fn a_turn_grows_the_reserve_by_fifteen_and_pays_ten_per_mine() {
    let rs = rs();
    assert_eq!(turn_reserve(&rs, 0), 15);
    assert_eq!(turn_reserve(&rs, 40), 55);
    let mine = rs.terrain(crate::rules::Terrain::Mine).output;
    assert_eq!(turn_treasury(1000, [mine, mine, mine]), 1030);
    assert_eq!(turn_treasury(1000, []), 1000);
}
}

on_both_grids! {
fn a_season_tick_flips_summer_and_winter() {
    assert_eq!(season_after(Season::Summer), Season::Winter);
    assert_eq!(season_after(Season::Winter), Season::Summer);
}
}
