//! Sweeping seeds on every core. Each seed's run is independent and deterministic, so spreading seeds
//! over threads changes only the wall time: seeds go out in chunks, each chunk is tallied on its own and
//! the tallies are merged in seed order, giving the same summary as a single-threaded sweep. Only the
//! chunk tallies are kept, so a sweep of millions of seeds needs no more memory than one of thousands.
//! (Threads live here in the binary, not in the library, which also runs on wasm32.)

use quorumlab_sim::sweep::{SeedOutcome, SweepSummary};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seeds a thread takes at a time.
const CHUNK_SEEDS: u64 = 64;

/// How often a long sweep says how far it is.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// What a sweep tells on stderr while it runs.
#[derive(Clone, Copy)]
pub struct Telling<'a> {
    /// Each failing seed, as it is found.
    pub failures: bool,
    /// Seeds done, the rate and failing seeds so far, every [`PROGRESS_EVERY`], under this name.
    pub progress: Option<&'a str>,
}

/// Runs `seed_count` seeds from `first_seed` on `jobs` threads (`run_seed` runs and judges one),
/// reporting each failing seed on stderr as it is found.
pub fn sweep_on_threads(
    first_seed: u64,
    seed_count: u64,
    run_seed: impl Fn(u64) -> Result<SeedOutcome, String> + Sync,
    jobs: usize,
) -> Result<SweepSummary, String> {
    let telling = Telling {
        failures: true,
        progress: None,
    };
    sweep_telling(first_seed, seed_count, run_seed, jobs, telling)
}

/// [`sweep_on_threads`], telling what `telling` asks.
pub fn sweep_telling(
    first_seed: u64,
    seed_count: u64,
    run_seed: impl Fn(u64) -> Result<SeedOutcome, String> + Sync,
    jobs: usize,
    telling: Telling<'_>,
) -> Result<SweepSummary, String> {
    let next_chunk = AtomicU64::new(0);
    let chunk_count = seed_count.div_ceil(CHUNK_SEEDS);
    let tallies: Mutex<BTreeMap<u64, Result<SweepSummary, String>>> = Mutex::new(BTreeMap::new());
    let progress = Progress::new(telling.progress, seed_count);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let chunk = next_chunk.fetch_add(1, Ordering::Relaxed);
                if chunk >= chunk_count {
                    return;
                }
                let start = chunk * CHUNK_SEEDS;
                let end = (start + CHUNK_SEEDS).min(seed_count);
                let tally = run_chunk(first_seed, start..end, &run_seed, telling.failures);
                let mut tallies = tallies.lock().expect("no thread panics holding the lock");
                progress.chunk_done(end - start, &tally);
                tallies.insert(chunk, tally);
            });
        }
    });
    let mut summary = SweepSummary::default();
    for (_, tally) in tallies.into_inner().expect("threads finished") {
        summary.merge(tally?);
    }
    Ok(summary)
}

fn run_chunk(
    first_seed: u64,
    offsets: std::ops::Range<u64>,
    run_seed: &(impl Fn(u64) -> Result<SeedOutcome, String> + Sync),
    tell_failures: bool,
) -> Result<SweepSummary, String> {
    let mut summary = SweepSummary::default();
    for offset in offsets {
        let outcome = run_seed(first_seed.wrapping_add(offset))?;
        if tell_failures && outcome.failed() {
            eprintln!("seed {} failed: {:?}", outcome.seed, outcome.violations);
        }
        summary.add(&outcome);
    }
    Ok(summary)
}

/// Seeds done so far and when progress was last told.
struct Progress<'a> {
    name: Option<&'a str>,
    total: u64,
    started: Instant,
    state: Mutex<(u64, u64, Instant)>,
}

impl<'a> Progress<'a> {
    fn new(name: Option<&'a str>, total: u64) -> Progress<'a> {
        let now = Instant::now();
        Progress {
            name,
            total,
            started: now,
            state: Mutex::new((0, 0, now)),
        }
    }

    fn chunk_done(&self, seeds: u64, tally: &Result<SweepSummary, String>) {
        let Some(name) = self.name else {
            return;
        };
        let mut state = self
            .state
            .lock()
            .expect("no thread panics holding the lock");
        state.0 += seeds;
        state.1 += tally
            .as_ref()
            .map_or(0, |summary| summary.failing_seed_count);
        if state.2.elapsed() < PROGRESS_EVERY {
            return;
        }
        state.2 = Instant::now();
        let seconds = self.started.elapsed().as_secs_f64().max(1e-9);
        let rate = state.0 as f64 / seconds;
        let left_seconds = (self.total - state.0) as f64 / rate.max(1e-9);
        eprintln!(
            "  {name}: {}/{} seeds, {rate:.0} seeds/s, {} failing, about {left_seconds:.0} s left",
            state.0, self.total, state.1
        );
    }
}
