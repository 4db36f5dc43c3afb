//! A million hostile inputs for each parser (the targets of tests/fuzz/targets.rs), timed.
//! `GROGNARD_FUZZ_CASES` sets another count, `GROGNARD_FUZZ_ONLY` one parser. A failure is
//! saved under proptest-regressions/fuzz/ and replayed first by `cargo test fuzz` ever after.

#[path = "../tests/fuzz/targets.rs"]
mod fuzz_targets;

fn main() {
    let cases: u32 = std::env::var("GROGNARD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let only = std::env::var("GROGNARD_FUZZ_ONLY").ok();
    let started = std::time::Instant::now();
    let mut failed = Vec::new();
    for name in fuzz_targets::TARGETS {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let t = std::time::Instant::now();
        match fuzz_targets::run(name, cases) {
            Ok(accepted) => println!(
                "{name:<11} {cases} cases in {:>6.1} s ({:>6.1} µs a case), {accepted} accepted",
                t.elapsed().as_secs_f64(),
                t.elapsed().as_secs_f64() * 1e6 / f64::from(cases)
            ),
            Err(e) => {
                println!("{name:<11} FAILED: {e}");
                failed.push(name);
            }
        }
    }
    println!("all parsers: {:.1} s", started.elapsed().as_secs_f64());
    if !failed.is_empty() {
        eprintln!("failing parsers: {failed:?}");
        std::process::exit(1);
    }
}
