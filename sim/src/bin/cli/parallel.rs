//! Sweeping seeds on every core. Each seed's run is independent and deterministic, so spreading seeds
//! over threads changes only the wall time: outcomes are tallied in seed order, giving the same summary
//! as a single-threaded sweep. (Threads live here in the binary, not in the library, which also runs
//! on wasm32.)

use quorumlab_sim::sweep::{SeedOutcome, SweepSummary};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Runs `seed_count` seeds from `first_seed` on `jobs` threads (`run_seed` runs and judges one),
/// reporting each failing seed on stderr as it is found.
pub fn sweep_on_threads(
    first_seed: u64,
    seed_count: u64,
    run_seed: impl Fn(u64) -> Result<SeedOutcome, String> + Sync,
    jobs: usize,
) -> Result<SweepSummary, String> {
    let next_offset = AtomicU64::new(0);
    let results: Mutex<Vec<(u64, Result<SeedOutcome, String>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let offset = next_offset.fetch_add(1, Ordering::Relaxed);
                if offset >= seed_count {
                    return;
                }
                let outcome = run_seed(first_seed.wrapping_add(offset));
                if let Ok(outcome) = &outcome {
                    if outcome.failed() {
                        eprintln!("seed {} failed: {:?}", outcome.seed, outcome.violations);
                    }
                }
                results
                    .lock()
                    .expect("no worker panics while holding the lock")
                    .push((offset, outcome));
            });
        }
    });
    let mut results = results.into_inner().expect("workers finished");
    results.sort_by_key(|(offset, _)| *offset);
    let mut summary = SweepSummary::default();
    for (_, outcome) in results {
        summary.add(&outcome?);
    }
    Ok(summary)
}
