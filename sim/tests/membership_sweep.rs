//! Membership changes under chaos: the `membership` profile mixes servers joining and leaving into
//! the mixed storm. Through the log (one server at a time, Ongaro's dissertation §4.1) no seed breaks
//! a safety property; with the unsafe hand-edited configuration files, the same sweep finds two
//! majorities that share nobody. Separate from `sweep.rs` so the mixed profile's pins stay untouched.

use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use quorumlab_sim::checker::{CONFIGURATION_AGREEMENT, ELECTION_SAFETY};
use quorumlab_sim::config::MembershipMode;
use quorumlab_sim::sweep::{judge_scenario, sweep};

/// Seeds swept in CI for the safe mode (each a 15 s run with a few changes in it).
const SAFE_SEEDS: u64 = 300;
/// Most seeds scanned for a catch in the direct mode; it stops at the first.
const DIRECT_SEED_BOUND: u64 = 2_000;

fn membership_options() -> ChaosOptions {
    ChaosOptions {
        profile: ChaosProfile::Membership,
        ..ChaosOptions::default()
    }
}

#[test]
fn membership_changes_through_the_log_break_nothing_under_chaos() {
    let options = membership_options();
    let summary = sweep(1, SAFE_SEEDS, &options, |_| {}).expect("chaos scenarios build worlds");
    assert_eq!(summary.seeds_run, SAFE_SEEDS);
    assert_eq!(
        summary.failing_seed_count, 0,
        "violations {:?}; first failing seed {:?} (quorumlab sweep --emit-scenario SEED --profile membership)",
        summary.violations_per_invariant,
        summary.first_failing_seed()
    );
}

#[test]
fn hand_edited_configurations_are_caught_by_the_same_sweep() {
    let options = membership_options();
    let caught = (1..=DIRECT_SEED_BOUND).find(|seed| {
        let mut scenario = chaos_scenario(*seed, &options);
        scenario.raft.membership = MembershipMode::Direct;
        let outcome = judge_scenario(scenario).expect("world");
        [ELECTION_SAFETY, CONFIGURATION_AGREEMENT]
            .iter()
            .any(|name| outcome.violations.contains_key(*name))
    });
    let seed = caught.unwrap_or_else(|| {
        panic!("no seed in 1..={DIRECT_SEED_BOUND} caught the hand-edited configuration")
    });
    eprintln!("direct membership caught at membership seed {seed}");
    let through_log = judge_scenario(chaos_scenario(seed, &options)).expect("world");
    assert!(
        !through_log.broke_a_checker(),
        "the log mode fails seed {seed} too: {:?}",
        through_log.violations
    );
}
