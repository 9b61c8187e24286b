//! The client log records what each Raft key-value client asked and was told, at the instants the
//! trace gives, through every way a request can end; it survives time travel; and it says when it is
//! full instead of dropping events quietly.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::client_history::{Op, OpCall, OpEnd, OpReturn, Unknown};
use quorumlab_sim::history::Timeline;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::protocol::ClientCommand;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::{World, WorldConfig};

fn settled(seed: u64) -> (World, NodeId) {
    let mut world = World::new(WorldConfig::raft(3, seed)).unwrap();
    world.run_until(SimTime::from_ms(1_000));
    let leader = world.current_leader().expect("a leader after a second");
    (world, leader)
}

fn request(world: &mut World, target: NodeTarget, kind: RequestKind) {
    world.apply(&Action::Request {
        count: 1,
        target,
        kind,
    });
}

fn follower_of(leader: NodeId) -> NodeId {
    NodeId((leader.0 + 1) % 3)
}

#[test]
fn an_acknowledged_put_and_get_are_recorded_at_the_trace_s_instants() {
    let (mut world, leader) = settled(3);
    request(&mut world, NodeTarget::Node(leader), RequestKind::Put);
    world.run_until(world.now().plus_ms(200));
    request(&mut world, NodeTarget::Node(leader), RequestKind::Get);
    world.run_until(world.now().plus_ms(200));
    let ops = world.client_log().ops();
    assert_eq!(ops.len(), 2);
    let put = ClientCommand::Put { key: 1, value: 1 };
    assert_eq!(ops[0].call, OpCall::Kv(put));
    assert_eq!(ops[0].end, OpEnd::Ok(OpReturn::Written));
    assert_eq!(ops[1].call, OpCall::Kv(ClientCommand::Get { key: 2 }));
    assert_eq!(ops[1].end, OpEnd::Ok(OpReturn::Read(None)));
    assert_eq!(ops[0].served_by, Some(leader));
    let mut submits = Vec::new();
    let mut outcomes = Vec::new();
    for record in world.trace().records() {
        match record.event {
            TraceEvent::ClientSubmit { .. } => submits.push(record.at_us),
            TraceEvent::ClientOutcome { .. } => outcomes.push(record.at_us),
            _ => {}
        }
    }
    let invoked: Vec<u64> = ops.iter().map(|op| op.invoked.at_us).collect();
    let completed: Vec<u64> = ops.iter().map(|op| op.completed.unwrap().at_us).collect();
    assert_eq!(invoked, submits);
    assert_eq!(completed, outcomes);
    assert!(ops[0].precedes(&ops[1]));
}

#[test]
fn refusals_fail_and_silence_is_unknown() {
    let (mut world, leader) = settled(4);
    let follower = follower_of(leader);
    request(&mut world, NodeTarget::Node(follower), RequestKind::Put);
    world.apply(&Action::Crash {
        target: NodeTarget::Node(follower),
    });
    request(&mut world, NodeTarget::Node(follower), RequestKind::Put);
    world.apply(&Action::Isolate {
        target: NodeTarget::Node(leader),
    });
    request(&mut world, NodeTarget::Node(leader), RequestKind::Put);
    world.run_until(world.now().plus_ms(2_000));
    let ends: Vec<OpEnd> = world.client_log().ops().iter().map(|op| op.end).collect();
    assert_eq!(
        ends,
        [
            OpEnd::Failed("not the leader"),
            OpEnd::Failed("node down"),
            OpEnd::Unknown(Unknown::Timeout),
        ]
    );
}

#[test]
fn a_request_with_no_one_to_take_it_is_recorded_as_failed_without_a_trace_record() {
    let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
    let before = world.trace().total();
    request(&mut world, NodeTarget::Leader, RequestKind::Get);
    let ops = world.client_log().ops();
    assert_eq!(ops.len(), 1);
    assert_eq!(ops[0].end, OpEnd::Failed("not the leader"));
    assert_eq!(ops[0].served_by, None);
    let submits = world
        .trace()
        .records()
        .filter(|record| matches!(record.event, TraceEvent::ClientSubmit { .. }))
        .count();
    assert_eq!(submits, 0);
    assert!(
        world.trace().total() > before,
        "the action itself is traced"
    );
}

#[test]
fn a_request_parked_at_a_paused_leader_stays_unknown_whatever_comes_after_the_timeout() {
    let (mut world, leader) = settled(6);
    world.apply(&Action::Pause {
        target: NodeTarget::Node(leader),
        duration_ms: Some(1_500),
    });
    request(&mut world, NodeTarget::Node(leader), RequestKind::Put);
    world.run_until(world.now().plus_ms(3_000));
    let ops = world.client_log().ops();
    assert_eq!(ops[0].end, OpEnd::Unknown(Unknown::Timeout));
    assert_eq!(ops[0].served_by, None);
    let timed_out_at = ops[0].completed.unwrap().at_us;
    assert_eq!(timed_out_at - ops[0].invoked.at_us, 1_000_000);
    assert_eq!(world.client_log().len(), 2, "a late answer adds nothing");
}

#[test]
fn an_open_request_is_not_yet_answered() {
    let (mut world, leader) = settled(7);
    request(&mut world, NodeTarget::Node(leader), RequestKind::Put);
    let ops = world.client_log().ops();
    assert_eq!(ops[0].end, OpEnd::Unknown(Unknown::NotYet));
    assert_eq!(ops[0].completed, None);
}

/// The same run straight and through a timeline seek back and forth.
fn timeline_run() -> Timeline {
    let world = World::new(WorldConfig::raft(5, 12)).unwrap();
    let mut timeline = Timeline::new(world, 100, 8);
    timeline.run_until(SimTime::from_ms(600));
    for kind in [RequestKind::Put, RequestKind::Get, RequestKind::Put] {
        timeline.apply(&Action::Request {
            count: 7,
            target: NodeTarget::Leader,
            kind,
        });
        timeline.run_until(timeline.now().plus_ms(150));
    }
    timeline.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    timeline.run_until(SimTime::from_ms(4_000));
    timeline
}

#[test]
fn a_timeline_seek_back_gives_the_ops_of_a_straight_run() {
    let mut timeline = timeline_run();
    let straight: Vec<Op> = timeline.world().client_log().ops();
    assert!(straight.len() >= 21);
    timeline.seek(SimTime::from_ms(700));
    let earlier = timeline.world().client_log().ops();
    assert!(earlier.len() < straight.len());
    assert!(earlier.len() >= 7);
    timeline.seek(SimTime::from_ms(4_000));
    assert_eq!(timeline.world().client_log().ops(), straight);
}

#[test]
fn past_its_cap_the_log_records_nothing_more_and_says_when_it_stopped() {
    let (mut world, leader) = settled(8);
    world.limit_client_log(5);
    for _ in 0..4 {
        request(&mut world, NodeTarget::Node(leader), RequestKind::Put);
        world.run_until(world.now().plus_ms(100));
    }
    let log = world.client_log();
    assert_eq!(log.len(), 5);
    let cut_at = log.truncated_at_us().expect("the cut is reported");
    let ops = log.ops();
    assert_eq!(ops.len(), 3);
    assert_eq!(ops[2].end, OpEnd::Unknown(Unknown::NotYet));
    assert!(cut_at > ops[2].invoked.at_us);
    assert!(ops[..2].iter().all(|op| op.end.is_required()));
    let mut roomy = settled(8).0;
    for _ in 0..4 {
        request(&mut roomy, NodeTarget::Node(leader), RequestKind::Put);
        roomy.run_until(roomy.now().plus_ms(100));
    }
    assert_eq!(roomy.client_log().truncated_at_us(), None);
    assert_eq!(roomy.client_log().len(), 8);
    assert_eq!(
        roomy.trace_hash(),
        world.trace_hash(),
        "the cap moves no hash"
    );
}
