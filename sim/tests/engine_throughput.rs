//! Throughput measurement (reported, not asserted). Run in release:
//! `cargo test --release -p quorumlab-sim --test engine_throughput -- --ignored --nocapture`

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{World, WorldConfig};
use std::time::Instant;

fn steady_load(node_count: usize, simulated_ms: u64) -> (u64, u128) {
    let mut world = World::new(WorldConfig::raft(node_count, 1)).unwrap();
    let started = Instant::now();
    let mut at_ms = 0;
    while at_ms < simulated_ms {
        at_ms += 10;
        world.run_until(SimTime::from_ms(at_ms));
        world.apply(&Action::Request {
            count: 5,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        });
    }
    let report = world.report();
    assert!(report.requests.committed > 0);
    (
        world.events_processed(),
        started.elapsed().as_micros().max(1),
    )
}

#[test]
#[ignore = "measurement; run in release with --ignored --nocapture"]
fn events_per_second_under_steady_client_load() {
    for (node_count, simulated_ms) in [(5, 20_000), (51, 5_000)] {
        let (events, wall_us) = steady_load(node_count, simulated_ms);
        println!(
            "{node_count} nodes: {events} events in {} ms wall = {} events/s, {} simulated ms per wall second",
            wall_us / 1_000,
            events as u128 * 1_000_000 / wall_us,
            simulated_ms as u128 * 1_000_000 / wall_us
        );
    }
}
