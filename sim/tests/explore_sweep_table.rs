//! The table in `docs/explore-sweeps.md`: for every configuration a registry entry's sweep plan names,
//! the bounded search's answer within one stated bound. Not CI (half a minute); run it with
//! `cargo test -p quorumlab-sim --test explore_sweep_table -- --ignored --nocapture`.

use quorumlab_sim::chaos::locks::{chaos_world, LockChaosOptions};
use quorumlab_sim::explore::{explore, ExploreRequest, Outcome};
use quorumlab_sim::registry::ENTRIES;
use quorumlab_sim::rng::Rng;
use std::time::Instant;

/// The seed whose drawn options (workers, TTL, timings) every row uses.
const SEED: u64 = 1;

/// The stated bound: one step, a fault of any kind the search offers (pauses of 250 ms, 1 s and 2 s)
/// or one dropped message, at choice points every 50 ms over the first 4 s, at most 200,000 states;
/// where nodes can lie (PBFT), one of them made Byzantine in any mode too.
fn bound() -> ExploreRequest {
    ExploreRequest {
        max_depth: 1,
        max_faults: 1,
        max_drops: 1,
        max_states: 200_000,
        horizon_ms: Some(4_000),
        ..ExploreRequest::default()
    }
}

#[test]
#[ignore = "minutes of searching; prints the docs table"]
fn every_sweep_configuration_searched_within_one_bound() {
    println!("| world | configuration | sweep claims | search found | states | seconds |");
    println!("| --- | --- | --- | --- | ---: | ---: |");
    for entry in ENTRIES {
        let kind = (entry.defaults)().kind();
        for variant in entry.sweep.variants {
            let Some(options) = LockChaosOptions::new(kind, variant.name) else {
                continue;
            };
            let (scenario, _) = chaos_world(SEED, &options, &mut Rng::new(SEED));
            let with_liar = ExploreRequest {
                max_byzantine: 1,
                ..bound()
            };
            let request = match with_liar.validate(&scenario) {
                Ok(()) => with_liar,
                Err(_) => bound(),
            };
            let started = Instant::now();
            let report = explore(&scenario, &request).unwrap();
            let found = match &report.outcome {
                Outcome::Found {
                    invariant,
                    schedule,
                    faults,
                    ..
                } => format!("{invariant}: {} step(s), {faults} fault(s)", schedule.len()),
                Outcome::Example { .. } => unreachable!("no example was asked"),
                Outcome::BoundReached {
                    bound,
                    complete_depth,
                } => format!(
                    "nothing ({} bound, complete to depth {})",
                    format!("{bound:?}").to_lowercase(),
                    complete_depth.map_or("none".to_string(), |depth| depth.to_string())
                ),
            };
            println!(
                "| {} | {} | {} | {found} | {} | {:.1} |",
                entry.name,
                variant.name,
                if variant.safe { "safe" } else { "unsafe" },
                report.states,
                started.elapsed().as_secs_f64()
            );
        }
    }
}
