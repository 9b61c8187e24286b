//! Membership changes (Ongaro's dissertation, section 4.1): servers join as learners and through one
//! configuration entry at a time; a removed leader steps down; the unsafe direct mode is caught.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::checker::{CONFIGURATION_AGREEMENT, ELECTION_SAFETY};
use quorumlab_sim::config::{LockServiceOptions, MembershipMode, ProtocolConfig};
use quorumlab_sim::ids::{NodeId, NodeSet, MAX_NODES};
use quorumlab_sim::raft::Command;
use quorumlab_sim::runner::{run_scenario, RunReport, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Scenario};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::world::{ActionOutcome, World, WorldConfig};

fn load(name: &str) -> Scenario {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    parse_scenario(&text, &path).unwrap_or_else(|error| panic!("{error}"))
}

fn run(scenario: &Scenario) -> RunReport {
    run_scenario(scenario).expect("valid scenario builds a world")
}

fn violations_of(report: &RunReport, invariant: &str) -> u64 {
    report
        .world
        .violation_counts
        .get(invariant)
        .copied()
        .unwrap_or(0)
}

fn voters(world: &World, node: usize) -> NodeSet {
    world.nodes()[node].actor.as_raft().expect("raft").voters()
}

fn world_with_leader(nodes: usize, seed: u64) -> World {
    let mut world = World::new(WorldConfig::raft(nodes, seed)).expect("world");
    world.run_until(SimTime::from_ms(1_000));
    assert!(world.current_leader().is_some(), "a leader by 1 s");
    world
}

/// "The new server joins as a non-voting member ... until it has caught up" (section 4.2.1), then one
/// configuration entry adds it, and every server counts it.
#[test]
fn a_new_server_catches_up_then_votes() {
    let mut world = world_with_leader(3, 1);
    let outcome = world.apply(&Action::AddServer { id: None });
    assert_eq!(outcome, ActionOutcome::Applied);
    assert_eq!(world.node_count(), 4);
    world.run_until(SimTime::from_ms(2_000));
    let everyone = NodeSet::first(4);
    for node in 0..4 {
        assert_eq!(voters(&world, node), everyone, "n{} believes", node + 1);
    }
    let leader = world.current_leader().expect("leader");
    let leader_log = world.nodes()[leader.index()].actor.as_raft().unwrap().log();
    let learner_log = world.nodes()[3].actor.as_raft().unwrap().log();
    assert_eq!(learner_log.last_index(), leader_log.last_index());
    assert_eq!(world.report().violations, vec![]);
    let view = world.view();
    let learner_view = &view.nodes[3];
    assert_eq!(learner_view.voters, everyone.iter().collect::<Vec<_>>());
    assert_eq!(
        learner_view.config_entries.len(),
        1,
        "one configuration entry"
    );
    let at = learner_view.config_entries[0];
    let entry = learner_log.entry(at).expect("in the log");
    assert!(matches!(entry.command, Command::Config { .. }));
}

/// Two changes asked at once go one after the other: each configuration entry differs from the one
/// before it by a single server.
#[test]
fn a_second_change_waits_for_the_first() {
    let report = run(&load("raft-add-server.toml"));
    assert!(
        report.skipped_steps.is_empty(),
        "{:?}",
        report.skipped_steps
    );
    assert_eq!(report.world.violations, vec![]);
    let mut scenario_run = ScenarioRun::new(load("raft-add-server.toml")).expect("valid");
    scenario_run.advance_to(SimTime::from_ms(2_500));
    let world = scenario_run.world();
    let log = world.nodes()[1].actor.as_raft().unwrap().log();
    let configurations: Vec<NodeSet> = (1..=log.last_index().0)
        .filter_map(
            |index| match log.entry(quorumlab_sim::units::LogIndex(index))?.command {
                Command::Config { voters } => Some(voters),
                _ => None,
            },
        )
        .collect();
    assert_eq!(configurations, vec![NodeSet::first(4), NodeSet::first(5)]);
}

/// "The leader steps down once the C_new entry is committed" (section 4.2.2); the rest elect a leader.
#[test]
fn a_removed_leader_steps_down_and_the_rest_elect() {
    let mut world = world_with_leader(5, 1);
    let old_leader = world.current_leader().expect("leader");
    let outcome = world.apply(&Action::RemoveServer {
        target: NodeTarget::Leader,
    });
    assert_eq!(outcome, ActionOutcome::Applied);
    world.run_until(SimTime::from_ms(3_000));
    let new_leader = world.current_leader().expect("a new leader");
    assert_ne!(new_leader, old_leader);
    assert!(!voters(&world, new_leader.index()).contains(old_leader));
    assert_eq!(voters(&world, new_leader.index()).len(), 4);
    assert_eq!(world.report().violations, vec![]);
    let report = run(&load("raft-remove-leader.toml"));
    assert!(
        report.skipped_steps.is_empty(),
        "{:?}",
        report.skipped_steps
    );
    assert_eq!(report.world.violations, vec![]);
}

#[test]
fn bad_membership_actions_are_refused_and_change_nothing() {
    let mut alone = world_with_leader(1, 3);
    let outcome = alone.apply(&Action::RemoveServer {
        target: NodeTarget::Node(NodeId(0)),
    });
    let ActionOutcome::Skipped { reason } = outcome else {
        panic!("removing the last voter must be refused");
    };
    assert!(reason.contains("last voter"), "{reason}");
    assert_eq!(voters(&alone, 0).len(), 1);

    let mut world = world_with_leader(3, 1);
    let skipped = |outcome: ActionOutcome| matches!(outcome, ActionOutcome::Skipped { .. });
    assert!(skipped(world.apply(&Action::AddServer {
        id: Some(NodeId(0))
    })));
    assert!(skipped(world.apply(&Action::AddServer {
        id: Some(NodeId(9))
    })));
    assert!(skipped(world.apply(&Action::RemoveServer {
        target: NodeTarget::Node(NodeId(7))
    })));
    assert_eq!(world.node_count(), 3);

    let mut full = World::new(WorldConfig::raft(MAX_NODES, 1)).expect("world");
    full.run_until(SimTime::from_ms(1_000));
    assert!(skipped(full.apply(&Action::AddServer { id: None })));
    assert_eq!(full.node_count(), MAX_NODES);

    let mut config = WorldConfig::raft(3, 1);
    config.protocol = ProtocolConfig::LockService(LockServiceOptions::default());
    config.node_count = 3 + LockServiceOptions::default().workers + 1;
    let mut locks = World::new(config).expect("lock world");
    locks.run_until(SimTime::from_ms(1_000));
    let before = locks.node_count();
    assert!(skipped(locks.apply(&Action::AddServer { id: None })));
    assert_eq!(locks.node_count(), before);
}

/// The hand-edited configuration lets two disjoint majorities each elect a leader in one term, and
/// servers commit one index under different configurations; through the log the same steps are safe.
#[test]
fn direct_edits_split_the_cluster_and_the_log_does_not() {
    let direct = load("raft-direct-membership-split.toml");
    assert_eq!(direct.raft.membership, MembershipMode::Direct);
    let unsafe_run = run(&direct);
    assert!(
        violations_of(&unsafe_run, ELECTION_SAFETY) > 0,
        "{:?}",
        unsafe_run.world.violations
    );
    assert!(violations_of(&unsafe_run, CONFIGURATION_AGREEMENT) > 0);
    let mut safe = direct.clone();
    safe.raft.membership = MembershipMode::Log;
    let safe_run = run(&safe);
    assert_eq!(safe_run.world.violations, vec![], "through the log");
}

/// Steps after an `add-server` may name the new server; one past it is an error; the export reads back.
#[test]
fn scenario_steps_name_added_servers() {
    let text = |last: &str| {
        format!(
            "protocol = \"raft\"\nnodes = 3\nduration_ms = 3000\n[[step]]\nat_ms = 1000\ndo = \"add-server\"\n\
             [[step]]\nat_ms = 2000\ndo = \"remove-server\"\ntarget = \"{last}\"\n"
        )
    };
    let scenario = parse_scenario(&text("n4"), "added.toml").expect("n4 exists by then");
    assert!(parse_scenario(&text("n5"), "added.toml").is_err());
    let again = parse_scenario(&to_toml_string(&scenario), "export.toml").expect("export parses");
    assert_eq!(again, scenario);
    let direct = load("raft-direct-membership-split.toml");
    let again = parse_scenario(&to_toml_string(&direct), "export.toml").expect("export parses");
    assert_eq!(again, direct);
    let bad = "protocol = \"raft\"\nnodes = 3\nduration_ms = 10\n[raft]\nmembership = \"yolo\"\n";
    let error = parse_scenario(bad, "bad.toml").unwrap_err().to_string();
    assert!(error.contains("direct"), "{error}");
}

/// Same seed, same actions, same run: membership changes are deterministic too.
#[test]
fn membership_runs_are_deterministic() {
    for name in [
        "raft-add-server.toml",
        "raft-remove-leader.toml",
        "raft-direct-membership-split.toml",
    ] {
        let scenario = load(name);
        assert_eq!(run(&scenario), run(&scenario), "{name}");
    }
}

/// A trace file of a run where a server joined (and a later action names it) reads back and replays to
/// the same fingerprint.
#[test]
fn a_trace_file_with_an_added_server_replays() {
    use quorumlab_sim::history::RecordedAction;
    use quorumlab_sim::trace_file::{parse_trace_file, replay, write_trace_file};
    let scenario = parse_scenario(
        "protocol = \"raft\"\nnodes = 3\nduration_ms = 4000\n",
        "three.toml",
    )
    .expect("valid");
    let mut world = World::new(quorumlab_sim::runner::world_config(&scenario)).expect("world");
    let script = [
        (1_000, Action::AddServer { id: None }),
        (
            2_000,
            Action::Crash {
                target: NodeTarget::Node(NodeId(3)),
            },
        ),
    ];
    let mut actions = Vec::new();
    for (at_ms, action) in script {
        world.run_until(SimTime::from_ms(at_ms));
        actions.push(RecordedAction {
            at: world.now(),
            after_events: world.events_processed(),
            action: action.clone(),
        });
        assert_eq!(world.apply(&action), ActionOutcome::Applied);
    }
    world.run_until(SimTime::from_ms(3_000));
    let text = write_trace_file(&scenario, &actions, &world);
    let file = parse_trace_file(&text).expect("reads back");
    let replayed = replay(&file).expect("replays");
    assert_eq!(replayed.trace_hash(), world.trace_hash());
    assert_eq!(replayed.node_count(), 4);
}

/// A trace file of a run where the leader was removed (and a later action names whoever leads then)
/// reads back and replays to the same fingerprint, the removed server out of the new leader's voters.
#[test]
fn a_trace_file_with_a_removed_leader_replays() {
    use quorumlab_sim::action::RequestKind;
    use quorumlab_sim::history::RecordedAction;
    use quorumlab_sim::trace_file::{parse_trace_file, replay, write_trace_file};
    let scenario = parse_scenario(
        "protocol = \"raft\"\nnodes = 5\nseed = 1\nduration_ms = 5000\n",
        "five.toml",
    )
    .expect("valid");
    let mut world = World::new(quorumlab_sim::runner::world_config(&scenario)).expect("world");
    let script = [
        (
            1_500,
            Action::RemoveServer {
                target: NodeTarget::Leader,
            },
        ),
        (
            3_000,
            Action::Request {
                count: 3,
                target: NodeTarget::Leader,
                kind: RequestKind::Put,
            },
        ),
    ];
    let mut actions = Vec::new();
    let mut removed = None;
    for (at_ms, action) in script {
        world.run_until(SimTime::from_ms(at_ms));
        removed = removed.or(world.current_leader());
        actions.push(RecordedAction {
            at: world.now(),
            after_events: world.events_processed(),
            action: action.clone(),
        });
        assert_eq!(world.apply(&action), ActionOutcome::Applied);
    }
    world.run_until(SimTime::from_ms(4_000));
    let text = write_trace_file(&scenario, &actions, &world);
    assert!(text.contains("remove-server"), "{text}");
    let file = parse_trace_file(&text).expect("reads back");
    let replayed = replay(&file).expect("replays");
    assert_eq!(replayed.trace_hash(), world.trace_hash());
    let removed = removed.expect("a leader at 1.5 s");
    let leader = replayed.current_leader().expect("a new leader");
    assert_ne!(leader, removed);
    assert!(!voters(&replayed, leader.index()).contains(removed));
    assert_eq!(voters(&replayed, leader.index()).len(), 4);
}

/// Chaos seed 184 of the membership profile in the hand-edited mode: a second leader overwrote
/// entries n4 had already committed, so n4's commit index ran past its log. That is the outcome the
/// unsafe mode exists to show, and it once tripped a debug assertion instead of reaching the checkers
/// (test builds assert, so this test runs with the assertions on).
#[test]
fn a_hand_edited_split_that_rewrites_committed_entries_is_reported_not_a_crash() {
    use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
    let options = ChaosOptions {
        profile: ChaosProfile::Membership,
        ..ChaosOptions::default()
    };
    let mut scenario = chaos_scenario(184, &options);
    scenario.raft.membership = MembershipMode::Direct;
    let report = run(&scenario);
    assert!(violations_of(&report, CONFIGURATION_AGREEMENT) > 0);
    assert!(
        violations_of(&report, "State Machine Safety") > 0,
        "{:?}",
        report.world.violation_counts
    );
}
