//! A timeline built from a recorded action log (as a share link carries it) replays to exactly the state
//! of the run that recorded it.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::history::Timeline;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{World, WorldConfig};

fn world() -> World {
    World::new(WorldConfig::raft(5, 7)).unwrap()
}

fn recorded_run() -> Timeline {
    let mut timeline = Timeline::new(world(), 100, 16);
    timeline.run_until(SimTime::from_ms(450));
    timeline.apply(&Action::Request {
        count: 3,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    });
    timeline.run_until(SimTime::from_ms(700));
    // Mid-instant: a few single events, then an action between two events of the same instant.
    for _ in 0..4 {
        timeline.step();
    }
    timeline.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    timeline.run_until(SimTime::from_ms(1_300));
    timeline.apply(&Action::Isolate {
        target: NodeTarget::Node(NodeId(2)),
    });
    timeline.run_until(SimTime::from_ms(2_500));
    timeline
}

#[test]
fn a_replayed_log_reaches_the_same_trace_hash() {
    let original = recorded_run();
    let mut replayed = Timeline::replaying(world(), 100, 16, original.actions().to_vec());
    assert_eq!(replayed.now(), SimTime::ZERO);
    replayed.seek(SimTime::from_ms(2_500));
    assert_eq!(replayed.world().trace_hash(), original.world().trace_hash());
    assert_eq!(replayed.world().view(), original.world().view());
    assert_eq!(replayed.actions(), original.actions());
}

#[test]
fn a_replayed_log_can_be_scrubbed_back_and_forth() {
    let original = recorded_run();
    let mut replayed = Timeline::replaying(world(), 100, 16, original.actions().to_vec());
    replayed.seek(SimTime::from_ms(2_500));
    replayed.seek(SimTime::from_ms(600));
    assert_eq!(
        replayed.actions().len(),
        3,
        "seeking back keeps the recorded future"
    );
    replayed.seek(SimTime::from_ms(2_500));
    assert_eq!(replayed.world().trace_hash(), original.world().trace_hash());
}

#[test]
fn an_empty_log_is_a_plain_run() {
    let mut replayed = Timeline::replaying(world(), 100, 16, Vec::new());
    replayed.run_until(SimTime::from_ms(900));
    let mut straight = world();
    straight.run_until(SimTime::from_ms(900));
    assert_eq!(replayed.world().trace_hash(), straight.trace_hash());
}

#[test]
#[should_panic(expected = "recorded actions must be in the order")]
fn an_unordered_log_is_a_programming_error() {
    let original = recorded_run();
    let mut actions = original.actions().to_vec();
    actions.reverse();
    let _ = Timeline::replaying(world(), 100, 16, actions);
}
