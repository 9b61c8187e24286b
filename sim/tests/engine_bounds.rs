//! The engine's caps hold and say what they did.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::network::MAX_IN_FLIGHT;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::{TraceEvent, TRACE_CAP};
use quorumlab_sim::{World, WorldConfig};

#[test]
fn messages_beyond_the_in_flight_cap_are_discarded_with_a_note() {
    let mut config = WorldConfig::raft(51, 3);
    config.timing.network_delay_ms = (900, 1_000);
    config.timing.election_timeout_ms = (3_000, 6_000);
    config.timing.heartbeat_ms = 1_000;
    config.timing.client_timeout_ms = 20_000;
    let mut world = World::new(config).unwrap();
    world.run_until(SimTime::from_ms(12_000));
    let leader = world.current_leader().expect("slow network still elects");
    world.apply(&Action::Request {
        count: 300,
        target: NodeTarget::Node(leader),
        kind: RequestKind::Put,
    });
    assert!(world.view().messages.len() <= MAX_IN_FLIGHT);
    let notes = world
        .trace()
        .records()
        .filter(|record| matches!(record.event, TraceEvent::Note { .. }))
        .count();
    assert!(notes > 0, "the cap was hit and noted");
    world.run_until(world.now().plus_ms(10_000));
    assert!(world.report().violations.is_empty());
}

#[test]
fn the_trace_keeps_the_newest_records_while_the_hash_covers_all() {
    let mut world = World::new(WorldConfig::raft(51, 4)).unwrap();
    for step in 1..=40u64 {
        world.run_until(SimTime::from_ms(step * 100));
        world.apply(&Action::Request {
            count: 20,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        });
    }
    let trace = world.trace();
    assert!(
        trace.total() > TRACE_CAP as u64,
        "run long enough to pass the cap"
    );
    assert!(trace.records().count() <= TRACE_CAP);
    assert_eq!(
        trace.records().count() as u64 + trace.dropped_records(),
        trace.total()
    );
    let mut text = Vec::new();
    world.write_trace_jsonl(&mut text).unwrap();
    assert_eq!(
        text.iter().filter(|byte| **byte == b'\n').count(),
        trace.records().count()
    );
}
