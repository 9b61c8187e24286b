//! One trial: the experiment's scenario for one line and one seed, run until the measured leader
//! appears or the bound is reached.
//!
//! A trial is a plain scenario run on the scenario runner: the line's value written into `[timing]`
//! and the trial's seed ([`line_scenario`]). For a measurement after a crash it runs until the first
//! leader, then gains two steps (`runner::ScenarioRun::set_scenario`): the writes as the crash window
//! opens and the crash of the leader inside it. [`trial_scenario`] gives that finished scenario, which
//! replays the trial exactly as a file. Only the waits for a leader are read event by event (the
//! runner's steps still fall due by its own rule), so a measurement has the engine's microsecond
//! resolution and a trial stops as soon as it has its answer.

use super::{CrashPlan, Experiment, Measure, SweepKey};
use crate::base::rng::Rng;
use crate::base::time::SimTime;
use crate::contract::action::{Action, NodeTarget, RequestKind};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{Scenario, Step};
use serde::Serialize;

/// Mixed into a trial's seed for the draw of its crash instant, so that draw is not the world's.
const CRASH_DRAW_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// How a trial ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A leader appeared within the bound; `measured_us` says when.
    Elected,
    /// No leader within the bound (the trial is censored at it).
    NoLeaderWithinBound,
    /// No first leader within the bound, or none at the crash instant: nothing to crash (or, for
    /// `commit_latency`, no leader to write to).
    NoLeaderToCrash,
    /// `leaderless_time`: measured over the whole bound.
    Measured,
    /// `commit_latency`: the write was acknowledged within the bound; `measured_us` says when.
    Acknowledged,
    /// `commit_latency`: the write was refused, timed out or still waited at the bound (censored).
    NotAcknowledged,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Elected => "elected",
            Outcome::NoLeaderWithinBound => "no_leader_within_bound",
            Outcome::NoLeaderToCrash => "no_leader_to_crash",
            Outcome::Measured => "measured",
            Outcome::Acknowledged => "acknowledged",
            Outcome::NotAcknowledged => "not_acknowledged",
        }
    }
}

/// One trial's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrialRow {
    /// Which line (swept value), counted from 0 in file order.
    pub line: usize,
    pub seed: u64,
    /// When the measured stretch began: the crash instant, or 0 for a first election.
    pub from_us: u64,
    pub outcome: Outcome,
    /// From `from_us` to the leader, where one appeared within the bound.
    pub measured_us: Option<u64>,
}

/// The line's `[timing]` heartbeat (half the minimum election timeout under `heartbeat = "half_min"`).
fn line_heartbeat_ms(experiment: &Experiment, line: usize) -> u64 {
    let (min, _) = experiment.values[line];
    if experiment.heartbeat_half_min {
        (min / 2).max(1)
    } else if experiment.key == SweepKey::Heartbeat {
        min
    } else {
        experiment.scenario.timing.heartbeat_ms
    }
}

fn spread_ms(experiment: &Experiment, plan: CrashPlan, line: usize) -> u64 {
    plan.spread_ms
        .unwrap_or_else(|| line_heartbeat_ms(experiment, line))
        .max(1)
}

/// The longest a trial of line `line` may run: to a first leader, through the window, to the next.
pub(super) fn longest_trial_ms(experiment: &Experiment, line: usize) -> u64 {
    match experiment.crash {
        Some(plan) => {
            let window_ms = plan.settle_ms + spread_ms(experiment, plan, line);
            first_leader_ms(experiment) + window_ms + experiment.bound_ms + 1
        }
        None if experiment.measure == Measure::CommitLatency => {
            first_leader_ms(experiment) + super::COMMIT_SETTLE_MS + experiment.bound_ms + 1
        }
        None => experiment.bound_ms,
    }
}

/// How long a trial waits for its first leader.
pub(super) fn first_leader_ms(experiment: &Experiment) -> u64 {
    experiment
        .crash
        .and_then(|plan| plan.first_leader_ms)
        .unwrap_or(experiment.bound_ms)
}

/// Line `line`'s scenario for trial `trial`, before any crash: the base with the value and the seed.
pub fn line_scenario(experiment: &Experiment, line: usize, trial: u64) -> Scenario {
    let mut scenario = experiment.scenario.clone();
    scenario.seed = experiment.first_seed.wrapping_add(trial);
    scenario.title = format!(
        "{} · {} = {} · trial {}",
        experiment.title,
        experiment.key.name(),
        experiment.value_text(line),
        trial + 1
    );
    let value = experiment.values[line];
    let timing = &mut scenario.timing;
    match experiment.key {
        SweepKey::ElectionTimeout => timing.election_timeout_ms = value,
        SweepKey::NetworkDelay => timing.network_delay_ms = value,
        SweepKey::Persist => timing.persist_ms = value,
        SweepKey::Heartbeat => timing.heartbeat_ms = value.0,
    }
    timing.heartbeat_ms = line_heartbeat_ms(experiment, line);
    scenario.duration_ms = longest_trial_ms(experiment, line);
    scenario
}

/// The whole scenario of a trial, as it ran: with the writes and the crash where the first election
/// put them, and its length cut to the crash plus the bound. (It runs the trial up to its first
/// leader to know; with no leader to crash, the scenario without them.)
pub fn trial_scenario(
    experiment: &Experiment,
    line: usize,
    trial: u64,
) -> Result<Scenario, String> {
    let mut run = ScenarioRun::new(line_scenario(experiment, line, trial))?;
    if experiment.measure == Measure::CommitLatency {
        let first_bound = SimTime::from_ms(first_leader_ms(experiment));
        return Ok(match wait_for_leader(&mut run, first_bound) {
            Some(leader_at) => {
                super::other_measures::with_write(experiment, run.scenario(), leader_at).0
            }
            None => run.scenario().clone(),
        });
    }
    let Some(plan) = experiment.crash else {
        return Ok(run.scenario().clone());
    };
    let first_bound = SimTime::from_ms(first_leader_ms(experiment));
    let Some(leader_at) = wait_for_leader(&mut run, first_bound) else {
        return Ok(run.scenario().clone());
    };
    Ok(with_crash(experiment, plan, line, run.scenario(), leader_at).0)
}

/// `scenario` with the writes and the crash added after a first leader at `leader_at`, and the crash
/// instant (ms).
fn with_crash(
    experiment: &Experiment,
    plan: CrashPlan,
    line: usize,
    scenario: &Scenario,
    leader_at: SimTime,
) -> (Scenario, u64) {
    let window_ms = leader_at.as_micros().div_ceil(1_000) + plan.settle_ms;
    let mut draw = Rng::new(scenario.seed ^ CRASH_DRAW_SALT);
    let crash_ms = window_ms + draw.range_inclusive(0, spread_ms(experiment, plan, line) - 1);
    let mut scenario = scenario.clone();
    let mut add = |at_ms: u64, action: Action| {
        let after = scenario.steps.partition_point(|step| step.at_ms <= at_ms);
        scenario.steps.insert(after, Step { at_ms, action });
    };
    if plan.writes > 0 {
        let write = Action::Request {
            count: plan.writes,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        };
        add(window_ms, write);
    }
    let crash = Action::Crash {
        target: NodeTarget::Leader,
    };
    add(crash_ms, crash);
    scenario.duration_ms = crash_ms + experiment.bound_ms;
    (scenario, crash_ms)
}

/// Runs trial `trial` of line `line`.
pub fn run_trial(experiment: &Experiment, line: usize, trial: u64) -> Result<TrialRow, String> {
    let scenario = line_scenario(experiment, line, trial);
    let mut row = TrialRow {
        line,
        seed: scenario.seed,
        from_us: 0,
        outcome: Outcome::NoLeaderToCrash,
        measured_us: None,
    };
    let mut run = ScenarioRun::new(scenario)?;
    if experiment.measure == Measure::LeaderlessTime {
        let bound = SimTime::from_ms(experiment.bound_ms);
        (row.outcome, row.measured_us) = super::other_measures::leaderless(&mut run, bound);
        return Ok(row);
    }
    let first_bound = SimTime::from_ms(first_leader_ms(experiment));
    let first_leader = wait_for_leader(&mut run, first_bound);
    if experiment.measure == Measure::CommitLatency {
        if let Some(leader_at) = first_leader {
            let measured = super::other_measures::commit_latency(experiment, &mut run, leader_at);
            (row.from_us, row.outcome, row.measured_us) = measured;
        }
        return Ok(row);
    }
    let (Measure::ElectionAfterCrash, Some(plan)) = (experiment.measure, experiment.crash) else {
        row.outcome = outcome_of(first_leader);
        row.measured_us = first_leader.map(SimTime::as_micros);
        return Ok(row);
    };
    let Some(leader_at) = first_leader else {
        return Ok(row);
    };
    let (scenario, crash_ms) = with_crash(experiment, plan, line, run.scenario(), leader_at);
    let crash_step = scenario
        .steps
        .iter()
        .rposition(|step| step.at_ms == crash_ms && matches!(step.action, Action::Crash { .. }))
        .expect("the crash was just added");
    run.set_scenario(scenario);
    let crash_at = SimTime::from_ms(crash_ms);
    run.advance_to(crash_at);
    if run
        .skipped_steps()
        .iter()
        .any(|skipped| skipped.step == crash_step + 1)
    {
        return Ok(row);
    }
    row.from_us = crash_at.as_micros();
    let end = run.end_time();
    let next_leader = wait_for_leader(&mut run, end);
    row.outcome = outcome_of(next_leader);
    row.measured_us = next_leader.map(|at| at.as_micros() - row.from_us);
    Ok(row)
}

fn outcome_of(leader_at: Option<SimTime>) -> Outcome {
    match leader_at {
        Some(_) => Outcome::Elected,
        None => Outcome::NoLeaderWithinBound,
    }
}

/// Runs on, event by event (scripted steps as they fall due), until an up node leads (the instant)
/// or `until` passes (`None`).
fn wait_for_leader(run: &mut ScenarioRun, until: SimTime) -> Option<SimTime> {
    loop {
        if run.world().current_leader().is_some() {
            return Some(run.world().now());
        }
        if !step_once(run, until) {
            return None;
        }
    }
}

/// Moves the run on by one thing: the next scripted step or the next event, whichever is first, if
/// it falls at or before `until`. Returns whether anything was left to do by then.
pub(super) fn step_once(run: &mut ScenarioRun, until: SimTime) -> bool {
    let next_event = run.world().next_event_time().filter(|at| *at <= until);
    let next_step = run
        .next_step()
        .map(|(_, step)| SimTime::from_ms(step.at_ms))
        .filter(|at| *at <= until);
    match (next_step, next_event) {
        (Some(step_at), event) if event.is_none_or(|event_at| step_at <= event_at) => {
            run.advance_to(step_at);
            true
        }
        (_, Some(_)) => {
            run.world_mut().step();
            true
        }
        (_, None) => false,
    }
}
