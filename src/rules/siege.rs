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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
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
    /// The blow fell on the siege tower standing on the cell, not on the cell's own
    /// structure; at 0 the tower is gone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub siege_tower: bool,
}

/// One build action on a siege tower (docs/rules.md §12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SiegeBuild {
    pub x: i32,
    pub y: i32,
    pub builds_before: i32,
    pub builds_after: i32,
    pub builds_needed: i32,
    /// Finished with this build: it now has its structure.
    pub finished: bool,
    pub structure: i32,
    pub ap_cost: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
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

/// Artillery fire on a fort, fortifications or castle cell of another nation, or on a
/// finished siege tower standing on a cell: 1–3 structure points. A tower belongs to no
/// nation (it is kept on its cell, not by its builders): any guns may fire on it; at 0 it is
/// gone.
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
    let tower = area
        .cell(at)
        .filter(|c| c.siege_tower(rs))
        .and_then(|c| c.siege.map(|t| (c, t)));
    let (cell, before, max) = match tower {
        Some((cell, t)) => (cell, t.structure, rs.castle.siege_tower_structure),
        None => {
            let (cell, max) = structure_cell(rs, area, at)?;
            if cell.owner == Some(gun.nation) {
                return Err(Refusal::OwnNation);
            }
            (cell, cell.structure.unwrap_or(0), max)
        }
    };
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
        siege_tower: tower.is_some(),
    })
}

/// Sappers build a siege tower on their own cell or one next to them, outside any castle and
/// next to an enemy wall or tower: `castle.siege_tower_builds` actions of
/// `castle.siege_tower_cost` AP; the last gives it `castle.siege_tower_structure` points.
pub fn build_siege_tower(
    rs: &Ruleset,
    area: &Area,
    sappers: &Unit,
    at: Pos,
) -> Result<SiegeBuild, Refusal> {
    if !rs.kind(sappers.kind).can(Ability::BuildSiegeTower) {
        return Err(Refusal::NotSappers(sappers.kind));
    }
    if !area.bounds.contains(at) {
        return Err(Refusal::OutOfMap(at));
    }
    if area.bounds.distance(sappers.pos, at) > 1 {
        return Err(Refusal::NotAdjacent {
            from: sappers.pos,
            to: at,
        });
    }
    let cell = area.cell(at).ok_or(Refusal::OutOfMap(at))?;
    let enemy_wall = |p: Pos| {
        area.cell(p).is_some_and(|c| {
            let t = rs.terrain(c.terrain);
            t.has(Flag::Wall) && !t.has(Flag::Gate) && c.owner.is_some_and(|o| o != sappers.nation)
        })
    };
    if cell.in_castle(rs)
        || rs.terrain(cell.terrain).has(Flag::Wall)
        || !area.bounds.neighbours(at).any(enemy_wall)
    {
        return Err(Refusal::NoEnemyWall(at));
    }
    if area.unit_at(at).is_some_and(|u| u.id != sappers.id) {
        return Err(Refusal::Occupied(at));
    }
    let c = &rs.castle;
    let before = cell.siege.map_or(0, |t| t.builds);
    if before >= c.siege_tower_builds {
        return Err(Refusal::FullStructure {
            at,
            max: c.siege_tower_structure,
        });
    }
    pay(sappers, c.siege_tower_cost)?;
    let after = before + 1;
    let finished = after >= c.siege_tower_builds;
    Ok(SiegeBuild {
        x: at.x,
        y: at.y,
        builds_before: before,
        builds_after: after,
        builds_needed: c.siege_tower_builds,
        finished,
        structure: if finished { c.siege_tower_structure } else { 0 },
        ap_cost: c.siege_tower_cost,
    })
}

/// A ram (infantry, sappers) against the standing gate of another nation next to it:
/// `castle.ram_min`–`ram_max` structure points (docs/rules.md §12). Rams do nothing to walls
/// or towers.
pub fn ram(
    rs: &Ruleset,
    area: &Area,
    unit: &Unit,
    at: Pos,
    dice: &mut impl Roll,
) -> Result<StructureChange, Refusal> {
    if !rs.kind(unit.kind).can(Ability::Ram) {
        return Err(Refusal::CannotRam(unit.kind));
    }
    if !area.bounds.contains(at) {
        return Err(Refusal::OutOfMap(at));
    }
    let cell = area.cell(at).ok_or(Refusal::OutOfMap(at))?;
    let t = rs.terrain(cell.terrain);
    let (Some(max), true) = (t.structure, t.has(Flag::Gate)) else {
        return Err(Refusal::NotGate(at));
    };
    if !area.bounds.adjacent(unit.pos, at) {
        return Err(Refusal::NotAdjacent {
            from: unit.pos,
            to: at,
        });
    }
    if cell.owner.is_none_or(|o| o == unit.nation) {
        return Err(Refusal::OwnNation);
    }
    let before = cell.structure.unwrap_or(0);
    if before <= 0 {
        return Err(Refusal::AlreadyBreached(at));
    }
    let c = &rs.castle;
    pay(unit, c.ram_cost)?;
    let mark = dice.draws().len();
    let d = dice.roll("ram damage", c.ram_min, c.ram_max);
    let after = (before - d).clamp(0, max);
    Ok(StructureChange {
        x: at.x,
        y: at.y,
        terrain: cell.terrain,
        before,
        after,
        max,
        breached: after == 0,
        ap_cost: c.ram_cost,
        draws: dice.since(mark),
        siege_tower: false,
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
    if area.bounds.distance(sappers.pos, at) > 1 {
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
        siege_tower: false,
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
    if area.bounds.distance(sappers.pos, at) > 1 {
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
