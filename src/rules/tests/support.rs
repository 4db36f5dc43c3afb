//! Small builders: maps drawn as text, units, fixed dice.

use crate::rules::dice::{Draw, Replay};
use crate::rules::state::{Area, Cell, Unit};
use crate::rules::{Bounds, Grid, Kind, Pos, Ruleset, Season, Terrain};

pub fn rs() -> Ruleset {
    Ruleset::shipped()
}

pub fn terrain_of(c: char) -> Terrain {
    match c {
        '.' => Terrain::Plain,
        'm' => Terrain::Marsh,
        'f' => Terrain::Forest,
        'r' => Terrain::River,
        'M' => Terrain::Mountain,
        'p' => Terrain::Plateau,
        's' => Terrain::Slope,
        'v' => Terrain::Village,
        't' => Terrain::Town,
        'c' => Terrain::Church,
        'F' => Terrain::Farm,
        'n' => Terrain::Mine,
        'l' => Terrain::Mill,
        'd' => Terrain::Fields,
        'a' => Terrain::Animals,
        '=' => Terrain::Road,
        'b' => Terrain::Bridge,
        'X' => Terrain::Fort,
        'W' => Terrain::Fortifications,
        '#' => Terrain::Wall,
        'H' => Terrain::FortifiedWall,
        'T' => Terrain::Tower,
        'G' => Terrain::Gate,
        '_' => Terrain::Courtyard,
        'B' => Terrain::Building,
        other => panic!("no terrain for {other:?}"),
    }
}

/// A whole map from rows of terrain letters (see `terrain_of`); forts and castle walls, towers
/// and gates get their full structure and belong to nation 2; mines and churches belong to
/// nobody.
pub fn map(season: Season, rows: &[&str]) -> Area {
    map_on(GRID.with(|g| g.get()), season, rows)
}

thread_local! {
    /// The grid `map` draws on: square, or the one `on_both_grids!` is running.
    static GRID: std::cell::Cell<Grid> = const { std::cell::Cell::new(Grid::Square) };
}

/// What a test expects on the grid it runs on: a path's length, a count of cells.
pub fn on_grid<T>(square: T, hex: T) -> T {
    match GRID.with(|g| g.get()) {
        Grid::Square => square,
        Grid::Hex => hex,
    }
}

/// While it lives, `map` draws on `grid`; a test that fails on it says which.
pub struct OnGrid(pub Grid);

impl OnGrid {
    pub fn set(grid: Grid) -> OnGrid {
        GRID.with(|g| g.set(grid));
        OnGrid(grid)
    }
}

impl Drop for OnGrid {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("(on the {:?} grid)", self.0);
        }
        GRID.with(|g| g.set(Grid::Square));
    }
}

/// A rule test run on both grids: its scenes are drawn by `map`, first on squares, then on
/// hexes, and must hold on each.
macro_rules! on_both_grids {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        #[test]
        $(#[$m])*
        fn $name() {
            for grid in [$crate::rules::Grid::Square, $crate::rules::Grid::Hex] {
                let _on = $crate::rules::tests::support::OnGrid::set(grid);
                $body
            }
        }
    };
}
pub(crate) use on_both_grids;

/// `map` on a grid of either shape.
pub fn map_on(grid: Grid, season: Season, rows: &[&str]) -> Area {
    let rs = rs();
    let bounds = Bounds {
        width: rows[0].chars().count() as i32,
        height: rows.len() as i32,
        grid,
    };
    let mut a = Area::whole(bounds, season);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let terrain = terrain_of(ch);
            let structure = rs.terrain(terrain).structure;
            let owner = structure.map(|_| 2);
            a.set_cell(
                Pos::new(x as i32, y as i32),
                Cell {
                    terrain,
                    town: None,
                    owner,
                    structure,
                    castle: None,
                    siege: None,
                },
            );
        }
    }
    a
}

pub fn unit(id: i32, nation: i32, kind: Kind, x: i32, y: i32) -> Unit {
    let rs = rs();
    let k = rs.kind(kind);
    Unit {
        id,
        nation,
        kind,
        pos: Pos::new(x, y),
        men: k.full_strength,
        wounded: 0,
        ap: k.max_ap,
        morale: 5,
        xp: 0,
        volley_recency: 0,
    }
}

/// Dice that give these values, in order.
pub fn dice(values: &[i32]) -> Replay {
    Replay::new(
        values
            .iter()
            .map(|v| Draw {
                label: String::new(),
                min: i32::MIN,
                max: i32::MAX,
                value: *v,
            })
            .collect(),
    )
}

pub fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}
