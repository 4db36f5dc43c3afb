use super::support::*;
use crate::rules::vision::{
    as_seen_by, is_hidden, line_of_sight, nation_sees, observers, perception, visible_cells,
};
use crate::rules::{Kind, Season, Terrain};

on_both_grids! {
fn perception_is_the_kind_plus_the_cell_vision_modifier() {
    let rs = rs();
    assert_eq!(perception(&rs, Kind::Infantry, Terrain::Plain), 3);
    assert_eq!(perception(&rs, Kind::Infantry, Terrain::Plateau), 4);
    assert_eq!(perception(&rs, Kind::Cavalry, Terrain::Mountain), 5);
    assert_eq!(perception(&rs, Kind::Voltigeurs, Terrain::Forest), 2);
    assert_eq!(perception(&rs, Kind::Infantry, Terrain::Forest), 1);
}
}

on_both_grids! {
fn perception_never_falls_below_one() {
    let text = crate::rules::ruleset::SHIPPED.replacen("vision = -2", "vision = -9", 1);
    let rs = crate::rules::Ruleset::from_toml(&text).unwrap();
    assert_eq!(perception(&rs, Kind::Infantry, Terrain::Forest), 1);
}
}

on_both_grids! {
fn a_nation_sees_every_cell_within_perception_of_any_of_its_companies() {
    let mut a = map(
        Season::Summer,
        &[
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
        ],
    );
    a.place(unit(1, 1, Kind::Infantry, 0, 0));
    a.place(unit(2, 1, Kind::Infantry, 9, 4));
    a.place(unit(3, 2, Kind::Cavalry, 5, 2));
    let seen = visible_cells(a.bounds, &observers(&rs(), &a, 1));
    // Each infantry sees its corner within perception 3, no overlap on a 10×5 map: a 4×4
    // square, or on hexes the 13 hexes of the corner within 3 steps (the odd rows shifted).
    assert_eq!(seen.len(), on_grid(16 + 16, 13 + 13));
    assert!(seen.contains(&on_grid(p(3, 3), p(1, 3))));
    assert!(!seen.contains(&p(4, 0)));
    assert!(!seen.contains(&p(5, 2)));
    assert!(seen.iter().all(|c| a.bounds.distance(*c, p(0, 0)) <= 3
        || a.bounds.distance(*c, p(9, 4)) <= 3));
}
}

on_both_grids! {
fn an_enemy_outside_the_nations_vision_is_not_seen() {
    let mut a = map(Season::Summer, &["........"]);
    a.place(unit(1, 1, Kind::Infantry, 0, 0));
    let near = unit(2, 2, Kind::Infantry, 3, 0);
    let far = unit(3, 2, Kind::Infantry, 4, 0);
    a.place(near.clone());
    a.place(far.clone());
    assert!(nation_sees(&rs(), &a, 1, &near));
    assert!(!nation_sees(&rs(), &a, 1, &far));
}
}

on_both_grids! {
fn voltigeurs_on_fields_are_hidden_unless_they_fired_this_turn_or_the_last() {
    let rs = rs();
    let mut v = unit(1, 1, Kind::Voltigeurs, 0, 0);
    assert!(is_hidden(&rs, &v, Terrain::Fields));
    assert!(!is_hidden(&rs, &v, Terrain::Plain));
    v.volley_recency = 2;
    assert!(!is_hidden(&rs, &v, Terrain::Fields));
    v.volley_recency = 1;
    assert!(!is_hidden(&rs, &v, Terrain::Fields));
    let i = unit(2, 1, Kind::Infantry, 0, 0);
    assert!(!is_hidden(&rs, &i, Terrain::Fields));
}
}

on_both_grids! {
fn a_hidden_company_is_seen_by_enemies_only_at_distance_one() {
    let mut a = map(Season::Summer, &["..dd"]);
    let hidden = unit(2, 2, Kind::Voltigeurs, 3, 0);
    a.place(hidden.clone());
    a.place(unit(1, 1, Kind::Infantry, 1, 0));
    assert!(!nation_sees(&rs(), &a, 1, &hidden));
    assert!(nation_sees(&rs(), &a, 2, &hidden), "its own nation sees it");
    a.place(unit(3, 1, Kind::Infantry, 2, 0));
    assert!(nation_sees(&rs(), &a, 1, &hidden));
}
}

on_both_grids! {
fn forest_village_town_church_and_mountain_block_line_of_sight() {
    let rs = rs();
    for (ch, blocks) in [
        ('f', true),
        ('v', true),
        ('t', true),
        ('c', true),
        ('M', true),
        ('.', false),
        ('d', false),
        ('X', false),
        ('r', false),
        ('p', false),
    ] {
        let row = format!(".{ch}.");
        let a = map(Season::Summer, &[row.as_str()]);
        assert_eq!(
            line_of_sight(&rs, &a, p(0, 0), p(2, 0)).is_err(),
            blocks,
            "{ch}"
        );
    }
}
}

on_both_grids! {
fn the_end_cells_of_a_line_never_block() {
    let a = map(Season::Summer, &["f.f"]);
    assert!(line_of_sight(&rs(), &a, p(0, 0), p(2, 0)).is_ok());
}
}

on_both_grids! {
fn a_shooter_on_a_plateau_fires_over_forest_but_not_over_mountains() {
    let rs = rs();
    let a = map(Season::Summer, &["pf.", "pM."]);
    assert!(line_of_sight(&rs, &a, p(0, 0), p(2, 0)).is_ok());
    assert_eq!(line_of_sight(&rs, &a, p(0, 1), p(2, 1)), Err(p(1, 1)));
    let a = map(Season::Summer, &[".f."]);
    assert_eq!(line_of_sight(&rs, &a, p(0, 0), p(2, 0)), Err(p(1, 0)));
    let a = map(Season::Summer, &["Mf."]);
    assert!(
        line_of_sight(&rs, &a, p(0, 0), p(2, 0)).is_ok(),
        "a mountain shooter too"
    );
}
}

on_both_grids! {
fn a_nation_plans_with_the_companies_it_sees_only() {
    let mut a = map(Season::Summer, &["..............", "....f........."]);
    a.place(unit(1, 1, Kind::Infantry, 0, 0)); // ours
    a.place(unit(2, 1, Kind::Cavalry, 13, 0)); // ours too, far away: always known
    a.place(unit(3, 2, Kind::Infantry, 2, 0)); // enemy in sight
    a.place(unit(4, 2, Kind::Infantry, 8, 0)); // 8 from our infantry, 5 from our cavalry
    a.place(unit(5, 2, Kind::Voltigeurs, 4, 1)); // hidden in the forest, 4 away
    let known = as_seen_by(&rs(), &a, 1);
    let ids: Vec<i32> = {
        let mut v: Vec<i32> = known.units().map(|u| u.id).collect();
        v.sort();
        v
    };
    // Perceptions are 3 and 4: the enemy at (8, 0) and the hidden voltigeurs are left out.
    assert_eq!(ids, vec![1, 2, 3]);
    // Cells are untouched.
    assert_eq!(known.terrain(p(4, 1)), a.terrain(p(4, 1)));
}
}
