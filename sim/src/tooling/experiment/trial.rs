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

use super::measure::Unit;
use super::{CrashPlan, Experiment, Measure, SweepKey};
use crate::base::time::SimTime;
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::Scenario;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// How a trial ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A leader appeared within the bound; `measured` says when.
    Elected,
    /// No leader within the bound (the trial is censored at it).
    NoLeaderWithinBound,
    /// No first leader within the bound, or none at the crash instant: nothing to crash (or, for
    /// `commit_latency`, no leader to write to).
    NoLeaderToCrash,
    /// `leaderless_time`: measured over the whole bound; `messages_per_commit`: every write was
    /// answered within the bound and at least one committed; `checkpoint_time`: the checkpoint held.
    Measured,
    /// `commit_latency`: the write was acknowledged within the bound; `measured` says when.
    Acknowledged,
    /// `commit_latency`: the write was refused, timed out or still waited at the bound;
    /// `messages_per_commit`: a write still waited at the bound, or none committed;
    /// `checkpoint_time`: the checkpoint did not hold within the bound (censored).
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrialRow {
    /// Which line (swept value), counted from 0 in file order.
    pub line: usize,
    pub seed: u64,
    /// When the measured stretch began: the action's instant, the writes', or 0 from the start.
    pub from_us: u64,
    pub outcome: Outcome,
    /// What was measured, times 1,000 ([`Unit`]): for a time, microseconds from `from_us` (to the
    /// leader, the acknowledgement, the checkpoint); for a count, thousandths. `None`: nothing.
    pub measured: Option<u64>,
    pub unit: Unit,
}

/// Written as `measured_us` for a time (as before counts existed) and `measured_thousandths` for a
/// count, so a row says its unit.
impl Serialize for TrialRow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("TrialRow", 5)?;
        out.serialize_field("line", &self.line)?;
        out.serialize_field("seed", &self.seed)?;
        out.serialize_field("from_us", &self.from_us)?;
        out.serialize_field("outcome", &self.outcome)?;
        let name = match self.unit {
            Unit::Time => "measured_us",
            Unit::Count => "measured_thousandths",
        };
        out.serialize_field(name, &self.measured)?;
        out.end()
    }
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

pub(super) fn spread_ms(experiment: &Experiment, plan: CrashPlan, line: usize) -> u64 {
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
        None if matches!(
            experiment.measure,
            Measure::CommitLatency | Measure::MessagesPerCommit
        ) =>
        {
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

/// The whole scenario of a trial, as it ran: with the writes and the action (or the measured
/// writes) where the first election put them, and its length cut to them plus the bound. (It runs
/// the trial up to its first leader to know; with no leader to act on, the scenario without them.)
pub fn trial_scenario(
    experiment: &Experiment,
    line: usize,
    trial: u64,
) -> Result<Scenario, String> {
    let mut run = ScenarioRun::new(line_scenario(experiment, line, trial))?;
    let waits_for_leader = experiment.crash.is_some()
        || matches!(
            experiment.measure,
            Measure::CommitLatency | Measure::MessagesPerCommit
        );
    if !waits_for_leader {
        return Ok(run.scenario().clone());
    }
    let first_bound = SimTime::from_ms(first_leader_ms(experiment));
    let Some(leader_at) = wait_for_leader(&mut run, first_bound) else {
        return Ok(run.scenario().clone());
    };
    let scenario = run.scenario();
    Ok(match experiment.crash {
        Some(plan) => {
            super::leader_action::with_action(experiment, plan, line, scenario, leader_at).0
        }
        None => super::other_measures::with_writes(experiment, scenario, leader_at).0,
    })
}

/// Runs trial `trial` of line `line`.
pub fn run_trial(experiment: &Experiment, line: usize, trial: u64) -> Result<TrialRow, String> {
    let scenario = line_scenario(experiment, line, trial);
    let mut row = TrialRow {
        line,
        seed: scenario.seed,
        from_us: 0,
        outcome: Outcome::NoLeaderToCrash,
        measured: None,
        unit: experiment.measure.unit(),
    };
    let mut run = ScenarioRun::new(scenario)?;
    let bound = SimTime::from_ms(experiment.bound_ms);
    match (experiment.measure, &experiment.checkpoint) {
        (Measure::LeaderlessTime, _) => {
            (row.outcome, row.measured) = super::other_measures::leaderless(&mut run, bound);
            return Ok(row);
        }
        (Measure::CheckpointTime, Some((_, checkpoint))) => {
            let ticked = super::checkpoint_measure::time_to_tick(&mut run, checkpoint, bound);
            (row.outcome, row.measured) = ticked;
            return Ok(row);
        }
        _ => {}
    }
    let first_bound = SimTime::from_ms(first_leader_ms(experiment));
    let first_leader = wait_for_leader(&mut run, first_bound);
    let measure = experiment.measure;
    if let (Some(leader_at), Measure::CommitLatency | Measure::MessagesPerCommit) =
        (first_leader, measure)
    {
        let measured = match measure {
            Measure::CommitLatency => {
                super::other_measures::commit_latency(experiment, &mut run, leader_at)
            }
            _ => super::other_measures::messages_per_commit(experiment, &mut run, leader_at),
        };
        (row.from_us, row.outcome, row.measured) = measured;
        return Ok(row);
    }
    let Some(plan) = experiment.crash.filter(|_| measure.strikes_leader()) else {
        if measure == Measure::FirstElection {
            row.outcome = outcome_of(first_leader);
            row.measured = first_leader.map(SimTime::as_micros);
        }
        return Ok(row);
    };
    let Some(leader_at) = first_leader else {
        return Ok(row);
    };
    if let Some((from_us, next_leader)) =
        super::leader_action::strike(experiment, plan, line, &mut run, leader_at)
    {
        row.from_us = from_us;
        row.outcome = outcome_of(next_leader);
        row.measured = next_leader.map(|at| at.as_micros() - from_us);
    }
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
pub(super) fn wait_for_leader(run: &mut ScenarioRun, until: SimTime) -> Option<SimTime> {
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
