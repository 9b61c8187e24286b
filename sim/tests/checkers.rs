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
    world.nodes()[target.index()].actor.summary().commit_index.0
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

mod direct {
    //! Each checker fed hand-made node states, to prove every invariant can be reported.

    use quorumlab_sim::actor::Fact;
    use quorumlab_sim::actor::{Actor, ClusterRaft as RaftNode, Message};
    use quorumlab_sim::checker::{Checkers, ELECTION_SAFETY, LEADER_APPEND_ONLY, LOG_MATCHING};
    use quorumlab_sim::config::RaftOptions;
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::lockservice::LockOp;
    use quorumlab_sim::protocol::{RaftFact, RoleLabel};
    use quorumlab_sim::raft::{Command, RaftTiming};

    type Entry = quorumlab_sim::raft::Entry<LockOp>;
    type Effect = quorumlab_sim::protocol::Effect<Message>;
    use quorumlab_sim::time::SimTime;
    use quorumlab_sim::units::{LogIndex, Term};

    const TIMING: RaftTiming = RaftTiming {
        election_min_us: 150_000,
        election_max_us: 300_000,
        heartbeat_us: 50_000,
    };

    fn raft(id: u16, term: u64, entries: &[Entry], leader: bool) -> Actor {
        let mut node = RaftNode::new(NodeId(id), 3, RaftOptions::default(), TIMING);
        node.durable.term = Term(term);
        for entry in entries {
            node.durable.log.append(*entry);
        }
        if leader {
            node.volatile.role = RoleLabel::Leader;
        }
        Actor::Raft(node)
    }

    fn step(checkers: &mut Checkers, id: u16, before: &Actor, after: &Actor, effects: &[Effect]) {
        let mark = checkers.before_dispatch(NodeId(id), before);
        checkers.after_dispatch(SimTime::from_ms(5), NodeId(id), after, mark, effects);
    }

    fn count(checkers: &Checkers, invariant: &str) -> u64 {
        checkers
            .violation_counts()
            .get(invariant)
            .copied()
            .unwrap_or(0)
    }

    #[test]
    fn two_leaders_in_one_term_break_election_safety() {
        let mut checkers = Checkers::new(3);
        let elected = [Effect::Observe(Fact::Raft(RaftFact::BecameLeader {
            term: Term(3),
            votes: 2,
            cluster: 3,
        }))];
        let first = raft(0, 3, &[], true);
        step(&mut checkers, 0, &raft(0, 3, &[], false), &first, &elected);
        assert_eq!(count(&checkers, ELECTION_SAFETY), 0);
        step(
            &mut checkers,
            1,
            &raft(1, 3, &[], false),
            &raft(1, 3, &[], true),
            &elected,
        );
        assert_eq!(count(&checkers, ELECTION_SAFETY), 1);
    }

    #[test]
    fn same_index_and_term_with_different_history_breaks_log_matching() {
        let mut checkers = Checkers::new(3);
        let noop = |term| Entry {
            term: Term(term),
            command: Command::Noop,
        };
        let put = Entry {
            term: Term(1),
            command: Command::Put {
                key: 1,
                value: 1,
                request: 1,
            },
        };
        let empty = raft(0, 2, &[], false);
        step(
            &mut checkers,
            0,
            &empty,
            &raft(0, 2, &[noop(1), noop(2)], false),
            &[],
        );
        assert_eq!(count(&checkers, LOG_MATCHING), 0);
        step(
            &mut checkers,
            1,
            &empty,
            &raft(1, 2, &[put, noop(2)], false),
            &[],
        );
        assert!(count(&checkers, LOG_MATCHING) >= 1);
    }

    #[test]
    fn a_leader_dropping_entries_breaks_leader_append_only() {
        let mut checkers = Checkers::new(3);
        let entries = [Entry {
            term: Term(1),
            command: Command::Noop,
        }; 3];
        let before = raft(0, 1, &entries, true);
        step(&mut checkers, 0, &raft(0, 1, &[], false), &before, &[]);
        let after = raft(0, 1, &entries[..2], true);
        step(
            &mut checkers,
            0,
            &before,
            &after,
            &[Effect::Observe(Fact::Raft(RaftFact::LogTruncated {
                from_index: LogIndex(3),
            }))],
        );
        assert_eq!(count(&checkers, LEADER_APPEND_ONLY), 1);
    }
}
