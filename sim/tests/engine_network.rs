//! The world's network and fault model, observed through the view and the trace.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::{ActionOutcome, World, WorldConfig};

fn node(index: u16) -> NodeTarget {
    NodeTarget::Node(NodeId(index))
}

fn drop_reasons(world: &World) -> Vec<&'static str> {
    world
        .trace()
        .records()
        .filter_map(|record| match record.event {
            TraceEvent::Drop { reason, .. } => Some(reason),
            _ => None,
        })
        .collect()
}

#[test]
fn invalid_configs_are_rejected_with_a_reason() {
    let mut config = WorldConfig::raft(0, 1);
    assert!(World::new(config.clone()).is_err());
    config.node_count = 52;
    assert!(World::new(config.clone()).is_err());
    config.node_count = 51;
    assert!(World::new(config.clone()).is_ok());
    config.timing.election_timeout_ms = (300, 150);
    assert!(World::new(config.clone())
        .unwrap_err()
        .contains("election_timeout_ms"));
    config.timing.election_timeout_ms = (150, 300);
    config.timing.heartbeat_ms = 0;
    assert!(World::new(config).unwrap_err().contains("heartbeat_ms"));
}

#[test]
fn messages_sent_over_a_cut_link_travel_marked_dropped_and_never_arrive() {
    let mut world = World::new(WorldConfig::raft(3, 2)).unwrap();
    world.apply(&Action::Isolate { target: node(0) });
    world.run_until(SimTime::from_ms(400));
    let view = world.view();
    assert!(view
        .messages
        .iter()
        .filter(|message| message.from == NodeId(0))
        .all(|message| message.dropped));
    assert!(
        view.cut_links.len() == 4,
        "isolating one of three nodes cuts 4 directed links"
    );
    assert!(drop_reasons(&world).contains(&"lost"));
    assert!(view
        .messages
        .iter()
        .all(|message| message.deliver_at_us > message.sent_at_us));
}

#[test]
fn a_link_cut_while_a_message_flies_drops_it_on_arrival() {
    let mut world = World::new(WorldConfig::raft(3, 3)).unwrap();
    world.run_until(SimTime::from_ms(1_000));
    let leader = world.current_leader().unwrap();
    world.run_until(
        world
            .view()
            .messages
            .first()
            .map_or(world.now(), |m| SimTime(m.sent_at_us)),
    );
    let flying = world.view().messages;
    assert!(!flying.is_empty());
    world.apply(&Action::Isolate {
        target: NodeTarget::Node(leader),
    });
    world.run_until(world.now().plus_ms(30));
    assert!(drop_reasons(&world).contains(&"link cut in flight"));
}

#[test]
fn messages_to_a_crashed_node_are_dropped_and_a_request_to_it_fails() {
    let mut world = World::new(WorldConfig::raft(3, 4)).unwrap();
    world.run_until(SimTime::from_ms(1_000));
    let follower = NodeId((world.current_leader().unwrap().0 + 1) % 3);
    world.apply(&Action::Crash {
        target: NodeTarget::Node(follower),
    });
    assert!(
        world.view().nodes[follower.index()].timers.is_empty(),
        "timers cancelled"
    );
    world.run_until(world.now().plus_ms(200));
    assert!(drop_reasons(&world).contains(&"receiver crashed"));
    world.apply(&Action::Request {
        count: 1,
        target: NodeTarget::Node(follower),
        kind: RequestKind::Put,
    });
    assert_eq!(world.report().requests.failed, 1);
    let again = world.apply(&Action::Crash {
        target: NodeTarget::Node(follower),
    });
    assert!(matches!(again, ActionOutcome::Skipped { .. }));
}

#[test]
fn a_request_to_a_follower_is_rejected_with_a_leader_hint() {
    let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
    world.run_until(SimTime::from_ms(1_000));
    let leader = world.current_leader().unwrap();
    let follower = NodeId((leader.0 + 1) % 3);
    world.apply(&Action::Request {
        count: 1,
        target: NodeTarget::Node(follower),
        kind: RequestKind::Put,
    });
    let outcome = world.view().recent_requests.last().unwrap().outcome;
    let expected = quorumlab_sim::protocol::ClientOutcome::Rejected(
        quorumlab_sim::protocol::ClientError::NotLeader {
            leader_hint: Some(leader),
        },
    );
    assert_eq!(outcome, expected);
}

#[test]
fn targeting_the_leader_when_there_is_none_is_skipped() {
    let mut world = World::new(WorldConfig::raft(3, 6)).unwrap();
    let outcome = world.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    assert!(matches!(outcome, ActionOutcome::Skipped { .. }));
    assert_eq!(
        world.action_log().len(),
        1,
        "skipped actions are still logged"
    );
    let outcome = world.apply(&Action::Crash { target: node(7) });
    assert!(matches!(outcome, ActionOutcome::Skipped { .. }));
}

#[test]
fn full_duplication_delivers_every_message_twice() {
    let mut config = WorldConfig::raft(3, 7);
    config.timing.duplicate_ppm = 1_000_000;
    let mut world = World::new(config).unwrap();
    world.run_until(SimTime::from_ms(1_000));
    assert!(
        world.current_leader().is_some(),
        "Raft tolerates duplicates"
    );
    let sends = world
        .trace()
        .records()
        .filter(|r| matches!(r.event, TraceEvent::Send { .. }))
        .count();
    assert!(sends > 0 && sends % 2 == 0);
    assert!(world.report().violations.is_empty());
}

#[test]
fn fifty_one_nodes_elect_commit_and_view_cheaply() {
    let mut world = World::new(WorldConfig::raft(51, 8)).unwrap();
    world.run_until(SimTime::from_ms(1_500));
    let leader = world.current_leader().expect("51 nodes elect a leader");
    world.apply(&Action::Request {
        count: 20,
        target: NodeTarget::Node(leader),
        kind: RequestKind::Put,
    });
    world.run_until(world.now().plus_ms(500));
    let report = world.report();
    assert_eq!(report.requests.committed, 20);
    assert!(report.violations.is_empty());
    let view = world.view();
    assert_eq!(view.nodes.len(), 51);
    assert_eq!(
        view.nodes[leader.index()]
            .match_index
            .as_ref()
            .map(Vec::len),
        Some(51)
    );
    let json = serde_json::to_value(&report).unwrap();
    let keys: Vec<&String> = json["final"].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 51);
}
