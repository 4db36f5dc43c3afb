//! Plain data the engine reasons about: cells, companies and a loaded window of a world.
//! The game layer fills an `Area` from the database; the engine never fetches anything.

use super::blocks::CellBlocks;
use super::grid::{Bounds, Pos, Side};
use super::names::{EdgeFeature, Kind, Season, Terrain};
use super::ruleset::{Flag, Ruleset};
use rustc_hash::FxHashMap;
use std::sync::Arc;

pub type NationId = i32;
pub type TownId = i32;
pub type CompanyId = i32;
pub type CastleId = i32;

/// What protects a company on a cell in combat; see [`Cell::defence`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defence<'a> {
    pub volley_protection: i32,
    pub melee_protection: i32,
    /// When not empty, melee protection applies only against attackers standing on these.
    pub melee_protection_against: &'a [Terrain],
    pub confidence: i32,
    pub ranged_only: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub terrain: Terrain,
    pub town: Option<TownId>,
    pub owner: Option<NationId>,
    pub structure: Option<i32>,
    /// The castle the cell belongs to (docs/rules.md §12).
    pub castle: Option<CastleId>,
    /// A siege tower built (or being built) on the cell.
    pub siege: Option<SiegeTower>,
}

/// A siege tower on a cell (docs/rules.md §12): the build actions done, and once finished its
/// structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SiegeTower {
    pub builds: i32,
    pub structure: i32,
}

impl Cell {
    pub const fn plain() -> Cell {
        Cell {
            terrain: Terrain::Plain,
            town: None,
            owner: None,
            structure: None,
            castle: None,
            siege: None,
        }
    }

    /// A finished siege tower stands here.
    pub fn siege_tower(&self, rs: &Ruleset) -> bool {
        self.siege
            .is_some_and(|t| t.builds >= rs.castle.siege_tower_builds && t.structure > 0)
    }

    /// Part of a castle: a cell of a named castle, or castle ground (wall, tower, gate,
    /// courtyard) drawn without one.
    pub fn in_castle(&self, rs: &Ruleset) -> bool {
        self.castle.is_some() || rs.terrain(self.terrain).has(Flag::CastlePart)
    }

    /// A structure cell (fort, fortifications) knocked down to 0 points.
    pub fn is_breached(&self, rs: &Ruleset) -> bool {
        rs.terrain(self.terrain).structure.is_some() && self.structure.unwrap_or(0) <= 0
    }

    /// How a company standing on this cell is protected (docs/rules.md §6). A breached cell has
    /// the protection of plain; it keeps its terrain's confidence, and it stays ranged-only
    /// unless the ruleset's `combat.breach_opens_melee` says a breach lets melee in.
    pub fn defence<'a>(&self, rs: &'a Ruleset) -> Defence<'a> {
        let own = rs.terrain(self.terrain);
        let breached = self.is_breached(rs);
        let guard = if breached {
            rs.terrain(Terrain::Plain)
        } else {
            own
        };
        Defence {
            volley_protection: guard.volley_protection,
            melee_protection: guard.melee_protection,
            melee_protection_against: &guard.melee_protection_against,
            confidence: own.confidence,
            ranged_only: own.has(Flag::RangedOnly) && !(breached && rs.combat.breach_opens_melee),
        }
    }

    /// Only `nation` may enter (own fort or fortifications, or a breached one).
    pub fn closed_to(&self, rs: &Ruleset, nation: NationId) -> bool {
        rs.terrain(self.terrain).has(Flag::OwnNationOnly)
            && self.owner != Some(nation)
            && !self.is_breached(rs)
    }
}

/// A company as the engine sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub id: CompanyId,
    pub nation: NationId,
    pub kind: Kind,
    pub pos: Pos,
    pub men: i32,
    pub wounded: i32,
    pub ap: i32,
    pub morale: i32,
    pub xp: i32,
    /// 2: fired a volley this turn, 1: fired the previous turn, 0: not recently.
    pub volley_recency: i32,
}

/// Where a window's cells are: its own copy, or the world's grid, read in place.
#[derive(Clone, Debug)]
enum Store {
    Own(Vec<Cell>),
    /// A window read in place (a bot's, to choose an order; a board's, for an order): its rows
    /// were a copy of some 40 KB from all over the world's 48 MB, a tenth of a bots' turn
    /// spent waiting on memory, for the few cells a path search or a move looks at. The cells
    /// written over the grid's ([`Area::set_cell`]) are kept beside it.
    Over(Arc<CellBlocks>, FxHashMap<Pos, Cell>),
}

/// A plain cell, for a window's cells that lie outside the grid it reads.
static PLAIN: Cell = Cell::plain();

/// The cell at `p` of a window read in place: as written over, else the grid's.
fn over_grid<'a>(grid: &'a CellBlocks, over: &'a FxHashMap<Pos, Cell>, p: Pos) -> &'a Cell {
    if !over.is_empty() {
        if let Some(c) = over.get(&p) {
            return c;
        }
    }
    grid.get(p).unwrap_or(&PLAIN)
}

/// A rectangular window of a world, with the companies standing in it.
#[derive(Clone, Debug)]
pub struct Area {
    pub bounds: Bounds,
    pub season: Season,
    origin: Pos,
    width: i32,
    height: i32,
    cells: Store,
    units: FxHashMap<Pos, Unit>,
    /// Features of cell sides, each edge under its one name (`Grid::canonical`).
    edges: FxHashMap<(Pos, Side), EdgeFeature>,
}

impl Area {
    /// An area covering the rectangle `[x0, x1] × [y0, y1]` (clipped to the map), all plain.
    pub fn new(bounds: Bounds, season: Season, x0: i32, y0: i32, x1: i32, y1: i32) -> Area {
        Area::filled(bounds, season, (x0, y0, x1, y1), |_, _, _, _| {})
    }

    /// An area covering the rectangle `[x0, x1] × [y0, y1]` (clipped to the map), whose rows
    /// `row(y, x0, x1, cells)` appends, clipped, west to east; what a row leaves out is plain,
    /// what it adds past the row is dropped. (Filled once, not made plain and written over.)
    pub fn filled(
        bounds: Bounds,
        season: Season,
        (x0, y0, x1, y1): (i32, i32, i32, i32),
        mut row: impl FnMut(i32, i32, i32, &mut Vec<Cell>),
    ) -> Area {
        let (x0, y0) = (x0.max(0), y0.max(0));
        let (x1, y1) = (x1.min(bounds.width - 1), y1.min(bounds.height - 1));
        let (width, height) = ((x1 - x0 + 1).max(0), (y1 - y0 + 1).max(0));
        let mut cells = Vec::with_capacity((width * height) as usize);
        for y in y0..y0 + height {
            let end = cells.len() + width as usize;
            row(y, x0, x1, &mut cells);
            cells.resize(end, Cell::plain());
        }
        Area {
            bounds,
            season,
            origin: Pos::new(x0, y0),
            width,
            height,
            cells: Store::Own(cells),
            units: FxHashMap::default(),
            edges: FxHashMap::default(),
        }
    }

    /// An area covering the rectangle `[x0, x1] × [y0, y1]` (clipped to the map) that reads
    /// its cells in place in `grid` (plain where the grid has none). Its cells are the same as
    /// those of a window filled from the grid; [`Area::set_cell`] writes over them, not into
    /// the grid.
    pub fn over(
        bounds: Bounds,
        season: Season,
        (x0, y0, x1, y1): (i32, i32, i32, i32),
        grid: Arc<CellBlocks>,
    ) -> Area {
        let (x0, y0) = (x0.max(0), y0.max(0));
        let (x1, y1) = (x1.min(bounds.width - 1), y1.min(bounds.height - 1));
        Area {
            bounds,
            season,
            origin: Pos::new(x0, y0),
            width: (x1 - x0 + 1).max(0),
            height: (y1 - y0 + 1).max(0),
            cells: Store::Over(grid, FxHashMap::default()),
            units: FxHashMap::default(),
            edges: FxHashMap::default(),
        }
    }

    /// The whole map as one area.
    pub fn whole(bounds: Bounds, season: Season) -> Area {
        Area::new(bounds, season, 0, 0, bounds.width - 1, bounds.height - 1)
    }

    fn index(&self, p: Pos) -> Option<usize> {
        let (dx, dy) = (p.x - self.origin.x, p.y - self.origin.y);
        (dx >= 0 && dy >= 0 && dx < self.width && dy < self.height)
            .then(|| (dy * self.width + dx) as usize)
    }

    /// Where `p` lies among the window's cells, row by row (for tables kept beside the area).
    pub fn slot(&self, p: Pos) -> Option<usize> {
        self.index(p)
    }

    /// How many cells the window holds.
    pub fn slots(&self) -> usize {
        (self.width * self.height) as usize
    }

    /// Whether `p` is inside the loaded window.
    pub fn covers(&self, p: Pos) -> bool {
        self.index(p).is_some()
    }

    /// The cell at `slot`, the slot of `p` (see [`Area::slot`]): by slot in the window's own
    /// copy, by place in a grid read in place.
    pub fn cell_in(&self, slot: usize, p: Pos) -> Option<&Cell> {
        match &self.cells {
            Store::Own(cells) => cells.get(slot),
            Store::Over(grid, over) => self.index(p).map(|_| over_grid(grid, over, p)),
        }
    }

    pub fn cell(&self, p: Pos) -> Option<&Cell> {
        let i = self.index(p)?;
        match &self.cells {
            Store::Own(cells) => cells.get(i),
            Store::Over(grid, over) => Some(over_grid(grid, over, p)),
        }
    }

    pub fn set_cell(&mut self, p: Pos, c: Cell) {
        let Some(i) = self.index(p) else { return };
        match &mut self.cells {
            Store::Own(cells) => cells[i] = c,
            Store::Over(_, over) => {
                over.insert(p, c);
            }
        }
    }

    pub fn terrain(&self, p: Pos) -> Option<Terrain> {
        self.cell(p).map(|c| c.terrain)
    }

    /// Puts a feature on a side of `p` (None takes it off).
    pub fn set_edge(&mut self, p: Pos, side: Side, feature: Option<EdgeFeature>) {
        let key = self.bounds.grid.canonical(p, side);
        match feature {
            Some(f) => self.edges.insert(key, f),
            None => self.edges.remove(&key),
        };
    }

    /// The feature on a side of `p`, whichever cell names it.
    pub fn edge(&self, p: Pos, side: Side) -> Option<EdgeFeature> {
        self.edges
            .get(&self.bounds.grid.canonical(p, side))
            .copied()
    }

    /// Whether a step into `p` from its neighbour `from` crosses a rampart: on a square grid
    /// from a diagonal neighbour, either side that meets at that corner (docs/rules.md §13).
    pub fn rampart_between(&self, p: Pos, from: Pos) -> bool {
        self.bounds
            .grid
            .sides_towards(p, from)
            .into_iter()
            .any(|s| self.edge(p, s) == Some(EdgeFeature::Rampart))
    }

    pub fn unit_at(&self, p: Pos) -> Option<&Unit> {
        self.units.get(&p)
    }

    pub fn unit(&self, id: CompanyId) -> Option<&Unit> {
        self.units.values().find(|u| u.id == id)
    }

    pub fn place(&mut self, u: Unit) {
        self.units.insert(u.pos, u);
    }

    /// Takes the company off `p`, if one stands there.
    pub fn remove(&mut self, p: Pos) -> Option<Unit> {
        self.units.remove(&p)
    }

    pub fn units(&self) -> impl Iterator<Item = &Unit> {
        self.units.values()
    }

    /// The loaded positions, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        let o = self.origin;
        (0..self.height)
            .flat_map(move |dy| (0..self.width).map(move |dx| Pos::new(o.x + dx, o.y + dy)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_area_is_clipped_to_the_map() {
        let a = Area::new(Bounds::square(10, 8), Season::Summer, -3, -3, 2, 20);
        assert!(a.covers(Pos::new(0, 0)));
        assert!(a.covers(Pos::new(2, 7)));
        assert!(!a.covers(Pos::new(3, 0)));
        assert!(!a.covers(Pos::new(0, 8)));
        assert_eq!(a.positions().count(), 3 * 8);
    }

    #[test]
    fn a_fort_at_zero_structure_is_breached_protects_as_plain_and_keeps_its_confidence() {
        let rs = Ruleset::shipped();
        let mut fort = Cell {
            terrain: Terrain::Fort,
            town: None,
            owner: Some(1),
            structure: Some(15),
            castle: None,
            siege: None,
        };
        assert!(!fort.is_breached(&rs));
        assert!(fort.closed_to(&rs, 2));
        assert!(!fort.closed_to(&rs, 1));
        let whole = fort.defence(&rs);
        assert_eq!((whole.volley_protection, whole.melee_protection), (85, 100));
        assert_eq!((whole.confidence, whole.ranged_only), (30, true));
        fort.structure = Some(0);
        assert!(fort.is_breached(&rs));
        assert!(!fort.closed_to(&rs, 2));
        // Protection of plain, confidence of a fort; the shipped ruleset lets melee in.
        let breached = fort.defence(&rs);
        assert_eq!(
            (breached.volley_protection, breached.melee_protection),
            (0, 0)
        );
        assert_eq!((breached.confidence, breached.ranged_only), (30, false));
        let mut closed = rs.clone();
        closed.combat.breach_opens_melee = false;
        assert!(fort.defence(&closed).ranged_only);
    }
}
