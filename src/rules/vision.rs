//! Vision, hiding and line of sight (docs/rules.md §5).

use super::grid::{Bounds, Grid, Pos};
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
    /// The world's grid, which says what "within" is.
    pub grid: Grid,
}

/// The observers of `nation` among the units of an area.
pub fn observers(rs: &Ruleset, area: &Area, nation: NationId) -> Vec<Observer> {
    area.units()
        .filter(|u| u.nation == nation)
        .map(|u| Observer {
            pos: u.pos,
            perception: perception(rs, u.kind, area.terrain(u.pos).unwrap_or(Terrain::Plain)),
            grid: area.bounds.grid,
        })
        .collect()
}

pub fn sees_cell(observers: &[Observer], p: Pos) -> bool {
    observers
        .iter()
        .any(|o| o.grid.distance(o.pos, p) <= o.perception)
}

/// The cells of a rectangle that some observer sees, as [`sees_cell`] tells them, worked out
/// for the whole rectangle at once: each observer marks the rows of its square of sight, rather
/// than each cell asking every observer (a map of 600 cells and 20 observers asked 12,000 times).
pub struct Sight {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
    cols: usize,
    seen: Vec<bool>,
}

impl Sight {
    pub fn of(observers: &[Observer], (x0, y0, x1, y1): (i32, i32, i32, i32)) -> Sight {
        let span = |a: i32, b: i32| usize::try_from(i64::from(b) - i64::from(a) + 1).unwrap_or(0);
        let (cols, rows) = (span(x0, x1), span(y0, y1));
        let mut seen = vec![false; cols * rows];
        for o in observers.iter().filter(|o| o.perception >= 0) {
            // `sees_cell` reads a distance past i32's range as i32::MAX, which only the
            // greatest perception reaches.
            let p = match o.perception {
                i32::MAX => i64::MAX / 4,
                p => i64::from(p),
            };
            let (ox, oy) = (i64::from(o.pos.x), i64::from(o.pos.y));
            let (ya, yb) = ((oy - p).max(y0.into()), (oy + p).min(y1.into()));
            for y in ya..=yb {
                // The row's stretch within `perception`: the whole width of a square around
                // the observer, or the hexes of the row within the hex distance.
                let (xa, xb) = match o.grid {
                    Grid::Square => (ox - p, ox + p),
                    Grid::Hex => {
                        let shift = |r: i64| (r - (r & 1)) / 2;
                        let (oq, dr) = (ox - shift(oy), y - oy);
                        let (qa, qb) = (oq + (-p).max(-p - dr), oq + p.min(p - dr));
                        (qa + shift(y), qb + shift(y))
                    }
                };
                let (xa, xb) = (xa.max(x0.into()), xb.min(x1.into()));
                if xa > xb {
                    continue;
                }
                let (from, to) = ((xa - i64::from(x0)) as usize, (xb - i64::from(x0)) as usize);
                let row = (y - i64::from(y0)) as usize * cols;
                seen[row + from..=row + to].fill(true);
            }
        }
        Sight {
            x0,
            y0,
            x1,
            y1,
            cols,
            seen,
        }
    }

    /// Whether a cell of the rectangle is seen; a cell outside it never is.
    pub fn sees(&self, p: Pos) -> bool {
        if p.x < self.x0 || p.x > self.x1 || p.y < self.y0 || p.y > self.y1 {
            return false;
        }
        let (i, j) = ((p.x - self.x0) as usize, (p.y - self.y0) as usize);
        self.seen[j * self.cols + i]
    }
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
            .any(|o| o.grid.distance(o.pos, p) <= rs.combat.hidden_visible_at.min(o.perception))
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

/// The area as `nation` knows it: the companies it does not see are left out, and those of
/// other nations it sees carry the figures [`assumed`] of them. What a player plans with
/// (paths, previews, expected losses) and what a bot decides on, so that no answer tells where
/// an unseen enemy stands or how strong a seen one is.
pub fn as_seen_by(rs: &Ruleset, area: &Area, nation: NationId) -> Area {
    let eyes = observers(rs, area, nation);
    let mut unseen: Vec<Pos> = Vec::new();
    let mut seen: Vec<Unit> = Vec::new();
    for u in area.units().filter(|u| u.nation != nation) {
        let on = area.terrain(u.pos).unwrap_or(Terrain::Plain);
        if sees_unit(rs, &eyes, u.pos, is_hidden(rs, u, on)) {
            seen.push(assumed(rs, u.clone()));
        } else {
            unseen.push(u.pos);
        }
    }
    let mut known = area.clone();
    for p in unseen {
        known.remove(p);
    }
    for u in seen {
        known.place(u);
    }
    known
}

/// Another nation's company as a player sees it: its kind, where it stands and whether it
/// fired of late show on the map; its men, wounded, action points, morale and experience do
/// not (only a player's own companies show them), so it is taken to be fresh: full strength,
/// no wounded, full action points, the morale of a company just raised.
pub fn assumed(rs: &Ruleset, u: Unit) -> Unit {
    let k = rs.kind(u.kind);
    Unit {
        men: k.full_strength,
        wounded: 0,
        ap: k.max_ap,
        morale: rs.limits.raise_morale,
        xp: 0,
        ..u
    }
}

/// Line of sight from `from` to `to`: the first blocking cell between them, if any. End cells
/// never block; a shooter on elevated ground fires over blockers that are not elevated too.
pub fn line_of_sight(rs: &Ruleset, area: &Area, from: Pos, to: Pos) -> Result<(), Pos> {
    let line = Sightline::of(rs, area, from, to);
    match line
        .between()
        .iter()
        .find(|p| line.blocked_by(rs, area, **p))
    {
        Some(p) => Err(*p),
        None => Ok(()),
    }
}

/// The line from a shooter to its target and what may stand in its way: one reading for line of
/// sight and for cover (docs/rules.md §13: cover is a cell between that does not block it).
pub struct Sightline {
    pub cells: Vec<Pos>,
    shooter_high: bool,
    along_the_wall: bool,
}

impl Sightline {
    pub fn of(rs: &Ruleset, area: &Area, from: Pos, to: Pos) -> Sightline {
        let shooter_high = area
            .terrain(from)
            .is_some_and(|t| rs.terrain(t).has(Flag::Elevated));
        let cells = area.bounds.line(from, to);
        // Along a castle's wall: every cell of the line, ends included, wall, tower or gate of
        // the same castle (docs/rules.md §12).
        let first = area.cell(from).map(|c| c.castle);
        let along_the_wall = cells.iter().all(|p| {
            area.cell(*p)
                .is_some_and(|c| rs.terrain(c.terrain).has(Flag::Wall) && Some(c.castle) == first)
        });
        Sightline {
            cells,
            shooter_high,
            along_the_wall,
        }
    }

    /// The cells between the two ends.
    pub fn between(&self) -> &[Pos] {
        let n = self.cells.len();
        if n < 2 {
            &[]
        } else {
            &self.cells[1..n - 1]
        }
    }

    /// Whether a cell between blocks this line: a cell that blocks the line of sight, unless
    /// the shooter stands high and it does not, or the line runs along the shooter's castle
    /// wall; a cell outside the loaded window does.
    pub fn blocked_by(&self, rs: &Ruleset, area: &Area, p: Pos) -> bool {
        if self.along_the_wall {
            return false;
        }
        match area.terrain(p) {
            None => true,
            Some(t) => {
                let tr = rs.terrain(t);
                tr.has(Flag::BlocksLos) && (!self.shooter_high || tr.has(Flag::Elevated))
            }
        }
    }
}

#[cfg(test)]
mod sight_tests {
    use super::{sees_cell, Observer, Sight};
    use crate::rules::{Grid, Pos};

    #[test]
    fn the_rectangle_s_sight_is_what_each_cell_would_ask() {
        let observers = [
            Observer {
                pos: Pos::new(3, 4),
                perception: 2,
                grid: Grid::Square,
            },
            Observer {
                pos: Pos::new(-2, 9),
                perception: 3,
                grid: Grid::Square,
            },
            Observer {
                pos: Pos::new(12, 1),
                perception: 0,
                grid: Grid::Square,
            },
            Observer {
                pos: Pos::new(6, 6),
                perception: -1,
                grid: Grid::Square,
            },
            Observer {
                pos: Pos::new(40, 40),
                perception: 5,
                grid: Grid::Square,
            },
        ];
        let rect = (0, 0, 14, 10);
        let sight = Sight::of(&observers, rect);
        for y in -2..13 {
            for x in -2..17 {
                let p = Pos::new(x, y);
                let inside = (0..=14).contains(&x) && (0..=10).contains(&y);
                assert_eq!(sight.sees(p), inside && sees_cell(&observers, p), "{x},{y}");
            }
        }
        let everywhere = [Observer {
            pos: Pos::new(i32::MIN, i32::MAX),
            perception: i32::MAX,
            grid: Grid::Square,
        }];
        assert!(Sight::of(&everywhere, rect).sees(Pos::new(7, 7)));
        assert!(!Sight::of(&[], rect).sees(Pos::new(7, 7)));
        assert!(!Sight::of(&observers, (5, 5, 4, 4)).sees(Pos::new(4, 4)));
    }
}
