use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{World, WorldConfig};

#[test]
fn five_nodes_elect_a_leader_and_commit_requests() {
    let mut world = World::new(WorldConfig::raft(5, 1)).unwrap();
    world.run_until(SimTime::from_ms(1_000));
    let request = Action::Request {
        count: 10,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    };
    world.apply(&request);
    world.run_until(SimTime::from_ms(2_000));
    let report = world.report();
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
    assert_eq!(report.requests.committed, 10);
    assert!(report.violations.is_empty());
    assert_eq!(report.leaders.len(), 1);
}
