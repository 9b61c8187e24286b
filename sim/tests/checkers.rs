//! Proof that the checkers can fail: the deliberately broken Raft variant (commit previous-term entries
//! by counting replicas, Figure 8 of the paper) is driven through the Figure 8 fault schedule and the
//! checkers must report it; the correct Raft under the same schedule must report nothing.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::checker::{LEADER_COMPLETENESS, STATE_MACHINE_SAFETY};
use quorumlab_sim::config::RaftOptions;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::protocol::Protocol;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::{Report, World, WorldConfig};

fn node(target: NodeId) -> NodeTarget {
    NodeTarget::Node(target)
}

/// Runs in 5 ms slices until `condition` holds or `limit_ms` passes; returns whether it held.
fn run_until_condition(
    world: &mut World,
    limit_ms: u64,
    condition: impl Fn(&World) -> bool,
) -> bool {
    let deadline = world.now().plus_ms(limit_ms);
    while world.now() < deadline {
        if condition(world) {
            return true;
        }
        world.run_until(world.now().plus_ms(5));
    }
    condition(world)
}

fn leader_among(world: &World, candidates: &[NodeId]) -> Option<NodeId> {
    world
        .current_leader()
        .filter(|leader| candidates.contains(leader))
}

fn put(world: &mut World, target: NodeId) {
    world.apply(&Action::Request {
        count: 1,
        target: node(target),
        kind: RequestKind::Put,
    });
}

fn commit_index(world: &World, target: NodeId) -> u64 {
    world.nodes()[target.index()].actor.summary().commit_index
}

/// The paper's Figure 8, scripted with world actions (S1..S5 are a, b, c, d, e here):
/// (a) a leads, replicates X only to b. (b) a crashes; c is elected by c, d, e and appends Y at the
/// same index, alone. (c) c crashes; a returns, leads again and brings X to a majority. (d) a crashes;
/// c returns and, with links between the others cut, can only be elected by them.
fn figure_eight(seed: u64, broken: bool) -> Report {
    let mut config = WorldConfig::raft(5, seed);
    config.raft = RaftOptions {
        unsafe_commit_previous_term: broken,
        ..RaftOptions::default()
    };
    let mut world = World::new(config).unwrap();
    assert!(run_until_condition(&mut world, 2_000, |world| world
        .current_leader()
        .is_some()));
    let a = world.current_leader().unwrap();
    let b = NodeId((a.0 + 1) % 5);
    let rest: Vec<NodeId> = (0..5)
        .map(NodeId)
        .filter(|other| *other != a && *other != b)
        .collect();

    world.apply(&Action::Partition {
        groups: vec![vec![a, b], rest.clone()],
    });
    put(&mut world, a);
    world.run_until(world.now().plus_ms(100));
    world.apply(&Action::Crash { target: node(a) });

    assert!(run_until_condition(&mut world, 3_000, |world| {
        leader_among(world, &rest).is_some()
    }));
    let c = leader_among(&world, &rest).unwrap();
    world.apply(&Action::Isolate { target: node(c) });
    put(&mut world, c);
    world.run_until(world.now().plus_ms(10));
    world.apply(&Action::Crash { target: node(c) });
    world.apply(&Action::Heal);
    world.apply(&Action::Restart { target: node(a) });

    let survivors: Vec<NodeId> = (0..5).map(NodeId).filter(|other| *other != c).collect();
    let x_index = world.nodes()[a.index()].actor.summary().log_len;
    let committed_x = run_until_condition(&mut world, 3_000, |world| {
        leader_among(world, &survivors).is_some_and(|leader| commit_index(world, leader) >= x_index)
    });
    let leader = world.current_leader();
    if committed_x {
        if let Some(leader) = leader {
            world.apply(&Action::Crash {
                target: node(leader),
            });
        }
    }
    let up: Vec<NodeId> = survivors
        .iter()
        .copied()
        .filter(|other| Some(*other) != leader)
        .collect();
    for (index, from) in up.iter().enumerate() {
        for to in &up[index + 1..] {
            world.apply(&Action::Cut {
                from: node(*from),
                to: node(*to),
                both: true,
            });
        }
    }
    world.apply(&Action::Restart { target: node(c) });
    world.run_until(world.now().plus_ms(3_000));
    world.report()
}

fn safety_violations(report: &Report) -> u64 {
    [LEADER_COMPLETENESS, STATE_MACHINE_SAFETY]
        .iter()
        .map(|name| report.violation_counts.get(*name).copied().unwrap_or(0))
        .sum()
}

#[test]
fn broken_commit_rule_is_caught_and_correct_raft_is_not_flagged() {
    let seeds = 1..=4u64;
    let caught: Vec<u64> = seeds
        .clone()
        .filter(|seed| safety_violations(&figure_eight(*seed, true)) > 0)
        .collect();
    assert_eq!(
        caught.len(),
        4,
        "the checkers caught the Figure 8 bug only for seeds {caught:?}"
    );
    for seed in seeds {
        let report = figure_eight(seed, false);
        assert!(
            report.violations.is_empty(),
            "seed {seed}: {:?}",
            report.violations
        );
    }
}

#[test]
fn a_caught_violation_names_the_invariant_time_and_nodes() {
    let report = figure_eight(1, true);
    let violation = report
        .violations
        .iter()
        .find(|violation| {
            violation.invariant == LEADER_COMPLETENESS
                || violation.invariant == STATE_MACHINE_SAFETY
        })
        .expect("seed 1 triggers the bug");
    assert!(violation.at_ms > 0);
    assert!(!violation.nodes.is_empty());
    assert!(!violation.detail.is_empty());
    assert!(report.end_ms > SimTime::from_ms(1_000).as_ms());
}
