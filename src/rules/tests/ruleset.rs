use super::support::*;
use crate::rules::movement::plan_move;
use crate::rules::ruleset::{Ability, Flag, Ruleset, SHIPPED};
use crate::rules::{Kind, Season, Terrain};

/// docs/rules.md §2, row by row: (terrain, AP summer, AP winter, volley %, melee %, confidence, vision).
const TERRAIN_TABLE: &[(Terrain, i32, i32, i32, i32, i32, i32)] = &[
    (Terrain::Plain, 1, 1, 0, 0, 0, 0),
    (Terrain::Marsh, 2, 3, -20, 0, -10, 0),
    (Terrain::Forest, 2, 3, 25, 0, 10, -2),
    (Terrain::River, 4, 2, 0, 0, 0, 0),
    (Terrain::Mountain, 4, 10, 25, 25, 10, 1),
    (Terrain::Plateau, 1, 1, 0, 50, 0, 1),
    (Terrain::Slope, 1, 1, 0, 0, 0, 0),
    (Terrain::Village, 1, 1, 75, 0, 20, 0),
    (Terrain::Town, 1, 1, 75, 0, 20, 0),
    (Terrain::Church, 1, 1, 75, 0, 20, 0),
    (Terrain::Farm, 1, 1, 50, 0, 10, 0),
    (Terrain::Mine, 1, 1, 50, 0, 10, 0),
    (Terrain::Mill, 1, 1, 0, 0, 0, 0),
    (Terrain::Fields, 1, 1, 0, 0, 0, 0),
    (Terrain::Animals, 1, 1, 0, 0, 0, 0),
    (Terrain::Road, 1, 1, 0, 0, 0, 0),
    (Terrain::Bridge, 1, 1, 0, 0, 0, 0),
    (Terrain::Fort, 1, 1, 85, 100, 30, 0),
    (Terrain::Fortifications, 1, 1, 85, 0, 30, 0),
    // §12: walls and towers are entered by their stairs for their own AP.
    (Terrain::Wall, 2, 2, 60, 50, 30, 1),
    (Terrain::FortifiedWall, 2, 2, 60, 50, 30, 1),
    (Terrain::Tower, 2, 2, 75, 50, 30, 1),
    (Terrain::Gate, 1, 1, 60, 50, 30, 1),
    (Terrain::Courtyard, 1, 1, 0, 0, 0, 0),
    (Terrain::Building, 1, 1, 0, 25, 10, 0),
];

#[test]
fn shipped_terrain_table_matches_rules_md_section_2() {
    let rs = rs();
    for &(t, summer, winter, volley, melee, conf, vision) in TERRAIN_TABLE {
        let r = rs.terrain(t);
        assert_eq!(
            (
                r.ap_summer,
                r.ap_winter,
                r.volley_protection,
                r.melee_protection,
                r.confidence,
                r.vision
            ),
            (summer, winter, volley, melee, conf, vision),
            "row {t}"
        );
    }
    assert_eq!(TERRAIN_TABLE.len(), Terrain::ALL.len());
}

#[test]
fn shipped_terrain_flags_match_rules_md_section_2() {
    let rs = rs();
    let has = |t: Terrain, f: Flag| rs.terrain(t).has(f);
    assert!(has(Terrain::Marsh, Flag::StopsMovement));
    assert!(has(Terrain::Church, Flag::StopsMovement));
    assert!(rs
        .terrain(Terrain::Marsh)
        .impassable_to
        .contains(&Kind::Artillery));
    assert!(rs
        .terrain(Terrain::Mountain)
        .impassable_to
        .contains(&Kind::Artillery));
    for t in [
        Terrain::Forest,
        Terrain::Mountain,
        Terrain::Village,
        Terrain::Town,
        Terrain::Church,
    ] {
        assert!(has(t, Flag::BlocksLos), "{t} blocks line of sight");
    }
    let blockers = Terrain::ALL
        .iter()
        .filter(|t| has(**t, Flag::BlocksLos))
        .count();
    // And §12's wall, fortified wall, tower and gate.
    assert_eq!(blockers, 9);
    assert!(has(Terrain::Church, Flag::TownCentre));
    assert!(has(Terrain::Mine, Flag::CapturedOnEntry));
    assert_eq!(rs.terrain(Terrain::Mine).output, 10);
    assert!(has(Terrain::Farm, Flag::Headquarters));
    assert!(rs
        .terrain(Terrain::Fields)
        .hides
        .contains(&Kind::Voltigeurs));
    assert_eq!(rs.terrain(Terrain::Animals).heal_bonus, 5);
    assert_eq!(rs.terrain(Terrain::Road).discount_chance, 30);
    assert_eq!(rs.terrain(Terrain::Road).discount, 1);
    assert_eq!(
        rs.terrain(Terrain::River).bridge_into,
        Some(Terrain::Bridge)
    );
    assert_eq!(
        rs.terrain(Terrain::Plateau)
            .enter_cost_from
            .get(&Terrain::Slope),
        Some(&2)
    );
    assert_eq!(
        rs.terrain(Terrain::Plateau)
            .range_bonus
            .get(&Kind::Artillery),
        Some(&1)
    );
    for t in [Terrain::Fort, Terrain::Fortifications] {
        assert!(has(t, Flag::OwnNationOnly) && has(t, Flag::RangedOnly));
    }
    assert_eq!(rs.terrain(Terrain::Fort).structure, Some(15));
    assert_eq!(rs.terrain(Terrain::Fortifications).structure, Some(12));
}

/// docs/rules.md §12: the castle's terrains, the kinds' classes and the castle's numbers.
#[test]
fn shipped_castle_rules_match_rules_md_section_10() {
    use crate::rules::names::Class;
    let rs = rs();
    let has = |t: Terrain, f: Flag| rs.terrain(t).has(f);
    for (t, structure) in [
        (Terrain::Wall, 12),
        (Terrain::FortifiedWall, 12),
        (Terrain::Tower, 15),
        (Terrain::Gate, 7),
    ] {
        assert!(
            has(t, Flag::Wall) && has(t, Flag::Ownable) && has(t, Flag::BlocksLos),
            "{t}"
        );
        assert!(
            has(t, Flag::CastlePart) && has(t, Flag::CloseQuarters),
            "{t}"
        );
        assert_eq!(rs.terrain(t).structure, Some(structure), "{t}");
    }
    assert!(has(Terrain::Wall, Flag::Climbable));
    assert!(
        !has(Terrain::FortifiedWall, Flag::Climbable) && !has(Terrain::FortifiedWall, Flag::Hooks)
    );
    assert!(has(Terrain::Tower, Flag::Hooks) && !has(Terrain::Tower, Flag::Climbable));
    assert!(has(Terrain::Gate, Flag::Gate));
    assert_eq!(
        rs.terrain(Terrain::Tower).range_bonus.get(&Kind::Artillery),
        Some(&1)
    );
    assert!(has(Terrain::Courtyard, Flag::CastlePart) && !has(Terrain::Courtyard, Flag::Wall));
    for f in [
        Flag::FootOnly,
        Flag::StopsMovement,
        Flag::NoVolley,
        Flag::CloseQuarters,
    ] {
        assert!(has(Terrain::Building, f), "building {f:?}");
    }
    for (k, class) in [
        (Kind::Infantry, Class::Foot),
        (Kind::Voltigeurs, Class::Foot),
        (Kind::Sappers, Class::Foot),
        (Kind::Cavalry, Class::Mounted),
        (Kind::Artillery, Class::Machine),
    ] {
        assert_eq!(rs.kind(k).class, class, "{k}");
    }
    assert!(rs.kind(Kind::Voltigeurs).can(Ability::Hooks));
    assert!(rs.kind(Kind::Infantry).can(Ability::Ram) && rs.kind(Kind::Sappers).can(Ability::Ram));
    assert!(rs.kind(Kind::Sappers).can(Ability::BuildSiegeTower));
    let c = &rs.castle;
    assert_eq!(
        (c.ladder, c.breach, c.ram_cost, c.ram_min, c.ram_max),
        (4, 2, 6, 2, 4)
    );
    assert_eq!(
        (
            c.siege_tower_cost,
            c.siege_tower_builds,
            c.siege_tower_structure
        ),
        (8, 3, 6)
    );
}

#[test]
fn shipped_kind_table_matches_rules_md_section_3() {
    let rs = rs();
    // (kind, full strength, max AP, AP per turn, perception, volley (min, max, range), melee (min, max))
    type Row = (
        Kind,
        i32,
        i32,
        i32,
        i32,
        Option<(i32, i32, i32)>,
        Option<(i32, i32)>,
    );
    let table: &[Row] = &[
        (
            Kind::Infantry,
            200,
            24,
            6,
            3,
            Some((10, 20, 2)),
            Some((10, 20)),
        ),
        (
            Kind::Voltigeurs,
            120,
            28,
            7,
            4,
            Some((8, 16, 2)),
            Some((6, 12)),
        ),
        (Kind::Cavalry, 120, 32, 8, 4, None, Some((15, 30))),
        (Kind::Artillery, 60, 16, 4, 3, Some((20, 40, 4)), None),
        (
            Kind::Sappers,
            100,
            24,
            6,
            3,
            Some((5, 10, 1)),
            Some((5, 10)),
        ),
    ];
    for &(k, full, max_ap, per_turn, perception, volley, melee) in table {
        let r = rs.kind(k);
        assert_eq!(
            (r.full_strength, r.max_ap, r.ap_per_turn, r.perception),
            (full, max_ap, per_turn, perception),
            "{k}"
        );
        assert_eq!(
            r.volley.map(|v| (v.min, v.max, v.range)),
            volley,
            "{k} volley"
        );
        assert_eq!(r.melee.map(|m| (m.min, m.max)), melee, "{k} melee");
    }
    assert!(rs.kind(Kind::Artillery).can(Ability::Bombard));
    assert!(rs.kind(Kind::Sappers).can(Ability::BuildBridge));
    assert!(rs.kind(Kind::Sappers).can(Ability::Repair));
    assert!(!rs.kind(Kind::Infantry).can(Ability::Repair));
}

#[test]
fn shipped_action_costs_and_constants_match_rules_md() {
    let rs = rs();
    let a = &rs.actions;
    assert_eq!(
        (
            a.volley,
            a.melee,
            a.heal,
            a.build_bridge,
            a.repair,
            a.bombard,
            a.reinforce,
            a.raise
        ),
        (4, 6, 4, 8, 4, 6, 2, 0)
    );
    assert_eq!(rs.volley_cost(Kind::Artillery), 6);
    assert_eq!(rs.volley_cost(Kind::Infantry), 4);
    assert_eq!(
        (
            rs.combat.bombard_min,
            rs.combat.bombard_max,
            rs.combat.repair_points
        ),
        (1, 3, 2)
    );
    assert_eq!((rs.combat.heal_men, rs.combat.morale_max), (10, 10));
    let t = &rs.turn;
    assert_eq!(
        (
            t.morale_gain,
            t.wounded_healed,
            t.reserve_gain,
            t.regiment_morale_bonus,
            t.regiment_radius
        ),
        (1, 5, 15, 1, 3)
    );
    let l = &rs.limits;
    assert_eq!(
        (
            l.max_companies_per_player,
            l.raise_cost,
            l.raise_morale,
            l.start_treasury,
            l.max_catch_up
        ),
        (3, 100, 5, 1000, 8)
    );
    assert_eq!(l.reinforce_cost_per_man, 1);
    assert_eq!(
        (
            l.company_name_max,
            l.regiment_name_max,
            l.max_path,
            l.path_search_margin,
            l.raise_search_radius
        ),
        (40, 40, 200, 64, 40)
    );
    let c = &rs.combat;
    assert_eq!(
        (
            c.confidence_per_morale,
            c.wounded_percent,
            c.breach_opens_melee
        ),
        (10, 50, true)
    );
}

#[test]
fn a_rule_file_from_before_the_newer_keys_still_loads_with_their_defaults() {
    let mut text = SHIPPED.to_string();
    for key in [
        "breach_opens_melee",
        "confidence_per_morale",
        "wounded_percent",
        "regiment_name_max",
        "max_path",
        "path_search_margin",
        "raise_search_radius",
    ] {
        text = text
            .lines()
            .filter(|l| !l.starts_with(&format!("{key} =")))
            .collect::<Vec<_>>()
            .join("\n");
    }
    assert_eq!(Ruleset::from_toml(&text).unwrap(), Ruleset::shipped());
}

#[test]
fn out_of_range_newer_keys_are_refused_naming_them() {
    let text = SHIPPED.replace("wounded_percent = 50", "wounded_percent = 150");
    assert_eq!(refused(&text), "combat.wounded_percent");
    let text = SHIPPED.replace("confidence_per_morale = 10", "confidence_per_morale = 0");
    assert_eq!(refused(&text), "combat.confidence_per_morale");
    let text = SHIPPED.replace("max_path = 200", "max_path = 0");
    assert_eq!(refused(&text), "limits.max_path");
}

fn refused(text: &str) -> String {
    Ruleset::from_toml(text).expect_err("should be refused").key
}

#[test]
fn ruleset_missing_terrain_is_refused_naming_it() {
    let text = SHIPPED.replace("[terrains.mill]", "[terrains_unused.mill]");
    // An unknown top-level table is itself an error; dropping the table entirely:
    let start = SHIPPED.find("[terrains.mill]").unwrap();
    let end = SHIPPED[start..].find("[terrains.fields]").unwrap() + start;
    let without = format!("{}{}", &SHIPPED[..start], &SHIPPED[end..]);
    assert_eq!(refused(&without), "terrains.mill");
    assert!(Ruleset::from_toml(&text).is_err());
}

#[test]
fn ruleset_missing_kind_is_refused_naming_it() {
    let start = SHIPPED.find("[kinds.cavalry]").unwrap();
    let end = SHIPPED[start..].find("[kinds.artillery]").unwrap() + start;
    let without = format!("{}{}", &SHIPPED[..start], &SHIPPED[end..]);
    assert_eq!(refused(&without), "kinds.cavalry");
}

#[test]
fn ruleset_unknown_terrain_or_flag_is_refused() {
    let text = format!("{SHIPPED}\n[terrains.lava]\nap_summer = 1\nap_winter = 1\nvolley_protection = 0\nmelee_protection = 0\nconfidence = 0\nvision = 0\n");
    assert_eq!(refused(&text), "terrains.lava");
    let text = SHIPPED.replace(r#"flags = ["stops_movement"]"#, r#"flags = ["sticky"]"#);
    assert_eq!(refused(&text), "terrains.marsh.flags");
}

#[test]
fn a_terrain_s_unknown_names_are_refused_naming_the_key_and_the_choices() {
    let text = SHIPPED.replace(
        "enter_cost_from = { slope = 2 }",
        "enter_cost_from = { lava = 2 }",
    );
    let e = Ruleset::from_toml(&text).unwrap_err();
    assert_eq!(e.key, "terrains.plateau.enter_cost_from");
    assert!(
        e.message.contains("`lava`") && e.message.contains("`slope`"),
        "{}",
        e.message
    );
    let text = SHIPPED.replace(r#"bridge_into = "bridge""#, r#"bridge_into = "ford""#);
    assert_eq!(refused(&text), "terrains.river.bridge_into");
    let text = SHIPPED.replace(
        "enter_cost_from = { slope = 2 }",
        "enter_cost_from = { slope = -2 }",
    );
    assert_eq!(refused(&text), "terrains.plateau.enter_cost_from.slope");
}

#[test]
fn ruleset_negative_cost_is_refused() {
    let text = SHIPPED.replacen(
        "ap_summer = 2\nap_winter = 3\nvolley_protection = 25",
        "ap_summer = -2\nap_winter = 3\nvolley_protection = 25",
        1,
    );
    assert_eq!(refused(&text), "terrains.forest.ap_summer");
    let text = SHIPPED.replace("heal = 4", "heal = -1");
    assert_eq!(refused(&text), "actions.heal");
}

#[test]
fn ruleset_protection_outside_plus_minus_100_is_refused() {
    let text = SHIPPED.replace(
        "volley_protection = 85\nmelee_protection = 100",
        "volley_protection = 185\nmelee_protection = 100",
    );
    assert_eq!(refused(&text), "terrains.fort.volley_protection");
}

#[test]
fn ruleset_inverted_damage_range_is_refused() {
    let text = SHIPPED.replace(
        "melee = { min = 15, max = 30 }",
        "melee = { min = 30, max = 15 }",
    );
    assert_eq!(refused(&text), "kinds.cavalry.melee.max");
}

#[test]
fn ruleset_syntax_error_names_the_table() {
    let text = SHIPPED.replace("raise_cost = 100", "raise_cost = \"lots\"");
    assert_eq!(refused(&text), "limits.raise_cost");
}

#[test]
fn a_modified_ruleset_changes_behaviour() {
    // Plain costs 3 AP in this ruleset: the same two-step path now costs 6 instead of 2.
    let text = SHIPPED.replacen(
        "[terrains.plain]\nap_summer = 1",
        "[terrains.plain]\nap_summer = 3",
        1,
    );
    let modified = Ruleset::from_toml(&text).unwrap();
    let a = map(Season::Summer, &["...."]);
    let u = unit(1, 1, Kind::Infantry, 0, 0);
    let path = [p(1, 0), p(2, 0)];
    assert_eq!(
        plan_move(&rs(), &a, &u, &path, &mut dice(&[]))
            .unwrap()
            .cost,
        2
    );
    assert_eq!(
        plan_move(&modified, &a, &u, &path, &mut dice(&[]))
            .unwrap()
            .cost,
        6
    );
}
