//! A world's cells in memory. Maps and orders read rectangles of cells on every request, far
//! more rows than they return when read from an index on (x, y); the cells change rarely (map
//! edits, captures, sieges, bridges), and every change moves the world's `cells_version` on
//! (database triggers, so no writer can forget). A copy is kept per (world, version) and used
//! only while the world row read by the request still names that version: never stale, and
//! nothing another server process would need lives only here. Each cell row keeps the version
//! its last change moved the world to, so a newer version is reached from a kept copy by
//! reading only the cells changed since (a capture on a world of 1,000,000 cells used to have
//! the next order read all of them again, and every order of that world wait for it).

use crate::db::models::{CellRow, World};
use crate::db::schema::worlds as worlds_t;
use crate::db::schema::{cells, edges};
use crate::db::{self, DbConnection};
use crate::game::error::GameResult;
use crate::ids::WorldId;
use crate::rules::blocks::CellBlocks;
use crate::rules::names::EdgeFeature;
use crate::rules::state::{Area, Cell};
use crate::rules::{Pos, Side};
use diesel::prelude::*;
use std::sync::{Arc, Mutex};

/// Worlds kept at once (a 1000×1000 world takes about 24 MB).
const KEEP: usize = 4;

#[derive(Clone)]
pub struct WorldCells {
    /// Shared with the windows that read them in place ([`WorldCells::view`]).
    cells: Arc<CellBlocks>,
    /// The features of cell sides, each edge under its one name, row by row. Few (a river's
    /// ramparts): read whole with the cells, and again whenever the cells are brought up to
    /// date (an edge's change moves the world's cells on too).
    edges: Vec<(Pos, Side, EdgeFeature)>,
}

impl WorldCells {
    fn from_rows(w: &World, rows: &[CellRow], edges: Vec<(Pos, Side, EdgeFeature)>) -> WorldCells {
        let mut cells = WorldCells {
            cells: Arc::new(CellBlocks::plain(w.width, w.height)),
            edges,
        };
        cells.put(rows);
        cells
    }

    /// The edge features with a cell in the rectangle, under their one names.
    pub fn edges_in(
        &self,
        x0: i32,
        y0: i32,
        x1: i32,
        y1: i32,
    ) -> impl Iterator<Item = &(Pos, Side, EdgeFeature)> {
        // An edge is named from one of its two cells: the other may lie one step outside.
        self.edges.iter().filter(move |(p, _, _)| {
            p.x >= x0.saturating_sub(1)
                && p.x <= x1.saturating_add(1)
                && p.y >= y0.saturating_sub(1)
                && p.y <= y1.saturating_add(1)
        })
    }

    fn put(&mut self, rows: &[CellRow]) {
        if rows.is_empty() {
            return;
        }
        let cells = Arc::make_mut(&mut self.cells);
        for r in rows {
            cells.put(Pos::new(r.x, r.y), r.cell());
        }
    }

    pub fn get(&self, p: Pos) -> Option<&Cell> {
        self.cells.get(p)
    }

    /// The engine's window on the rectangle (clipped to the map).
    pub fn area(&self, w: &World, x0: i32, y0: i32, x1: i32, y1: i32) -> Area {
        let area = Area::filled(w.bounds(), w.season, (x0, y0, x1, y1), |y, x0, x1, out| {
            self.cells.row_into(y, x0, x1, out)
        });
        self.with_edges(area, (x0, y0, x1, y1))
    }

    /// [`WorldCells::area`] reading the cells in place: for a window that only reads, or
    /// writes a few cells over its own (never into the grid).
    pub fn view(&self, w: &World, x0: i32, y0: i32, x1: i32, y1: i32) -> Area {
        let area = Area::over(w.bounds(), w.season, (x0, y0, x1, y1), self.cells.clone());
        self.with_edges(area, (x0, y0, x1, y1))
    }

    fn with_edges(&self, mut area: Area, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> Area {
        let (x0, x1) = (x0.max(0), x1.min(self.cells.width() - 1));
        for (p, side, feature) in self.edges_in(x0, y0, x1, y1) {
            area.set_edge(*p, *side, Some(*feature));
        }
        area
    }

    /// Every cell of the map, row by row, read in place (a rectangle of the whole map is a
    /// copy of all of it: 16 MB for 1,000,000 cells).
    pub fn iter(&self) -> impl Iterator<Item = (Pos, &Cell)> {
        self.cells.iter()
    }

    /// The cells of a rectangle (clipped to the map), row by row.
    pub fn rect(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> Vec<(Pos, &Cell)> {
        let (xs, ys) = (
            x0.max(0)..=x1.min(self.cells.width() - 1),
            y0.max(0)..=y1.min(self.cells.height() - 1),
        );
        let mut out = Vec::with_capacity(xs.clone().count() * ys.clone().count());
        for y in ys {
            for x in xs.clone() {
                let p = Pos::new(x, y);
                if let Some(c) = self.get(p) {
                    out.push((p, c));
                }
            }
        }
        out
    }
}

struct Entry {
    world: WorldId,
    version: i64,
    /// Batches of orders lost when this was kept: it may have been read inside one of them
    /// after an order changed the cells, so a lost batch since makes it untrustworthy.
    lost_batches: u64,
    cells: Arc<WorldCells>,
    /// Read outside any transaction: of committed rows only.
    committed: bool,
}

static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
/// One loader at a time: after a change, the first request reloads and the others wait for
/// its copy instead of all reading the whole world at once.
static LOADING: Mutex<()> = Mutex::new(());

/// The kept copy of `w`'s cells, as of its row's version or newer: a reader whose world row
/// was read just before a change finds the copy brought up to date since, rather than read
/// the whole world again (newer only within [`CATCH_UP`], as for a copy brought up to date,
/// and only if read outside a transaction: what one wrote may yet be undone).
fn cached(w: &World) -> Option<Arc<WorldCells>> {
    let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .iter()
        .find(|e| {
            e.world == w.id
                && (e.version == w.cells_version
                    || (e.committed
                        && e.version > w.cells_version
                        && e.version - w.cells_version <= CATCH_UP))
                && e.lost_batches == db::group::lost_batches()
        })
        .map(|e| e.cells.clone())
}

/// How far behind a kept copy may be to be brought up to date rather than read again. Versions
/// start at a random number under 10^15, so a copy this close is of the same database (tests
/// run several in one process, with the same world ids), and any change of that many cells at
/// once is read whole.
const CATCH_UP: i64 = 100_000;

/// The version of a kept copy of the world earlier than `w`'s.
fn earlier(w: &World, lost_batches: u64) -> Option<i64> {
    let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .iter()
        .find(|e| {
            e.world == w.id
                && e.version < w.cells_version
                && w.cells_version - e.version <= CATCH_UP
                && e.lost_batches == lost_batches
        })
        .map(|e| e.version)
}

/// The kept copy of a world, taken out of the cache (under [`LOADING`], which alone changes
/// it, the one [`earlier`] found).
fn take_kept(world: WorldId) -> Option<Arc<WorldCells>> {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let i = cache.iter().position(|e| e.world == world)?;
    Some(cache.remove(i).cells)
}

/// The cells of `w` as of the version its row names (or newer, when they changed since).
pub fn of(conn: &mut DbConnection, w: &World) -> GameResult<Arc<WorldCells>> {
    if let Some(c) = cached(w) {
        return Ok(c);
    }
    let _loading = LOADING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = cached(w) {
        return Ok(c);
    }
    let lost_batches = db::group::lost_batches();
    let mut caught_up_from = None;
    let mut cells = None;
    if let Some(version) = earlier(w, lost_batches) {
        let changed = cells_changed_since(conn, w.id, version)?;
        let edges = edges_of(conn, w.id)?;
        // The kept copy itself, brought up to date in place when nothing else holds it: a
        // copy of it would copy each block a change touches, on a bots' turn most of the
        // world's (48 MB for 1,000,000 cells).
        if let Some(kept) = take_kept(w.id) {
            let mut c = Arc::try_unwrap(kept).unwrap_or_else(|held| (*held).clone());
            c.put(&changed);
            c.edges = edges;
            (cells, caught_up_from) = (Some(c), Some(version));
        }
    }
    let cells = Arc::new(match cells {
        Some(c) => c,
        None => WorldCells::from_rows(w, &all_cells(conn, w.id)?, edges_of(conn, w.id)?),
    });
    // Kept as of the world row's version if no change slipped in between it and the cells;
    // else a copy brought up to date is kept as of the version it was brought from (what
    // changed since is read again the next time), and a whole read is not kept.
    let now: Option<i64> = worlds_t::table
        .find(w.id)
        .select(worlds_t::cells_version)
        .first(conn)
        .optional()?;
    let version = match (now == Some(w.cells_version), caught_up_from) {
        (true, _) => Some(w.cells_version),
        (false, from) => from,
    };
    if let Some(version) = version {
        let committed = !db::in_transaction(conn);
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        // Versions of one world id in two databases (tests) are unrelated: keep the newest.
        cache.retain(|e| e.world != w.id);
        if cache.len() >= KEEP {
            cache.remove(0);
        }
        cache.push(Entry {
            world: w.id,
            version,
            committed,
            lost_batches,
            cells: cells.clone(),
        });
    }
    Ok(cells)
}

/// The cells of a rectangle of a world (clipped to the map), as the engine's plain data.
pub fn area(
    conn: &mut DbConnection,
    w: &World,
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
) -> GameResult<Area> {
    Ok(of(conn, w)?.area(w, x0, y0, x1, y1))
}

/// A world's edge features, row by row.
pub fn edges_of(
    conn: &mut DbConnection,
    world_id: WorldId,
) -> GameResult<Vec<(Pos, Side, EdgeFeature)>> {
    let rows: Vec<(i32, i32, Side, EdgeFeature)> = edges::table
        .filter(edges::world_id.eq(world_id))
        .order((edges::y, edges::x, edges::side))
        .select((edges::x, edges::y, edges::side, edges::feature))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(x, y, s, f)| (Pos::new(x, y), s, f))
        .collect())
}

/// The cell rows of a world changed since it was at `version` (of its `cells_version`).
pub fn cells_changed_since(
    conn: &mut DbConnection,
    world_id: WorldId,
    version: i64,
) -> GameResult<Vec<CellRow>> {
    Ok(cells::table
        .filter(cells::world_id.eq(world_id))
        .filter(cells::version.gt(version))
        // Written out, not bound: both databases then see that the query needs only the
        // changed cells `cells_by_version` keeps (every version is 0 or more).
        .filter(diesel::dsl::sql::<diesel::sql_types::Bool>(
            "cells.version > 0",
        ))
        .select(CellRow::as_select())
        .load(conn)?)
}

/// Moves the world's cells version on by one, and returns it, for a writer that stamps the
/// cells it changes itself (their own trigger then leaves the world's row alone). The world's
/// row stays locked until the transaction ends, as each cell's stamp locks it.
pub fn stamp(conn: &mut DbConnection, world_id: WorldId) -> GameResult<i64> {
    Ok(
        crate::on_backend!(conn, c => diesel::update(worlds_t::table.find(world_id))
        .set(worlds_t::cells_version.eq(worlds_t::cells_version + 1))
        .returning(worlds_t::cells_version)
        .get_result(c))?,
    )
}

/// Every cell row of a world, row by row.
pub fn all_cells(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<CellRow>> {
    Ok(cells::table
        .filter(cells::world_id.eq(world_id))
        .order((cells::y, cells::x))
        .select(CellRow::as_select())
        .load(conn)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{NationId, WorldId};
    use crate::rules::{Grid, Season, Terrain};

    fn world(width: i32, height: i32) -> World {
        World {
            id: WorldId(1),
            name: "w".into(),
            width,
            height,
            turn: 0,
            season: Season::Summer,
            paused: false,
            rng_seed: 1,
            rng_word_pos: 0,
            schedule_anchor: 0,
            created_at: 0,
            cells_version: 1,
            ended_turn: None,
            ended_reason: None,
            winner_id: None::<NationId>,
            victory_points: None,
            victory_end_turn: None,
            victory_towns_share: None,
            follows_id: None,
            grid: Grid::Square,
        }
    }

    #[test]
    fn a_window_holds_the_world_s_cells_across_its_blocks() {
        // 70 columns: blocks of 1,024 cells end in the middle of rows (1,024 = 14 × 70 + 44).
        let w = world(70, 40);
        let terrains = [
            Terrain::Forest,
            Terrain::Marsh,
            Terrain::Mine,
            Terrain::Road,
        ];
        let rows: Vec<CellRow> = (0..40)
            .flat_map(|y| (0..70).map(move |x| (x, y)))
            .filter(|(x, y)| (x * 7 + y * 3) % 5 != 0)
            .map(|(x, y)| CellRow {
                world_id: WorldId(1),
                x,
                y,
                terrain: terrains[((x + y) % 4) as usize],
                town_id: None,
                owner_id: Some(x * 100 + y),
                structure: None,
                castle_id: None,
                siege_builds: None,
                siege_structure: None,
                section_id: None,
            })
            .collect();
        let cells = WorldCells::from_rows(&w, &rows, Vec::new());
        // Every cell once, where it lies, across the blocks' ends.
        let all: Vec<(Pos, &Cell)> = cells.iter().collect();
        assert_eq!(all.len(), 70 * 40);
        assert_eq!(all, cells.rect(0, 0, 69, 39));
        // Windows across block ends, at the map's edges and past them.
        for (x0, y0, x1, y1) in [
            (40, 10, 60, 20),
            (-5, -5, 80, 50),
            (0, 14, 69, 15),
            (69, 39, 75, 45),
        ] {
            let area = cells.area(&w, x0, y0, x1, y1);
            // The same window read in place, and one written over (the grid left as it was).
            let view = cells.view(&w, x0, y0, x1, y1);
            let mut written = cells.view(&w, x0, y0, x1, y1);
            let first = Pos::new(x0.max(0), y0.max(0));
            written.set_cell(first, Cell::plain());
            assert_eq!(view.slots(), area.slots());
            for y in y0.max(0)..=y1.min(39) {
                for x in x0.max(0)..=x1.min(69) {
                    let p = Pos::new(x, y);
                    let at = (p, (x0, y0, x1, y1));
                    assert_eq!(area.cell(p), cells.get(p), "{at:?}");
                    assert_eq!(view.cell(p), cells.get(p), "{at:?}");
                    let slot = view.slot(p).unwrap();
                    assert_eq!(view.cell_in(slot, p), area.cell_in(slot, p), "{at:?}");
                    let now = if p == first {
                        Some(Cell::plain())
                    } else {
                        cells.get(p).copied()
                    };
                    assert_eq!(written.cell(p).copied(), now, "{at:?}");
                }
            }
            // Nothing outside the window, read in place or not.
            let outside = Pos::new(x1.min(69) + 1, y0.max(0));
            assert_eq!(view.cell(outside), area.cell(outside));
            assert_eq!(cells.get(first), area.cell(first));
        }
    }
}
