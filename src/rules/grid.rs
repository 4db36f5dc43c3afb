//! The square grid: positions, bounds, king-move neighbours, Chebyshev distance and
//! Bresenham lines (docs/rules.md §1, §5).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

/// The extent of a world map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub width: i32,
    pub height: i32,
}

impl Bounds {
    pub fn contains(self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// The neighbours of `p` that lie on the map.
    pub fn neighbours(self, p: Pos) -> impl Iterator<Item = Pos> {
        p.neighbours().filter(move |n| self.contains(*n))
    }

    /// Every position within `radius` of `p` (Chebyshev), clipped to the map.
    pub fn within(self, p: Pos, radius: i32) -> impl Iterator<Item = Pos> {
        let r = radius.max(0);
        let (x0, x1) = ((p.x - r).max(0), (p.x + r).min(self.width - 1));
        let (y0, y1) = ((p.y - r).max(0), (p.y + r).min(self.height - 1));
        (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| Pos::new(x, y)))
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
        let b = Bounds {
            width: 4,
            height: 3,
        };
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
        let b = Bounds {
            width: 40,
            height: 30,
        };
        assert!(b.contains(Pos::new(0, 0)));
        assert!(b.contains(Pos::new(39, 29)));
        assert!(!b.contains(Pos::new(40, 0)));
        assert!(!b.contains(Pos::new(0, 30)));
        assert!(!b.contains(Pos::new(-1, 5)));
    }

    #[test]
    fn within_counts_a_square_of_side_two_r_plus_one() {
        let b = Bounds {
            width: 40,
            height: 30,
        };
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
