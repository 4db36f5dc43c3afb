//! One viewport for the player's map and the editor's: the rectangle of the world shown, at
//! what zoom, and the links that pan and zoom it.

use crate::rules::Grid;
use serde::Serialize;

/// (cell size in pixels, columns, rows) of three zoom levels, 1 (far) to 3 (near).
pub type Zooms = [(i32, i32, i32); 3];

/// The rectangle of the world a map page shows, and at what size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Viewport {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    pub zoom: i32,
    pub cell_px: i32,
    /// The world's grid: how the cells lie in the drawing.
    #[serde(skip)]
    pub grid: Grid,
}

/// Where a view's cells lie in its drawing: squares in rows, or pointy-top hexes `cell` wide
/// in rows `step` apart that overlap by a quarter of a hex's height, odd rows shifted half a
/// cell right (docs/rules.md §13). One place for every pixel the map's drawing, its clicks
/// and its links work out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub x0: i32,
    pub y0: i32,
    pub cols: i32,
    pub rows: i32,
    pub cell: i32,
    pub grid: Grid,
}

impl Geometry {
    /// The distance between two rows' tops.
    pub fn step(&self) -> i32 {
        match self.grid {
            Grid::Square => self.cell,
            // √3/2 of the width, rounded.
            Grid::Hex => (self.cell * 866 + 500) / 1000,
        }
    }

    /// A cell's height: a hex is 4/3 of a row step tall.
    pub fn height(&self) -> f64 {
        match self.grid {
            Grid::Square => f64::from(self.cell),
            Grid::Hex => f64::from(self.step()) * 4.0 / 3.0,
        }
    }

    /// How far down its box a cell's square picture sits (centred in a hex).
    pub fn picture_dy(&self) -> i32 {
        ((self.height() - f64::from(self.cell)) / 2.0).round() as i32
    }

    /// The top left corner of the box of the cell `(x, y)`.
    pub fn origin(&self, x: i32, y: i32) -> (i32, i32) {
        let shift = match self.grid {
            Grid::Hex if y & 1 == 1 => self.cell / 2,
            _ => 0,
        };
        (
            (x - self.x0) * self.cell + shift,
            (y - self.y0) * self.step(),
        )
    }

    pub fn centre(&self, x: i32, y: i32) -> (i32, i32) {
        let (px, py) = self.origin(x, y);
        (
            px + self.cell / 2,
            py + (self.height() / 2.0).round() as i32,
        )
    }

    pub fn width_px(&self) -> i32 {
        self.cols * self.cell
            + match self.grid {
                Grid::Hex if self.rows > 1 || self.y0 & 1 == 1 => self.cell / 2,
                _ => 0,
            }
    }

    pub fn height_px(&self) -> i32 {
        match self.grid {
            Grid::Square => self.rows * self.cell,
            Grid::Hex => ((self.rows - 1).max(0) * self.step()) + self.height().ceil() as i32,
        }
    }

    /// The cell under a point of the drawing, in pixels from its top left corner: on hexes the
    /// cell whose centre is nearest, of the two rows the point may fall in.
    pub fn cell_at(&self, px: i32, py: i32) -> Option<(i32, i32)> {
        if !(0..self.width_px()).contains(&px) || !(0..self.height_px()).contains(&py) {
            return None;
        }
        match self.grid {
            Grid::Square => Some((self.x0 + px / self.cell, self.y0 + py / self.cell)),
            Grid::Hex => {
                let row = py / self.step().max(1);
                let mut best: Option<((i32, i32), i64)> = None;
                for j in [row - 1, row] {
                    if !(0..self.rows).contains(&j) {
                        continue;
                    }
                    let y = self.y0 + j;
                    let col = px / self.cell;
                    for i in [col - 1, col, col + 1] {
                        if !(0..self.cols).contains(&i) {
                            continue;
                        }
                        let (cx, cy) = self.centre(self.x0 + i, y);
                        let d = i64::from(cx - px).pow(2) + i64::from(cy - py).pow(2);
                        if best.is_none_or(|(_, b)| d < b) {
                            best = Some(((self.x0 + i, y), d));
                        }
                    }
                }
                best.map(|(c, _)| c)
            }
        }
    }
}

impl Viewport {
    /// The rectangle of zoom level `zoom` (clamped to 1–3) centred on `centre` as near as the
    /// world's edges allow.
    pub fn around(
        zooms: &Zooms,
        width: i32,
        height: i32,
        centre: (i32, i32),
        zoom: i32,
    ) -> Viewport {
        let zoom = zoom.clamp(1, 3);
        let (cell_px, cols, rows) = zooms[(zoom - 1) as usize];
        let (c, r) = (cols.min(width).max(1), rows.min(height).max(1));
        // `(c - 1) / 2` so that a view made around its own centre is the same view: links
        // carry the centre, and an even width must not creep a column per click.
        let x0 = centre
            .0
            .saturating_sub((c - 1) / 2)
            .clamp(0, (width - c).max(0));
        let y0 = centre
            .1
            .saturating_sub((r - 1) / 2)
            .clamp(0, (height - r).max(0));
        Viewport {
            x0,
            y0,
            x1: x0 + c - 1,
            y1: y0 + r - 1,
            zoom,
            cell_px,
            grid: Grid::Square,
        }
    }

    /// The same view on a world of `grid`.
    pub fn on(self, grid: Grid) -> Viewport {
        Viewport { grid, ..self }
    }

    pub fn geometry(&self) -> Geometry {
        Geometry {
            x0: self.x0,
            y0: self.y0,
            cols: self.cols(),
            rows: self.rows(),
            cell: self.cell_px,
            grid: self.grid,
        }
    }

    pub fn rect(&self) -> (i32, i32, i32, i32) {
        (self.x0, self.y0, self.x1, self.y1)
    }

    pub fn cols(&self) -> i32 {
        self.x1 - self.x0 + 1
    }

    pub fn rows(&self) -> i32 {
        self.y1 - self.y0 + 1
    }

    pub fn centre(&self) -> (i32, i32) {
        ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)
    }

    /// The cell under a point of the drawing, in pixels from its top left corner.
    pub fn cell_at(&self, px: i32, py: i32) -> Option<(i32, i32)> {
        self.geometry().cell_at(px, py)
    }

    /// Centre of the cell `(x, y)` in the drawing's pixels.
    pub fn pixel_centre(&self, x: i32, y: i32) -> (i32, i32) {
        self.geometry().centre(x, y)
    }

    /// Links that move the view half a screen each way, where the world goes on; `href` makes
    /// the link of a view centred on `(x, y)` at a zoom level.
    pub fn pan(&self, width: i32, height: i32, href: impl Fn(i32, i32, i32) -> String) -> Pan {
        let (cx, cy) = self.centre();
        let (sx, sy) = ((self.cols() / 2).max(1), (self.rows() / 2).max(1));
        Pan {
            north: (self.y0 > 0).then(|| href(cx, cy - sy, self.zoom)),
            south: (self.y1 < height - 1).then(|| href(cx, cy + sy, self.zoom)),
            west: (self.x0 > 0).then(|| href(cx - sx, cy, self.zoom)),
            east: (self.x1 < width - 1).then(|| href(cx + sx, cy, self.zoom)),
        }
    }

    /// The three zoom links, centred on `focus` (what the player looks at: the selected cell
    /// or company) when it is in view, else where the view is. Near the world's edge the
    /// view's centre is not the company's cell, and a nearer zoom around it would leave the
    /// company out.
    pub fn zoom_links(
        &self,
        focus: Option<(i32, i32)>,
        href: impl Fn(i32, i32, i32) -> String,
    ) -> Vec<ZoomLink> {
        let inside = |&(x, y): &(i32, i32)| {
            (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
        };
        let (cx, cy) = focus.filter(inside).unwrap_or_else(|| self.centre());
        (1..=3)
            .map(|z| ZoomLink {
                level: z,
                href: href(cx, cy, z),
                current: z == self.zoom,
            })
            .collect()
    }
}

#[derive(Serialize)]
pub struct ZoomLink {
    pub level: i32,
    pub href: String,
    pub current: bool,
}

#[derive(Serialize, Clone)]
pub struct Pan {
    pub north: Option<String>,
    pub south: Option<String>,
    pub west: Option<String>,
    pub east: Option<String>,
}

#[cfg(test)]
mod geometry_tests {
    use super::Geometry;
    use crate::rules::Grid;

    #[test]
    fn every_cell_s_centre_is_found_again_on_both_grids() {
        for grid in [Grid::Square, Grid::Hex] {
            for y0 in [0, 1] {
                for cell in [14, 22, 40] {
                    let g = Geometry {
                        x0: 3,
                        y0,
                        cols: 7,
                        rows: 5,
                        cell,
                        grid,
                    };
                    for y in y0..y0 + 5 {
                        for x in 3..10 {
                            let (cx, cy) = g.centre(x, y);
                            assert!(cx < g.width_px() && cy < g.height_px());
                            assert_eq!(
                                g.cell_at(cx, cy),
                                Some((x, y)),
                                "{grid:?} {cell} ({x}, {y})"
                            );
                        }
                    }
                    assert_eq!(g.cell_at(-1, 3), None);
                    assert_eq!(g.cell_at(3, g.height_px()), None);
                }
            }
        }
    }

    #[test]
    fn hex_rows_overlap_a_quarter_and_odd_rows_shift_half_a_cell() {
        let g = Geometry {
            x0: 0,
            y0: 0,
            cols: 4,
            rows: 3,
            cell: 40,
            grid: Grid::Hex,
        };
        assert_eq!(g.step(), 35);
        assert_eq!(g.origin(0, 0), (0, 0));
        assert_eq!(g.origin(0, 1), (20, 35));
        assert_eq!(g.origin(2, 2), (80, 70));
        assert_eq!(g.width_px(), 4 * 40 + 20);
        assert_eq!(g.height_px(), 2 * 35 + 47);
        // A point just inside a hex's slanted top edge belongs to the row above.
        assert_eq!(g.cell_at(2, 36), Some((0, 0)));
    }
}
