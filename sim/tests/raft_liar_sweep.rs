//! Raft with one Byzantine server as a sweep configuration (`quorumlab sweep --variant liar`): unsafe
//! by design, so the checkers must catch the liar in at least nine of ten seeds in which it told a lie;
//! and the default Raft sweep, which has no liar, is left exactly as it was.

use quorumlab_sim::action::{Action, ByzantineMode};
use quorumlab_sim::chaos::raft_liar::{liar_of, LiarSchedule, RAFT_LIAR_VARIANT};
use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::sweep::judge_liar_scenario;
use quorumlab_sim::sweep::{judge_scenario, SweepSummary};
use serde_json::Value;
use std::process::Command;

/// Aimed seeds the catch-rate test runs: each is a 15 s run full of rival leaders.
const AIMED_SEEDS: u64 = 20;
/// Each unsafe configuration must be caught in at least this share of the seeds that exercise it.
const CATCH_PERCENT: u64 = 90;

fn is_byzantine(action: &Action) -> bool {
    matches!(action, Action::Byzantine { .. })
}

fn aimed() -> LiarSchedule {
    LiarSchedule::Aimed(ChaosOptions {
        profile: ChaosProfile::Calm,
        ..ChaosOptions::default()
    })
}

#[test]
fn the_aimed_liar_is_caught_in_nine_of_ten_seeds_it_lied_in() {
    let schedule = aimed();
    let mut summary = SweepSummary::default();
    for seed in 1..=AIMED_SEEDS {
        let outcome = judge_liar_scenario(schedule.scenario(seed)).expect("the scenario runs");
        assert!(
            outcome.exercised.is_some(),
            "seed {seed} is judged for a liar"
        );
        summary.add(&outcome);
    }
    let exercised = summary.exercised_seed_count();
    let caught = summary.caught_exercised_seed_count();
    assert!(
        exercised * 4 >= AIMED_SEEDS * 3,
        "the liar lied in only {exercised} of {AIMED_SEEDS} aimed seeds"
    );
    assert!(
        caught * 100 >= CATCH_PERCENT * exercised,
        "caught {caught} of {exercised} seeds the liar lied in"
    );
}

#[test]
fn every_liar_seed_draws_one_liar_in_a_lying_mode_on_the_same_storm() {
    let options = ChaosOptions::default();
    let schedule = LiarSchedule::Chaos(options.clone());
    let mut modes = Vec::new();
    for seed in 1..=40 {
        let with_liar = schedule.scenario(seed);
        let (liar, mode) = liar_of(&with_liar).expect("one liar");
        assert!(liar.index() < options.node_count);
        assert!(matches!(
            mode,
            ByzantineMode::Lie | ByzantineMode::Equivocate
        ));
        modes.push(mode);
        let byzantine: Vec<_> = with_liar
            .steps
            .iter()
            .filter(|step| is_byzantine(&step.action))
            .collect();
        assert_eq!(byzantine.len(), 1, "seed {seed}");
        assert!(byzantine[0].at_ms < options.fault_window_ms, "seed {seed}");
        let mut storm = with_liar.steps.clone();
        storm.retain(|step| !is_byzantine(&step.action));
        assert_eq!(storm, chaos_scenario(seed, &options).steps, "seed {seed}");
        let times: Vec<u64> = with_liar.steps.iter().map(|step| step.at_ms).collect();
        assert!(
            times.windows(2).all(|pair| pair[0] <= pair[1]),
            "seed {seed}"
        );
        assert!(with_liar.validate().is_ok(), "seed {seed}");
    }
    assert!(modes.contains(&ByzantineMode::Lie) && modes.contains(&ByzantineMode::Equivocate));
}

#[test]
fn the_default_raft_sweep_has_no_liar_and_judges_no_liar() {
    for profile in ChaosProfile::NAMES {
        let options = ChaosOptions {
            profile: ChaosProfile::from_name(profile).expect("a profile"),
            ..ChaosOptions::default()
        };
        for seed in 1..=30 {
            let scenario = chaos_scenario(seed, &options);
            assert!(
                scenario
                    .steps
                    .iter()
                    .all(|step| !is_byzantine(&step.action)),
                "{profile} seed {seed}"
            );
        }
    }
    let outcome = judge_scenario(chaos_scenario(3, &ChaosOptions::default())).expect("runs");
    assert_eq!(outcome.exercised, None);
    let mut summary = SweepSummary::default();
    summary.add(&outcome);
    assert_eq!(summary.exercised_seed_count(), 0);
}

#[test]
fn watching_the_liar_leaves_the_run_as_it_is() {
    for (schedule, seed) in [
        (aimed(), 1),
        (aimed(), 8),
        (LiarSchedule::Chaos(ChaosOptions::default()), 3),
    ] {
        let scenario = schedule.scenario(seed);
        let watched = judge_liar_scenario(scenario.clone()).expect("runs");
        let plain = run_scenario(&scenario).expect("runs");
        assert_eq!(watched.trace_hash, plain.world.trace_hash, "seed {seed}");
    }
}

#[test]
fn the_command_line_sweeps_the_liar_and_reports_what_it_caught() {
    let output = Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args([
            "sweep",
            "--variant",
            RAFT_LIAR_VARIANT,
            "--profile",
            "holders",
        ])
        .args(["--seeds", "2", "--jobs", "1"])
        .output()
        .expect("the binary runs");
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert_eq!(report["variant"], "liar");
    assert_eq!(report["profile"], "holders");
    let exercised = report["exercised_seeds"].as_u64().expect("a count");
    let caught = report["caught_exercised_seeds"].as_u64().expect("a count");
    assert!(caught <= exercised && exercised <= 2, "{report}");
    let reproduce = report["reproduce"].as_str().expect("a failing seed");
    assert!(reproduce.contains("--variant liar"), "{reproduce}");
    assert!(reproduce.contains("--profile holders"), "{reproduce}");
}
