//! Cells filed by the square of the map they lie in, for a bot's sight: the cells of a
//! rectangle, and the nearest to a cell. Squares are counted in levels of 2×2, 4×4… squares,
//! so that the nearest is found by opening the blocks nearest first and skipping empty ones:
//! late in a campaign a bot's objectives lie far across the map, and a search square by square
//! outwards went through thousands of empty squares for each company.

use crate::db::models::World;
use crate::rules::Pos;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The side of the squares, in cells.
const TILE: i32 = 16;

pub struct Spots {
    /// Squares row by row, `cols` to a row.
    tiles: Vec<Vec<Pos>>,
    cols: i32,
    rows: i32,
    /// `levels[l - 1]`: how many cells the blocks of 2^l × 2^l squares hold, row by row, up to
    /// the one block of the whole map.
    levels: Vec<Level>,
    count: usize,
}

struct Level {
    cols: i32,
    counts: Vec<u32>,
}

impl Spots {
    /// No cell yet, on the map of `w`.
    pub fn new(w: &World) -> Spots {
        Spots::sized(w.width, w.height)
    }

    fn sized(width: i32, height: i32) -> Spots {
        let (cols, rows) = (
            (width.max(1) + TILE - 1) / TILE,
            (height.max(1) + TILE - 1) / TILE,
        );
        let mut levels = Vec::new();
        let (mut c, mut r) = (cols, rows);
        while c > 1 || r > 1 {
            (c, r) = ((c + 1) / 2, (r + 1) / 2);
            levels.push(Level {
                cols: c,
                counts: vec![0; (c * r) as usize],
            });
        }
        Spots {
            tiles: vec![Vec::new(); (cols * rows) as usize],
            cols,
            rows,
            levels,
            count: 0,
        }
    }

    /// The square `p` lies in (cells off the map go to the nearest edge square).
    fn tile_of(&self, p: Pos) -> (i32, i32) {
        (
            p.x.div_euclid(TILE).clamp(0, self.cols - 1),
            p.y.div_euclid(TILE).clamp(0, self.rows - 1),
        )
    }

    fn tile(&self, (x, y): (i32, i32)) -> &[Pos] {
        if x < 0 || y < 0 || x >= self.cols || y >= self.rows {
            return &[];
        }
        &self.tiles[(y * self.cols + x) as usize]
    }

    /// Counts a cell in or out of the blocks over square `(x, y)`.
    fn count_over(&mut self, (x, y): (i32, i32), added: bool) {
        for (l, level) in self.levels.iter_mut().enumerate() {
            let i = ((y >> (l + 1)) * level.cols + (x >> (l + 1))) as usize;
            if added {
                level.counts[i] += 1;
            } else {
                level.counts[i] -= 1;
            }
        }
    }

    pub fn add(&mut self, p: Pos) {
        let (x, y) = self.tile_of(p);
        self.tiles[(y * self.cols + x) as usize].push(p);
        self.count_over((x, y), true);
        self.count += 1;
    }

    /// Takes one `p` out, if it is there.
    pub fn remove(&mut self, p: Pos) {
        let (x, y) = self.tile_of(p);
        let tile = &mut self.tiles[(y * self.cols + x) as usize];
        if let Some(i) = tile.iter().position(|q| *q == p) {
            tile.swap_remove(i);
            self.count_over((x, y), false);
            self.count -= 1;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Calls `f` with each cell filed within the rectangle `[x0, x1] × [y0, y1]`.
    pub fn within(&self, x0: i32, y0: i32, x1: i32, y1: i32, mut f: impl FnMut(Pos)) {
        let (tx0, ty0) = (x0.div_euclid(TILE), y0.div_euclid(TILE));
        let (tx1, ty1) = (x1.div_euclid(TILE), y1.div_euclid(TILE));
        for ty in ty0..=ty1 {
            for tx in tx0..=tx1 {
                for &p in self.tile((tx, ty)) {
                    if (x0..=x1).contains(&p.x) && (y0..=y1).contains(&p.y) {
                        f(p);
                    }
                }
            }
        }
    }

    /// Whether some cell lies within `near` of `from` (by `distance`).
    pub fn any_within(&self, from: Pos, near: i32, distance: impl Fn(Pos, Pos) -> i32) -> bool {
        // A step covers at most one column and one row, on squares or hexes.
        let mut found = false;
        self.within(
            from.x - near,
            from.y - near,
            from.x + near,
            from.y + near,
            |p| found |= distance(from, p) <= near,
        );
        found
    }

    /// How many cells the block `(x, y)` of `level` holds (level 0: a square).
    fn held(&self, level: usize, (x, y): (i32, i32)) -> u32 {
        match level {
            0 => self.tile((x, y)).len() as u32,
            l => {
                let lv = &self.levels[l - 1];
                let rows = lv.counts.len() as i32 / lv.cols;
                if x < 0 || y < 0 || x >= lv.cols || y >= rows {
                    return 0;
                }
                lv.counts[(y * lv.cols + x) as usize]
            }
        }
    }

    /// The least distance from `from` to any cell of block `(x, y)` of `level`: a step changes
    /// a cell's column and row by one at most, on squares and hexes alike, so no cell of the
    /// block is nearer than the columns or the rows between.
    fn least_to(from: Pos, level: usize, (x, y): (i32, i32)) -> i32 {
        let side = TILE << level;
        let apart = |v: i32, lo: i32| (lo - v).max(v - (lo + side - 1)).max(0);
        apart(from.x, x * side).max(apart(from.y, y * side))
    }

    /// The nearest cell to `from` (by `distance`, never less than the columns or the rows
    /// between) that `ok` accepts; ties go to the lowest cell, so that the same sight always
    /// gives the same answer.
    pub fn nearest(
        &self,
        from: Pos,
        distance: impl Fn(Pos, Pos) -> i32,
        ok: impl Fn(Pos) -> bool,
    ) -> Option<Pos> {
        if self.count == 0 {
            return None;
        }
        let mut best: Option<(i32, Pos)> = None;
        // Blocks to open, the nearest first: (least distance, level, column, row).
        let top = self.levels.len();
        let mut open = BinaryHeap::from([Reverse((0, top, 0, 0))]);
        while let Some(Reverse((least, level, x, y))) = open.pop() {
            // A block as near as the best may still hold a lower cell at that distance.
            if best.is_some_and(|(d, _)| least > d) {
                break;
            }
            if level == 0 {
                for &p in self.tile((x, y)) {
                    if !ok(p) {
                        continue;
                    }
                    let d = distance(from, p);
                    if best.is_none_or(|b| (d, p) < b) {
                        best = Some((d, p));
                    }
                }
                continue;
            }
            for (cx, cy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let child = (x * 2 + cx, y * 2 + cy);
                if self.held(level - 1, child) > 0 {
                    let least = Spots::least_to(from, level - 1, child);
                    open.push(Reverse((least, level - 1, child.0, child.1)));
                }
            }
        }
        best.map(|(_, p)| p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Grid;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn brute(cells: &[Pos], from: Pos, d: impl Fn(Pos, Pos) -> i32) -> Option<Pos> {
        cells
            .iter()
            .map(|p| (d(from, *p), *p))
            .min()
            .map(|(_, p)| p)
    }

    #[test]
    fn the_nearest_is_the_nearest_of_all_on_both_grids_as_cells_come_and_go() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for grid in [Grid::Square, Grid::Hex] {
            let (w, h) = (300, 170);
            let mut spots = Spots::sized(w, h);
            let mut cells: Vec<Pos> = Vec::new();
            let d = |a: Pos, b: Pos| grid.distance(a, b);
            assert_eq!(spots.nearest(Pos::new(3, 3), d, |_| true), None);
            for round in 0..400 {
                // Mostly adding at first, mostly taking away later: dense, then sparse.
                if rng.random_range(0..400) >= round || cells.is_empty() {
                    let p = Pos::new(rng.random_range(0..w), rng.random_range(0..h));
                    spots.add(p);
                    cells.push(p);
                } else {
                    let p = cells.swap_remove(rng.random_range(0..cells.len()));
                    spots.remove(p);
                }
                for _ in 0..5 {
                    let from = Pos::new(rng.random_range(-5..w + 5), rng.random_range(0..h));
                    assert_eq!(
                        spots.nearest(from, d, |_| true),
                        brute(&cells, from, d),
                        "{grid:?} from {from:?} among {} cells",
                        cells.len()
                    );
                    let odd = |p: Pos| p.x % 2 == 1;
                    let kept: Vec<Pos> = cells.iter().copied().filter(|p| odd(*p)).collect();
                    assert_eq!(spots.nearest(from, d, odd), brute(&kept, from, d));
                }
            }
        }
    }

    #[test]
    fn a_cell_filed_twice_is_counted_until_both_are_taken_away() {
        let mut spots = Spots::sized(100, 100);
        let (p, far) = (Pos::new(40, 40), Pos::new(99, 99));
        spots.add(p);
        spots.add(p);
        spots.add(far);
        spots.remove(p);
        let d = |a: Pos, b: Pos| Grid::Square.distance(a, b);
        assert_eq!(spots.nearest(Pos::new(0, 0), d, |_| true), Some(p));
        spots.remove(p);
        assert_eq!(spots.nearest(Pos::new(0, 0), d, |_| true), Some(far));
        spots.remove(far);
        assert!(spots.is_empty());
        assert_eq!(spots.nearest(Pos::new(0, 0), d, |_| true), None);
    }
}
