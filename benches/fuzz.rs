//! A million hostile inputs for each parser (the targets of tests/fuzz/targets.rs), timed, the
//! parsers shared out over the machine's cores. `GROGNARD_FUZZ_CASES` sets another count,
//! `GROGNARD_FUZZ_ONLY` one parser. A failure is saved under proptest-regressions/fuzz/ and
//! replayed first by `cargo test fuzz` ever after.

#[path = "../tests/fuzz/targets.rs"]
mod fuzz_targets;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

fn main() {
    let cases: u32 = std::env::var("GROGNARD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let only = std::env::var("GROGNARD_FUZZ_ONLY").ok();
    let targets: Vec<&str> = fuzz_targets::TARGETS
        .into_iter()
        .filter(|t| only.as_deref().is_none_or(|o| o == *t))
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let started = std::time::Instant::now();
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(name) = targets.get(next.fetch_add(1, Ordering::SeqCst)) {
                let t = std::time::Instant::now();
                match fuzz_targets::run(name, cases) {
                    Ok(accepted) => println!(
                        "{name:<11} {cases} cases in {:>6.1} s ({:>6.1} µs a case), {accepted} accepted",
                        t.elapsed().as_secs_f64(),
                        t.elapsed().as_secs_f64() * 1e6 / f64::from(cases)
                    ),
                    Err(e) => {
                        println!("{name:<11} FAILED: {e}");
                        failed.lock().unwrap_or_else(|e| e.into_inner()).push(*name);
                    }
                }
                }
            });
        }
    });
    println!(
        "all parsers: {:.1} s on {threads} threads",
        started.elapsed().as_secs_f64()
    );
    let failed = failed.into_inner().unwrap_or_else(|e| e.into_inner());
    if !failed.is_empty() {
        eprintln!("failing parsers: {failed:?}");
        std::process::exit(1);
    }
}
