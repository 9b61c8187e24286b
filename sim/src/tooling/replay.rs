//! One replay path for a recorded run — a share link, an imported trace file, `quorumlab replay` —
//! bounded by what it actually does rather than by an estimate.
//!
//! A recorded action says it was applied at time `at` after `after_events` events. Replaying means
//! processing events until that count, applying the action, and at the end running to the recorded
//! position. Two things can make that go wrong with a log nobody checked: an action may claim more
//! events than the run has by its time (it does not fit: refused, naming the action), and the run may
//! simply be enormous (a flood of requests, every message duplicated, a resend storm). The second is
//! bounded by counting the events processed; past the budget the replay stops and says where.

use crate::base::time::SimTime;
use crate::engine::fingerprint::FingerprintKind;
use crate::engine::history::RecordedAction;
use crate::engine::world::World;
use crate::tooling::runner::world_config;
use crate::tooling::scenario::Scenario;
use std::fmt;

/// Most events a replay processes before it gives up: about ten seconds natively, more in a tab.
pub const MAX_REPLAY_EVENTS: u64 = 10_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The engine refused the scenario's settings.
    Refused(String),
    /// Action `action` (1-based) claims `after_events` events before it, but the run has only
    /// `events_by_then` by its time `at`.
    DoesNotFit {
        action: usize,
        at: SimTime,
        after_events: u64,
        events_by_then: u64,
    },
    /// The budget of `limit` events ran out with the run at `stopped_at`.
    TooManyEvents { limit: u64, stopped_at: SimTime },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Refused(reason) => write!(formatter, "the settings were refused: {reason}"),
            ReplayError::DoesNotFit {
                action,
                at,
                after_events,
                events_by_then,
            } => write!(
                formatter,
                "recorded action {action} at {at} expects {after_events} events before it, but this run \
                 has only {events_by_then} by then"
            ),
            ReplayError::TooManyEvents { limit, stopped_at } => write!(
                formatter,
                "the replay was stopped after {} million events, at {stopped_at} of the run: more than a \
                 replay may take",
                limit / 1_000_000
            ),
        }
    }
}

/// `scenario` replayed with `actions` to `position`, processing at most `max_events` events. Actions
/// recorded past `position` (a future kept after scrubbing back) are not applied.
pub fn replay_to(
    scenario: &Scenario,
    actions: &[RecordedAction],
    position: SimTime,
    max_events: u64,
) -> Result<World, ReplayError> {
    replay_with_fingerprint(
        scenario,
        actions,
        position,
        max_events,
        FingerprintKind::Compact,
    )
}

/// As [`replay_to`], the replayed world's fingerprint computed by `fingerprint` (to check a trace file
/// that recorded an older kind).
pub fn replay_with_fingerprint(
    scenario: &Scenario,
    actions: &[RecordedAction],
    position: SimTime,
    max_events: u64,
    fingerprint: FingerprintKind,
) -> Result<World, ReplayError> {
    let config = world_config(scenario);
    let mut world = World::with_fingerprint(config, fingerprint).map_err(ReplayError::Refused)?;
    for (index, recorded) in actions.iter().enumerate() {
        if recorded.at > position {
            break;
        }
        while world.events_processed() < recorded.after_events {
            if world
                .next_event_time()
                .is_none_or(|time| time > recorded.at)
            {
                return Err(ReplayError::DoesNotFit {
                    action: index + 1,
                    at: recorded.at,
                    after_events: recorded.after_events,
                    events_by_then: world.events_processed(),
                });
            }
            step_within(&mut world, max_events)?;
        }
        run_within(&mut world, recorded.at, max_events, false)?;
        world.fast_forward_to(recorded.after_events, recorded.at);
        world.apply(&recorded.action);
    }
    run_within(&mut world, position, max_events, true)?;
    world.run_until(position);
    Ok(world)
}

fn step_within(world: &mut World, max_events: u64) -> Result<(), ReplayError> {
    if world.events_processed() >= max_events {
        return Err(ReplayError::TooManyEvents {
            limit: max_events,
            stopped_at: world.now(),
        });
    }
    world.step();
    Ok(())
}

/// Processes events due before `until` (or at it too, when `inclusive`) within the budget.
fn run_within(
    world: &mut World,
    until: SimTime,
    max_events: u64,
    inclusive: bool,
) -> Result<(), ReplayError> {
    while world
        .next_event_time()
        .is_some_and(|time| time < until || (inclusive && time == until))
    {
        step_within(world, max_events)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::action::{Action, NodeTarget, RequestKind};

    fn crash_at(at_ms: u64, after_events: u64) -> RecordedAction {
        RecordedAction {
            at: SimTime::from_ms(at_ms),
            after_events,
            action: Action::Crash {
                target: NodeTarget::Leader,
            },
        }
    }

    #[test]
    fn an_honest_log_replays_to_the_recorded_run() {
        let scenario = Scenario::new("replay", 5, 3_000);
        let mut world = World::new(world_config(&scenario)).unwrap();
        world.run_until(SimTime::from_ms(900));
        let recorded = crash_at(900, world.events_processed());
        world.apply(&recorded.action);
        world.run_until(SimTime::from_ms(2_000));
        let replayed = replay_to(
            &scenario,
            &[recorded],
            SimTime::from_ms(2_000),
            MAX_REPLAY_EVENTS,
        )
        .unwrap();
        assert_eq!(replayed.trace_hash(), world.trace_hash());
    }

    #[test]
    fn an_action_claiming_more_events_than_its_time_holds_is_refused_at_once() {
        // `quorumlab replay` used to spin on this (the claimed count is never reached).
        let scenario = Scenario::new("replay", 5, 3_000);
        let error = replay_to(
            &scenario,
            &[crash_at(900, u64::MAX)],
            SimTime::from_ms(2_000),
            MAX_REPLAY_EVENTS,
        )
        .unwrap_err();
        assert!(
            matches!(error, ReplayError::DoesNotFit { action: 1, .. }),
            "{error}"
        );
        let mut world = World::new(world_config(&scenario)).unwrap();
        world.fast_forward_to(u64::MAX, SimTime::from_ms(500));
        assert_eq!(
            world.now(),
            SimTime::from_ms(500),
            "fast-forwarding stops at its time"
        );
    }

    #[test]
    fn a_run_past_the_budget_stops_and_says_where() {
        // A short log that asks for an enormous run: bursts of 10 000 writes.
        let scenario = Scenario::new("replay", 5, 60_000);
        let flood: Vec<RecordedAction> = (1..=5)
            .map(|index| RecordedAction {
                at: SimTime::from_ms(1_000 + index),
                after_events: 0,
                action: Action::Request {
                    count: 10_000,
                    target: NodeTarget::Leader,
                    kind: RequestKind::Put,
                },
            })
            .collect();
        let limit = 100_000;
        let error = replay_to(&scenario, &flood, SimTime::from_ms(60_000), limit).unwrap_err();
        match error {
            ReplayError::TooManyEvents {
                limit: said,
                stopped_at,
            } => {
                assert_eq!(said, limit);
                assert!(stopped_at < SimTime::from_ms(60_000));
            }
            other => panic!("expected the budget to stop it, got {other}"),
        }
    }
}
