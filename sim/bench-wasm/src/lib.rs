//! The engine's benchmark workloads for a browser: `./x bench` (scripts/bench/engine.mjs) builds this
//! crate for `wasm32-unknown-unknown`, runs `wasm-bindgen --target web` on it and times each call
//! with `performance.now()` in headless Chromium, beside the same workloads run natively by
//! `quorumlab bench`. Numbers cross as `f64`: exact for counts below 2^53, and no BigInt on the JS side.

use wasm_bindgen::prelude::wasm_bindgen;

/// Runs Raft under steady put load (`quorumlab_sim::bench::run_steady_load`) on `nodes` nodes for
/// `simulated_seconds` and returns the number of events processed (0 if the settings are invalid).
#[wasm_bindgen]
pub fn steady_load(nodes: u32, simulated_seconds: u32) -> f64 {
    quorumlab_sim::bench::run_steady_load(nodes as usize, u64::from(simulated_seconds))
        .map_or(0.0, |outcome| outcome.events_processed as f64)
}

/// Runs the bare event-queue loop (`quorumlab_sim::bench::bare_event_loop`) for `events` events and
/// returns its checksum's low 32 bits, to compare with the native run's.
#[wasm_bindgen]
pub fn bare_loop(events: f64) -> u32 {
    (quorumlab_sim::bench::bare_event_loop(events as u64) & 0xFFFF_FFFF) as u32
}

/// The bounded search as `quorumlab explore FILE --without-steps --depth D --faults D --states N
/// --horizon-ms T --bench` runs it for its states per second (no shrinking), on the scenario `toml`:
/// returns `[states, duplicates]`, so the page's run can be checked against the native one, or an
/// empty array when the scenario or the request is refused.
#[wasm_bindgen]
pub fn explore_search(toml: &str, depth: u32, states: f64, horizon_ms: f64) -> Vec<f64> {
    use quorumlab_sim::explore::{explore, ExploreRequest};
    let Ok(mut scenario) = quorumlab_sim::scenario::parse_scenario(toml, "bench.toml") else {
        return Vec::new();
    };
    scenario.steps.clear();
    let request = ExploreRequest {
        max_depth: depth,
        max_faults: depth,
        max_states: states as u64,
        horizon_ms: Some(horizon_ms as u64),
        shrink: false,
        ..ExploreRequest::default()
    };
    explore(&scenario, &request).map_or(Vec::new(), |report| {
        vec![report.states as f64, report.duplicates as f64]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exports_run_natively_too() {
        assert!(steady_load(3, 1) > 0.0);
        assert_eq!(steady_load(0, 1), 0.0);
        assert_eq!(
            u64::from(bare_loop(1_000.0)),
            quorumlab_sim::bench::bare_event_loop(1_000) & 0xFFFF_FFFF
        );
        let toml = include_str!("../../scenarios/fencing-pause.toml");
        assert_eq!(explore_search(toml, 1, 500.0, 1_000.0), vec![500.0, 0.0]);
        assert!(explore_search("not toml", 1, 500.0, 1_000.0).is_empty());
    }
}
