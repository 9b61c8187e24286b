//! Avoiding coordination: jobs keyed by account, workers owning partitions of the accounts, against the
//! same workload under one global lock.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::actor::Actor;
use quorumlab_sim::checker::{NO_LOST_UPDATES, PARTITION_OWNERSHIP};
use quorumlab_sim::config::ProtocolConfig;
use quorumlab_sim::coordination::Layout;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::{run_scenario, world_config, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Step};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::worker::Worker;
use quorumlab_sim::World;

mod common;
use common::{count, load};

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
    assert!(
        count(&report, PARTITION_OWNERSHIP) >= 1,
        "B, C and D write A's one account: {:?}",
        report.world.violation_counts
    );
}

/// A worker's queue and partition are configuration: a restarted worker keeps working its own
/// accounts, without a lock, and the others never notice.
#[test]
fn a_restarted_worker_keeps_its_partition() {
    let plain = run_scenario(&load("queue-partitioned.toml")).unwrap();
    let mut scenario = load("queue-partitioned.toml");
    let a = NodeTarget::Node(NodeId(3));
    scenario.steps = vec![
        Step {
            at_ms: 1_000,
            action: Action::Crash { target: a },
        },
        Step {
            at_ms: 1_100,
            action: Action::Restart { target: a },
        },
    ];
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.run_to_end();
    let report = run.report();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    let worker = run.world().nodes()[3].actor.as_worker().unwrap();
    assert!(worker.queue.is_some_and(|queue| queue.partitioned));
    assert!(
        report.world.locks.unwrap().grants.is_empty(),
        "no lock taken"
    );
    let jobs = report.world.throughput.unwrap().jobs;
    let plain_jobs = plain.world.throughput.unwrap().jobs;
    assert!(
        jobs * 10 >= plain_jobs * 9,
        "{jobs} jobs against {plain_jobs} without the crash"
    );
}

/// Partition Ownership fires when a worker works outside its partition: here A has forgotten its queue
/// (as a crash that rebuilt it from the backend alone once made it), takes the global lock and writes
/// the inventory record, and its token fences the others' writes off.
#[test]
fn partition_ownership_catches_a_worker_without_its_partition() {
    let scenario = load("queue-partitioned.toml");
    let config = world_config(&scenario);
    let layout = Layout::of_world(config.node_count, &config.protocol);
    let mut actors = (config.protocol.entry().build_actors)(&config, &layout);
    let ProtocolConfig::WorkQueue(options, _) = &config.protocol else {
        unreachable!("a work-queue scenario");
    };
    let a = layout.worker(0);
    let forgetful = Worker::new(a, layout.servers, layout.store(), *options);
    actors[a.index()] = Actor::Worker(Box::new(forgetful));
    let mut world = World::from_actors(config, actors).unwrap();
    world.run_until(SimTime::from_ms(2_000));
    let report = world.report();
    let fired = report.violation_counts.get(PARTITION_OWNERSHIP).copied();
    assert!(fired.unwrap_or(0) >= 1, "{:?}", report.violation_counts);
    let first = report
        .violations
        .iter()
        .find(|violation| violation.invariant == PARTITION_OWNERSHIP)
        .unwrap();
    assert_eq!(first.nodes, ["n4"]);
    assert!(
        first.detail.contains("A wrote the inventory record"),
        "{}",
        first.detail
    );
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
