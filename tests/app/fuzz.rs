//! A few thousand hostile inputs for each parser (tests/fuzz/targets.rs); `cargo bench --bench
//! fuzz` runs a million of each.

use crate::fuzz_targets::{run, TARGETS};

/// Cases of each parser in `cargo test`.
const CASES: u32 = 2_000;

/// Each parser fails no property, and its generator reaches past the first refusal: some
/// inputs are accepted (but for `depth`, whose inputs must all be refused).
macro_rules! fuzz {
    ($($name:ident),*) => {$(
        #[test]
        fn $name() {
            match run(stringify!($name), CASES) {
                Err(e) => panic!("{e}"),
                Ok(accepted) if stringify!($name) == "depth" => assert_eq!(accepted, 0),
                Ok(accepted) => assert!(accepted > 0, "no input accepted"),
            }
        }
    )*};
}

fuzz!(tmx, tiled_json, map_file, ruleset, order, text, schedule, query, depth);

#[test]
fn every_target_has_a_test() {
    assert_eq!(TARGETS.len(), 9);
    assert!(run("nothing", 1).is_err());
}
