//! Workloads for measuring the engine's speed, shared by `quorumlab bench` (native) and the wasm
//! benchmark crate `sim/bench-wasm` (in a browser), so both time exactly the same work.
//!
//! Nothing here reads a clock: the caller times each call (`std::time::Instant` natively,
//! `performance.now()` in a page). Two workloads:
//! - [`run_steady_load`]: Raft under steady client load, one put to the leader every
//!   [`REQUEST_EVERY_MS`] simulated milliseconds: the whole engine (protocol, network, checkers, trace).
//! - [`bare_event_loop`]: the cheapest possible discrete-event loop, a binary heap of
//!   `(time, sequence)` events where each popped event schedules one more after a pseudo-random delay
//!   drawn from the engine's own [`Rng`]. No protocol, no effects: the physical floor an event costs.

use crate::base::rng::Rng;
use crate::contract::action::{Action, NodeTarget, RequestKind};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{Scenario, Step, MAX_STEPS};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Steady load: one put to the leader every this many simulated ms (100 requests per second).
pub const REQUEST_EVERY_MS: u64 = 10;

/// The longest steady load a scenario can hold: one step per request, at most [`MAX_STEPS`] steps.
pub const MAX_STEADY_LOAD_SECONDS: u64 = (MAX_STEPS as u64 + 1) * REQUEST_EVERY_MS / 1_000;

/// Events waiting in the bare loop's heap at every moment. About what the engine's own queue holds
/// under the steady load at 5 nodes (timers, messages in flight, one client timeout per open request:
/// about 220 on average, measured once; about 1,600 at 51 nodes), so a heap operation costs about what
/// it costs there.
pub const BARE_LOOP_PENDING_EVENTS: usize = 256;

/// The bare loop's delays, in simulated microseconds: uniform in 1..=this.
const BARE_LOOP_MAX_DELAY_US: u64 = 10_000;

/// What one steady-load run did; the caller divides `events_processed` by the wall time it measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SteadyLoadOutcome {
    pub events_processed: u64,
    pub requests_submitted: u64,
    pub requests_committed: u64,
}

/// A Raft cluster of `node_count` under steady put load for `seconds` of simulated time.
pub fn steady_load_scenario(node_count: usize, seconds: u64) -> Scenario {
    let duration_ms = seconds * 1_000;
    let mut scenario = Scenario::new("Benchmark: steady client load", node_count, duration_ms);
    let request = Action::Request {
        count: 1,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    };
    scenario.steps = (1..duration_ms / REQUEST_EVERY_MS)
        .map(|tick| Step {
            at_ms: tick * REQUEST_EVERY_MS,
            action: request.clone(),
        })
        .collect();
    scenario
}

/// Builds and runs [`steady_load_scenario`] to its end. Building the run is included: it is a few
/// thousand scripted steps against about a million events, well under a percent of the time.
pub fn run_steady_load(node_count: usize, seconds: u64) -> Result<SteadyLoadOutcome, String> {
    let mut run = ScenarioRun::new(steady_load_scenario(node_count, seconds))?;
    run.run_to_end();
    let report = run.world().report();
    Ok(SteadyLoadOutcome {
        events_processed: report.events_processed,
        requests_submitted: report.requests.submitted,
        requests_committed: report.requests.committed,
    })
}

/// Pops `events` events from a heap kept at [`BARE_LOOP_PENDING_EVENTS`], each one scheduling the next
/// after a random delay, and returns a checksum of the order they ran in (so the optimiser cannot drop
/// the loop, and native and wasm can be seen to do the same work: equal checksums).
pub fn bare_event_loop(events: u64) -> u64 {
    let mut rng = Rng::new(1);
    let mut heap = BinaryHeap::with_capacity(BARE_LOOP_PENDING_EVENTS + 1);
    let mut next_sequence: u64 = 0;
    for _ in 0..BARE_LOOP_PENDING_EVENTS {
        heap.push(Reverse((
            rng.range_inclusive(1, BARE_LOOP_MAX_DELAY_US),
            next_sequence,
        )));
        next_sequence += 1;
    }
    let mut checksum: u64 = 0;
    for _ in 0..events {
        let Some(Reverse((at_us, sequence))) = heap.pop() else {
            break;
        };
        checksum = checksum.wrapping_mul(0x100_0000_01B3) ^ at_us ^ sequence;
        let delay_us = rng.range_inclusive(1, BARE_LOOP_MAX_DELAY_US);
        heap.push(Reverse((at_us + delay_us, next_sequence)));
        next_sequence += 1;
    }
    checksum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steady_load_commits_writes() {
        let outcome = run_steady_load(3, 1).expect("the benchmark scenario is valid");
        assert!(outcome.events_processed > 0);
        assert!(outcome.requests_committed > 0);
        assert!(outcome.requests_committed <= outcome.requests_submitted);
    }

    #[test]
    fn the_longest_steady_load_is_a_valid_scenario() {
        let longest = steady_load_scenario(3, MAX_STEADY_LOAD_SECONDS);
        assert!(ScenarioRun::new(longest).is_ok());
        let too_long = steady_load_scenario(3, MAX_STEADY_LOAD_SECONDS + 1);
        assert!(ScenarioRun::new(too_long).is_err());
    }

    #[test]
    fn the_bare_loop_is_deterministic_and_depends_on_its_length() {
        assert_eq!(bare_event_loop(10_000), bare_event_loop(10_000));
        assert_ne!(bare_event_loop(10_000), bare_event_loop(10_001));
    }
}
