//! Consul-style lock-delay on the lock service (`[lock_service] lock_delay_ms`): when a lease is
//! invalidated (its TTL ran out, or its session was closed) the service releases its lock but grants it
//! to no one for the lock-delay; a holder's own release frees the key at once. What it buys: a holder
//! paused for less than TTL + lock-delay never overlaps the next holder, even with fencing off. What it
//! does not: a longer pause still overlaps, and only fencing refuses that write.
//! (Consul documentation, "Sessions and distributed locks overview", Session Design.)

use quorumlab_sim::checker::{MUTUAL_EXCLUSION, NO_LOST_UPDATES};
use quorumlab_sim::config::ProtocolConfig;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::lockservice::{LockOp, LockTable, TableEvent};
use quorumlab_sim::narration::Narrator;
use quorumlab_sim::runner::{run_scenario, RunReport, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Scenario};

mod common;
use common::{count, load};

fn with_delay(mut scenario: Scenario, lock_delay_ms: u64) -> Scenario {
    if let ProtocolConfig::LockService(locks) = &mut scenario.protocol {
        locks.lock_delay_ms = lock_delay_ms;
    }
    scenario
}

fn with_fencing(mut scenario: Scenario, fencing: bool) -> Scenario {
    if let ProtocolConfig::LockService(locks) = &mut scenario.protocol {
        locks.fencing = fencing;
    }
    scenario
}

fn run(scenario: &Scenario) -> RunReport {
    run_scenario(scenario).expect("a valid scenario runs")
}

/// When the service granted the lock to `client`, in ms, in order.
fn grants_to(report: &RunReport, client: &str) -> Vec<u64> {
    let locks = report.world.locks.as_ref().expect("a locks report");
    locks
        .grants
        .iter()
        .filter(|grant| grant.client == client)
        .map(|grant| grant.at_ms)
        .collect()
}

fn expiry_of(report: &RunReport, client: &str) -> u64 {
    let locks = report.world.locks.as_ref().expect("a locks report");
    locks
        .expired
        .iter()
        .find(|record| record.client == client)
        .map(|record| record.at_ms)
        .unwrap_or_else(|| panic!("{client}'s lease never ran out"))
}

fn acquire(table: &mut LockTable, index: u64, owner: u16, events: &mut Vec<TableEvent>) {
    let op = LockOp::Acquire {
        key: 0,
        owner: NodeId(owner),
        ttl_ms: 1_000,
        request: index,
        idempotent: false,
    };
    table.apply(index, op, events);
}

fn granted(events: &[TableEvent]) -> bool {
    events
        .iter()
        .any(|event| matches!(event, TableEvent::Granted { .. }))
}

/// An expired holder's key goes to nobody until `EndDelay`; a waiter that asks meanwhile is queued.
#[test]
fn an_expired_lease_holds_its_key_back_until_the_delay_ends() {
    let mut table = LockTable::with_lock_delay(true);
    let mut events = Vec::new();
    acquire(&mut table, 1, 3, &mut events);
    acquire(&mut table, 2, 4, &mut events);
    events.clear();
    table.apply(3, LockOp::Expire { lease: 1 }, &mut events);
    assert!(matches!(events[0], TableEvent::DelayStarted { key: 0, .. }));
    assert!(matches!(
        events[1],
        TableEvent::Released { expired: true, .. }
    ));
    assert!(!granted(&events), "{events:?}");
    assert_eq!(table.keys[&0].holder, None);
    events.clear();
    acquire(&mut table, 4, 5, &mut events);
    assert!(matches!(events[..], [TableEvent::Queued { lease: 4, .. }]));
    events.clear();
    table.apply(
        5,
        LockOp::EndDelay {
            key: 0,
            revision: 9,
        },
        &mut events,
    );
    assert!(
        events.is_empty(),
        "the end of another delay changes nothing: {events:?}"
    );
    let revision = table.delayed_keys[&0];
    table.apply(5, LockOp::EndDelay { key: 0, revision }, &mut events);
    assert!(matches!(events[0], TableEvent::DelayEnded { key: 0, .. }));
    let holder = table.keys[&0].holder.expect("the first waiter holds it");
    assert_eq!((holder.lease, holder.owner), (2, NodeId(4)));
    events.clear();
    table.apply(6, LockOp::EndDelay { key: 0, revision }, &mut events);
    assert!(
        events.is_empty(),
        "a second end changes nothing: {events:?}"
    );
}

/// Consul delays only the locks of an invalidated session: a holder's own release frees the key at
/// once, and without lock-delay an expiry does too.
#[test]
fn a_voluntary_release_and_a_service_without_delay_grant_at_once() {
    let mut table = LockTable::with_lock_delay(true);
    let mut events = Vec::new();
    acquire(&mut table, 1, 3, &mut events);
    acquire(&mut table, 2, 4, &mut events);
    events.clear();
    let release = LockOp::Release {
        key: 0,
        lease: 1,
        by: NodeId(3),
    };
    table.apply(3, release, &mut events);
    assert!(granted(&events), "{events:?}");
    assert!(table.delayed_keys.is_empty());
    let mut plain = LockTable::default();
    events.clear();
    acquire(&mut plain, 1, 3, &mut events);
    acquire(&mut plain, 2, 4, &mut events);
    events.clear();
    plain.apply(3, LockOp::Expire { lease: 1 }, &mut events);
    assert!(granted(&events), "{events:?}");
}

/// A holder paused for less than TTL + lock-delay, fencing off: no checker fires, and B's grant waits
/// out the whole delay after A's expiry.
#[test]
fn a_short_pause_with_lock_delay_and_no_fencing_overlaps_nobody() {
    let report = run(&load("lock-delay-pause.toml"));
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    let expired_ms = expiry_of(&report, "A");
    let b_granted_ms = grants_to(&report, "B")
        .into_iter()
        .find(|at_ms| *at_ms > expired_ms)
        .expect("B gets the lock after A's lease ran out");
    assert!(
        b_granted_ms >= expired_ms + 2_000,
        "B got it at {b_granted_ms} ms, A expired at {expired_ms} ms"
    );
    let resource = report.world.resource.as_ref().expect("a resource report");
    let stale = resource
        .accepted
        .iter()
        .find(|access| access.client == "A" && access.write.is_some() && access.at_ms > 3_400);
    assert!(stale.is_some(), "A's write after waking was accepted");
}

/// The same run without lock-delay is the no-fencing story: the quiet test above can fail.
#[test]
fn the_same_short_pause_without_lock_delay_overlaps() {
    let report = run(&with_delay(load("lock-delay-pause.toml"), 0));
    assert!(count(&report, MUTUAL_EXCLUSION) >= 1);
    assert!(count(&report, NO_LOST_UPDATES) >= 1);
}

/// A pause longer than TTL + lock-delay, fencing off: the delay ends while A is frozen, B works, and
/// A's stale write lands on top.
#[test]
fn a_long_pause_still_overlaps_without_fencing() {
    let report = run(&load("lock-delay-long-pause.toml"));
    assert!(
        count(&report, MUTUAL_EXCLUSION) >= 1,
        "{:?}",
        report.world.violation_counts
    );
    assert!(count(&report, NO_LOST_UPDATES) >= 1);
}

/// With fencing on, the same long pause is refused at the store: A's token is below B's.
#[test]
fn fencing_refuses_the_long_pauses_stale_write() {
    let report = run(&with_fencing(load("lock-delay-long-pause.toml"), true));
    assert!(
        report.world.violations.is_empty(),
        "{:?}",
        report.world.violations
    );
    let resource = report.world.resource.as_ref().expect("a resource report");
    let stale = resource.rejected.first().expect("a refused write");
    assert_eq!(stale.client, "A");
    assert!(stale.presented.unwrap() < stale.highest_seen.unwrap());
}

/// `lock_delay_ms = 0` is the service as it was: the same trace as a file that never names the table.
#[test]
fn a_zero_lock_delay_changes_nothing() {
    let plain = load("no-fencing-pause.toml");
    let mut text = std::fs::read_to_string(format!(
        "{}/scenarios/no-fencing-pause.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    text = text.replace("[[step]]", "[lock_service]\nlock_delay_ms = 0\n\n[[step]]");
    let zero = parse_scenario(&text, "zero.toml").unwrap();
    assert_eq!(zero, plain);
    assert_eq!(run(&zero).world.trace_hash, run(&plain).world.trace_hash);
    let delayed = with_delay(plain.clone(), 2_000);
    assert_ne!(run(&delayed).world.trace_hash, run(&plain).world.trace_hash);
}

#[test]
fn lock_delay_is_checked_and_exported() {
    let base = "protocol = \"lock-service\"\nnodes = 3\nduration_ms = 1000\n";
    let error = |text: &str| parse_scenario(text, "t.toml").unwrap_err().to_string();
    let too_long = error(&format!("{base}[lock_service]\nlock_delay_ms = 60001\n"));
    assert!(
        too_long.contains("lock_service.lock_delay_ms"),
        "{too_long}"
    );
    assert!(too_long.contains("60000"), "{too_long}");
    let negative = error(&format!("{base}[lock_service]\nlock_delay_ms = -1\n"));
    assert!(
        negative.contains("lock_service.lock_delay_ms"),
        "{negative}"
    );
    let redis = "protocol = \"redis-lock\"\nnodes = 1\nduration_ms = 1000\n";
    let elsewhere = error(&format!("{redis}[lock_service]\nlock_delay_ms = 5\n"));
    assert!(elsewhere.contains("lock_service"), "{elsewhere}");
    let mut scheduler = parse_scenario(
        "protocol = \"scheduler\"\nnodes = 3\nduration_ms = 1000\n",
        "s.toml",
    )
    .unwrap();
    if let Some(locks) = scheduler.protocol.lock_options_mut() {
        locks.lock_delay_ms = 5;
    }
    let refused = scheduler.validate().unwrap_err().to_string();
    assert!(refused.contains("lock_service.lock_delay_ms"), "{refused}");
    let example = load("lock-delay-pause.toml");
    let text = to_toml_string(&example);
    assert!(
        text.contains("[lock_service]\nlock_delay_ms = 2000"),
        "{text}"
    );
    assert_eq!(parse_scenario(&text, "again.toml").unwrap(), example);
}

/// A leader elected during a delay does not know when it began, so it waits a full delay from its
/// election: never a grant sooner than the delay after the expiry.
#[test]
fn a_new_leader_restarts_the_delay_rather_than_shortening_it() {
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::time::SimTime;
    let scenario = load("lock-delay-pause.toml");
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.advance_to(SimTime::from_ms(2_600));
    let crash = Action::Crash {
        target: NodeTarget::Leader,
    };
    run.world_mut().apply(&crash);
    run.run_to_end();
    let report = run.world().report();
    let locks = report.locks.as_ref().unwrap();
    let expired_ms = locks
        .expired
        .iter()
        .find(|r| r.client == "A")
        .unwrap()
        .at_ms;
    let next = locks
        .grants
        .iter()
        .find(|grant| grant.at_ms > expired_ms)
        .expect("someone gets the lock after the failover");
    assert!(
        next.at_ms >= expired_ms + 2_000,
        "{next:?} after {expired_ms}"
    );
}

/// The narration says why the grant waits, and when it may go ahead.
#[test]
fn the_narration_tells_the_delay_and_its_end() {
    let mut run = ScenarioRun::new(load("lock-delay-pause.toml")).unwrap();
    run.run_to_end();
    let mut narrator = Narrator::for_world(run.world());
    assert!(narrator.catch_up(run.world().trace()));
    let lines: Vec<String> = narrator.lines().map(|line| line.text.clone()).collect();
    let delay = lines
        .iter()
        .position(|line| line.contains("lock-delay keeps /lock/jobs from everyone for 2 s"))
        .unwrap_or_else(|| panic!("{}", lines.join("\n")));
    let end = lines
        .iter()
        .position(|line| line.starts_with("Lock-delay is over"))
        .unwrap_or_else(|| panic!("{}", lines.join("\n")));
    assert!(delay < end);
    assert_eq!(
        lines
            .iter()
            .filter(|line| line.starts_with("Lock-delay is over"))
            .count(),
        1,
        "told once, not once per replica"
    );
}

/// The compare example "lock-delay on/off" (`compare:lock-delay-pause.toml/lock-delay`): the same seed
/// and pause, quiet with the delay and overlapping without it.
#[test]
fn lock_delay_on_and_off_part_at_the_stale_write() {
    use quorumlab_sim::compare::pair::ComparedRuns;
    use quorumlab_sim::compare::variation::{vary, Variation};
    use quorumlab_sim::lockservice::variations::lock_delay_flipped_ms;
    use quorumlab_sim::time::SimTime;
    let left = load("lock-delay-pause.toml");
    let right = vary(&left, &[Variation::LockDelay]).unwrap();
    assert_eq!(right.protocol.lock_options().unwrap().lock_delay_ms, 0);
    let mut pair = ComparedRuns::new(left, right).unwrap();
    pair.advance_to(SimTime::from_ms(7_000));
    assert!(pair.left().world().checkers().total_violations() == 0);
    assert!(pair.right().world().checkers().total_violations() > 0);
    let difference = pair.difference();
    assert!(difference.line.contains("right: "), "{}", difference.line);
    // Flipped from off, the delay is twice the TTL: the short-pause example's own setting.
    let off = with_delay(load("lock-delay-pause.toml"), 0);
    let locks = off.protocol.lock_options().unwrap();
    assert_eq!(lock_delay_flipped_ms(locks), 2_000);
}
