//! Seed sweeps in CI: hundreds of chaos schedules against the real engine with zero violations, and
//! proof that the same sweep does catch a broken Raft. A failing seed's message carries the command that
//! reproduces it.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Scenario, Step};
use quorumlab_sim::sweep::{judge_scenario, run_seed, sweep, SweepSummary, LIVENESS_AFTER_HEAL};

/// The issue asks for at least 500 seeds × 5 nodes × chaos.
const CI_SEEDS: u64 = 600;

fn reproduce_hint(summary: &SweepSummary, options: &ChaosOptions) -> String {
    let commands: Vec<String> = summary
        .failing_seeds
        .iter()
        .map(|seed| {
            format!(
                "quorumlab sweep --emit-scenario {seed} --nodes {} --profile {} > seed-{seed}.toml && quorumlab run seed-{seed}.toml",
                options.node_count,
                options.profile.name()
            )
        })
        .collect();
    format!(
        "violations {:?}; reproduce with:\n{}",
        summary.violations_per_invariant,
        commands.join("\n")
    )
}

#[test]
fn chaos_sweep_of_five_node_raft_finds_no_violations() {
    let options = ChaosOptions::default();
    assert_eq!(options.node_count, 5);
    assert_eq!(options.profile, ChaosProfile::Mixed);
    let summary = sweep(1, CI_SEEDS, &options, |_| {}).expect("chaos scenarios build worlds");
    assert_eq!(summary.seeds_run, CI_SEEDS);
    assert_eq!(
        summary.failing_seed_count,
        0,
        "{}",
        reproduce_hint(&summary, &options)
    );
}

#[test]
fn fault_free_sweep_elects_and_stays_live() {
    let options = ChaosOptions {
        profile: ChaosProfile::Calm,
        node_count: 3,
        ..ChaosOptions::default()
    };
    let summary = sweep(1, 100, &options, |_| {}).expect("worlds");
    assert_eq!(
        summary.failing_seed_count,
        0,
        "{}",
        reproduce_hint(&summary, &options)
    );
}

/// Most leader-churn seeds scanned for the broken-Raft test. It stops at the first catch, which takes a
/// few dozen seeds today (about 1 seed in 100 exposes the bug); the bound only matters if that regresses.
const BROKEN_RAFT_SEED_BOUND: u64 = 1_500;

/// Figure 8 of the Raft paper: a leader that commits an entry of an earlier term by counting replicas can
/// lose it. The engine's test-only switch does exactly that; a sweep of the same kind must notice, while
/// the correct Raft passes the same schedules.
#[test]
fn leader_churn_sweep_catches_raft_that_commits_previous_term_entries() {
    let options = ChaosOptions {
        profile: ChaosProfile::LeaderChurn,
        ..ChaosOptions::default()
    };
    let safety_names = [
        "State Machine Safety",
        "Leader Completeness",
        "Log Matching",
    ];
    let caught = (1..=BROKEN_RAFT_SEED_BOUND).find(|seed| {
        let mut scenario = chaos_scenario(*seed, &options);
        scenario.raft.unsafe_commit_previous_term = true;
        let outcome = judge_scenario(scenario).expect("world");
        outcome
            .violations
            .keys()
            .any(|name| safety_names.contains(&name.as_str()))
    });
    let seed = caught.unwrap_or_else(|| {
        panic!("no seed in 1..={BROKEN_RAFT_SEED_BOUND} exposed the broken rule")
    });
    eprintln!("broken Raft caught at leader-churn seed {seed}");
    let correct = run_seed(seed, &options).expect("world");
    assert!(
        !correct.failed(),
        "correct Raft fails seed {seed} too: {:?}",
        correct.violations
    );
}

#[test]
fn leader_churn_sweep_of_correct_raft_finds_no_violations() {
    let options = ChaosOptions {
        profile: ChaosProfile::LeaderChurn,
        ..ChaosOptions::default()
    };
    let summary = sweep(1, 200, &options, |_| {}).expect("worlds");
    assert_eq!(
        summary.failing_seed_count,
        0,
        "{}",
        reproduce_hint(&summary, &options)
    );
}

/// The liveness judgement has teeth: a cluster that ends with every node crashed has no leader.
#[test]
fn a_cluster_left_dead_fails_the_liveness_check() {
    let mut scenario = Scenario::new("Everyone crashes", 3, 2_000);
    for index in 0..3 {
        let target = NodeTarget::Node(NodeId(index));
        scenario.steps.push(Step {
            at_ms: 1_500,
            action: Action::Crash { target },
        });
    }
    let outcome = judge_scenario(scenario).expect("world");
    assert_eq!(outcome.violations.get(LIVENESS_AFTER_HEAL), Some(&1));
}

/// The reproduction path: a seed's scenario written out as TOML and parsed back runs identically.
#[test]
fn emitted_chaos_files_reproduce_the_sweep_run_exactly() {
    let options = ChaosOptions::default();
    for seed in 1..=5 {
        let outcome = run_seed(seed, &options).expect("world");
        let text = to_toml_string(&chaos_scenario(seed, &options));
        let parsed =
            parse_scenario(&text, "emitted.toml").unwrap_or_else(|error| panic!("{error}"));
        let report = run_scenario(&parsed).expect("world");
        assert_eq!(report.world.trace_hash, outcome.trace_hash, "seed {seed}");
    }
}

/// Found by the mixed sweep (3 nodes, seed 2984; also 7-node seed 7927, 3-node seed 37663) and cut down
/// to three steps. n2 is a candidate in term 1 when it is paused; the votes it was granted wait in its
/// backlog while n1 wins term 3 and commits. When n2 resumes (its clock jumped back, so its election timer
/// is not yet due) it counts those term-1 votes and becomes leader of term 1, then steps down at the next
/// higher-term message. Raft allows this: Leader Completeness (Raft §5.4, Figure 3) only requires entries
/// committed in a term to be in the logs of leaders of *higher* terms, and term 1 is lower than 3.
/// The checker now binds only leaders of terms later than the commit, as §5.4 states.
#[test]
fn late_leader_of_an_older_term_is_not_a_leader_completeness_violation() {
    let text = r#"
protocol = "raft"
nodes = 3
seed = 2984
duration_ms = 1500

[timing]
network_delay_ms = [5, 31]

[[step]]
at_ms = 198
do = "pause"
target = "n2"

[[step]]
at_ms = 364
do = "clock_jump"
target = "n2"
by_ms = -1930

[[step]]
at_ms = 1287
do = "resume"
target = "n2"
"#;
    let report =
        run_scenario(&parse_scenario(text, "late-leader.toml").expect("parses")).expect("world");
    let leaders = &report.world.leaders;
    let late_old_term = leaders.windows(2).any(|pair| pair[1].term < pair[0].term);
    assert!(
        late_old_term,
        "precondition: a leader of an older term elected later: {leaders:?}"
    );
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
}
