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
use crate::tooling::runner::{step_in_log, world_config};
use crate::tooling::scenario::{Scenario, Step};
use std::fmt;

/// Most events a replay processes before it gives up. An event costs 0.6 to 3.5 µs in an optimised
/// build (the fuzzer's measurements, on a loaded machine: the most for 45 nodes under floods of
/// requests, where each event writes several trace records), so a replay stops within a quarter of a
/// second to 1.4 s natively — issue 17 asks that no input keep a replay busy more than a second or
/// two. Enough for twenty minutes of a five-node cluster (about 310 000 events) or a minute of 51
/// nodes. It was ten million (ten seconds and more, and the app replayed a link twice).
pub const MAX_REPLAY_EVENTS: u64 = 400_000;

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
                "the replay was stopped after {limit} events, at {stopped_at} of the run: more than a \
                 replay may take"
            ),
        }
    }
}

/// A replayed run: the world at the position, and the log as the run applied it — the recorded
/// actions, with every scripted step the log lacks put in where the run applied it.
#[derive(Debug)]
pub struct Replayed {
    pub world: World,
    pub actions: Vec<RecordedAction>,
}

/// `scenario` replayed with `actions` to `position`, processing at most `max_events` events. Actions
/// recorded past `position` (a future kept after scrubbing back) are not applied, but kept in the log.
///
/// The scenario's scripted steps are applied as a run applies them, at their time after that
/// instant's events, unless the log records them (a recorded action with the same time and action;
/// see [`step_is_recorded`]): a live run records every step it applies, so an exported log already
/// holds them, and a log that lacks one (edited, or written by hand) gets the step all the same.
/// The app and `quorumlab replay` both come here, so they agree on such a file.
pub fn replay_to(
    scenario: &Scenario,
    actions: &[RecordedAction],
    position: SimTime,
    max_events: u64,
) -> Result<Replayed, ReplayError> {
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
) -> Result<Replayed, ReplayError> {
    let config = world_config(scenario);
    let mut world = World::with_fingerprint(config, fingerprint).map_err(ReplayError::Refused)?;
    let mut missing = missing_steps(scenario, actions, position)
        .into_iter()
        .peekable();
    let applied = actions.partition_point(|recorded| recorded.at <= position);
    let mut log = Vec::with_capacity(actions.len() + missing.len());
    for (index, recorded) in actions[..applied].iter().enumerate() {
        while let Some(step) = missing.next_if(|step| step_time(step) < recorded.at) {
            apply_step(&mut world, step, &mut log, max_events)?;
        }
        reach(&mut world, index, recorded, max_events)?;
        // When the action came after every event of its instant, steps at that instant came first.
        if world
            .next_event_time()
            .is_none_or(|time| time > recorded.at)
        {
            while let Some(step) = missing.next_if(|step| step_time(step) == recorded.at) {
                apply_step(&mut world, step, &mut log, max_events)?;
            }
        }
        // As applied: a log claiming fewer events than its time had is applied after them all.
        log.push(RecordedAction {
            after_events: world.events_processed(),
            ..recorded.clone()
        });
        world.apply(&recorded.action);
    }
    for step in missing {
        apply_step(&mut world, step, &mut log, max_events)?;
    }
    keep_future(&mut log, &actions[applied..]);
    run_within(&mut world, position, max_events, true)?;
    world.run_until(position);
    Ok(Replayed {
        world,
        actions: log,
    })
}

/// Whether scripted step `index` of `steps` is in `actions`. Steps and recorded actions with the same
/// time and action pair off in order, so two identical steps at one instant need two records.
pub fn step_is_recorded(steps: &[Step], index: usize, actions: &[RecordedAction]) -> bool {
    step_in_log(steps, index, actions)
}

/// The scenario's steps due by `position` that `actions` does not record, in file order.
fn missing_steps<'a>(
    scenario: &'a Scenario,
    actions: &[RecordedAction],
    position: SimTime,
) -> Vec<&'a Step> {
    let steps = &scenario.steps;
    (0..steps.len())
        .filter(|&index| step_time(&steps[index]) <= position)
        .filter(|&index| !step_is_recorded(steps, index, actions))
        .map(|index| &steps[index])
        .collect()
}

fn step_time(step: &Step) -> SimTime {
    SimTime::from_ms(step.at_ms)
}

/// Runs to the point `recorded` (action `index`, 0-based) was applied at, or says it does not fit.
fn reach(
    world: &mut World,
    index: usize,
    recorded: &RecordedAction,
    max_events: u64,
) -> Result<(), ReplayError> {
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
        step_within(world, max_events)?;
    }
    run_within(world, recorded.at, max_events, false)?;
    world.fast_forward_to(recorded.after_events, recorded.at);
    Ok(())
}

/// Appends the recorded future (actions past the position, not replayed) to `log`. A future action
/// claiming fewer events than the log before it (only a forged log does) is moved up to that point,
/// so the log stays in the order a session replaying it requires.
fn keep_future(log: &mut Vec<RecordedAction>, future: &[RecordedAction]) {
    let mut floor = log.last().map_or(0, |last| last.after_events);
    for recorded in future {
        floor = floor.max(recorded.after_events);
        log.push(RecordedAction {
            after_events: floor,
            ..recorded.clone()
        });
    }
}

/// Applies a scripted step the log lacks, as a run does: after every event due by its time.
fn apply_step(
    world: &mut World,
    step: &Step,
    log: &mut Vec<RecordedAction>,
    max_events: u64,
) -> Result<(), ReplayError> {
    let at = step_time(step);
    run_within(world, at, max_events, true)?;
    world.run_until(at);
    log.push(RecordedAction {
        at,
        after_events: world.events_processed(),
        action: step.action.clone(),
    });
    world.apply(&step.action);
    Ok(())
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
    use crate::tooling::runner::ScenarioRun;

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
        assert_eq!(replayed.world.trace_hash(), world.trace_hash());
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

    /// Five nodes with one scripted step: crash the leader at 1 000 ms.
    fn with_crash_step() -> Scenario {
        let mut scenario = Scenario::new("replay", 5, 3_000);
        scenario.steps.push(Step {
            at_ms: 1_000,
            action: Action::Crash {
                target: NodeTarget::Leader,
            },
        });
        scenario
    }

    /// `scenario` as a live run makes it (the runner applies its steps as the clock reaches them),
    /// with a learner's request at 1.5 s: the world at 2 s, and that request as recorded.
    fn live_run(scenario: &Scenario) -> (World, RecordedAction) {
        let mut run = ScenarioRun::new(scenario.clone()).unwrap();
        run.advance_to(SimTime::from_ms(1_500));
        let request = RecordedAction {
            at: run.world().now(),
            after_events: run.world().events_processed(),
            action: Action::Request {
                count: 2,
                target: NodeTarget::Leader,
                kind: RequestKind::Put,
            },
        };
        run.world_mut().apply(&request.action);
        run.advance_to(SimTime::from_ms(2_000));
        (run.world().clone(), request)
    }

    #[test]
    fn a_scripted_step_the_log_lacks_is_applied_where_the_run_applied_it() {
        let scenario = with_crash_step();
        let (live, request) = live_run(&scenario);
        let position = SimTime::from_ms(2_000);
        let replayed = replay_to(
            &scenario,
            std::slice::from_ref(&request),
            position,
            MAX_REPLAY_EVENTS,
        )
        .unwrap();
        assert_eq!(replayed.world.trace_hash(), live.trace_hash());
        assert_eq!(replayed.actions.len(), 2, "the step is put into the log");
        assert_eq!(replayed.actions[0].at, SimTime::from_ms(1_000));
        assert_eq!(replayed.actions[0].action, scenario.steps[0].action);
        assert_eq!(replayed.actions[1], request);
        // The completed log is a log that records the step: replaying it adds nothing.
        let again = replay_to(&scenario, &replayed.actions, position, MAX_REPLAY_EVENTS).unwrap();
        assert_eq!(again.world.trace_hash(), live.trace_hash());
        assert_eq!(again.actions, replayed.actions);
    }

    #[test]
    fn a_step_is_recorded_only_when_a_record_pairs_off_with_it() {
        let crash = Action::Crash {
            target: NodeTarget::Leader,
        };
        let step = Step {
            at_ms: 1_000,
            action: crash.clone(),
        };
        let steps = vec![step.clone(), step];
        let one = vec![crash_at(1_000, 7)];
        assert!(step_is_recorded(&steps, 0, &one));
        assert!(
            !step_is_recorded(&steps, 1, &one),
            "two identical steps need two records"
        );
        let a_microsecond_later = RecordedAction {
            at: SimTime(1_000_001),
            ..one[0].clone()
        };
        assert!(!step_is_recorded(&steps, 0, &[a_microsecond_later]));
        let restart = RecordedAction {
            action: Action::Restart {
                target: NodeTarget::Leader,
            },
            ..one[0].clone()
        };
        assert!(!step_is_recorded(&steps, 0, &[restart]));
    }

    #[test]
    fn a_log_claiming_too_few_events_comes_back_in_the_order_it_was_applied() {
        // Found by the fuzzer: a forged link whose future action claims 0 events, after a step the
        // replay put in; the app's session asserted on the out-of-order log.
        let scenario = with_crash_step();
        let forged = [crash_at(900, 1), crash_at(2_500, 0)];
        let replayed = replay_to(
            &scenario,
            &forged,
            SimTime::from_ms(2_000),
            MAX_REPLAY_EVENTS,
        )
        .unwrap();
        let counts: Vec<u64> = replayed.actions.iter().map(|r| r.after_events).collect();
        assert_eq!(counts.len(), 3, "{counts:?}");
        assert!(
            counts.windows(2).all(|pair| pair[0] <= pair[1]),
            "{counts:?}"
        );
        assert!(
            counts[0] > 1,
            "the action at 900 ms came after that instant's events"
        );
        let again = replay_to(
            &scenario,
            &replayed.actions,
            SimTime::from_ms(2_000),
            MAX_REPLAY_EVENTS,
        )
        .unwrap();
        assert_eq!(again.world.trace_hash(), replayed.world.trace_hash());
    }

    #[test]
    fn twenty_minutes_of_five_nodes_fit_the_replay_budget() {
        // The budget keeps replays near a second at most; it must still cover a long run of the
        // default cluster (about 310 000 events).
        let scenario = Scenario::new("twenty minutes", 5, 1_200_000);
        let end = SimTime::from_ms(1_200_000);
        let replayed = replay_to(&scenario, &[], end, MAX_REPLAY_EVENTS).unwrap();
        assert_eq!(replayed.world.now(), end);
    }
}
