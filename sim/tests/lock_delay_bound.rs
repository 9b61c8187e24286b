//! Where lock-delay's protection really ends, found by sweeping pause lengths and pause start times
//! with fencing off.
//!
//! The bound follows from how the service times a lease. The leader sets a lease's deadline to "keep-alive
//! received + TTL" (`LockServer::on_keep_alive`), so the lease runs from the holder's last keep-alive, not
//! from the moment the holder froze. Lock-delay then counts from the `Expire` entry's apply
//! (`LockDelays::sync`). A worker sends a keep-alive every `renew_ms`, but when a queued worker is
//! granted the lock it starts its renewal timer afresh (`Worker::on_acquired`), so its first keep-alive
//! as holder comes a full `renew_ms` after the grant, while its last one as a waiter may have gone out
//! almost `renew_ms` before it: when a pause begins, the service may have heard from the holder as long
//! as `2 * renew_ms` ago. Its lease then runs out as early as `TTL - 2 * renew_ms` into the pause, so
//! only a pause shorter than `TTL + lock_delay - 2 * renew_ms` is sure never to overlap the next holder
//! (the message delays on the way, a keep-alive, two commits, the grant notice and the next holder's read
//! against the holder's one write, only widen that margin). Longer pauses up to about `TTL + lock_delay`
//! overlap or not depending on where the pause fell; pauses well past it always overlap.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::actor::Actor;
use quorumlab_sim::checker::MUTUAL_EXCLUSION;
use quorumlab_sim::config::LockServiceOptions;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::world_config;
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace::TraceEvent;
use quorumlab_sim::worker::Phase;
use quorumlab_sim::World;
use std::sync::OnceLock;

mod common;
use common::load;

/// Seeds swept: each draws its own network delays and election timeouts.
const SEEDS: [u64; 3] = [1, 2, 3];
/// Long enough that the computing step spans more than one renewal interval (300 ms), so the pause
/// can start anywhere between two keep-alives.
const WORK_MS: u64 = 400;
/// Step between pause start times, counted from the moment the holder begins computing.
const OFFSET_STEP_MS: u64 = 25;
/// The holder struck is the first one computing after this, once the service has settled.
const WARM_UP_MS: u64 = 500;
/// Run on after the holder wakes: time for its write to land and the next holder's accesses.
const AFTER_WAKE_MS: u64 = 1_500;
/// "Comfortably above TTL + lock-delay": more than the service's own latency from a deadline to a
/// grant (lease checks every 10 ms, two commits, the grant notice and a read), which is well under this.
const ABOVE_MARGIN_MS: u64 = 300;

/// The pause lengths swept: a few far below the bound, then every 50 ms across it and past it.
fn pauses_ms(locks: &LockServiceOptions) -> Vec<u64> {
    let top_ms = locks.lease_ttl_ms + locks.lock_delay_ms + 2 * ABOVE_MARGIN_MS;
    let dense = (locks.lock_delay_ms..=top_ms).step_by(50);
    [500, 1_000, 1_500].into_iter().chain(dense).collect()
}

/// The pause below which no holder can overlap the next, derived from the configuration alone.
fn safe_bound_ms(locks: &LockServiceOptions) -> u64 {
    locks.lease_ttl_ms + locks.lock_delay_ms - 2 * locks.renew_ms
}

/// One swept run: where the pause fell and what came of it.
struct Outcome {
    seed: u64,
    pause_ms: u64,
    started_ms: u64,
    /// How long before the pause the holder last sent a keep-alive.
    since_keep_alive_ms: u64,
    /// When the service ended the holder's lease (none if the pause was too short for that).
    expired_ms: Option<u64>,
    violations: Vec<String>,
}

impl std::fmt::Display for Outcome {
    /// What a failing assertion prints: enough to rerun the one case.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "seed {}, pause of {} ms from {} ms ({} ms after a keep-alive, expiry at {:?} ms): {:?}",
            self.seed,
            self.pause_ms,
            self.started_ms,
            self.since_keep_alive_ms,
            self.expired_ms,
            self.violations
        )
    }
}

impl Outcome {
    fn overlapped(&self) -> bool {
        self.violations.iter().any(|name| name == MUTUAL_EXCLUSION)
    }
}

fn worker(world: &World, node: NodeId) -> &quorumlab_sim::worker::Worker {
    match &world.nodes()[node.index()].actor {
        Actor::Worker(worker) => worker,
        _ => panic!("{node:?} is not a worker"),
    }
}

/// The first worker to begin computing (its read answered, its write not yet sent) after the
/// warm-up, stepped to the very event that began it.
fn step_to_first_computing_holder(world: &mut World) -> NodeId {
    let layout = world.layout().expect("a coordination world");
    let workers: Vec<NodeId> = (0..layout.workers)
        .map(|index| layout.worker(index))
        .collect();
    let computing = |world: &World, node: &NodeId| worker(world, *node).phase == Phase::Modifying;
    world.run_until(SimTime::from_ms(WARM_UP_MS));
    loop {
        let before: Vec<bool> = workers.iter().map(|node| computing(world, node)).collect();
        assert!(world.step(), "no worker ever held the lock");
        let started = workers
            .iter()
            .zip(before)
            .find(|(node, was)| !was && computing(world, node));
        if let Some((node, _)) = started {
            return *node;
        }
    }
}

/// How long ago `holder` last sent a keep-alive (the trace keeps every send in memory here).
fn since_keep_alive_ms(world: &World, holder: NodeId) -> u64 {
    let sent_us = world
        .trace()
        .records()
        .rev()
        .find_map(|record| match record.event {
            TraceEvent::Send { from, label, .. } if from == holder && label == "KeepAlive" => {
                Some(record.at_us)
            }
            _ => None,
        })
        .expect("a holder has kept its lease alive");
    (world.now().as_micros() - sent_us) / 1_000
}

/// Every pause length, struck at one start time of one seed's first computing holder.
fn sweep_one_start(seed: u64, offset_ms: u64) -> Vec<Outcome> {
    let mut scenario = load("lock-delay-pause.toml");
    scenario.seed = seed;
    scenario.steps.clear();
    let locks = scenario.protocol.lock_options_mut().expect("lock options");
    locks.work_ms = WORK_MS;
    let locks = *locks;
    let mut world = World::new(world_config(&scenario)).expect("a valid world");
    let holder = step_to_first_computing_holder(&mut world);
    world.run_until(SimTime::from_ms(world.now().as_ms() + offset_ms));
    assert_eq!(
        worker(&world, holder).phase,
        Phase::Modifying,
        "still computing"
    );
    let since_keep_alive_ms = since_keep_alive_ms(&world, holder);
    let label = world.node_label(holder);
    pauses_ms(&locks)
        .into_iter()
        .map(|pause_ms| {
            let mut run = world.clone();
            let started_ms = run.now().as_ms();
            let pause = Action::Pause {
                target: NodeTarget::Node(holder),
                duration_ms: Some(pause_ms),
            };
            run.apply(&pause);
            run.run_until(SimTime::from_ms(started_ms + pause_ms + AFTER_WAKE_MS));
            let report = run.report();
            let locks_report = report.locks.as_ref().expect("a locks report");
            let expired_ms = locks_report
                .expired
                .iter()
                .find(|record| record.client == label && record.at_ms >= started_ms)
                .map(|record| record.at_ms);
            Outcome {
                seed,
                pause_ms,
                started_ms,
                since_keep_alive_ms,
                expired_ms,
                violations: report.violation_counts.keys().cloned().collect(),
            }
        })
        .collect()
}

/// The whole sweep, run once for both tests (each run is a few simulated seconds).
fn sweep() -> &'static [Outcome] {
    static OUTCOMES: OnceLock<Vec<Outcome>> = OnceLock::new();
    OUTCOMES.get_or_init(|| {
        SEEDS
            .iter()
            .flat_map(|seed| {
                (0..WORK_MS)
                    .step_by(OFFSET_STEP_MS as usize)
                    .flat_map(move |offset_ms| sweep_one_start(*seed, offset_ms))
            })
            .collect()
    })
}

fn swept_options() -> LockServiceOptions {
    let scenario = load("lock-delay-pause.toml");
    let locks = *scenario.protocol.lock_options().expect("lock options");
    assert!(!locks.fencing, "the bound is about lock-delay alone");
    locks
}

#[test]
fn overlaps_begin_between_the_derived_bound_and_ttl_plus_lock_delay() {
    let locks = swept_options();
    let safe_ms = safe_bound_ms(&locks);
    let claimed_ms = locks.lease_ttl_ms + locks.lock_delay_ms;
    let outcomes = sweep();
    // The start times must run from just after a keep-alive to more than a renewal interval past one,
    // or the worst cases were never tried.
    let ages = outcomes.iter().map(|outcome| outcome.since_keep_alive_ms);
    let (newest, oldest) = (ages.clone().min().unwrap(), ages.max().unwrap());
    assert!(
        newest <= OFFSET_STEP_MS,
        "the freshest keep-alive was {newest} ms old"
    );
    assert!(
        oldest > locks.renew_ms,
        "the oldest keep-alive was {oldest} ms old"
    );
    for outcome in outcomes {
        if outcome.pause_ms < safe_ms {
            assert!(
                outcome.violations.is_empty(),
                "below {safe_ms} ms: {outcome}"
            );
        }
        if outcome.pause_ms >= claimed_ms + ABOVE_MARGIN_MS {
            assert!(outcome.overlapped(), "above {claimed_ms} ms: {outcome}");
        }
    }
    // "Less than TTL + lock-delay never overlaps" is too generous, and so is "TTL + lock-delay minus
    // one renewal interval": a pause begun when the last keep-alive was over a renewal interval old
    // (a hold granted from the queue) overlaps below both.
    let shortest = outcomes
        .iter()
        .filter(|outcome| outcome.overlapped())
        .min_by_key(|outcome| outcome.pause_ms)
        .expect("some pause overlaps");
    assert!(
        shortest.pause_ms < claimed_ms - locks.renew_ms,
        "{shortest}"
    );
    assert!(shortest.since_keep_alive_ms > locks.renew_ms, "{shortest}");
}

/// The rule a learner can use: the delay covers time counted from when the service believed the
/// lease expired, which is TTL after the last keep-alive it received. A holder overlaps only if it
/// wakes after that expiry plus the lock-delay.
#[test]
fn a_holder_overlaps_only_if_it_wakes_after_expiry_plus_lock_delay() {
    let locks = swept_options();
    let mut early_expiries = 0;
    for outcome in sweep().iter().filter(|outcome| outcome.overlapped()) {
        let expired_ms = outcome
            .expired_ms
            .expect("an overlapping holder's lease ran out");
        let woke_ms = outcome.started_ms + outcome.pause_ms;
        assert!(woke_ms > expired_ms + locks.lock_delay_ms, "{outcome}");
        let last_keep_alive_ms = outcome.started_ms - outcome.since_keep_alive_ms;
        let covered_until_ms = last_keep_alive_ms + locks.lease_ttl_ms + locks.lock_delay_ms;
        assert!(woke_ms > covered_until_ms, "{outcome}");
        if expired_ms < outcome.started_ms + locks.lease_ttl_ms {
            early_expiries += 1;
        }
    }
    assert!(
        early_expiries > 0,
        "no lease ran out sooner than TTL into a pause"
    );
}
