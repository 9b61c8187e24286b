//! Issue 17, bug 7: the cost of a run must grow in step with its length when retries pile up. Two
//! worlds that retry hard — ZooKeeper candidates with a 1 ms operation timeout, and a lock service
//! whose network duplicates messages while its clients carry no idempotency key — are run for one,
//! two and four spans of time; each doubling may at most about double the events (a resend storm
//! multiplies them). Measured 2026-12-01: ZooKeeper 18 426, 41 438, 90 237 events for 1, 2, 4 s; the
//! lock service 9 423, 18 169, 37 294 for 5, 10, 20 s.
//!
//! Event counts, not wall time, so the test means the same on a loaded machine. (The wall-time half
//! of the bug was the lock service leader walking every lease after every event; it now does so only
//! when the lease table changed, and the fuzzer's budget watches the time.)

use quorumlab_sim::runner::world_config;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::World;

/// Most a doubling of the run may multiply its events by (2 is linear; the first second, with an
/// election and the sessions' start, weighs a little less than the later ones).
const MAX_RATIO_PER_DOUBLING: f64 = 2.6;
/// No run here needs anywhere near this many; a storm passes it at once.
const EVENT_CAP: u64 = 1_000_000;

fn events_for(text: &str, duration_ms: u64) -> u64 {
    let scenario = parse_scenario(text, "retry_cost.rs").unwrap_or_else(|error| panic!("{error}"));
    let mut world = World::new(world_config(&scenario)).unwrap();
    let until = SimTime::from_ms(duration_ms);
    while world.next_event_time().is_some_and(|at| at <= until) {
        assert!(
            world.events_processed() < EVENT_CAP,
            "more than {EVENT_CAP} events by {} of {duration_ms} ms",
            world.now()
        );
        world.step();
    }
    world.events_processed()
}

fn assert_linear(name: &str, text: &str, span_ms: u64) {
    let counts: Vec<u64> = [1, 2, 4]
        .iter()
        .map(|spans| events_for(text, span_ms * spans))
        .collect();
    for pair in counts.windows(2) {
        let ratio = pair[1] as f64 / pair[0] as f64;
        assert!(
            ratio <= MAX_RATIO_PER_DOUBLING,
            "{name}: events {counts:?}; a doubling multiplied them by {ratio:.2}"
        );
    }
}

#[test]
fn zookeeper_with_a_one_millisecond_timeout_costs_in_step_with_its_length() {
    let text =
        "protocol = \"zookeeper\"\nnodes = 3\nduration_ms = 4000\n\n[locks]\nop_timeout_ms = 1\n";
    assert_linear("zookeeper, op_timeout_ms = 1", text, 1_000);
}

#[test]
fn duplicates_without_an_idempotency_key_cost_in_step_with_the_run() {
    let text = "protocol = \"lock-service\"\nnodes = 3\nduration_ms = 20000\n\n[timing]\nduplicate_rate = 1.0\n\n[locks]\nidempotency_key = false\n";
    assert_linear("lock service, duplicates, no key", text, 5_000);
}
