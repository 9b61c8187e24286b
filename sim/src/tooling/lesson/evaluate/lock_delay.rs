//! Checkpoints about the lock service's lock-delay: what it buys and what it does not.
//!
//! When a holder's lease expires (rather than being revoked by the holder), a service with a
//! lock-delay deletes the holder's key but grants the lock to no one for a while, because the old
//! holder may only be paused and still at work. `lock_held_back_by_delay` is met once such a delay has
//! been seen in force and has ended, and the lock went to its next holder while no worker was paused
//! any more and no two holders had overlapped since the step began: the pause was short enough for
//! the delay to cover it. The judgment is made once, at that first grant: a grant made while the old
//! holder still sleeps is the long pause, and its holder waking later must not tick the step in the
//! moment before its late write is seen. `overlap_despite_delay`
//! is met when a delay was seen in force and Mutual Exclusion broke all the same: the holder woke after
//! the delay had ended (counted from the expiry the leader saw, its lease running from the last
//! keep-alive it received), which is why a delay is no substitute for fencing.
//!
//! Both read the replicated lock table of the service's current leader, the same place the panel's
//! "held back until" line comes from. Nothing before the step began counts.

use super::violations::latest_detail;
use super::Verdict;
use crate::base::time::SimTime;
use crate::engine::checker::MUTUAL_EXCLUSION;
use crate::engine::world::{NodeStatus, World};
use crate::protocols::lockservice::etcd::lock_name;

/// What the lock-delay checkpoints remember between checks.
#[derive(Clone, Debug, Default)]
pub(super) struct DelayWatch {
    /// Mutual Exclusion violations when the step began.
    overlaps_at_start: u64,
    /// The held-back key, and when a delay was first and last seen in force since the step began.
    held_back: Option<(u32, SimTime, SimTime)>,
    /// When the service leader last said the delay would end, on its clock: the moment the panel
    /// shows as "held back until", so the tick names the same one.
    planned_end_us: Option<u64>,
    /// The verdict of the first grant after the delay ended, once there was one.
    first_grant: Option<Verdict>,
}

impl DelayWatch {
    pub(super) fn begin(world: &World) -> DelayWatch {
        DelayWatch {
            overlaps_at_start: overlaps(world),
            held_back: None,
            planned_end_us: None,
            first_grant: None,
        }
    }

    /// Notes a delay in force now; whether one is.
    fn observe(&mut self, world: &World) -> bool {
        let Some((key, planned_end_us)) = held_back_key(world) else {
            return false;
        };
        self.planned_end_us = planned_end_us.or(self.planned_end_us);
        let now = world.now();
        let (first_key, since, _) = self.held_back.unwrap_or((key, now, now));
        self.held_back = Some((first_key, since, now));
        true
    }

    fn new_overlaps(&self, world: &World) -> u64 {
        overlaps(world).saturating_sub(self.overlaps_at_start)
    }

    pub(super) fn lock_held_back_by_delay(&mut self, world: &World) -> Verdict {
        let in_force = self.observe(world);
        let Some((key, since, until)) = self.held_back else {
            return Verdict::not_yet(
                "no lock has been held back by lock-delay yet: a lease must expire while its \
                 holder holds the lock (and the service needs a lock_delay_ms)"
                    .into(),
            );
        };
        let lock = lock_name(key);
        if let Some(verdict) = &self.first_grant {
            return verdict.clone();
        }
        // The end the leader set (and the panel showed); the last moment seen only if it set none.
        let until = match self.planned_end_us {
            Some(end_us) => format!("until {}", seconds(SimTime(end_us))),
            None => format!("to about {}", seconds(until)),
        };
        let since = seconds(since);
        if self.new_overlaps(world) > 0 {
            return Verdict::not_yet(format!(
                "lock-delay held {lock} back from {since}, but two holders overlapped all the same: \
                 {}",
                latest_detail(world, MUTUAL_EXCLUSION)
            ));
        }
        if in_force {
            return Verdict::not_yet(format!(
                "{lock} is held back by lock-delay since {since}: nobody may take it yet"
            ));
        }
        let Some(holder) = current_holder(world, key) else {
            return Verdict::not_yet(format!(
                "the lock-delay on {lock} is over; waiting for the next grant"
            ));
        };
        let sleeping = paused_workers(world);
        let verdict = if sleeping.is_empty() {
            Verdict::yes(format!(
                "lock-delay held {lock} back from {since} {until}; only then was {holder} \
                 granted it, the paused holder was awake again, and no two holders overlapped"
            ))
        } else {
            Verdict::not_yet(format!(
                "lock-delay held {lock} back from {since} {until}, but {holder} was granted \
                 it while {} was still paused: the pause outlasted lease and delay together",
                sleeping.join(", ")
            ))
        };
        self.first_grant = Some(verdict.clone());
        verdict
    }

    pub(super) fn overlap_despite_delay(&mut self, world: &World) -> Verdict {
        self.observe(world);
        let Some((key, since, _)) = self.held_back else {
            return Verdict::not_yet(
                "no lock has been held back by lock-delay yet: a lease must expire while its \
                 holder holds the lock (and the service needs a lock_delay_ms)"
                    .into(),
            );
        };
        let lock = lock_name(key);
        let since = seconds(since);
        match self.new_overlaps(world) {
            0 => Verdict::not_yet(format!(
                "lock-delay held {lock} back from {since}, and no two holders have overlapped"
            )),
            _ => Verdict::yes(format!(
                "lock-delay held {lock} back from {since}, yet two holders overlapped: {}",
                latest_detail(world, MUTUAL_EXCLUSION)
            )),
        }
    }
}

/// A moment of the run as "1.731 s".
fn seconds(time: SimTime) -> String {
    let ms = time.as_micros() / 1_000;
    format!("{}.{:03} s", ms / 1_000, ms % 1_000)
}

fn overlaps(world: &World) -> u64 {
    world
        .checkers()
        .violation_counts()
        .get(MUTUAL_EXCLUSION)
        .copied()
        .unwrap_or(0)
}

/// The lock clients paused now, by name.
fn paused_workers(world: &World) -> Vec<String> {
    let Some(layout) = world.layout() else {
        return Vec::new();
    };
    (0..layout.workers)
        .map(|index| layout.worker(index))
        .filter(|node| world.nodes()[node.index()].status == NodeStatus::Paused)
        .map(|node| world.node_label(node))
        .collect()
}

/// A key the service's current leader holds back under lock-delay (the lowest, if several), with the
/// end the leader set for it on its own clock, once it set one (the panel's "held back until").
fn held_back_key(world: &World) -> Option<(u32, Option<u64>)> {
    let leader = world.current_leader()?;
    let server = world.nodes()[leader.index()].actor.as_lock_server()?;
    let key = server.table.delayed_keys.keys().next().copied()?;
    Some((key, server.delays.end_us(key)))
}

/// Who holds `key` now, as the service's current leader sees it.
fn current_holder(world: &World, key: u32) -> Option<String> {
    let leader = world.current_leader()?;
    let server = world.nodes()[leader.index()].actor.as_lock_server()?;
    let hold = server.table.keys.get(&key)?.holder?;
    Some(format!(
        "{} (fencing token {})",
        world.node_label(hold.owner),
        hold.token
    ))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_never_met, watch_until_met};
    use super::seconds;
    use crate::tooling::lesson::Checkpoint;

    const CALM: &str = include_str!("../../../../../lessons/scenarios/lock-delay-calm.toml");

    /// The calm lesson world with A paused at 950 ms, mid-job, for `pause_ms`; `lock_delay_ms` 0 turns
    /// the delay off.
    fn paused(pause_ms: u64, lock_delay_ms: u64) -> String {
        let calm = CALM
            .replace("duration_ms = 120000", "duration_ms = 9000")
            .replace(
                "lock_delay_ms = 2000",
                &format!("lock_delay_ms = {lock_delay_ms}"),
            );
        format!(
            "{calm}\n[[step]]\nat_ms = 950\ndo = \"pause\"\ntarget = \"A\"\nduration_ms = {pause_ms}\n"
        )
    }

    #[test]
    fn a_short_pause_is_covered_by_the_delay() {
        let (met, verdict) = watch_until_met(
            &paused(1_000, 2_000),
            Checkpoint::LockHeldBackByDelay,
            900,
            8_000,
        );
        let met = met.unwrap_or_else(|| panic!("{}", verdict.explanation));
        // A's lease expires near 1.7 s and the delay lasts 2 s: B cannot be granted before 3.7 s.
        assert!(met >= 3_700, "{met}: {}", verdict.explanation);
        assert!(
            verdict.explanation.contains("only then was B"),
            "{}",
            verdict.explanation
        );
        let explanation = explanation_when_never_met(
            &paused(1_000, 2_000),
            Checkpoint::OverlapDespiteDelay,
            900,
            8_000,
        );
        assert!(explanation.contains("no two holders have overlapped"));
    }

    /// The tick names the end the panel showed ("held back until"), read from the same view, not the
    /// last moment a check happened to see the delay in force.
    #[test]
    fn the_tick_names_the_delay_end_the_panel_shows() {
        use crate::base::time::SimTime;
        use crate::tooling::lesson::CheckpointEvaluator;
        use crate::tooling::runner::ScenarioRun;
        use crate::tooling::scenario::parse_scenario;
        let scenario = parse_scenario(&paused(1_000, 2_000), "test.toml").unwrap();
        let mut run = ScenarioRun::new(scenario).unwrap();
        run.advance_to(SimTime::from_ms(900));
        let mut evaluator =
            CheckpointEvaluator::begin(Checkpoint::LockHeldBackByDelay, run.world());
        let mut shown_until_us = None;
        let mut verdict = evaluator.check(run.world());
        for ms in (905..=8_000).step_by(5) {
            run.advance_to(SimTime::from_ms(ms));
            let view = run.world().view();
            let service = view
                .coordination
                .and_then(|coordination| coordination.service);
            let delays = service
                .map(|service| service.lock_delays)
                .unwrap_or_default();
            if let Some(until_us) = delays.first().and_then(|delay| delay.until_us) {
                shown_until_us = Some(until_us);
            }
            verdict = evaluator.check(run.world());
            if verdict.satisfied {
                break;
            }
        }
        assert!(verdict.satisfied, "{}", verdict.explanation);
        let shown = seconds(SimTime(shown_until_us.expect("the panel showed an end")));
        assert!(
            verdict.explanation.contains(&format!("until {shown};")),
            "panel {shown}: {}",
            verdict.explanation
        );
        assert!(
            !verdict.explanation.contains("about"),
            "{}",
            verdict.explanation
        );
    }

    #[test]
    fn a_long_pause_overlaps_despite_the_delay() {
        let (met, verdict) = watch_until_met(
            &paused(5_000, 2_000),
            Checkpoint::OverlapDespiteDelay,
            900,
            9_000,
        );
        assert!(met.is_some(), "{}", verdict.explanation);
        assert!(verdict.explanation.contains("yet two holders overlapped"));
        let (met, verdict) = watch_until_met(
            &paused(5_000, 2_000),
            Checkpoint::LockHeldBackByDelay,
            900,
            9_000,
        );
        // B is granted after the delay while A still sleeps: judged then, and A waking later does not
        // tick it.
        assert_eq!(met, None, "{}", verdict.explanation);
        assert!(
            verdict.explanation.contains("while A was still paused"),
            "{}",
            verdict.explanation
        );
    }

    #[test]
    fn without_a_delay_neither_checkpoint_is_met() {
        for checkpoint in [
            Checkpoint::LockHeldBackByDelay,
            Checkpoint::OverlapDespiteDelay,
        ] {
            let explanation = explanation_when_never_met(&paused(5_000, 0), checkpoint, 900, 9_000);
            assert!(explanation.starts_with("no lock has been held back"));
        }
    }

    #[test]
    fn an_untouched_run_holds_nothing_back() {
        let calm = CALM.replace("duration_ms = 120000", "duration_ms = 6000");
        for checkpoint in [
            Checkpoint::LockHeldBackByDelay,
            Checkpoint::OverlapDespiteDelay,
        ] {
            explanation_when_never_met(&calm, checkpoint, 900, 6_000);
        }
    }
}
