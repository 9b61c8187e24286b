//! ZooKeeper-style leader election: the herd recipe against ephemeral-sequential znodes.
//!
//! The ZooKeeper recipes page recommends sequential ephemeral znodes for elections: the lowest number
//! leads, and each candidate keeps an eye on the one just ahead of it instead of on the leader, so a
//! leader's departure wakes one candidate rather than all of them.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::checker::EXCLUSIVE_BELIEF;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::lockservice::ZPath;
use quorumlab_sim::runner::{run_scenario, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Step};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::zookeeper::CandidatePhase;

mod common;
use common::load;

fn leaders(run: &ScenarioRun) -> Vec<NodeId> {
    let nodes = run.world().nodes().iter().enumerate();
    nodes
        .filter(|(_, slot)| {
            slot.actor
                .as_candidate()
                .is_some_and(|candidate| candidate.phase == CandidatePhase::Leading)
        })
        .map(|(index, _)| NodeId(index as u16))
        .collect()
}

/// Herd: every change of leader notifies every waiting candidate.
#[test]
fn herd_notifies_every_waiting_candidate() {
    let report = run_scenario(&load("zk-herd.toml")).unwrap();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    // A's crash wakes B, C, D, E; E's crash wakes the three left.
    assert_eq!(report.world.notifications, Some(4 + 3));
}

/// Sequential: each change notifies exactly one candidate, the next in line.
#[test]
fn sequential_notifies_only_the_successor() {
    let report = run_scenario(&load("zk-sequential.toml")).unwrap();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    assert_eq!(report.world.notifications, Some(2));
}

/// In the sequential recipe the order of succession is the order of arrival, and the znode tree shows
/// who watches whom.
#[test]
fn sequential_watch_chain_and_succession() {
    let mut run = ScenarioRun::new(load("zk-sequential.toml")).unwrap();
    run.advance_to(SimTime::from_ms(1_500));
    assert_eq!(leaders(&run), [NodeId(3)], "A arrived first");
    let view = run.world().view().coordination.unwrap();
    let service = view.service.clone().unwrap();
    assert_eq!(service.znodes.len(), 5);
    // Each candidate but the first watches exactly one znode, its predecessor.
    assert_eq!(service.watches.len(), 4);
    assert!(service
        .watches
        .iter()
        .all(|(_, watchers)| watchers.len() == 1));
    let watched: Vec<ZPath> = view
        .candidates()
        .iter()
        .filter_map(|c| c.watching)
        .collect();
    assert_eq!(watched.len(), 4);
    run.advance_to(SimTime::from_ms(3_000));
    assert_eq!(leaders(&run).len(), 1);
}

/// A leader paused past its session timeout loses the role; the next leader is elected, and the two
/// never both believe they lead within their sessions.
#[test]
fn paused_leader_loses_its_session_without_overlap() {
    for name in ["zk-herd.toml", "zk-sequential.toml"] {
        let mut scenario = load(name);
        scenario.steps = vec![Step {
            at_ms: 1_500,
            action: Action::Pause {
                target: NodeTarget::Node(NodeId(3)),
                duration_ms: Some(2_000),
            },
        }];
        let mut run = ScenarioRun::new(scenario).unwrap();
        run.advance_to(SimTime::from_ms(3_400));
        // A is still frozen with its stale belief; someone else leads for the service.
        let during = leaders(&run);
        assert!(
            during.iter().any(|node| *node != NodeId(3)),
            "{name}: {during:?}"
        );
        run.run_to_end();
        let report = run.report();
        assert!(
            !report.world.violation_counts.contains_key(EXCLUSIVE_BELIEF),
            "{name}"
        );
        assert_eq!(
            leaders(&run).len(),
            1,
            "{name}: A stepped down after waking"
        );
    }
}

#[test]
fn zookeeper_scenarios_round_trip() {
    for name in ["zk-herd.toml", "zk-sequential.toml"] {
        let scenario = load(name);
        let text = to_toml_string(&scenario);
        assert!(text.contains("[zookeeper]"));
        assert_eq!(parse_scenario(&text, name).unwrap(), scenario, "{text}");
    }
    let bad =
        "protocol = \"zookeeper\"\nnodes = 3\nduration_ms = 100\n[zookeeper]\nrecipe = \"flock\"\n";
    let error = parse_scenario(bad, "t.toml").unwrap_err();
    assert_eq!(error.key.as_deref(), Some("zookeeper.recipe"));
}
