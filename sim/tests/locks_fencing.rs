//! The lock service on Raft, its workers and the fenced resource, scenario by scenario.
//!
//! The fencing argument (Kleppmann, "How to do distributed locking", 2016), in short: the lock service
//! numbers every grant, the holder sends its number with each write, and the storage refuses any number
//! lower than one it has already accepted, so a holder that lost the lock without knowing it cannot
//! write.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::actor::Fact;
use quorumlab_sim::checker::{
    LockChecker, Violations, MUTUAL_EXCLUSION, NO_LOST_UPDATES, RELEASE_BY_OWNER,
    SINGLE_LEASE_HOLDER, TOKEN_MONOTONICITY,
};
use quorumlab_sim::config::{LockServiceOptions, ProtocolConfig};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::lockservice::LockFact;
use quorumlab_sim::lockservice::{LockOp, LockTable, TableEvent};
use quorumlab_sim::runner::{run_scenario, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Scenario, ScenarioErrorKind};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::units::FencingToken;

mod common;
use common::{count, load};

fn lock_scenario(options: LockServiceOptions, seed: u64, duration_ms: u64) -> Scenario {
    let mut scenario = Scenario::new("locks", 3, duration_ms);
    scenario.seed = seed;
    scenario.protocol = ProtocolConfig::LockService(options);
    scenario
}

/// Fencing off + a holder paused past its lease: the store sees two holders' work interleave, accepts a
/// lower token after a higher one, and an update is lost.
#[test]
fn no_fencing_pause_breaks_mutual_exclusion_at_the_resource() {
    let report = run_scenario(&load("no-fencing-pause.toml")).expect("runs");
    assert!(
        count(&report, MUTUAL_EXCLUSION) >= 1,
        "{:?}",
        report.world.violation_counts
    );
    assert!(count(&report, TOKEN_MONOTONICITY) >= 1);
    assert!(count(&report, NO_LOST_UPDATES) >= 1);
    let resource = report.world.resource.as_ref().expect("resource report");
    assert!(!resource.fencing);
    assert!(
        resource.rejected.is_empty(),
        "fencing off accepts everything"
    );
    // The service itself stayed correct: A's lease expired before B got the lock.
    assert_eq!(count(&report, SINGLE_LEASE_HOLDER), 0);
    let locks = report.world.locks.as_ref().expect("locks report");
    assert!(locks.expired.iter().any(|record| record.client == "A"));
}

/// The same run with fencing on: the stale write is refused with StaleToken and nothing is violated.
#[test]
fn fencing_rejects_the_paused_holders_stale_token() {
    let report = run_scenario(&load("fencing-pause.toml")).expect("runs");
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    let resource = report.world.resource.as_ref().expect("resource report");
    let stale = resource.rejected.first().expect("a rejected access");
    assert_eq!(stale.client, "A");
    let (presented, highest) = (stale.presented.unwrap(), stale.highest_seen.unwrap());
    assert!(presented < highest, "stale: {presented} < {highest}");
    // The count is exactly what the accepted jobs made of it.
    let writes = resource
        .accepted
        .iter()
        .filter(|access| access.write.is_some())
        .count() as u64;
    assert_eq!(resource.value, 1_000 - writes);
}

/// Tokens strictly increase with every grant (they are the service's revisions).
#[test]
fn fencing_tokens_strictly_increase_with_every_grant() {
    let report = run_scenario(&lock_scenario(LockServiceOptions::default(), 4, 5_000)).unwrap();
    let grants = &report.world.locks.as_ref().unwrap().grants;
    assert!(grants.len() > 10, "{} grants", grants.len());
    assert!(grants.windows(2).all(|pair| pair[0].token < pair[1].token));
    assert!(report.world.violations.is_empty());
}

/// Holder crash: nobody releases, the lease runs out on the leader's clock and the lock moves on.
#[test]
fn holder_crash_lease_expiry_frees_the_lock() {
    let options = LockServiceOptions {
        work_ms: 300,
        ..LockServiceOptions::default()
    };
    let mut run = ScenarioRun::new(lock_scenario(options, 2, 8_000)).unwrap();
    // Wait until A holds the lock, then crash it.
    let a = NodeId(3);
    let mut crashed_at = None;
    for ms in (200..4_000).step_by(5) {
        run.advance_to(SimTime::from_ms(ms));
        let worker = run.world().nodes()[a.index()].actor.as_worker().unwrap();
        if worker.belief.is_some() {
            run.world_mut().apply(&Action::Crash {
                target: NodeTarget::Node(a),
            });
            crashed_at = Some(ms);
            break;
        }
    }
    let crashed_at = crashed_at.expect("A got the lock");
    run.run_to_end();
    let report = run.report();
    let locks = report.world.locks.unwrap();
    let expiry = locks
        .expired
        .iter()
        .find(|record| record.client == "A" && record.at_ms > crashed_at)
        .expect("A's lease expired");
    assert!(
        expiry.at_ms >= crashed_at + 700,
        "not before most of the TTL"
    );
    assert!(locks
        .grants
        .iter()
        .any(|grant| grant.client == "B" && grant.at_ms >= expiry.at_ms));
    assert!(report.world.violations.is_empty());
}

/// Renewal delay: a worker whose keep-alives stop arriving (its link to every server cut) loses the lease;
/// with the lease check it gives up its job instead of writing, and nothing is violated.
#[test]
fn renewal_delay_loses_the_lease_and_the_worker_gives_up() {
    let options = LockServiceOptions {
        work_ms: 600,
        lease_ttl_ms: 500,
        renew_ms: 200,
        ..LockServiceOptions::default()
    };
    let mut scenario = lock_scenario(options, 3, 6_000);
    for server in 0..3 {
        scenario.steps.push(quorumlab_sim::scenario::Step {
            at_ms: 1_000,
            action: Action::Cut {
                from: NodeTarget::Node(NodeId(3)),
                to: NodeTarget::Node(NodeId(server)),
                both: true,
            },
        });
    }
    scenario.steps.push(quorumlab_sim::scenario::Step {
        at_ms: 3_000,
        action: Action::Heal,
    });
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.run_to_end();
    let report = run.report();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    let a = run.world().nodes()[3].actor.as_worker().unwrap();
    assert!(a.jobs_done > 0 && a.unknown_outcomes > 0);
}

/// Contention: eight workers on one key, every one served in turn, the lock never doubly held.
#[test]
fn contention_between_many_clients_is_served_in_order() {
    let options = LockServiceOptions {
        workers: 8,
        ..LockServiceOptions::default()
    };
    let report = run_scenario(&lock_scenario(options, 5, 10_000)).unwrap();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    let locks = report.world.locks.as_ref().unwrap();
    for name in ["A", "B", "C", "D", "E", "F", "G", "H"] {
        assert!(
            locks.grants.iter().any(|grant| grant.client == name),
            "{name} never held"
        );
    }
    let contention = report.world.contention.as_ref().unwrap();
    assert!(contention[0] as usize >= locks.grants.len());
}

/// Release by the wrong owner is refused by the state machine.
#[test]
fn release_by_the_wrong_owner_is_refused() {
    let (a, b) = (NodeId(3), NodeId(4));
    let mut table = LockTable::default();
    let mut events = Vec::new();
    let acquire = |owner, request| LockOp::Acquire {
        key: 0,
        owner,
        ttl_ms: 1_000,
        request,
        idempotent: true,
    };
    table.apply(1, acquire(a, 1), &mut events);
    table.apply(
        2,
        LockOp::Release {
            key: 0,
            lease: 1,
            by: b,
        },
        &mut events,
    );
    assert!(events.contains(&TableEvent::NotOwner { key: 0, by: b }));
    assert_eq!(table.token_of(1), Some(FencingToken(1)), "A still holds");
}

/// The checker fires when a hold is ended by someone else (as a delete-without-check lock would).
#[test]
fn release_by_owner_checker_fires_on_a_strangers_release() {
    let mut checker = LockChecker::default();
    let mut violations = Violations::default();
    let mut found = Vec::new();
    let (a, b) = (NodeId(3), NodeId(4));
    let now = SimTime::from_ms(10);
    let granted = LockFact::LockGranted {
        key: 0,
        lease: 1,
        owner: a,
        token: FencingToken(1),
        revision: 1,
    };
    let released = LockFact::LockReleased {
        key: 0,
        lease: 1,
        owner: a,
        by: b,
        token: FencingToken(1),
        expired: false,
        revision: 2,
    };
    let granted_again = LockFact::LockGranted {
        key: 0,
        lease: 5,
        owner: b,
        token: FencingToken(3),
        revision: 3,
    };
    let double = LockFact::LockGranted {
        key: 0,
        lease: 6,
        owner: a,
        token: FencingToken(4),
        revision: 4,
    };
    for fact in [granted, released, granted_again, double].map(Fact::Lock) {
        checker.check(now, NodeId(0), &fact, &mut violations, &mut found);
    }
    let names: Vec<String> = found
        .iter()
        .map(|finding| finding.invariant.to_string())
        .collect();
    assert_eq!(names, [RELEASE_BY_OWNER, SINGLE_LEASE_HOLDER]);
}

/// Unknown outcome + retry: with an idempotency key a repeated Acquire maps to the lease it created;
/// without one it creates a second lease that waits behind the first.
#[test]
fn repeated_acquire_is_idempotent_only_with_a_key() {
    let a = NodeId(3);
    for idempotent in [true, false] {
        let mut table = LockTable::default();
        let mut events = Vec::new();
        let op = LockOp::Acquire {
            key: 0,
            owner: a,
            ttl_ms: 1_000,
            request: 7,
            idempotent,
        };
        table.apply(1, op, &mut events);
        events.clear();
        table.apply(2, op, &mut events);
        if idempotent {
            assert_eq!(
                events,
                [TableEvent::Existing {
                    lease: 1,
                    token: Some(FencingToken(1))
                }]
            );
            assert_eq!(table.leases.len(), 1);
        } else {
            assert_eq!(events, [TableEvent::Queued { key: 0, lease: 2 }]);
            assert_eq!(table.leases.len(), 2);
        }
    }
}

/// Unknown outcome in a run: A's link to the servers is cut right after it asks; its Acquire times out and
/// is retried with the same key, and the lock is not held twice.
#[test]
fn lock_operation_timing_out_with_unknown_outcome_is_retried_safely() {
    for idempotency_key in [true, false] {
        let options = LockServiceOptions {
            idempotency_key,
            ..LockServiceOptions::default()
        };
        let mut scenario = lock_scenario(options, 6, 6_000);
        for server in 0..3 {
            scenario.steps.push(quorumlab_sim::scenario::Step {
                at_ms: 800,
                action: Action::Cut {
                    from: NodeTarget::Node(NodeId(server)),
                    to: NodeTarget::Node(NodeId(3)),
                    both: false,
                },
            });
        }
        scenario.steps.push(quorumlab_sim::scenario::Step {
            at_ms: 1_500,
            action: Action::Heal,
        });
        let mut run = ScenarioRun::new(scenario).unwrap();
        run.run_to_end();
        let report = run.report();
        assert!(
            report.world.violations.is_empty(),
            "{:?}",
            report.world.violations
        );
        let a = run.world().nodes()[3].actor.as_worker().unwrap();
        assert!(a.unknown_outcomes > 0, "A saw a timeout");
        assert!(a.jobs_done > 0, "A recovered");
    }
}

/// Repeated requests: with duplicated messages and an idempotency key, repeated writes are recognised
/// and not applied twice.
#[test]
fn duplicated_writes_are_applied_once_with_an_idempotency_key() {
    let mut scenario = lock_scenario(LockServiceOptions::default(), 8, 6_000);
    scenario.timing.duplicate_ppm = 300_000;
    let report = run_scenario(&scenario).unwrap();
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    let resource = report.world.resource.as_ref().unwrap();
    assert!(resource.duplicates > 0);
}

#[test]
fn lock_scenarios_round_trip_and_name_actors() {
    for name in ["fencing-pause.toml", "no-fencing-pause.toml"] {
        let scenario = load(name);
        let text = to_toml_string(&scenario);
        assert!(text.contains("protocol = \"lock-service\""));
        assert!(text.contains("target = \"A\""), "{text}");
        assert_eq!(parse_scenario(&text, name).unwrap(), scenario);
    }
}

#[test]
fn lock_scenario_keys_are_validated() {
    let base = "protocol = \"lock-service\"\nnodes = 3\nduration_ms = 1000\n";
    let error = |text: &str| parse_scenario(text, "t.toml").unwrap_err();
    let wrong = error(&format!("{base}[locks]\nworkers = 0\n"));
    assert_eq!(wrong.key.as_deref(), Some("locks.workers"));
    assert!(matches!(wrong.kind, ScenarioErrorKind::OutOfRange { .. }));
    let typo = error(&format!("{base}[locks]\nfenceing = true\n"));
    assert!(matches!(typo.kind, ScenarioErrorKind::UnknownKey { .. }));
    let raft = error("protocol = \"raft\"\nnodes = 3\nduration_ms = 1000\n[locks]\nworkers = 2\n");
    assert!(matches!(raft.kind, ScenarioErrorKind::NeedsProtocol { .. }));
    let step = format!("{base}[[step]]\nat_ms = 5\ndo = \"crash\"\ntarget = \"Z\"\n");
    let unknown = error(&step);
    assert_eq!(
        unknown.kind.to_string(),
        "`Z` is not a node name: expected n1..n3, A, B, store or `leader`"
    );
    let store = format!("{base}[[step]]\nat_ms = 5\ndo = \"pause\"\ntarget = \"store\"\n");
    assert!(parse_scenario(&store, "t.toml").is_ok());
    // A server number past the servers names the actors the world does have.
    let past = format!("{base}[[step]]\nat_ms = 5\ndo = \"crash\"\ntarget = \"n4\"\n");
    assert_eq!(
        error(&past).kind.to_string(),
        "node `n4` is out of range (this world has n1..n3, A, B, store or `leader`)"
    );
}

/// An action that cannot run says so with the actor's own name, as the learner sees it on the ring.
#[test]
fn skipped_actions_name_workers_and_the_store() {
    use quorumlab_sim::world::ActionOutcome;
    let mut run = ScenarioRun::new(load("fencing-pause.toml")).unwrap();
    let world = run.world_mut();
    let worker = NodeTarget::Node(NodeId(3));
    let store = NodeTarget::Node(NodeId(5));
    let reason = |outcome: ActionOutcome| match outcome {
        ActionOutcome::Skipped { reason } => reason,
        ActionOutcome::Applied => panic!("the action ran"),
    };
    assert_eq!(
        world.apply(&Action::Crash { target: worker }),
        ActionOutcome::Applied
    );
    assert_eq!(
        reason(world.apply(&Action::Crash { target: worker })),
        "A is already crashed"
    );
    assert_eq!(
        reason(world.apply(&Action::Resume { target: store })),
        "store is not paused"
    );
    let beyond = NodeTarget::Node(NodeId(6));
    assert_eq!(
        reason(world.apply(&Action::Restart { target: beyond })),
        "n7 is not in this world (n1, n2, n3, A, B, store)"
    );
}

/// Redis-style servers elect nobody, so an action aimed at "the leader" says so instead of blaming
/// the servers for being down.
#[test]
fn the_leader_of_a_redis_world_is_nobody() {
    use quorumlab_sim::world::ActionOutcome;
    let mut run = ScenarioRun::new(load("redlock-clock-jump.toml")).unwrap();
    let outcome = run.world_mut().apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    let ActionOutcome::Skipped { reason } = outcome else {
        panic!("a crash of nobody ran");
    };
    assert!(
        reason.starts_with("Redis-style lock servers elect no leader"),
        "{reason}"
    );
}

#[test]
fn the_view_shows_beliefs_truth_and_ledger() {
    let mut run = ScenarioRun::new(load("fencing-pause.toml")).unwrap();
    run.advance_to(SimTime::from_ms(3_470));
    let view = run.world().view();
    let coordination = view.coordination.expect("coordination view");
    assert_eq!(coordination.labels[3..], ["A", "B", "store"]);
    assert_eq!(coordination.workers.len(), 2);
    let service = coordination.service.expect("a leader");
    assert!(service.revision > 0);
    let resource = coordination.resource.expect("resource");
    assert!(resource.fencing && resource.rejected >= 1);
    assert!(resource
        .ledger
        .iter()
        .any(|entry| entry.outcome == quorumlab_sim::resource::AccessOutcome::StaleToken));
}

/// Locks are granted in request order: each release hands the key to the oldest waiter.
#[test]
fn locks_are_granted_in_request_order() {
    let mut table = LockTable::default();
    let mut events = Vec::new();
    let owners = [NodeId(3), NodeId(4), NodeId(5)];
    for (index, owner) in owners.iter().enumerate() {
        let op = LockOp::Acquire {
            key: 0,
            owner: *owner,
            ttl_ms: 1_000,
            request: 1,
            idempotent: true,
        };
        table.apply(index as u64 + 1, op, &mut events);
    }
    let mut granted = Vec::new();
    for lease in 1..=3u64 {
        events.clear();
        let holder = table.keys[&0].holder.expect("someone holds");
        assert_eq!(holder.lease, lease);
        granted.push((holder.owner, holder.token));
        let release = LockOp::Release {
            key: 0,
            lease,
            by: holder.owner,
        };
        table.apply(10 + lease, release, &mut events);
    }
    assert_eq!(
        granted.iter().map(|(owner, _)| *owner).collect::<Vec<_>>(),
        owners
    );
    assert!(granted.windows(2).all(|pair| pair[0].1 < pair[1].1));
}

/// Expiry is decided on the service leader's clock: a leader whose clock jumps forward expires a
/// crashed holder's lease at once, long before its TTL has passed in true time.
#[test]
fn lease_expiry_follows_the_leaders_clock() {
    let options = LockServiceOptions {
        lease_ttl_ms: 5_000,
        work_ms: 300,
        ..LockServiceOptions::default()
    };
    let mut run = ScenarioRun::new(lock_scenario(options, 2, 6_000)).unwrap();
    let a = NodeId(3);
    let mut crashed_at = None;
    for ms in (200..3_000).step_by(5) {
        run.advance_to(SimTime::from_ms(ms));
        let holds = run.world().nodes()[a.index()]
            .actor
            .as_worker()
            .unwrap()
            .belief
            .is_some();
        if holds {
            let world = run.world_mut();
            world.apply(&Action::Crash {
                target: NodeTarget::Node(a),
            });
            world.apply(&Action::ClockJump {
                target: NodeTarget::Leader,
                by_ms: 10_000,
            });
            crashed_at = Some(ms);
            break;
        }
    }
    let crashed_at = crashed_at.expect("A got the lock");
    run.run_to_end();
    let locks = run.report().world.locks.unwrap();
    let expiry = locks
        .expired
        .iter()
        .find(|record| record.client == "A")
        .expect("A's lease expired");
    assert!(
        expiry.at_ms < crashed_at + 1_000,
        "expired at {} ms, crash at {crashed_at} ms, TTL 5000 ms",
        expiry.at_ms
    );
}
