//! World generator benchmark: generating a 1000×1000 world, against validating the same map
//! file (the work every import does anyway), measured in the same run.
//!
//! `cargo bench --bench generate`

use grognard::game::maps::generate::{generate, Options};
use grognard::rules::Ruleset;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let rs = Ruleset::shipped();
    let (mut gen, mut val) = (Vec::new(), Vec::new());
    let mut cells = 0;
    for seed in 1..=5 {
        let opts = Options {
            width: 1000,
            height: 1000,
            seed,
            nations: 4,
            name: None,
            grid: grognard::rules::Grid::Square,
        };
        let t = Instant::now();
        let map = generate(&rs, &opts).expect("generate");
        gen.push(t.elapsed());
        let t = Instant::now();
        map.validate(&rs).expect("a valid map");
        val.push(t.elapsed());
        cells = map.cells.len();
    }
    let (g, v) = (median(gen), median(val));
    println!(
        "generate 1000×1000: {:.0} ms ({} cells not plain), validate: {:.0} ms, ratio {:.2} (median of 5)",
        g.as_secs_f64() * 1000.0,
        cells,
        v.as_secs_f64() * 1000.0,
        g.as_secs_f64() / v.as_secs_f64()
    );
}
