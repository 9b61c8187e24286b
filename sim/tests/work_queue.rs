//! Avoiding coordination: jobs keyed by account, workers owning partitions of the accounts, against the
//! same workload under one global lock.

use quorumlab_sim::checker::NO_LOST_UPDATES;
use quorumlab_sim::config::ProtocolConfig;
use quorumlab_sim::runner::{run_scenario, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string};

mod common;
use common::load;

/// Owning partitions needs no lock and does several times the work of the global lock, correctly.
#[test]
fn partitions_beat_the_global_lock_and_stay_correct() {
    let partitioned = run_scenario(&load("queue-partitioned.toml")).unwrap();
    let global = run_scenario(&load("queue-global-lock.toml")).unwrap();
    for report in [&partitioned, &global] {
        assert!(
            report.world.violations.is_empty(),
            "{:?}",
            report.world.violations
        );
    }
    let fast = partitioned.world.throughput.as_ref().unwrap();
    let slow = global.world.throughput.as_ref().unwrap();
    assert!(
        fast.jobs > 3 * slow.jobs,
        "{} vs {} jobs",
        fast.jobs,
        slow.jobs
    );
    assert_eq!(
        partitioned.world.contention.as_deref(),
        Some(&[][..]),
        "no lock requests"
    );
    assert!(global.world.contention.as_ref().unwrap()[0] >= slow.jobs);
}

/// The balances add up to exactly the jobs written (each job adds one to its account), and every worker
/// did its share.
#[test]
fn each_account_balance_counts_its_jobs() {
    let mut run = ScenarioRun::new(load("queue-partitioned.toml")).unwrap();
    run.run_to_end();
    let world = run.world();
    let store = world.nodes().last().unwrap().actor.as_resource().unwrap();
    let total: u64 = store.accounts.values().sum();
    let report = run.report();
    assert_eq!(total, report.world.throughput.unwrap().jobs);
    let accepted = report.world.resource.unwrap().accepted;
    let writers: std::collections::BTreeSet<&str> = accepted
        .iter()
        .map(|access| access.client.as_str())
        .collect();
    assert_eq!(writers.len(), 4, "all four workers worked");
}

/// Misconfigured partitions (fewer accounts than workers: several owners per account) and no lock:
/// the checker catches the lost updates.
#[test]
fn overlapping_partitions_without_a_lock_lose_updates() {
    let mut scenario = load("queue-partitioned.toml");
    if let ProtocolConfig::WorkQueue(_, queue) = &mut scenario.protocol {
        queue.accounts = 1;
    }
    let report = run_scenario(&scenario).unwrap();
    let lost = report
        .world
        .violation_counts
        .get(NO_LOST_UPDATES)
        .copied()
        .unwrap_or(0);
    assert!(lost >= 1, "{:?}", report.world.violation_counts);
}

/// Retries with an idempotency key: duplicated messages are recognised at the store.
#[test]
fn duplicated_writes_are_applied_once() {
    let mut scenario = load("queue-partitioned.toml");
    scenario.timing.duplicate_ppm = 300_000;
    let report = run_scenario(&scenario).unwrap();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    assert!(report.world.resource.unwrap().duplicates > 0);
}

#[test]
fn queue_scenarios_round_trip() {
    for name in ["queue-partitioned.toml", "queue-global-lock.toml"] {
        let scenario = load(name);
        let text = to_toml_string(&scenario);
        assert!(text.contains("[queue]"));
        assert_eq!(parse_scenario(&text, name).unwrap(), scenario, "{text}");
    }
}
