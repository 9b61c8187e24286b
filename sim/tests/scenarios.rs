//! The example scenarios in `sim/scenarios/`, run on the engine, with the facts each one is meant to
//! show. The files are lesson material; these tests keep them honest.

use quorumlab_sim::report::NodeFinal;
use quorumlab_sim::runner::{run_scenario, RunReport, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, Scenario};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::units::Term;
use quorumlab_sim::Report;

fn load(name: &str) -> Scenario {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    parse_scenario(&text, &path).unwrap_or_else(|error| panic!("{error}"))
}

fn run(scenario: &Scenario) -> RunReport {
    run_scenario(scenario).expect("valid scenario builds a world")
}

/// The world's report once the run reaches `at_ms` (steps at exactly `at_ms` included).
fn report_at(run: &mut ScenarioRun, at_ms: u64) -> Report {
    run.advance_to(SimTime::from_ms(at_ms));
    run.world().report()
}

fn node<'a>(report: &'a Report, name: &str) -> &'a NodeFinal {
    report
        .final_state
        .iter()
        .find(|(key, _)| key.0.to_string() == name)
        .map(|(_, node)| node)
        .unwrap_or_else(|| panic!("no node {name}"))
}

/// Names of up nodes that believe they lead, with their terms.
fn up_leaders(report: &Report) -> Vec<(String, Term)> {
    report
        .final_state
        .iter()
        .filter(|(_, node)| node.status == "up" && node.role == "leader")
        .map(|(key, node)| (key.0.to_string(), node.term))
        .collect()
}

fn the_leader(report: &Report) -> (String, Term) {
    let leaders = up_leaders(report);
    assert_eq!(
        leaders.len(),
        1,
        "expected exactly one up leader, found {leaders:?}"
    );
    leaders[0].clone()
}

fn assert_safe(report: &RunReport) {
    assert!(
        report.world.violations.is_empty(),
        "{}: {:?}",
        report.title,
        report.world.violations
    );
}

/// Raft §5.2: when followers stop hearing from the leader, one of them times out and wins an election in
/// a higher term; committed requests survive.
#[test]
fn leader_crash_elects_a_new_leader_in_a_higher_term() {
    let scenario = load("leader-crash.toml");
    let mut run = ScenarioRun::new(scenario).expect("world");
    let (old_leader, old_term) = the_leader(&report_at(&mut run, 1_199));
    run.run_to_end();
    let report = run.report();
    assert_safe(&report);
    assert_eq!(node(&report.world, &old_leader).status, "crashed");
    let (new_leader, new_term) = the_leader(&report.world);
    assert_ne!(new_leader, old_leader);
    assert!(
        new_term > old_term,
        "new term {new_term} should exceed {old_term}"
    );
    let elected_after_crash = report
        .world
        .leaders
        .iter()
        .any(|record| record.term > old_term && record.elected_at_ms >= 1_200);
    assert!(elected_after_crash, "{:?}", report.world.leaders);
    assert_eq!(
        report.world.requests.committed,
        report.world.requests.submitted
    );
}

/// Raft §5.3/§5.4: only a majority can commit. The 2-node side's commit index stays at most where the
/// cluster was when the partition began; the 3-node side keeps committing; after the heal all catch up.
#[test]
fn minority_partition_cannot_commit_and_catches_up_after_heal() {
    let mut run = ScenarioRun::new(load("partition-minority.toml")).expect("world");
    let at_partition = report_at(&mut run, 1_500);
    let committed_before = at_partition
        .final_state
        .values()
        .map(|node| node.commit_index)
        .max()
        .unwrap();
    let before_heal = report_at(&mut run, 3_999);
    for minority in ["n1", "n2"] {
        let commit_index = node(&before_heal, minority).commit_index;
        assert!(
            commit_index <= committed_before,
            "{minority} committed {commit_index} > {committed_before}"
        );
    }
    for majority in ["n3", "n4", "n5"] {
        let commit_index = node(&before_heal, majority).commit_index;
        assert!(
            commit_index > committed_before,
            "{majority} stuck at {commit_index}"
        );
    }
    run.run_to_end();
    let report = run.report();
    assert_safe(&report);
    let majority_commit = node(&before_heal, "n3").commit_index;
    for (key, node) in &report.world.final_state {
        assert!(
            node.commit_index >= majority_commit,
            "{} did not catch up: {}",
            key.0,
            node.commit_index
        );
    }
}

/// Raft §5.1: a paused leader is replaced; when it wakes it still believes it leads until a message with
/// a higher term makes it a follower.
#[test]
fn paused_leader_is_replaced_and_steps_down_on_resume() {
    let mut run = ScenarioRun::new(load("paused-leader.toml")).expect("world");
    let at_pause = report_at(&mut run, 1_000);
    let paused: Vec<String> = at_pause
        .final_state
        .iter()
        .filter(|(_, node)| node.status == "paused")
        .map(|(key, _)| key.0.to_string())
        .collect();
    assert_eq!(paused.len(), 1, "the leader should be paused: {paused:?}");
    let paused_term = node(&at_pause, &paused[0]).term;
    let (replacement, replacement_term) = the_leader(&report_at(&mut run, 2_400));
    assert_ne!(replacement, paused[0]);
    assert!(replacement_term > paused_term);
    run.run_to_end();
    let report = run.report();
    assert_safe(&report);
    let woken = node(&report.world, &paused[0]);
    assert_eq!(
        (woken.status.as_str(), woken.role.as_str()),
        ("up", "follower")
    );
    assert_eq!(woken.term, the_leader(&report.world).1);
}

/// Raft's safety does not depend on clocks: drift and jumps only change when timeouts fire.
#[test]
fn clock_drift_and_jumps_do_not_break_safety() {
    let report = run(&load("clock-drift.toml"));
    assert_safe(&report);
    assert!(
        report.skipped_steps.is_empty(),
        "{:?}",
        report.skipped_steps
    );
    the_leader(&report.world);
    assert_eq!(
        report.world.requests.committed,
        report.world.requests.submitted
    );
}

/// Raft §5.2: randomized timeouts spread over a wide range make split votes rare; a narrow range makes
/// them common, so the first leader is elected in a later term.
#[test]
fn tight_timeout_range_causes_split_votes() {
    let tight = load("split-vote.toml");
    let report = run(&tight);
    assert_safe(&report);
    assert!(
        !report.world.leaders.is_empty(),
        "a leader is eventually elected"
    );
    let mut wide = tight.clone();
    wide.timing.election_timeout_ms = (150, 300);
    let first_term_sum = |scenario: &Scenario| -> u64 {
        (1..=20)
            .map(|seed| {
                let report = run(&Scenario {
                    seed,
                    ..scenario.clone()
                });
                report
                    .world
                    .leaders
                    .first()
                    .map_or(100, |record| record.term.0)
            })
            .sum()
    };
    let (tight_terms, wide_terms) = (first_term_sum(&tight), first_term_sum(&wide));
    eprintln!("first-leader terms over 20 seeds: tight {tight_terms}, wide {wide_terms}");
    assert!(
        tight_terms > 2 * wide_terms,
        "tight {tight_terms} vs wide {wide_terms} over 20 seeds"
    );
}

/// Lost and duplicated messages: Raft retries and ignores duplicates. Every request has an outcome, and
/// once the loss stops every node converges on the same commit index.
#[test]
fn lossy_network_stays_safe_and_converges() {
    let report = run(&load("lossy-network.toml"));
    assert_safe(&report);
    let requests = &report.world.requests;
    assert_eq!(
        requests.committed + requests.failed + requests.unknown,
        requests.submitted
    );
    assert!(requests.committed > 0);
    let commit_indexes: Vec<u64> = report
        .world
        .final_state
        .values()
        .map(|node| node.commit_index.0)
        .collect();
    assert!(
        commit_indexes.windows(2).all(|pair| pair[0] == pair[1]),
        "{commit_indexes:?}"
    );
}

/// The run of `scenario` (or of the nearest later seed) in which, just before n5 is isolated at 1000 ms,
/// one leader other than n5 is established: the lesson is about a *follower* rejoining.
fn run_with_n5_following(scenario: &Scenario) -> (ScenarioRun, String, Term) {
    for seed in scenario.seed..scenario.seed + 50 {
        let mut run = ScenarioRun::new(Scenario {
            seed,
            ..scenario.clone()
        })
        .expect("world");
        let leaders = up_leaders(&report_at(&mut run, 999));
        if let [(leader, term)] = leaders.as_slice() {
            if leader != "n5" {
                let (leader, term) = (leader.clone(), *term);
                return (run, leader, term);
            }
        }
    }
    panic!(
        "no seed near {} has a leader other than n5 at 999 ms",
        scenario.seed
    );
}

/// Raft thesis §9.6: with PreVote an isolated node does not raise its term, so rejoining does not depose
/// the leader. Without PreVote (the control run) it does.
#[test]
fn prevote_keeps_a_rejoining_node_from_disrupting_the_leader() {
    let with_prevote = load("prevote-rejoin.toml");
    assert!(with_prevote.raft.pre_vote);
    let (mut run, leader, term) = run_with_n5_following(&with_prevote);
    let isolated_term = node(&report_at(&mut run, 2_999), "n5").term;
    assert_eq!(isolated_term, term, "isolated n5 must not raise its term");
    run.run_to_end();
    let report = run.report();
    assert_safe(&report);
    assert_eq!(
        the_leader(&report.world),
        (leader, term),
        "leader disturbed"
    );

    let mut without_prevote = with_prevote;
    without_prevote.raft.pre_vote = false;
    let (mut control, _, control_term) = run_with_n5_following(&without_prevote);
    let isolated_term = node(&report_at(&mut control, 2_999), "n5").term;
    assert!(
        isolated_term > control_term,
        "without PreVote n5's term climbs"
    );
    control.run_to_end();
    let final_term = the_leader(&control.report().world).1;
    assert!(
        final_term > control_term,
        "without PreVote the rejoin forces an election"
    );
}

/// Raft thesis §6.2: with CheckQuorum an isolated leader steps down within an election timeout, so its
/// lease cannot outlive its majority; reads go to the new leader.
#[test]
fn lease_reads_with_check_quorum() {
    let mut run = ScenarioRun::new(load("lease-reads.toml")).expect("world");
    let (isolated, _) = the_leader(&report_at(&mut run, 1_999));
    let during = report_at(&mut run, 2_999);
    assert_ne!(
        node(&during, &isolated).role,
        "leader",
        "{isolated} should have stepped down"
    );
    let (new_leader, _) = the_leader(&during);
    assert_ne!(new_leader, isolated);
    run.run_to_end();
    let report = run.report();
    assert_safe(&report);
    assert_eq!(
        report.world.requests.committed,
        report.world.requests.submitted
    );
}

/// The format tour applies every action without a skip.
#[test]
fn every_action_applies() {
    let report = run(&load("every-action.toml"));
    assert_safe(&report);
    assert!(
        report.skipped_steps.is_empty(),
        "{:?}",
        report.skipped_steps
    );
    the_leader(&report.world);
}

/// Determinism: the same scenario and seed produce the same report and trace hash; another seed differs.
#[test]
fn every_example_is_deterministic() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    for entry in std::fs::read_dir(directory).expect("scenarios folder") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .to_string();
        let scenario = load(&name);
        let first = run(&scenario);
        assert_eq!(first, run(&scenario), "{name}");
        let reseeded = run(&Scenario {
            seed: scenario.seed + 1000,
            ..scenario.clone()
        });
        assert_ne!(first.world.trace_hash, reseeded.world.trace_hash, "{name}");
    }
}

/// A step aimed at "leader" when there is none is skipped and reported, not fatal.
#[test]
fn step_without_a_leader_is_reported_as_skipped() {
    let text = "protocol = \"raft\"\nnodes = 3\nduration_ms = 500\n[[step]]\nat_ms = 0\ndo = \"crash\"\ntarget = \"leader\"\n";
    let report = run(&parse_scenario(text, "no-leader.toml").expect("parses"));
    assert_eq!(report.skipped_steps.len(), 1);
    let skipped = &report.skipped_steps[0];
    assert_eq!((skipped.step, skipped.at_ms), (1, 0));
    assert!(!skipped.reason.is_empty());
}

/// The app advances a run one frame at a time; the outcome must not depend on the frame size.
#[test]
fn advancing_frame_by_frame_matches_running_straight_through() {
    let scenario = load("every-action.toml");
    let straight = run(&scenario);
    let mut framed = ScenarioRun::new(scenario).expect("world");
    let mut now_ms = 0;
    while !framed.is_finished() {
        now_ms += 16;
        framed.advance_to(SimTime::from_ms(now_ms));
    }
    assert_eq!(framed.report(), straight);
    assert!(framed.next_step().is_none(), "every step applied");
}

/// A cluster of one is its own majority: it commits alone, and while it is down nothing can take
/// over, so the writes sent then fail; the restart brings service back.
#[test]
fn one_node_commits_alone_and_has_no_fault_tolerance() {
    let scenario = load("one-node.toml");
    let mut run = ScenarioRun::new(scenario.clone()).expect("valid");
    let before_crash = report_at(&mut run, 1_400);
    assert_eq!(before_crash.requests.committed, 3, "it needs nobody else");
    let down = report_at(&mut run, 3_400);
    assert!(down.final_state.iter().all(|(_, node)| node.status != "up"));
    let report = self::run(&scenario);
    assert_safe(&report);
    assert_eq!(
        report.world.requests.failed, 3,
        "the writes sent while it was down"
    );
    assert_eq!(report.world.requests.committed, 6);
}

/// 51 servers follow the same rules as five: one leader per term, a new one after the crash.
#[test]
fn fifty_one_nodes_elect_again_after_the_leader_crashes() {
    let report = run(&load("fifty-one-nodes.toml"));
    assert_safe(&report);
    let leaders = &report.world.leaders;
    assert!(leaders.len() >= 2, "{leaders:?}");
    assert!(leaders.iter().any(|leader| leader.elected_at_ms > 1_500));
    assert_eq!(report.world.requests.committed, 10);
}
