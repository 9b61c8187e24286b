//! Raft under faults, driven through the world facade the way a scenario would.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::config::RaftOptions;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::protocol::{Protocol, RoleLabel};
use quorumlab_sim::{World, WorldConfig};

fn world(node_count: usize, seed: u64, options: RaftOptions) -> World {
    let mut config = WorldConfig::raft(node_count, seed);
    config.raft = options;
    World::new(config).expect("valid config")
}

fn settled_leader(world: &mut World) -> NodeId {
    world.run_until(world.now().plus_ms(1_000));
    world.current_leader().expect("a leader within a second")
}

fn role_and_term(world: &World, node: NodeId) -> (RoleLabel, u64) {
    let summary = world.nodes()[node.index()].actor.summary();
    (summary.role, summary.term.0)
}

fn node(target: NodeId) -> NodeTarget {
    NodeTarget::Node(target)
}

#[test]
fn crashing_the_leader_elects_a_new_one_with_a_higher_term() {
    let mut world = world(5, 11, RaftOptions::default());
    let old = settled_leader(&mut world);
    let old_term = role_and_term(&world, old).1;
    world.apply(&Action::Crash { target: node(old) });
    world.run_until(world.now().plus_ms(1_500));
    let new = world.current_leader().expect("survivors elect a leader");
    assert_ne!(new, old);
    assert!(role_and_term(&world, new).1 > old_term);
    world.apply(&Action::Restart { target: node(old) });
    world.run_until(world.now().plus_ms(500));
    assert_eq!(
        role_and_term(&world, old).0,
        RoleLabel::Follower,
        "restarted node rejoins as follower"
    );
    assert!(world.report().violations.is_empty());
}

#[test]
fn minority_side_cannot_commit_while_majority_elects_and_commits() {
    let mut world = world(5, 12, RaftOptions::default());
    let old = settled_leader(&mut world);
    let others: Vec<NodeId> = (0..5).map(NodeId).filter(|other| *other != old).collect();
    let minority = vec![old, others[0]];
    let majority = others[1..].to_vec();
    world.apply(&Action::Partition {
        groups: vec![minority, majority.clone()],
    });
    let stale_commit = world.nodes()[old.index()].actor.summary().commit_index;
    world.apply(&Action::Request {
        count: 5,
        target: node(old),
        kind: RequestKind::Put,
    });
    world.run_until(world.now().plus_ms(1_500));
    assert_eq!(
        world.nodes()[old.index()].actor.summary().commit_index,
        stale_commit
    );
    assert_eq!(
        world.report().requests.unknown,
        5,
        "minority writes time out as unknown"
    );
    let new = world.current_leader().expect("majority side elects");
    assert!(majority.contains(&new));
    world.apply(&Action::Request {
        count: 5,
        target: node(new),
        kind: RequestKind::Put,
    });
    world.run_until(world.now().plus_ms(500));
    assert_eq!(world.report().requests.committed, 5);
    world.apply(&Action::Heal);
    world.run_until(world.now().plus_ms(1_000));
    let commits: Vec<u64> = world
        .nodes()
        .iter()
        .map(|slot| slot.actor.summary().commit_index.0)
        .collect();
    assert!(
        commits.iter().all(|commit| *commit == commits[0]),
        "logs converge after heal: {commits:?}"
    );
    assert!(world.report().violations.is_empty());
}

#[test]
fn a_paused_leader_resumes_believing_it_leads_until_it_hears_a_higher_term() {
    let mut world = world(5, 13, RaftOptions::default());
    let old = settled_leader(&mut world);
    let (_, old_term) = role_and_term(&world, old);
    world.apply(&Action::Pause {
        target: node(old),
        duration_ms: None,
    });
    world.run_until(world.now().plus_ms(1_000));
    let new = world
        .current_leader()
        .expect("others elect while it sleeps");
    let new_term = role_and_term(&world, new).1;
    assert!(new_term > old_term);
    world.apply(&Action::Resume { target: node(old) });
    assert_eq!(
        role_and_term(&world, old),
        (RoleLabel::Leader, old_term),
        "it does not know it was paused"
    );
    world.run_until(world.now().plus_ms(100));
    let (role, term) = role_and_term(&world, old);
    assert_eq!(role, RoleLabel::Follower);
    assert!(term >= new_term);
    assert!(world.report().violations.is_empty());
}

#[test]
fn pause_with_a_duration_resumes_on_its_own() {
    let mut world = world(3, 14, RaftOptions::default());
    let follower = NodeId((settled_leader(&mut world).0 + 1) % 3);
    world.apply(&Action::Pause {
        target: node(follower),
        duration_ms: Some(200),
    });
    world.run_until(world.now().plus_ms(100));
    assert!(
        world.view().nodes[follower.index()].queued_inputs > 0,
        "heartbeats queue at a paused node"
    );
    world.run_until(world.now().plus_ms(200));
    assert_eq!(world.view().nodes[follower.index()].queued_inputs, 0);
    assert_eq!(
        world
            .report()
            .final_state
            .values()
            .filter(|node| node.status == "paused")
            .count(),
        0
    );
}

#[test]
fn a_forward_clock_jump_fires_timers_early() {
    let mut world = world(5, 15, RaftOptions::default());
    let leader = settled_leader(&mut world);
    let follower = NodeId((leader.0 + 1) % 5);
    let term = role_and_term(&world, follower).1;
    let mut control = world.clone();
    world.apply(&Action::ClockJump {
        target: node(follower),
        by_ms: 1_000,
    });
    let view = world.view();
    let election = view.nodes[follower.index()]
        .timers
        .iter()
        .find(|timer| timer.kind == "election")
        .unwrap();
    assert_eq!(
        election.due_at_us,
        world.now().as_micros(),
        "the deadline is already past on its clock"
    );
    world.run_until(world.now().plus_ms(1));
    assert!(
        role_and_term(&world, follower).1 > term,
        "it timed out and started an election"
    );
    control.run_until(control.now().plus_ms(1));
    assert_eq!(
        role_and_term(&control, follower).1,
        term,
        "without the jump nothing happens"
    );
}

#[test]
fn check_quorum_makes_an_isolated_leader_step_down() {
    for (check_quorum, expect_leader) in [(true, false), (false, true)] {
        let options = RaftOptions {
            check_quorum,
            ..RaftOptions::default()
        };
        let mut world = world(5, 16, options);
        let leader = settled_leader(&mut world);
        world.apply(&Action::Isolate {
            target: node(leader),
        });
        world.run_until(world.now().plus_ms(1_000));
        let still = role_and_term(&world, leader).0 == RoleLabel::Leader;
        assert_eq!(still, expect_leader, "check_quorum = {check_quorum}");
    }
}

#[test]
fn pre_vote_keeps_an_isolated_follower_from_inflating_its_term() {
    for (pre_vote, expect_inflated) in [(true, false), (false, true)] {
        let options = RaftOptions {
            pre_vote,
            ..RaftOptions::default()
        };
        let mut world = world(5, 17, options);
        let leader = settled_leader(&mut world);
        let follower = NodeId((leader.0 + 1) % 5);
        let term = role_and_term(&world, follower).1;
        world.apply(&Action::Isolate {
            target: node(follower),
        });
        world.run_until(world.now().plus_ms(2_000));
        let inflated = role_and_term(&world, follower).1 > term;
        assert_eq!(inflated, expect_inflated, "pre_vote = {pre_vote}");
        world.apply(&Action::Heal);
        world.run_until(world.now().plus_ms(1_000));
        assert!(world.current_leader().is_some());
    }
}

#[test]
fn lease_reads_answer_without_the_log_while_the_lease_holds() {
    let options = RaftOptions {
        read_path: quorumlab_sim::config::ReadPath::Lease,
        ..RaftOptions::default()
    };
    let mut world = world(3, 18, options);
    let leader = settled_leader(&mut world);
    let log_len = world.nodes()[leader.index()].actor.summary().log_len;
    world.apply(&Action::Request {
        count: 3,
        target: node(leader),
        kind: RequestKind::Get,
    });
    assert_eq!(world.report().requests.committed, 3, "answered on the spot");
    assert_eq!(
        world.nodes()[leader.index()].actor.summary().log_len,
        log_len,
        "nothing appended"
    );
    world.apply(&Action::Isolate {
        target: node(leader),
    });
    world.run_until(world.now().plus_ms(400));
    world.apply(&Action::Request {
        count: 1,
        target: node(leader),
        kind: RequestKind::Get,
    });
    assert_eq!(
        world.report().requests.committed,
        3,
        "an expired lease sends the read through the log"
    );
}

#[test]
fn a_single_node_cluster_leads_and_commits_alone() {
    let mut world = world(1, 19, RaftOptions::default());
    let leader = settled_leader(&mut world);
    world.apply(&Action::Request {
        count: 3,
        target: node(leader),
        kind: RequestKind::Put,
    });
    assert_eq!(world.report().requests.committed, 3);
    assert_eq!(
        world
            .report()
            .final_state
            .values()
            .next()
            .map(|n| n.commit_index.0),
        Some(4)
    );
}
