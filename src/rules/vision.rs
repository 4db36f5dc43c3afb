//! Vision, hiding and line of sight (docs/rules.md §5).

use super::grid::{line, Bounds, Pos};
use super::names::{Kind, Terrain};
use super::ruleset::{Flag, Ruleset};
use super::state::{Area, NationId, Unit};
use std::collections::HashSet;

/// A company's perception: its kind's plus its cell's vision modifier, never below the minimum.
pub fn perception(rs: &Ruleset, kind: Kind, on: Terrain) -> i32 {
    (rs.kind(kind).perception + rs.terrain(on).vision).max(rs.combat.min_perception)
}

/// The farthest any company can see under this ruleset: how far around a target the game
/// layer must load observers.
pub fn max_perception(rs: &Ruleset) -> i32 {
    let best_kind = Kind::ALL
        .iter()
        .map(|k| rs.kind(*k).perception)
        .max()
        .unwrap_or(0);
    let best_terrain = Terrain::ALL
        .iter()
        .map(|t| rs.terrain(*t).vision)
        .max()
        .unwrap_or(0);
    (best_kind + best_terrain).max(rs.combat.min_perception)
}

/// Hidden: a kind that hides on this terrain, which has not fired a volley this turn or the
/// previous one.
pub fn is_hidden(rs: &Ruleset, unit: &Unit, on: Terrain) -> bool {
    rs.terrain(on).hides.contains(&unit.kind) && unit.volley_recency <= 0
}

/// A company of a nation that sees: where it stands and how far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observer {
    pub pos: Pos,
    pub perception: i32,
}

/// The observers of `nation` among the units of an area.
pub fn observers(rs: &Ruleset, area: &Area, nation: NationId) -> Vec<Observer> {
    area.units()
        .filter(|u| u.nation == nation)
        .map(|u| Observer {
            pos: u.pos,
            perception: perception(rs, u.kind, area.terrain(u.pos).unwrap_or(Terrain::Plain)),
        })
        .collect()
}

pub fn sees_cell(observers: &[Observer], p: Pos) -> bool {
    observers.iter().any(|o| o.pos.distance(p) <= o.perception)
}

/// Every cell of the map some observer sees.
pub fn visible_cells(bounds: Bounds, observers: &[Observer]) -> HashSet<Pos> {
    observers
        .iter()
        .flat_map(|o| bounds.within(o.pos, o.perception))
        .collect()
}

/// Whether a nation's observers see a company at `p`, hidden or not: a hidden company shows only
/// within `hidden_visible_at` of an observer (and within its perception).
pub fn sees_unit(rs: &Ruleset, observers: &[Observer], p: Pos, hidden: bool) -> bool {
    if hidden {
        observers
            .iter()
            .any(|o| o.pos.distance(p) <= rs.combat.hidden_visible_at.min(o.perception))
    } else {
        sees_cell(observers, p)
    }
}

/// Whether `nation` sees `target` in this area (its own companies it always sees).
pub fn nation_sees(rs: &Ruleset, area: &Area, nation: NationId, target: &Unit) -> bool {
    if target.nation == nation {
        return true;
    }
    let on = area.terrain(target.pos).unwrap_or(Terrain::Plain);
    sees_unit(
        rs,
        &observers(rs, area, nation),
        target.pos,
        is_hidden(rs, target, on),
    )
}

/// The area as `nation` knows it: the companies it does not see are left out. What a player
/// plans with (paths, previews), so that no answer tells where an unseen enemy stands.
pub fn as_seen_by(rs: &Ruleset, area: &Area, nation: NationId) -> Area {
    let eyes = observers(rs, area, nation);
    let unseen: Vec<Pos> = area
        .units()
        .filter(|u| u.nation != nation)
        .filter(|u| {
            let on = area.terrain(u.pos).unwrap_or(Terrain::Plain);
            !sees_unit(rs, &eyes, u.pos, is_hidden(rs, u, on))
        })
        .map(|u| u.pos)
        .collect();
    let mut known = area.clone();
    for p in unseen {
        known.remove(p);
    }
    known
}

/// Line of sight from `from` to `to`: the first blocking cell between them, if any. End cells
/// never block; a shooter on elevated ground fires over blockers that are not elevated too.
pub fn line_of_sight(rs: &Ruleset, area: &Area, from: Pos, to: Pos) -> Result<(), Pos> {
    let shooter_high = area
        .terrain(from)
        .is_some_and(|t| rs.terrain(t).has(Flag::Elevated));
    let cells = line(from, to);
    // Along a castle's wall: every cell of the line, ends included, wall, tower or gate of
    // the same castle (docs/rules.md §10).
    let first = area.cell(from).map(|c| c.castle);
    let along_the_wall = cells.iter().all(|p| {
        area.cell(*p)
            .is_some_and(|c| rs.terrain(c.terrain).has(Flag::Wall) && Some(c.castle) == first)
    });
    if along_the_wall {
        return Ok(());
    }
    for &p in cells.iter().skip(1).take(cells.len().saturating_sub(2)) {
        let Some(t) = area.terrain(p) else {
            return Err(p);
        };
        let tr = rs.terrain(t);
        if tr.has(Flag::BlocksLos) && (!shooter_high || tr.has(Flag::Elevated)) {
            return Err(p);
        }
    }
    Ok(())
}
