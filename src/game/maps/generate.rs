//! The world generator: plausible maps from a seed (same seed, same map). Rivers run from edge
//! to edge with a few bridges, forests and marshes come in clusters, plateaus are ringed by
//! slopes, towns have a church and villages and are linked by roads, forts guard the
//! crossings, mines and farms are scattered, and the nations' spawns lie far apart.

use crate::game::error::{GameError, GameResult};
use crate::game::maps::mapfile::{MapFile, MapNation, MAX_SIDE};
use crate::game::maps::sketch::{Sketch, PALETTE};
use crate::rules::{Grid, Pos, Ruleset, Terrain};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const NATIONS: [&str; 8] = [
    "France", "Russia", "Austria", "Prussia", "Britain", "Spain", "Sweden", "Portugal",
];
const TOWNS: [&str; 24] = [
    "Borodino",
    "Krasnoi",
    "Smolensk",
    "Vitebsk",
    "Orsha",
    "Mozhaisk",
    "Vyazma",
    "Polotsk",
    "Maloyaroslavets",
    "Tarutino",
    "Kaluga",
    "Borisov",
    "Minsk",
    "Vilna",
    "Kovno",
    "Eylau",
    "Friedland",
    "Wagram",
    "Aspern",
    "Essling",
    "Jena",
    "Auerstedt",
    "Ulm",
    "Austerlitz",
];

pub struct Options {
    pub width: i32,
    pub height: i32,
    pub seed: u64,
    pub nations: usize,
    pub name: Option<String>,
    /// Square or hex (docs/rules.md §13): towns, roads and spawns follow its neighbours.
    pub grid: Grid,
}

fn blob(s: &mut Sketch, rng: &mut ChaCha8Rng, t: Terrain, size: usize) {
    let mut p = Pos::new(rng.random_range(0..s.width), rng.random_range(0..s.height));
    for _ in 0..size {
        if s.terrain(p) == Terrain::Plain {
            s.set(p, t);
        }
        p = Pos::new(
            (p.x + rng.random_range(-1..=1)).clamp(0, s.width - 1),
            (p.y + rng.random_range(-1..=1)).clamp(0, s.height - 1),
        );
    }
}

/// A river from one edge to the opposite one, meandering, with orthogonal steps only so that
/// no company slips between two river cells diagonally.
fn river(s: &mut Sketch, rng: &mut ChaCha8Rng) -> Vec<Pos> {
    let vertical = rng.random_bool(0.5);
    let mut cells = Vec::new();
    let (len, across) = if vertical {
        (s.height, s.width)
    } else {
        (s.width, s.height)
    };
    let mut a = rng.random_range(across / 5..(across * 4 / 5).max(across / 5 + 1));
    for along in 0..len {
        let step = rng.random_range(-1..=1);
        let next = (a + step).clamp(0, across - 1);
        for k in a.min(next)..=a.max(next) {
            let p = if vertical {
                Pos::new(k, along)
            } else {
                Pos::new(along, k)
            };
            s.set(p, Terrain::River);
            cells.push(p);
        }
        a = next;
    }
    cells
}

fn free(s: &Sketch, p: Pos) -> bool {
    p.x >= 0
        && p.y >= 0
        && p.x < s.width
        && p.y < s.height
        && s.terrain(p) == Terrain::Plain
        && s.get(p).is_some_and(|c| c.town.is_none())
}

pub fn generate(rs: &Ruleset, o: &Options) -> GameResult<MapFile> {
    if !(8..=MAX_SIDE).contains(&o.width) || !(8..=MAX_SIDE).contains(&o.height) {
        return Err(GameError::Invalid(
            format!("a generated world is 8 to {MAX_SIDE} cells on each side").into(),
        ));
    }
    if !(1..=NATIONS.len()).contains(&o.nations) {
        return Err(GameError::Invalid(
            format!("a generated world has 1 to {} nations", NATIONS.len()).into(),
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(o.seed);
    let (w, h) = (o.width, o.height);
    let area = (w * h) as usize;
    let name = o
        .name
        .clone()
        .unwrap_or_else(|| format!("Generated {}", o.seed));
    let mut s = Sketch::new(&name, w, h);
    s.seed = Some((o.seed >> 1) as i64);
    s.grid = o.grid;
    let g = o.grid;

    for _ in 0..(area / 2500).max(1) {
        let (pw, ph) = (rng.random_range(2..=4), rng.random_range(2..=4));
        let (x0, y0) = (
            rng.random_range(1..(w - pw - 1).max(2)),
            rng.random_range(1..(h - ph - 1).max(2)),
        );
        for y in y0 - 1..=y0 + ph {
            for x in x0 - 1..=x0 + pw {
                let inside = x >= x0 && x < x0 + pw && y >= y0 && y < y0 + ph;
                s.set(
                    Pos::new(x, y),
                    if inside {
                        Terrain::Plateau
                    } else {
                        Terrain::Slope
                    },
                );
            }
        }
    }
    for _ in 0..(area / 3000).max(1) {
        let (mut p, len) = (
            Pos::new(rng.random_range(0..w), rng.random_range(0..h)),
            rng.random_range(3..12),
        );
        let dir = (rng.random_range(-1..=1), rng.random_range(-1..=1));
        for _ in 0..len {
            if s.terrain(p) == Terrain::Plain {
                s.set(p, Terrain::Mountain);
            }
            p = Pos::new(
                (p.x + dir.0 + rng.random_range(-1..=1) / 2).clamp(0, w - 1),
                (p.y + dir.1).clamp(0, h - 1),
            );
        }
    }
    for _ in 0..(area / 400).max(2) {
        let size = rng.random_range(10..60);
        blob(&mut s, &mut rng, Terrain::Forest, size);
    }
    for _ in 0..(area / 1500).max(1) {
        let size = rng.random_range(5..20);
        blob(&mut s, &mut rng, Terrain::Marsh, size);
    }
    let rivers: Vec<Vec<Pos>> = (0..((w + h) / 80).max(1))
        .map(|_| river(&mut s, &mut rng))
        .collect();

    // Towns, spread out: a church with villages (and town houses) around it.
    let want_towns = (area / 1500).clamp(3, 400);
    let min_gap = (((area / want_towns) as f64).sqrt() / 2.0).max(4.0) as i32;
    let mut centres: Vec<Pos> = Vec::new();
    for _ in 0..want_towns * 30 {
        if centres.len() >= want_towns {
            break;
        }
        let p = Pos::new(rng.random_range(2..w - 2), rng.random_range(2..h - 2));
        if !free(&s, p) || centres.iter().any(|c| g.distance(*c, p) < min_gap) {
            continue;
        }
        let name = match centres.len() {
            i if i < TOWNS.len() => TOWNS[i].to_string(),
            i => format!("{} {}", TOWNS[i % TOWNS.len()], i / TOWNS.len() + 1),
        };
        s.set(p, Terrain::Church);
        s.get_mut(p).unwrap().town = Some(name.clone());
        for n in g.neighbours(p) {
            if free(&s, n) && rng.random_bool(0.6) {
                s.set(
                    n,
                    if rng.random_bool(0.3) {
                        Terrain::Town
                    } else {
                        Terrain::Village
                    },
                );
                s.get_mut(n).unwrap().town = Some(name.clone());
            }
        }
        // Around each town, its farms, fields, mill and herds.
        for (t, chance) in [
            (Terrain::Farm, 0.5),
            (Terrain::Fields, 0.8),
            (Terrain::Mill, 0.3),
            (Terrain::Animals, 0.4),
        ] {
            if rng.random_bool(chance) {
                let q = Pos::new(
                    p.x + rng.random_range(-3..=3),
                    p.y + rng.random_range(-3..=3),
                );
                if free(&s, q) {
                    s.set(q, t);
                }
            }
        }
        centres.push(p);
    }

    // Roads: each town to its nearest earlier one (a spanning tree); rivers crossed by bridges.
    let mut bridges = Vec::new();
    for i in 1..centres.len() {
        let from = centres[i];
        let to = *centres[..i]
            .iter()
            .min_by_key(|c| g.distance(**c, from))
            .unwrap();
        for p in g.line(from, to) {
            match s.terrain(p) {
                Terrain::River => {
                    s.set(p, Terrain::Bridge);
                    bridges.push(p);
                }
                Terrain::Plain
                | Terrain::Forest
                | Terrain::Fields
                | Terrain::Marsh
                | Terrain::Slope
                | Terrain::Mountain
                    if s.get(p).is_some_and(|c| c.town.is_none()) =>
                {
                    s.set(p, Terrain::Road);
                }
                _ => {}
            }
        }
    }
    // Every river has at least one bridge.
    for r in &rivers {
        if !r.iter().any(|p| s.terrain(*p) == Terrain::Bridge) {
            let p = r[r.len() / 2];
            s.set(p, Terrain::Bridge);
            bridges.push(p);
        }
    }
    // Forts at some crossings.
    for b in &bridges {
        if rng.random_bool(0.5) {
            if let Some(f) = g.neighbours(*b).find(|n| free(&s, *n)) {
                s.set(f, Terrain::Fort);
            }
        }
    }
    for _ in 0..(area / 800).max(4) {
        let p = Pos::new(rng.random_range(0..w), rng.random_range(0..h));
        if free(&s, p) {
            s.set(p, Terrain::Mine);
        }
    }

    // Nations far apart: spawns on a ring near the border, kept plain.
    let (cx, cy) = (w as f64 / 2.0, h as f64 / 2.0);
    let start = rng.random_range(0.0..std::f64::consts::TAU);
    let mut spawns = Vec::new();
    for i in 0..o.nations {
        let a = start + std::f64::consts::TAU * i as f64 / o.nations as f64;
        let p = Pos::new(
            ((cx + a.cos() * (cx - 2.0)).round() as i32).clamp(0, w - 1),
            ((cy + a.sin() * (cy - 2.0)).round() as i32).clamp(0, h - 1),
        );
        if let Some(c) = s.get_mut(p) {
            *c = Default::default();
        }
        spawns.push(p);
        s.nations.push(MapNation {
            name: NATIONS[i].into(),
            color: PALETTE[i % PALETTE.len()].into(),
            spawn: Some([p.x, p.y]),
            treasury: Some(rs.limits.start_treasury),
        });
    }
    // Each nation holds what lies nearest its spawn: its first town, mines and forts.
    let nearest = |p: Pos| -> usize {
        (0..spawns.len())
            .min_by_key(|i| g.distance(spawns[*i], p))
            .unwrap_or(0)
    };
    for (i, c) in centres.iter().enumerate() {
        let n = nearest(*c);
        if centres.iter().take(i).all(|o| nearest(*o) != n) {
            let town = s.get(*c).and_then(|x| x.town.clone());
            for p in 0..s.cells.len() {
                if s.cells[p].town == town {
                    s.cells[p].owner = Some(NATIONS[n].into());
                }
            }
        }
    }
    for i in 0..s.cells.len() {
        let p = Pos::new(i as i32 % w, i as i32 / w);
        match s.cells[i].terrain {
            Some(Terrain::Fort) => {
                s.cells[i].owner = Some(NATIONS[nearest(p)].into());
                s.cells[i].structure = rs.terrain(Terrain::Fort).structure;
            }
            Some(Terrain::Mine) | Some(Terrain::Farm)
                if spawns
                    .iter()
                    .any(|sp| g.distance(*sp, p) < (w.min(h) / 4).max(4)) =>
            {
                s.cells[i].owner = Some(NATIONS[nearest(p)].into());
            }
            _ => {}
        }
    }
    Ok(s.into_mapfile())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn opts(w: i32, h: i32, seed: u64, nations: usize) -> Options {
        Options {
            width: w,
            height: h,
            seed,
            nations,
            name: None,
            grid: Grid::Square,
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_map_and_another_seed_another() {
        let rs = Ruleset::shipped();
        let a = generate(&rs, &opts(60, 40, 7, 2)).unwrap();
        let b = generate(&rs, &opts(60, 40, 7, 2)).unwrap();
        let c = generate(&rs, &opts(60, 40, 8, 2)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.cells, c.cells);
    }

    #[test]
    fn generated_maps_are_valid_and_every_town_has_a_church() {
        let rs = Ruleset::shipped();
        for seed in 0..12 {
            let m = generate(
                &rs,
                &opts(
                    40 + seed as i32 * 7,
                    30 + seed as i32 * 3,
                    seed,
                    1 + seed as usize % 4,
                ),
            )
            .unwrap();
            m.validate(&rs)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(m.towns.len() >= 3, "seed {seed}: {} towns", m.towns.len());
            for t in &m.towns {
                assert_eq!(
                    m.cells
                        .iter()
                        .filter(|c| c.town.as_deref() == Some(&t.name) && c.terrain == "church")
                        .count(),
                    1,
                    "seed {seed}: town {} has one church",
                    t.name
                );
            }
            let terrains: HashSet<&str> = m.cells.iter().map(|c| c.terrain.as_str()).collect();
            for t in [
                "river", "bridge", "forest", "road", "plateau", "slope", "mine", "church",
            ] {
                assert!(terrains.contains(t), "seed {seed}: no {t}");
            }
        }
    }

    #[test]
    fn plateaus_are_ringed_by_slopes() {
        let rs = Ruleset::shipped();
        let m = generate(&rs, &opts(80, 60, 3, 2)).unwrap();
        let at = |x: i32, y: i32| {
            m.cells
                .iter()
                .find(|c| c.x == x && c.y == y)
                .map(|c| c.terrain.as_str())
                .unwrap_or("plain")
        };
        let plateau: Vec<_> = m.cells.iter().filter(|c| c.terrain == "plateau").collect();
        assert!(!plateau.is_empty());
        // The generator draws slopes first; later features may overwrite some ring cells, but
        // most neighbours of a plateau that are not plateau are slopes.
        let (mut slopes, mut others) = (0, 0);
        for c in plateau {
            for n in Pos::new(c.x, c.y).neighbours() {
                match at(n.x, n.y) {
                    "plateau" => {}
                    "slope" => slopes += 1,
                    _ => others += 1,
                }
            }
        }
        assert!(slopes > others * 2, "{slopes} slopes, {others} others");
    }

    #[test]
    fn nations_spawn_far_apart() {
        let rs = Ruleset::shipped();
        let m = generate(&rs, &opts(100, 80, 11, 2)).unwrap();
        let [a, b] = [m.nations[0].spawn.unwrap(), m.nations[1].spawn.unwrap()];
        assert!(Pos::new(a[0], a[1]).distance(Pos::new(b[0], b[1])) >= 60);
    }

    #[test]
    fn bad_sizes_are_refused() {
        let rs = Ruleset::shipped();
        assert!(generate(&rs, &opts(4, 40, 1, 2)).is_err());
        assert!(generate(&rs, &opts(40, 40, 1, 0)).is_err());
        assert!(generate(&rs, &opts(40, 40, 1, 9)).is_err());
    }
}
