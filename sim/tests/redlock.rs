//! Redis-style locks: a single instance with compare-and-delete (or a careless DEL), and Redlock.
//!
//! Redlock hands out no fencing tokens, so it is only safe while messages arrive quickly, processes never
//! stall for long and clocks stay close to true time. Each test below breaks one of those assumptions.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::checker::{
    EXCLUSIVE_BELIEF, MUTUAL_EXCLUSION, RELEASE_BY_OWNER, TOKEN_MONOTONICITY,
};
use quorumlab_sim::config::ProtocolConfig;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::{run_scenario, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Scenario, ScenarioErrorKind, Step};
use quorumlab_sim::time::SimTime;

mod common;
use common::{count, load};

fn with_options(mut scenario: Scenario, edit: impl Fn(&mut ProtocolConfig)) -> Scenario {
    assert!(scenario.protocol.is_coordination(), "a lock scenario");
    edit(&mut scenario.protocol);
    scenario
}

/// A clock jump on the one server both majorities share: two clients hold the lock at once.
#[test]
fn redlock_clock_jump_gives_two_clients_the_lock() {
    let report = run_scenario(&load("redlock-clock-jump.toml")).unwrap();
    assert!(
        count(&report, EXCLUSIVE_BELIEF) >= 1,
        "{:?}",
        report.world.violation_counts
    );
    // Without fencing tokens the store sees their work interleave, and cannot refuse either.
    assert!(count(&report, MUTUAL_EXCLUSION) >= 1);
    let resource = report.world.resource.as_ref().unwrap();
    assert!(!resource.fencing && resource.rejected.is_empty());
    // Hold values are not fencing tokens, so no Token Monotonicity claim is made.
    assert_eq!(count(&report, TOKEN_MONOTONICITY), 0);
}

/// Control: the same split without the clock jump. The shared server decides; nobody doubles up.
#[test]
fn redlock_without_the_clock_jump_keeps_one_holder() {
    let mut scenario = load("redlock-clock-jump.toml");
    scenario
        .steps
        .retain(|step| !matches!(step.action, Action::ClockJump { .. }));
    let report = run_scenario(&scenario).unwrap();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    assert!(report.world.resource.as_ref().unwrap().accepted.len() >= 2);
}

/// A Redlock server that restarts without persistence forgets the keys it held: the same double grant.
#[test]
fn redlock_server_restart_without_persistence_gives_two_clients_the_lock() {
    let mut scenario = load("redlock-clock-jump.toml");
    let n3 = NodeTarget::Node(NodeId(2));
    scenario
        .steps
        .retain(|step| !matches!(step.action, Action::ClockJump { .. }));
    scenario.steps.push(Step {
        at_ms: 1_000,
        action: Action::Crash { target: n3 },
    });
    scenario.steps.push(Step {
        at_ms: 1_050,
        action: Action::Restart { target: n3 },
    });
    let report = run_scenario(&scenario).unwrap();
    assert!(
        count(&report, EXCLUSIVE_BELIEF) >= 1,
        "{:?}",
        report.world.violation_counts
    );
}

/// The validity a client computes: TTL minus the time acquiring took minus the drift allowance.
#[test]
fn redlock_validity_is_ttl_minus_elapsed_minus_drift() {
    let scenario = load("redlock-clock-jump.toml");
    let mut run = ScenarioRun::new(scenario).unwrap();
    for ms in 1..600 {
        run.advance_to(SimTime::from_ms(ms));
        let view = run.world().view();
        let coordination = view.coordination.unwrap();
        let Some((worker, belief)) = coordination
            .workers
            .iter()
            .find_map(|worker| worker.belief.map(|belief| (worker, belief)))
        else {
            continue;
        };
        let ttl_us = 4_000_000;
        let drift_us = 42_000;
        let remaining = belief.lease_until_local_us as i64 - worker.local_clock_us;
        assert!(remaining <= ttl_us - drift_us, "validity {remaining} us");
        // Acquiring took a couple of network round trips at most (delays are 5-15 ms).
        assert!(
            remaining >= ttl_us - drift_us - 100_000,
            "validity {remaining} us"
        );
        return;
    }
    panic!("nobody acquired the lock");
}

/// Delete without check: a paused client's late DEL removes the next holder's key.
#[test]
fn redis_delete_without_check_releases_someone_elses_lock() {
    let report = run_scenario(&load("redis-unsafe-release.toml")).unwrap();
    assert!(
        count(&report, RELEASE_BY_OWNER) >= 1,
        "{:?}",
        report.world.violation_counts
    );
    assert!(count(&report, EXCLUSIVE_BELIEF) >= 1);
    let first = report
        .world
        .violations
        .iter()
        .find(|violation| violation.invariant == RELEASE_BY_OWNER)
        .unwrap();
    assert!(
        first.detail.starts_with("B released key 0, held by"),
        "{}",
        first.detail
    );
}

/// Compare-and-delete refuses the late DEL: no stranger ends a hold and beliefs stay exclusive. (The
/// paused client's stale write still lands: without fencing, the store cannot refuse it.)
#[test]
fn redis_compare_and_delete_refuses_the_late_release() {
    let scenario = with_options(load("redis-unsafe-release.toml"), |coordination| {
        if let ProtocolConfig::RedisLock(options) = coordination {
            options.unchecked_release = false;
        }
    });
    let report = run_scenario(&scenario).unwrap();
    assert_eq!(count(&report, RELEASE_BY_OWNER), 0);
    assert_eq!(count(&report, EXCLUSIVE_BELIEF), 0);
    assert!(
        count(&report, MUTUAL_EXCLUSION) >= 1,
        "the pause still hurts without fencing"
    );
}

#[test]
fn redis_scenarios_round_trip_and_validate() {
    for name in ["redis-unsafe-release.toml", "redlock-clock-jump.toml"] {
        let scenario = load(name);
        let text = to_toml_string(&scenario);
        assert_eq!(parse_scenario(&text, name).unwrap(), scenario, "{text}");
    }
    let error = |text: &str| parse_scenario(text, "t.toml").unwrap_err();
    let two = error("protocol = \"redis-lock\"\nnodes = 2\nduration_ms = 100\n");
    assert_eq!(two.key.as_deref(), Some("nodes"));
    let fencing =
        error("protocol = \"redlock\"\nnodes = 5\nduration_ms = 100\n[locks]\nfencing = true\n");
    assert!(matches!(
        fencing.kind,
        ScenarioErrorKind::NeedsProtocol {
            protocol: "lock-service"
        }
    ));
    let unchecked = error(
        "protocol = \"redlock\"\nnodes = 5\nduration_ms = 100\n[locks]\nunchecked_release = true\n",
    );
    assert_eq!(
        unchecked.kind.to_string(),
        "only allowed with protocol = \"redis-lock\""
    );
}

#[test]
fn the_view_shows_redlock_servers_keys_and_clocks() {
    let mut run = ScenarioRun::new(load("redlock-clock-jump.toml")).unwrap();
    run.advance_to(SimTime::from_ms(1_200));
    let coordination = run.world().view().coordination.unwrap();
    let servers = coordination.kv_servers();
    assert_eq!(servers.len(), 5);
    assert!(servers[2].local_clock_us > 5_000_000, "n3's clock jumped");
    assert!(servers.iter().any(|server| !server.keys.is_empty()));
}
