//! Structures (docs/rules.md §6–§7): bombarding forts and fortifications, breaching, repairing,
//! and bridging rivers.

use super::combat::ranged_check;
use super::dice::{Draw, Roll};
use super::grid::Pos;
use super::names::Terrain;
use super::refusal::Refusal;
use super::ruleset::{Ability, Flag, Ruleset};
use super::state::{Area, Cell, Unit};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureChange {
    pub x: i32,
    pub y: i32,
    pub terrain: Terrain,
    pub before: i32,
    pub after: i32,
    pub max: i32,
    pub breached: bool,
    pub ap_cost: i32,
    pub draws: Vec<Draw>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BridgeBuilt {
    pub x: i32,
    pub y: i32,
    pub from: Terrain,
    pub to: Terrain,
    pub ap_cost: i32,
}

fn pay(unit: &Unit, cost: i32) -> Result<(), Refusal> {
    if unit.ap < cost {
        return Err(Refusal::NotEnoughAp {
            need: cost,
            have: unit.ap,
        });
    }
    Ok(())
}

fn structure_cell<'a>(rs: &Ruleset, area: &'a Area, at: Pos) -> Result<(&'a Cell, i32), Refusal> {
    if !area.bounds.contains(at) {
        return Err(Refusal::OutOfMap(at));
    }
    let cell = area.cell(at).ok_or(Refusal::OutOfMap(at))?;
    match rs.terrain(cell.terrain).structure {
        Some(max) => Ok((cell, max)),
        None => Err(Refusal::NoStructure {
            at,
            terrain: cell.terrain,
        }),
    }
}

/// Artillery fire on a fort or fortifications cell of another nation: 1–3 structure points.
pub fn bombard(
    rs: &Ruleset,
    area: &Area,
    gun: &Unit,
    at: Pos,
    dice: &mut impl Roll,
) -> Result<StructureChange, Refusal> {
    if !rs.kind(gun.kind).can(Ability::Bombard) {
        return Err(Refusal::CannotBombard(gun.kind));
    }
    let (cell, max) = structure_cell(rs, area, at)?;
    if cell.owner == Some(gun.nation) {
        return Err(Refusal::OwnNation);
    }
    let before = cell.structure.unwrap_or(0);
    if before <= 0 {
        return Err(Refusal::AlreadyBreached(at));
    }
    let range = rs.kind(gun.kind).volley.map_or(1, |v| v.range);
    ranged_check(rs, area, gun, at, range)?;
    pay(gun, rs.actions.bombard)?;
    let mark = dice.draws().len();
    let d = dice.roll(
        "bombard damage",
        rs.combat.bombard_min,
        rs.combat.bombard_max,
    );
    let after = (before - d).max(0);
    Ok(StructureChange {
        x: at.x,
        y: at.y,
        terrain: cell.terrain,
        before,
        after,
        max,
        breached: after == 0,
        ap_cost: rs.actions.bombard,
        draws: dice.since(mark),
    })
}

/// Sappers on or next to a structure of their nation restore `repair_points`, up to its maximum.
pub fn repair(
    rs: &Ruleset,
    area: &Area,
    sappers: &Unit,
    at: Pos,
) -> Result<StructureChange, Refusal> {
    if !rs.kind(sappers.kind).can(Ability::Repair) {
        return Err(Refusal::NotSappers(sappers.kind));
    }
    let (cell, max) = structure_cell(rs, area, at)?;
    if cell.owner != Some(sappers.nation) {
        return Err(Refusal::NotOwned(at));
    }
    if sappers.pos.distance(at) > 1 {
        return Err(Refusal::NotAdjacent {
            from: sappers.pos,
            to: at,
        });
    }
    let before = cell.structure.unwrap_or(0);
    if before >= max {
        return Err(Refusal::FullStructure { at, max });
    }
    pay(sappers, rs.actions.repair)?;
    let after = (before + rs.combat.repair_points).min(max);
    Ok(StructureChange {
        x: at.x,
        y: at.y,
        terrain: cell.terrain,
        before,
        after,
        max,
        breached: after == 0,
        ap_cost: rs.actions.repair,
        draws: Vec::new(),
    })
}

/// Sappers turn a river cell next to them into a bridge.
pub fn build_bridge(
    rs: &Ruleset,
    area: &Area,
    sappers: &Unit,
    at: Pos,
) -> Result<BridgeBuilt, Refusal> {
    if !rs.kind(sappers.kind).can(Ability::BuildBridge) {
        return Err(Refusal::NotSappers(sappers.kind));
    }
    if !area.bounds.contains(at) {
        return Err(Refusal::OutOfMap(at));
    }
    let cell = area.cell(at).ok_or(Refusal::OutOfMap(at))?;
    let tr = rs.terrain(cell.terrain);
    let (true, Some(to)) = (tr.has(Flag::River), tr.bridge_into) else {
        return Err(Refusal::NotRiver(at));
    };
    if sappers.pos.distance(at) > 1 {
        return Err(Refusal::NotAdjacent {
            from: sappers.pos,
            to: at,
        });
    }
    pay(sappers, rs.actions.build_bridge)?;
    Ok(BridgeBuilt {
        x: at.x,
        y: at.y,
        from: cell.terrain,
        to,
        ap_cost: rs.actions.build_bridge,
    })
}
