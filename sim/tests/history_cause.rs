//! The cause sentence on a real run: the gallery's stale lease read aims its faults at "the
//! leader", and the sentence names the node that led when they were applied.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::history_summary::summarize;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::linearizable::Budget;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{example_text, parse_scenario};

#[test]
fn faults_aimed_at_the_leader_are_named_by_the_node_they_reached() {
    let text = example_text("stale-lease-read.toml").expect("the example");
    let scenario = parse_scenario(text, "stale-lease-read.toml").unwrap();
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.run_to_end();
    let world = run.world();
    let aimed: Vec<usize> = world
        .leader_aims()
        .iter()
        .map(|(place, _)| *place)
        .collect();
    let logged_at_leader = world
        .action_log()
        .iter()
        .enumerate()
        .filter(|(_, (_, action))| {
            matches!(
                action,
                Action::Isolate {
                    target: NodeTarget::Leader
                } | Action::ClockDrift {
                    target: NodeTarget::Leader,
                    ..
                }
            )
        });
    assert_eq!(
        aimed,
        logged_at_leader.map(|(place, _)| place).collect::<Vec<_>>()
    );
    // The old leader answered the stale read (the example sends it to n5).
    assert!(world
        .leader_aims()
        .iter()
        .all(|(_, node)| *node == NodeId(4)));
    let check = world.linearizability(Budget::NATIVE).unwrap();
    let summary = summarize(world, &check);
    let refused = summary.refused.expect("the stale read is refused");
    let cause = refused.cause_words.expect("a cause is named");
    assert!(cause.contains("aimed at the leader, n5 then"), "{cause}");
    assert!(cause.contains("at 1500 ms"), "{cause}");
}
