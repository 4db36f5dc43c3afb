//! The grids (docs/rules.md §1, §5, §13): positions, bounds, neighbours, distance, lines and
//! cell sides. A world is `square` (king-move neighbours, Chebyshev distance, Bresenham lines;
//! sides N E S W) or `hex` (pointy-top hexagons, odd rows shifted half a cell right, "odd-r";
//! six neighbours, hex distance, cube-interpolated lines; sides E NE NW W SW SE). Rules ask the
//! world's `Bounds` and never name a grid.

use serde::{Deserialize, Serialize};

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// Chebyshev distance: `max(|dx|, |dy|)`.
    /// Chebyshev distance; saturates at `i32::MAX` for points at the ends of the integers.
    pub fn distance(self, o: Pos) -> i32 {
        let d = (i64::from(self.x) - i64::from(o.x))
            .abs()
            .max((i64::from(self.y) - i64::from(o.y)).abs());
        i32::try_from(d).unwrap_or(i32::MAX)
    }

    pub fn is_adjacent(self, o: Pos) -> bool {
        self.distance(o) == 1
    }

    /// The 8 surrounding positions, inside or outside any map.
    pub fn neighbours(self) -> impl Iterator<Item = Pos> {
        (-1..=1)
            .flat_map(move |dy| (-1..=1).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| dx != 0 || dy != 0)
            .map(move |(dx, dy)| Pos::new(self.x + dx, self.y + dy))
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

pub use super::names::{Grid, Side};

impl Side {
    /// The side named `s` on `grid`; None for a name that is no side there.
    pub fn on(s: &str, grid: Grid) -> Option<Side> {
        grid.sides().iter().copied().find(|d| d.as_str() == s)
    }

    /// The same edge seen from the other cell.
    pub fn opposite(self) -> Side {
        match self {
            Side::N => Side::S,
            Side::NE => Side::SW,
            Side::E => Side::W,
            Side::SE => Side::NW,
            Side::S => Side::N,
            Side::SW => Side::NE,
            Side::W => Side::E,
            Side::NW => Side::SE,
        }
    }
}

const SQUARE_SIDES: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];
const HEX_SIDES: [Side; 6] = [Side::E, Side::NE, Side::NW, Side::W, Side::SW, Side::SE];

/// A cell's neighbours: at most eight, without a heap allocation (A* asks for them at every
/// step).
pub type Neighbours = std::iter::Take<std::array::IntoIter<Pos, 8>>;

/// Axial coordinates (q, r) of an odd-r position; the cube's third is `-q - r`.
fn axial(p: Pos) -> (i64, i64) {
    let (x, y) = (i64::from(p.x), i64::from(p.y));
    (x - (y - (y & 1)) / 2, y)
}

fn from_axial(q: i64, r: i64) -> Pos {
    let x = q + (r - (r & 1)) / 2;
    Pos::new(
        x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
        r.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
    )
}

fn saturate(d: i64) -> i32 {
    i32::try_from(d).unwrap_or(i32::MAX)
}

impl Grid {
    /// The sides of a cell, in the order the map file and the pages list them.
    pub fn sides(self) -> &'static [Side] {
        match self {
            Grid::Square => &SQUARE_SIDES,
            Grid::Hex => &HEX_SIDES,
        }
    }

    /// The cell across a side of `p` (on a square grid, across N E S W).
    pub fn across(self, p: Pos, side: Side) -> Pos {
        let (dx, dy) = match (self, side) {
            (Grid::Square, Side::N) => (0, -1),
            (Grid::Square, Side::E) => (1, 0),
            (Grid::Square, Side::S) => (0, 1),
            (Grid::Square, Side::W) => (-1, 0),
            (Grid::Square, Side::NE) => (1, -1),
            (Grid::Square, Side::SE) => (1, 1),
            (Grid::Square, Side::SW) => (-1, 1),
            (Grid::Square, Side::NW) => (-1, -1),
            (Grid::Hex, side) => {
                let odd = p.y & 1 == 1;
                match side {
                    Side::E => (1, 0),
                    Side::W => (-1, 0),
                    Side::NE => (i32::from(odd), -1),
                    Side::NW => (i32::from(odd) - 1, -1),
                    Side::SE => (i32::from(odd), 1),
                    Side::SW => (i32::from(odd) - 1, 1),
                    // No such side on a hex: the cell itself.
                    Side::N | Side::S => (0, 0),
                }
            }
        };
        Pos::new(p.x.saturating_add(dx), p.y.saturating_add(dy))
    }

    /// The neighbours of `p`, inside or outside any map: eight king moves on a square grid,
    /// six hexes on a hex grid.
    pub fn neighbours(self, p: Pos) -> Neighbours {
        let mut out = [p; 8];
        let n = match self {
            Grid::Square => {
                let mut i = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        if dx != 0 || dy != 0 {
                            out[i] = Pos::new(p.x.saturating_add(dx), p.y.saturating_add(dy));
                            i += 1;
                        }
                    }
                }
                8
            }
            Grid::Hex => {
                for (i, side) in HEX_SIDES.iter().enumerate() {
                    out[i] = self.across(p, *side);
                }
                6
            }
        };
        out.into_iter().take(n)
    }

    /// Steps between two cells: Chebyshev on a square grid, hex distance on a hex grid;
    /// saturates at `i32::MAX`.
    pub fn distance(self, a: Pos, b: Pos) -> i32 {
        match self {
            Grid::Square => a.distance(b),
            Grid::Hex => {
                let ((aq, ar), (bq, br)) = (axial(a), axial(b));
                let (dq, dr) = (aq - bq, ar - br);
                saturate((dq.abs() + dr.abs() + (dq + dr).abs()) / 2)
            }
        }
    }

    pub fn adjacent(self, a: Pos, b: Pos) -> bool {
        self.distance(a, b) == 1
    }

    /// The cells of the line from `a` to `b`, both ends included, each next to the one before.
    /// On a hex grid, the hexes whose centres the straight line passes nearest, worked out from
    /// the lower end so that a line and its reverse hold the same cells.
    pub fn line(self, a: Pos, b: Pos) -> Vec<Pos> {
        match self {
            Grid::Square => line(a, b),
            Grid::Hex => {
                let reversed = (b.y, b.x) < (a.y, a.x);
                let (from, to) = if reversed { (b, a) } else { (a, b) };
                let n = self.distance(from, to);
                let ((aq, ar), (bq, br)) = (axial(from), axial(to));
                let mut out = Vec::with_capacity(n as usize + 1);
                for i in 0..=n {
                    let t = if n == 0 {
                        0.0
                    } else {
                        f64::from(i) / f64::from(n)
                    };
                    // A nudge off the hexes' shared edges, the same for every line.
                    let q = aq as f64 + (bq - aq) as f64 * t + 1e-6;
                    let r = ar as f64 + (br - ar) as f64 * t + 2e-6;
                    let (q, r) = cube_round(q, r);
                    out.push(from_axial(q, r));
                }
                if reversed {
                    out.reverse();
                }
                out
            }
        }
    }

    /// The sides of `p` crossed on the way into `p` from its neighbour `from`: one, or on a
    /// square grid from a diagonal neighbour the two that meet at that corner; none when `from`
    /// is not a neighbour.
    pub fn sides_towards(self, p: Pos, from: Pos) -> Vec<Side> {
        match self {
            Grid::Hex => HEX_SIDES
                .iter()
                .copied()
                .filter(|s| self.across(p, *s) == from)
                .collect(),
            Grid::Square => {
                if !self.adjacent(p, from) {
                    return Vec::new();
                }
                let (dx, dy) = (from.x - p.x, from.y - p.y);
                let mut out = Vec::with_capacity(2);
                match dy {
                    -1 => out.push(Side::N),
                    1 => out.push(Side::S),
                    _ => {}
                }
                match dx {
                    1 => out.push(Side::E),
                    -1 => out.push(Side::W),
                    _ => {}
                }
                out
            }
        }
    }

    /// An edge's one name (the map file writes each edge once): the side of `p` as given when it
    /// is N or E (square) or E, NE or NW (hex), else the opposite side of the cell across it.
    pub fn canonical(self, p: Pos, side: Side) -> (Pos, Side) {
        let keeps = match self {
            Grid::Square => matches!(side, Side::N | Side::E),
            Grid::Hex => matches!(side, Side::E | Side::NE | Side::NW),
        };
        if keeps {
            (p, side)
        } else {
            (self.across(p, side), side.opposite())
        }
    }
}

/// A side of a cell as the pages' scripts know it (static/editor.js names the edge a click
/// is on): the cell across it and the edge's one name, read off [`Grid::across`] and
/// [`Grid::canonical`] so that the grid's rules are written here only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SideRule {
    pub name: Side,
    /// The step `[dx, dy]` to the cell across the side, from a cell of an even row and from
    /// one of an odd row (hex rows shift).
    pub across: [[i32; 2]; 2],
    /// Whether the edge is named after this side; if not, after `opposite` of the cell
    /// across.
    pub canonical: bool,
    pub opposite: Side,
}

impl Grid {
    /// The sides of a cell, in the order of [`Grid::sides`], as [`SideRule`]s.
    pub fn side_rules(self) -> Vec<SideRule> {
        let step = |side: Side, y: i32| {
            let p = Pos::new(0, y);
            let q = self.across(p, side);
            [q.x - p.x, q.y - p.y]
        };
        self.sides()
            .iter()
            .map(|&side| SideRule {
                name: side,
                across: [step(side, 0), step(side, 1)],
                canonical: self.canonical(Pos::new(0, 0), side) == (Pos::new(0, 0), side),
                opposite: side.opposite(),
            })
            .collect()
    }
}

/// Rounds fractional axial coordinates to the hex they fall in (through the cube's three).
fn cube_round(q: f64, r: f64) -> (i64, i64) {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    (rq as i64, rr as i64)
}

/// The extent of a world map, and the shape of its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub width: i32,
    pub height: i32,
    pub grid: Grid,
}

impl Bounds {
    /// A square-grid map.
    pub const fn square(width: i32, height: i32) -> Bounds {
        Bounds {
            width,
            height,
            grid: Grid::Square,
        }
    }

    pub fn contains(self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// The neighbours of `p` that lie on the map.
    pub fn neighbours(self, p: Pos) -> impl Iterator<Item = Pos> {
        self.grid.neighbours(p).filter(move |n| self.contains(*n))
    }

    pub fn distance(self, a: Pos, b: Pos) -> i32 {
        self.grid.distance(a, b)
    }

    pub fn adjacent(self, a: Pos, b: Pos) -> bool {
        self.grid.adjacent(a, b)
    }

    pub fn line(self, a: Pos, b: Pos) -> Vec<Pos> {
        self.grid.line(a, b)
    }

    /// Every position within `radius` steps of `p`, clipped to the map, row by row.
    pub fn within(self, p: Pos, radius: i32) -> impl Iterator<Item = Pos> {
        let r = radius.max(0);
        // On a hex grid a row reaches one cell further on the side its shift leans to.
        let wide = i32::from(self.grid == Grid::Hex);
        let (x0, x1) = (
            p.x.saturating_sub(r.saturating_add(wide)).max(0),
            p.x.saturating_add(r.saturating_add(wide))
                .min(self.width - 1),
        );
        let (y0, y1) = (
            p.y.saturating_sub(r).max(0),
            p.y.saturating_add(r).min(self.height - 1),
        );
        (y0..=y1)
            .flat_map(move |y| (x0..=x1).map(move |x| Pos::new(x, y)))
            .filter(move |q| wide == 0 || self.grid.distance(p, *q) <= r)
    }
}

/// The cells of the Bresenham line from `a` to `b`, both ends included.
pub fn line(a: Pos, b: Pos) -> Vec<Pos> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let mut err = dx + dy;
    let mut p = a;
    let mut out = vec![p];
    while p != b {
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            p.x += sx;
        }
        if e2 <= dx {
            err += dx;
            p.y += sy;
        }
        out.push(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_the_eight_king_moves() {
        let n: Vec<Pos> = Pos::new(5, 5).neighbours().collect();
        assert_eq!(n.len(), 8);
        assert!(n.iter().all(|p| p.distance(Pos::new(5, 5)) == 1));
    }

    #[test]
    fn neighbours_are_clipped_to_the_map_in_a_corner() {
        let b = Bounds::square(4, 3);
        assert_eq!(b.neighbours(Pos::new(0, 0)).count(), 3);
        assert_eq!(b.neighbours(Pos::new(3, 2)).count(), 3);
        assert_eq!(b.neighbours(Pos::new(1, 1)).count(), 8);
    }

    #[test]
    fn distance_is_chebyshev() {
        assert_eq!(
            Pos::new(i32::MIN, 0).distance(Pos::new(i32::MAX, 0)),
            i32::MAX
        );
        assert_eq!(Pos::new(0, 0).distance(Pos::new(3, 1)), 3);
        assert_eq!(Pos::new(2, 7).distance(Pos::new(-1, 3)), 4);
        assert_eq!(Pos::new(4, 4).distance(Pos::new(4, 4)), 0);
    }

    #[test]
    fn bounds_are_zero_based_and_exclusive() {
        let b = Bounds::square(40, 30);
        assert!(b.contains(Pos::new(0, 0)));
        assert!(b.contains(Pos::new(39, 29)));
        assert!(!b.contains(Pos::new(40, 0)));
        assert!(!b.contains(Pos::new(0, 30)));
        assert!(!b.contains(Pos::new(-1, 5)));
    }

    #[test]
    fn within_counts_a_square_of_side_two_r_plus_one() {
        let b = Bounds::square(40, 30);
        assert_eq!(b.within(Pos::new(10, 10), 3).count(), 49);
        assert_eq!(b.within(Pos::new(0, 0), 3).count(), 16);
    }

    #[test]
    fn bresenham_lines_are_connected_and_symmetric_in_length() {
        let l = line(Pos::new(0, 0), Pos::new(5, 2));
        assert_eq!(l.first(), Some(&Pos::new(0, 0)));
        assert_eq!(l.last(), Some(&Pos::new(5, 2)));
        assert_eq!(l.len(), 6);
        assert!(l.windows(2).all(|w| w[0].is_adjacent(w[1])));
        assert_eq!(line(Pos::new(5, 2), Pos::new(0, 0)).len(), 6);
        assert_eq!(line(Pos::new(3, 3), Pos::new(3, 3)), vec![Pos::new(3, 3)]);
        assert_eq!(
            line(Pos::new(0, 0), Pos::new(3, 3)),
            vec![
                Pos::new(0, 0),
                Pos::new(1, 1),
                Pos::new(2, 2),
                Pos::new(3, 3)
            ]
        );
    }
}
