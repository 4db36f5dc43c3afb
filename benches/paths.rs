//! Path finding benchmark: A* (`rules::movement::find_path`) for paths of 100 steps (100 cells
//! east along a row, 100 steps on either grid) across a
//! 1000×1000 world of mixed terrain, on a hex grid against the same world on a square grid,
//! measured in the same run. Goal: the hex median under 1 ms.
//!
//! `cargo bench --bench paths`

use grognard::rules::movement::find_path;
use grognard::rules::state::{Area, Cell, Unit};
use grognard::rules::{Bounds, Grid, Kind, Pos, Ruleset, Season, Terrain};
use std::time::{Duration, Instant};

const SIDE: i32 = 1000;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The same world on either grid: plain, with woods and marsh scattered by a fixed rule, so
/// that paths bend around them.
fn world(grid: Grid) -> Area {
    let mut area = Area::whole(
        Bounds {
            width: SIDE,
            height: SIDE,
            grid,
        },
        Season::Summer,
    );
    for y in 0..SIDE {
        for x in 0..SIDE {
            let h = (x * 7919 + y * 104_729) % 97;
            let terrain = match h {
                0..=9 => Terrain::Forest,
                10..=13 => Terrain::Marsh,
                14..=15 => Terrain::Fields,
                _ => continue,
            };
            area.set_cell(
                Pos::new(x, y),
                Cell {
                    terrain,
                    ..Cell::plain()
                },
            );
        }
    }
    area
}

/// Median time of the paths from 50 starting cells to the cell 100 steps east.
fn run(rs: &Ruleset, area: &mut Area) -> (Duration, usize) {
    let mut times = Vec::new();
    let mut steps = 0;
    for i in 0..50 {
        let from = Pos::new(100 + (i * 37) % 700, 100 + (i * 53) % 700);
        let to = Pos::new(from.x + 100, from.y);
        for p in [from, to] {
            area.set_cell(p, Cell::plain());
        }
        let unit = Unit {
            id: 1,
            nation: 1,
            kind: Kind::Infantry,
            pos: from,
            men: 200,
            wounded: 0,
            // Enough AP for any path: the bench times the search, not a refusal.
            ap: 10_000,
            morale: 5,
            xp: 0,
            volley_recency: 0,
        };
        area.place(unit.clone());
        let t = Instant::now();
        let found = find_path(rs, area, &unit, to);
        times.push(t.elapsed());
        if let Ok((path, _)) = found {
            steps = steps.max(path.len());
        }
        area.remove(from);
    }
    (median(times), steps)
}

fn main() {
    let rs = Ruleset::shipped();
    let mut square = world(Grid::Square);
    let mut hex = world(Grid::Hex);
    let (s, s_steps) = run(&rs, &mut square);
    let (h, h_steps) = run(&rs, &mut hex);
    println!(
        "A* on 1000×1000, 100 cells east: hex {:.3} ms (longest path {h_steps} steps), square {:.3} ms ({s_steps} steps), ratio {:.2} (median of 50; goal: hex under 1 ms)",
        h.as_secs_f64() * 1000.0,
        s.as_secs_f64() * 1000.0,
        h.as_secs_f64() / s.as_secs_f64()
    );
}
