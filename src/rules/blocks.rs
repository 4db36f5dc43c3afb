//! A world's cells as one grid, shared in blocks: what the game keeps of a world's cells in
//! memory, and what a window may read in place ([`crate::rules::state::Area::over`]).

use super::grid::Pos;
use super::state::Cell;
use std::sync::Arc;

/// Cells kept in one block: a copy brought up to date after a change shares every block but
/// the changed ones with the copy it came from (a capture on a world of a million cells
/// copied all of it, 6 ms, on the order after it; blocks of 4,096 cells still made a tenth of
/// a bots' turn of such copies).
pub const BLOCK: usize = 1024;

/// The cells of a `width` × `height` world, row by row, in blocks of [`BLOCK`] cells.
#[derive(Clone)]
pub struct CellBlocks {
    width: i32,
    height: i32,
    blocks: Vec<Arc<Vec<Cell>>>,
}

impl std::fmt::Debug for CellBlocks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CellBlocks({}×{})", self.width, self.height)
    }
}

impl CellBlocks {
    /// A world of plain cells.
    pub fn plain(width: i32, height: i32) -> CellBlocks {
        let (width, height) = (width.max(0), height.max(0));
        let total = (width as usize) * (height as usize);
        let blocks = (0..total.div_ceil(BLOCK))
            .map(|b| Arc::new(vec![Cell::plain(); BLOCK.min(total - b * BLOCK)]))
            .collect();
        CellBlocks {
            width,
            height,
            blocks,
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    fn at(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height)
            .then(|| (p.y * self.width + p.x) as usize)
    }

    pub fn get(&self, p: Pos) -> Option<&Cell> {
        self.at(p).map(|i| &self.blocks[i / BLOCK][i % BLOCK])
    }

    /// Writes a cell (off the map: nothing); its block is copied first when shared.
    pub fn put(&mut self, p: Pos, c: Cell) {
        if let Some(i) = self.at(p) {
            Arc::make_mut(&mut self.blocks[i / BLOCK])[i % BLOCK] = c;
        }
    }

    /// Appends the cells of row `y` from `x0` to `x1` that the grid has (from `x0`, none
    /// before it): a run of cells in one block or two, copied as such (cell by cell, with the
    /// block looked up each time, it was 6 % of a bots' turn).
    pub fn row_into(&self, y: i32, x0: i32, x1: i32, out: &mut Vec<Cell>) {
        let x1 = x1.min(self.width - 1);
        if y < 0 || y >= self.height || x0 < 0 || x1 < x0 {
            return;
        }
        let mut i = (y * self.width + x0) as usize;
        let end = i + (x1 - x0 + 1) as usize;
        while i < end {
            let block = &self.blocks[i / BLOCK];
            let from = i % BLOCK;
            let n = (end - i).min(block.len() - from);
            out.extend_from_slice(&block[from..from + n]);
            i += n;
        }
    }

    /// Every cell, row by row, read in place.
    pub fn iter(&self) -> impl Iterator<Item = (Pos, &Cell)> {
        let width = self.width.max(1) as usize;
        self.blocks
            .iter()
            .flat_map(|b| b.iter())
            .enumerate()
            .map(move |(i, c)| (Pos::new((i % width) as i32, (i / width) as i32), c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::Bounds;
    use crate::rules::names::{Season, Terrain};
    use crate::rules::state::Area;

    #[test]
    fn a_window_over_a_narrower_grid_reads_as_its_copy() {
        let mut g = CellBlocks::plain(5, 3);
        let forest = Cell {
            terrain: Terrain::Forest,
            ..Cell::plain()
        };
        g.put(Pos::new(4, 1), forest);
        g.put(Pos::new(9, 1), forest);
        let grid = Arc::new(g);
        // The map's bounds run past the grid: what the grid lacks is plain either way.
        let bounds = Bounds::square(8, 3);
        let rect = (2, 0, 9, 2);
        let own = Area::filled(bounds, Season::Summer, rect, |y, x0, x1, out| {
            grid.row_into(y, x0, x1, out)
        });
        let over = Area::over(bounds, Season::Summer, rect, grid.clone());
        assert_eq!(own.slots(), over.slots());
        for y in 0..3 {
            for x in 0..10 {
                let p = Pos::new(x, y);
                assert_eq!(own.cell(p), over.cell(p), "{p:?}");
            }
        }
        assert_eq!(over.terrain(Pos::new(4, 1)), Some(Terrain::Forest));
        assert_eq!(over.terrain(Pos::new(6, 1)), Some(Terrain::Plain));
        assert_eq!(over.terrain(Pos::new(8, 1)), None);
    }
}
