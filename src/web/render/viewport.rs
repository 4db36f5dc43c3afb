//! One viewport for the player's map and the editor's: the rectangle of the world shown, at
//! what zoom, and the links that pan and zoom it.

use crate::rules::grid::SideRule;
use crate::rules::{Grid, Side};
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

    /// How far right the cells of the world's odd rows are drawn.
    pub fn odd_shift(&self) -> i32 {
        match self.grid {
            Grid::Square => 0,
            Grid::Hex => self.cell / 2,
        }
    }

    /// The top left corner of the box of the cell `(x, y)`.
    pub fn origin(&self, x: i32, y: i32) -> (i32, i32) {
        let shift = if y & 1 == 1 { self.odd_shift() } else { 0 };
        (
            (x - self.x0) * self.cell + shift,
            (y - self.y0) * self.step(),
        )
    }

    /// A cell's centre from the top left corner of its box.
    fn centre_in_box(&self) -> (i32, i32) {
        (self.cell / 2, (self.height() / 2.0).round() as i32)
    }

    pub fn centre(&self, x: i32, y: i32) -> (i32, i32) {
        let (px, py) = self.origin(x, y);
        let (cx, cy) = self.centre_in_box();
        (px + cx, py + cy)
    }

    /// Besides the cell of the row and column a point falls in by division, the rows above
    /// and the columns on each side whose cells may hold it: none on squares; on hexes, which
    /// reach a quarter of their height into the row above and shift half a cell, one.
    fn reach(&self) -> (i32, i32) {
        match self.grid {
            Grid::Square => (0, 0),
            Grid::Hex => (1, 1),
        }
    }

    /// The line a side of a cell is drawn along, from the top left corner of the cell's box;
    /// None for a side the grid's cells do not have.
    pub fn side_line(&self, side: Side) -> Option<((f64, f64), (f64, f64))> {
        let (w, h) = (f64::from(self.cell), self.height());
        Some(match (self.grid, side) {
            (Grid::Square, Side::N) => ((0.0, 0.0), (w, 0.0)),
            (Grid::Square, Side::E) => ((w, 0.0), (w, w)),
            (Grid::Square, Side::S) => ((0.0, w), (w, w)),
            (Grid::Square, Side::W) => ((0.0, 0.0), (0.0, w)),
            (Grid::Hex, Side::NE) => ((w / 2.0, 0.0), (w, h / 4.0)),
            (Grid::Hex, Side::E) => ((w, h / 4.0), (w, h * 0.75)),
            (Grid::Hex, Side::SE) => ((w, h * 0.75), (w / 2.0, h)),
            (Grid::Hex, Side::SW) => ((w / 2.0, h), (0.0, h * 0.75)),
            (Grid::Hex, Side::W) => ((0.0, h * 0.75), (0.0, h / 4.0)),
            (Grid::Hex, Side::NW) => ((0.0, h / 4.0), (w / 2.0, 0.0)),
            _ => return None,
        })
    }

    /// What the pages' scripts work out the cell and the side under a pointer from.
    pub fn layout(&self) -> Layout {
        let (up, beside) = self.reach();
        let (cx, cy) = self.centre_in_box();
        Layout {
            grid: self.grid,
            x0: self.x0,
            y0: self.y0,
            cols: self.cols,
            rows: self.rows,
            cell: self.cell,
            step: self.step(),
            odd_shift: self.odd_shift(),
            centre: [cx, cy],
            reach: [up, beside],
            picture_dy: self.picture_dy(),
            sides: self
                .grid
                .side_rules()
                .into_iter()
                .filter_map(|rule| {
                    let ((ax, ay), (bx, by)) = self.side_line(rule.name)?;
                    // A tenth of a pixel is as near as a pointer gets.
                    let middle = |a: f64, b: f64| ((a + b) * 5.0).round() / 10.0;
                    Some(SideLayout {
                        rule,
                        middle: [middle(ax, bx), middle(ay, by)],
                    })
                })
                .collect(),
        }
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

    /// The cell under a point of the drawing, in pixels from its top left corner: of the
    /// cells that may hold it (see [`Geometry::reach`]), the one whose centre is nearest. The
    /// pages' script works it out the same way from the [`Layout`].
    pub fn cell_at(&self, px: i32, py: i32) -> Option<(i32, i32)> {
        if !(0..self.width_px()).contains(&px) || !(0..self.height_px()).contains(&py) {
            return None;
        }
        let (row, col) = (py / self.step().max(1), px / self.cell);
        let (up, beside) = self.reach();
        let mut best: Option<((i32, i32), i64)> = None;
        for j in row - up..=row {
            if !(0..self.rows).contains(&j) {
                continue;
            }
            let y = self.y0 + j;
            for i in col - beside..=col + beside {
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

/// A view's cells and sides as the pages' scripts read them (the map's `#map-layout`):
/// static/app.js finds the cell under a click from it, static/editor.js the side and the
/// edge's name. Made from [`Geometry`] and [`Grid::side_rules`], so that the scripts repeat no
/// rule of the grid or of the drawing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Layout {
    pub grid: Grid,
    pub x0: i32,
    pub y0: i32,
    pub cols: i32,
    pub rows: i32,
    pub cell: i32,
    /// The distance between two rows' tops.
    pub step: i32,
    /// How far right the world's odd rows are drawn.
    pub odd_shift: i32,
    /// A cell's centre from the top left corner of its box.
    pub centre: [i32; 2],
    /// The rows above and the columns on each side to look at besides the point's own.
    pub reach: [i32; 2],
    /// How far down its box a cell's square picture sits.
    pub picture_dy: i32,
    pub sides: Vec<SideLayout>,
}

/// A side of a cell: its rule, and the middle of its line from the top left corner of the
/// cell's box (a click is on the side whose middle is nearest).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideLayout {
    #[serde(flatten)]
    pub rule: SideRule,
    pub middle: [f64; 2],
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
