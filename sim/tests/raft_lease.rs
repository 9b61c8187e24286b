//! Leader leases are only as good as the leader's clock: with a slow clock a deposed leader keeps
//! serving reads from its lease after a new leader has acknowledged newer writes. The read checker sees it.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::checker::LINEARIZABLE_READS;
use quorumlab_sim::config::RaftOptions;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::units::{LogIndex, Term};
use quorumlab_sim::{Report, World, WorldConfig};

fn isolate_leader_then_read_from_it(seed: u64, leader_drift_ppm: i64) -> Report {
    let mut config = WorldConfig::raft(5, seed);
    config.raft = RaftOptions {
        read_path: quorumlab_sim::config::ReadPath::Lease,
        ..RaftOptions::default()
    };
    let mut world = World::new(config).unwrap();
    world.run_until(world.now().plus_ms(1_000));
    let old = world.current_leader().expect("leader");
    let old_target = NodeTarget::Node(old);
    world.apply(&Action::ClockDrift {
        target: old_target,
        ppm: leader_drift_ppm,
    });
    world.apply(&Action::Request {
        count: 1,
        target: old_target,
        kind: RequestKind::Put,
    });
    world.run_until(world.now().plus_ms(60));
    world.apply(&Action::Isolate { target: old_target });
    let others: Vec<NodeId> = (0..5).map(NodeId).filter(|node| *node != old).collect();
    for _ in 0..400 {
        if world
            .current_leader()
            .is_some_and(|leader| others.contains(&leader))
        {
            break;
        }
        world.run_until(world.now().plus_ms(5));
    }
    let new = world
        .current_leader()
        .filter(|leader| others.contains(leader))
        .unwrap_or_else(|| panic!("{}", serde_json::to_string(&world.report()).unwrap()));
    world.apply(&Action::Request {
        count: 1,
        target: NodeTarget::Node(new),
        kind: RequestKind::Put,
    });
    world.run_until(world.now().plus_ms(40));
    world.apply(&Action::Request {
        count: 1,
        target: old_target,
        kind: RequestKind::Get,
    });
    world.run_until(world.now().plus_ms(1_500));
    world.report()
}

fn stale_reads(report: &Report) -> u64 {
    report
        .violation_counts
        .get(LINEARIZABLE_READS)
        .copied()
        .unwrap_or(0)
}

#[test]
fn a_slow_clock_stretches_the_lease_into_a_stale_read() {
    for seed in 1..=3 {
        assert_eq!(
            stale_reads(&isolate_leader_then_read_from_it(seed, -900_000)),
            1,
            "seed {seed}"
        );
    }
}

#[test]
fn with_honest_clocks_the_lease_has_expired_before_a_new_leader_acts() {
    for seed in 1..=3 {
        let report = isolate_leader_then_read_from_it(seed, 0);
        assert_eq!(
            stale_reads(&report),
            0,
            "seed {seed}: {:?}",
            report.violations
        );
        assert!(report.violations.is_empty());
    }
}

#[test]
fn the_view_shows_the_lease_running_out_on_an_isolated_leader() {
    let mut config = WorldConfig::raft(3, 9);
    config.raft = RaftOptions {
        read_path: quorumlab_sim::config::ReadPath::Lease,
        ..RaftOptions::default()
    };
    let mut world = World::new(config).unwrap();
    world.run_until(world.now().plus_ms(1_000));
    let leader = world.current_leader().unwrap();
    assert_eq!(world.view().nodes[leader.index()].lease_holds, Some(true));
    world.apply(&Action::Isolate {
        target: NodeTarget::Node(leader),
    });
    world.run_until(world.now().plus_ms(400));
    assert_eq!(world.view().nodes[leader.index()].lease_holds, Some(false));
    let candidates = world
        .view()
        .nodes
        .into_iter()
        .filter(|node| !node.votes_from.is_empty())
        .count();
    assert!(candidates <= 2);
}

#[test]
fn a_restarted_follower_waits_an_election_timeout_before_voting() {
    use quorumlab_sim::actor::{ClusterRaft as RaftNode, Message};
    use quorumlab_sim::protocol::{Effect, Effects, Input, Protocol};
    use quorumlab_sim::raft::{RaftMessage, RaftTiming};
    let timing = RaftTiming {
        election_min_us: 150_000,
        election_max_us: 300_000,
        heartbeat_us: 50_000,
    };
    let vote_after_restart = |lease_reads: bool, delay_us: u64| {
        let read_path = if lease_reads {
            quorumlab_sim::config::ReadPath::Lease
        } else {
            quorumlab_sim::config::ReadPath::Log
        };
        let options = RaftOptions {
            read_path,
            ..RaftOptions::default()
        };
        let mut node = RaftNode::new(NodeId(1), 3, options, timing);
        node.handle(1_000_000, Input::Recover, &mut Effects::new());
        let request = Message::Raft(RaftMessage::RequestVote {
            term: Term(5),
            candidate: NodeId(2),
            last_log_index: LogIndex::ZERO,
            last_log_term: Term::ZERO,
            pre_vote: false,
        });
        let mut effects = Effects::new();
        node.handle(
            1_000_000 + delay_us,
            Input::Message {
                from: NodeId(2),
                message: &request,
            },
            &mut effects,
        );
        effects.as_slice().iter().any(|effect| {
            matches!(
                effect,
                Effect::Send {
                    message: Message::Raft(RaftMessage::RequestVoteReply { granted: true, .. }),
                    ..
                }
            )
        })
    };
    assert!(!vote_after_restart(true, 10_000));
    assert!(vote_after_restart(true, 200_000));
    assert!(vote_after_restart(false, 10_000));
}
