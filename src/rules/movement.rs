//! Movement (docs/rules.md §4): validating and pricing a path, the captures it causes, and the
//! cheapest path to a destination (A*).

use super::dice::{Draw, Roll};
use super::grid::Pos;
use super::names::{Class, Season, Terrain};
use super::refusal::Refusal;
use super::ruleset::{Ability, Flag, Ruleset};
use super::state::{Area, Cell, NationId, TownId, Unit};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Step {
    pub x: i32,
    pub y: i32,
    /// AP actually paid for this step.
    pub cost: i32,
    /// The season's cost before any road discount.
    pub base_cost: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Capture {
    Mine {
        x: i32,
        y: i32,
        from: Option<NationId>,
    },
    Town {
        town: TownId,
        x: i32,
        y: i32,
        from: Option<NationId>,
    },
    Fort {
        x: i32,
        y: i32,
        from: Option<NationId>,
    },
    /// An enemy wall, tower or gate entered by ladder, hooks, breach or a broken gate.
    Castle {
        x: i32,
        y: i32,
        from: Option<NationId>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePlan {
    pub steps: Vec<Step>,
    /// AP paid in all, after discounts.
    pub cost: i32,
    pub destination: Pos,
    pub captures: Vec<Capture>,
    pub draws: Vec<Draw>,
}

/// The undiscounted cost of entering `to` from `from` this season.
pub fn step_cost(rs: &Ruleset, season: Season, from: Terrain, to: Terrain) -> i32 {
    let t = rs.terrain(to);
    t.enter_cost_from
        .get(&from)
        .copied()
        .unwrap_or_else(|| t.ap(season))
}

/// What [`enter`] answers for one unit's steps that ask nothing of their cells but the
/// terrain, worked out once per terrain for a path search that tries thousands of steps (the
/// checks of `enter`, step by step, were half of a bot's path search).
pub struct TerrainSteps {
    /// By the entered terrain: `None` where `enter` must look at the cell (walls, gates,
    /// forts, ground closed to the unit's class), else whether the unit may enter at all.
    into: Vec<Option<bool>>,
    /// By the left terrain: a wall's outside may end the move, so `enter` is asked.
    from_wall: Vec<bool>,
    season: Season,
}

impl TerrainSteps {
    pub fn new(rs: &Ruleset, season: Season, unit: &Unit) -> TerrainSteps {
        let class = rs.kind(unit.kind).class;
        let into = Terrain::ALL
            .iter()
            .map(|t| {
                let r = rs.terrain(*t);
                let cell_matters = r.has(Flag::Wall)
                    || r.has(Flag::Gate)
                    || r.has(Flag::OwnNationOnly)
                    || r.structure.is_some();
                let refused = r.impassable_to.contains(&unit.kind)
                    || (r.has(Flag::FootOnly) && class != Class::Foot);
                match (refused, cell_matters) {
                    (true, _) => Some(false),
                    (false, true) => None,
                    (false, false) => Some(true),
                }
            })
            .collect();
        let from_wall = Terrain::ALL
            .iter()
            .map(|t| rs.terrain(*t).has(Flag::Wall))
            .collect();
        TerrainSteps {
            into,
            from_wall,
            season,
        }
    }

    /// `enter` from a cell of terrain `from` into one of terrain `to` for this unit, where the
    /// terrains say it all: `Some(None)` refused, `Some(Some(entry))` entered; `None` where
    /// `enter` must be asked.
    pub fn step(&self, rs: &Ruleset, from: Terrain, to: Terrain) -> Option<Option<Entry>> {
        match self.into[to.index()]? {
            false => Some(None),
            true if self.from_wall[from.index()] => None,
            true => Some(Some(Entry {
                cost: step_cost(rs, self.season, from, to),
                ends_move: false,
            })),
        }
    }
}

/// Whether `unit` may stand on / enter `cell` at all (terrain, fort ownership, and castle
/// ground closed to its class: docs/rules.md §12).
pub fn can_enter(rs: &Ruleset, unit: &Unit, at: Pos, cell: &Cell) -> Result<(), Refusal> {
    let t = rs.terrain(cell.terrain);
    let class = rs.kind(unit.kind).class;
    if t.impassable_to.contains(&unit.kind) || (t.has(Flag::FootOnly) && class != Class::Foot) {
        return Err(Refusal::Impassable {
            at,
            terrain: cell.terrain,
            kind: unit.kind,
        });
    }
    if cell.closed_to(rs, unit.nation) {
        return Err(Refusal::EnemyFort(at));
    }
    if t.has(Flag::Gate) && !cell.is_breached(rs) && cell.owner.is_some_and(|o| o != unit.nation) {
        return Err(Refusal::GateClosed(at));
    }
    if t.has(Flag::Wall) && class != Class::Foot {
        let open = if cell.is_breached(rs) {
            // A broken gate lets anyone through; a breach in a wall, all but war machines.
            t.has(Flag::Gate) || class != Class::Machine
        } else {
            t.has(Flag::Gate) && cell.owner.is_none_or(|o| o == unit.nation)
        };
        if !open {
            return Err(Refusal::CannotClimb {
                at,
                terrain: cell.terrain,
                kind: unit.kind,
            });
        }
    }
    Ok(())
}

/// How one step enters its cell: what it costs before any road discount, and whether the
/// move must end there (a climb, or a step down a wall's outside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub cost: i32,
    pub ends_move: bool,
}

/// Entering `to` from the adjacent `from` (docs/rules.md §4, §12); `first` when it is the
/// move's first step. Castle ground: an own (or unowned) wall or tower is reached by its
/// stairs from another castle cell for its own AP; an enemy wall is climbed with ladders by a
/// foot company, an enemy tower only with hooks, and only as the first step, from outside
/// the castle, for the ladder's AP, ending the move (from a finished siege tower, at any step
/// and for the wall's own AP); a gate lets only its own nation through until it is broken; a breach costs the breach's AP; a step from a wall or tower down its
/// outside is a move of its own.
pub fn enter(
    rs: &Ruleset,
    season: Season,
    unit: &Unit,
    (from, from_cell): (Pos, &Cell),
    (to, to_cell): (Pos, &Cell),
    first: bool,
) -> Result<Entry, Refusal> {
    can_enter(rs, unit, to, to_cell)?;
    let plain = Entry {
        cost: step_cost(rs, season, from_cell.terrain, to_cell.terrain),
        ends_move: false,
    };
    let t = rs.terrain(to_cell.terrain);
    if t.has(Flag::Wall) {
        if to_cell.is_breached(rs) {
            return Ok(Entry {
                cost: rs.castle.breach,
                ends_move: false,
            });
        }
        let ours = to_cell.owner.is_none_or(|o| o == unit.nation);
        if t.has(Flag::Gate) {
            return if ours {
                Ok(plain)
            } else {
                Err(Refusal::GateClosed(to))
            };
        }
        let cannot = || Refusal::CannotClimb {
            at: to,
            terrain: to_cell.terrain,
            kind: unit.kind,
        };
        if !t.has(Flag::Climbable) && !t.has(Flag::Hooks) {
            // A fortified wall: never climbed, only breached.
            return Err(cannot());
        }
        if ours && from_cell.in_castle(rs) {
            // The stairs.
            return Ok(plain);
        }
        let hooks = rs.kind(unit.kind).can(Ability::Hooks);
        let climbs = t.has(Flag::Climbable) || (t.has(Flag::Hooks) && hooks);
        if !climbs {
            return Err(cannot());
        }
        if from_cell.siege_tower(rs) {
            // From a siege tower: straight onto the wall, at any step of the move.
            return Ok(plain);
        }
        if !first || from_cell.in_castle(rs) {
            return Err(Refusal::LadderFirstStep(to));
        }
        return Ok(Entry {
            cost: rs.castle.ladder,
            ends_move: true,
        });
    }
    let f = rs.terrain(from_cell.terrain);
    if f.has(Flag::Wall)
        && !f.has(Flag::Gate)
        && !from_cell.is_breached(rs)
        && !to_cell.in_castle(rs)
    {
        // Down the outside of the wall.
        if !first {
            return Err(Refusal::LadderFirstStep(from));
        }
        return Ok(Entry {
            ends_move: true,
            ..plain
        });
    }
    Ok(plain)
}

fn cell_at(area: &Area, p: Pos) -> Result<&Cell, Refusal> {
    if !area.bounds.contains(p) {
        return Err(Refusal::OutOfMap(p));
    }
    // The game layer loads every cell a path touches; a gap would be its bug, refused safely.
    area.cell(p).ok_or(Refusal::NoPath { to: p })
}

/// Checks a whole path before anything changes and prices it; rolls road discounts only once
/// the undiscounted total is known to be affordable.
pub fn plan_move(
    rs: &Ruleset,
    area: &Area,
    unit: &Unit,
    path: &[Pos],
    dice: &mut impl Roll,
) -> Result<MovePlan, Refusal> {
    if path.is_empty() {
        return Err(Refusal::Invalid("the path is empty".into()));
    }
    let mut prev = unit.pos;
    let mut prev_cell = cell_at(area, unit.pos)?;
    let mut base = Vec::with_capacity(path.len());
    let mut ended = false;
    for (i, &p) in path.iter().enumerate() {
        if !area.bounds.contains(p) {
            return Err(Refusal::OutOfMap(p));
        }
        if !area.bounds.adjacent(prev, p) {
            return Err(Refusal::NotAdjacent { from: prev, to: p });
        }
        if ended {
            // A climb, or a step down a wall's outside, was the whole move.
            return Err(Refusal::LadderFirstStep(prev));
        }
        if i > 0 && rs.terrain(prev_cell.terrain).has(Flag::StopsMovement) {
            return Err(Refusal::StopsMovement {
                at: prev,
                terrain: prev_cell.terrain,
            });
        }
        let cell = cell_at(area, p)?;
        if let Some(other) = area.unit_at(p) {
            if other.id != unit.id {
                return Err(Refusal::Occupied(p));
            }
        }
        let e = enter(rs, area.season, unit, (prev, prev_cell), (p, cell), i == 0)?;
        base.push(e.cost);
        ended = e.ends_move;
        prev = p;
        prev_cell = cell;
    }
    let total: i32 = base.iter().sum();
    if total > unit.ap {
        return Err(Refusal::NotEnoughAp {
            need: total,
            have: unit.ap,
        });
    }

    let mark = dice.draws().len();
    let mut steps = Vec::with_capacity(path.len());
    let mut captures: Vec<Capture> = Vec::new();
    let mut from_terrain = area.terrain(unit.pos).unwrap_or(Terrain::Plain);
    for (&p, &base_cost) in path.iter().zip(&base) {
        let cell = area.cell(p).expect("checked above");
        let t = rs.terrain(cell.terrain);
        let mut cost = base_cost;
        if t.has(Flag::Road)
            && t.discount_from.contains(&from_terrain)
            && dice.chance("road discount", t.discount_chance)
        {
            cost = (cost - t.discount).max(0);
        }
        steps.push(Step {
            x: p.x,
            y: p.y,
            cost,
            base_cost,
        });
        for c in captures_on_entry(rs, unit.nation, p, cell) {
            if !captures.contains(&c) {
                captures.push(c);
            }
        }
        from_terrain = cell.terrain;
    }
    Ok(MovePlan {
        cost: steps.iter().map(|s| s.cost).sum(),
        steps,
        destination: *path.last().expect("path is not empty"),
        captures,
        draws: dice.since(mark),
    })
}

/// What entering `cell` takes for `nation`: a mine, a whole town through its church, or an
/// empty breached fort. A church already the nation's still takes its town: the town's other
/// cells may be another's (the game layer writes only what changes).
pub fn captures_on_entry(rs: &Ruleset, nation: NationId, p: Pos, cell: &Cell) -> Vec<Capture> {
    let t = rs.terrain(cell.terrain);
    let ours = cell.owner == Some(nation);
    let mut out = Vec::new();
    if t.has(Flag::CapturedOnEntry) && !ours {
        out.push(Capture::Mine {
            x: p.x,
            y: p.y,
            from: cell.owner,
        });
    }
    if t.has(Flag::TownCentre) {
        if let Some(town) = cell.town {
            out.push(Capture::Town {
                town,
                x: p.x,
                y: p.y,
                from: cell.owner.filter(|o| *o != nation),
            });
        }
    }
    if t.has(Flag::OwnNationOnly) && cell.is_breached(rs) && !ours {
        out.push(Capture::Fort {
            x: p.x,
            y: p.y,
            from: cell.owner,
        });
    }
    // An enemy wall, tower or gate can only be entered by ladder, hooks, breach or a broken
    // gate: each takes it.
    if t.has(Flag::Wall) && cell.owner.is_some() && !ours {
        out.push(Capture::Castle {
            x: p.x,
            y: p.y,
            from: cell.owner,
        });
    }
    out
}

/// The cheapest legal path from the unit to `to` (A* over the loaded area), with its
/// undiscounted cost. Refuses when there is none, or when the cheapest is beyond the unit's AP.
pub fn find_path(
    rs: &Ruleset,
    area: &Area,
    unit: &Unit,
    to: Pos,
) -> Result<(Vec<Pos>, i32), Refusal> {
    if !area.bounds.contains(to) {
        return Err(Refusal::OutOfMap(to));
    }
    if to == unit.pos {
        return Err(Refusal::AlreadyThere);
    }
    let dest_cell = cell_at(area, to)?;
    if area.unit_at(to).is_some() {
        return Err(Refusal::Occupied(to));
    }
    can_enter(rs, unit, to, dest_cell)?;
    let unit_step = rs.cheapest_step(area.season);
    let successors = |&p: &Pos| -> Vec<(Pos, i32)> {
        let Some(here) = area.cell(p) else {
            return Vec::new();
        };
        if p != unit.pos && rs.terrain(here.terrain).has(Flag::StopsMovement) {
            return Vec::new();
        }
        area.bounds
            .neighbours(p)
            .filter_map(|n| {
                let c = area.cell(n)?;
                if area.unit_at(n).is_some_and(|o| o.id != unit.id) {
                    return None;
                }
                // Planned as later steps: a climb or a step down a wall's outside, which
                // must be a move of its own, is never part of a longer path.
                enter(rs, area.season, unit, (p, here), (n, c), false)
                    .ok()
                    .map(|e| (n, e.cost))
            })
            .collect()
    };
    let found = pathfinding::prelude::astar(
        &unit.pos,
        successors,
        |p| area.bounds.distance(*p, to) * unit_step,
        |p| *p == to,
    );
    // A climb, or a step down a wall's outside, is a path of its own single step.
    let single = area
        .bounds
        .adjacent(unit.pos, to)
        .then(|| cell_at(area, unit.pos).ok())
        .flatten()
        .and_then(|here| {
            enter(
                rs,
                area.season,
                unit,
                (unit.pos, here),
                (to, dest_cell),
                true,
            )
            .ok()
        })
        .filter(|e| e.ends_move);
    let found = match (found, single) {
        (Some((_, cost)), Some(e)) if e.cost < cost => Some((vec![unit.pos, to], e.cost)),
        (None, Some(e)) => Some((vec![unit.pos, to], e.cost)),
        (found, _) => found,
    };
    match found {
        None => Err(Refusal::NoPath { to }),
        Some((mut path, cost)) => {
            if cost > unit.ap {
                return Err(Refusal::NotEnoughAp {
                    need: cost,
                    have: unit.ap,
                });
            }
            path.remove(0);
            Ok((path, cost))
        }
    }
}
