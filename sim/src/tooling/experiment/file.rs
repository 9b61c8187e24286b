//! Reading an experiment file (TOML; every key is in `sim/EXPERIMENTS.md`).
//!
//! Reading happens in two stages because the scenario is a file of its own: [`parse_experiment`]
//! reads the experiment's keys and says which scenario file it names, and
//! [`ExperimentFile::with_scenario`] checks everything that depends on that scenario (the swept
//! values must make valid scenarios, the crash and the bound must fit in a run). The library never
//! touches the file system, so the app can hand it texts it holds; the CLI reads the files.
//!
//! As with scenarios, nothing is ignored: an unknown key or a value out of range is an error naming
//! the file and the key, one short line, so a misspelled `trails = 1000` cannot run one trial.

use super::{
    CrashPlan, Experiment, LeaderAction, Measure, SweepKey, MAX_BOUND_MS, MAX_LINES,
    MAX_TOTAL_TRIALS, MAX_TRIALS,
};
use crate::tooling::lesson::{checkpoint_names, parse_checkpoint};
use crate::tooling::scenario::fields::NodeNames;
use crate::tooling::scenario::{Scenario, MAX_DURATION_MS};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiment {
    title: Option<String>,
    scenario: String,
    measure: String,
    trials: u64,
    first_seed: Option<u64>,
    bound_ms: u64,
    crash: Option<RawCrash>,
    action: Option<RawAction>,
    writes: Option<u32>,
    checkpoint: Option<String>,
    sweep: RawSweep,
}

/// The `[action]` table: a `[crash]` table with the action named and, for one that can be undone,
/// when it is.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAction {
    kind: String,
    resume_after_ms: Option<u64>,
    first_leader_ms: Option<u64>,
    settle_ms: u64,
    spread_ms: Option<u64>,
    writes: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrash {
    first_leader_ms: Option<u64>,
    settle_ms: u64,
    spread_ms: Option<u64>,
    writes: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSweep {
    key: String,
    values: Vec<Vec<u64>>,
    heartbeat: Option<String>,
}

/// An experiment file read, its scenario not yet: `scenario` is the path it names, relative to the
/// experiment file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExperimentFile {
    pub file: String,
    pub scenario: String,
    /// `checkpoint_time`'s checkpoint as written, read once the scenario names the nodes.
    checkpoint: Option<String>,
    experiment: Experiment,
}

/// Reads experiment `text`; `file` names it in errors.
pub fn parse_experiment(text: &str, file: &str) -> Result<ExperimentFile, String> {
    let raw: RawExperiment = toml::from_str(text).map_err(|error| {
        let message = error.message().trim_end_matches('.').replace('\n', " ");
        match error.span().map(|span| line_of(text, span.start)) {
            Some(line) => {
                let written: String = text
                    .lines()
                    .nth(line - 1)
                    .unwrap_or("")
                    .chars()
                    .take(60)
                    .collect();
                format!("{file}:{line}: `{}`: {message}", written.trim())
            }
            None => format!("{file}: {message}"),
        }
    })?;
    let fail = |message: String| format!("{file}: {message}");
    let measure = Measure::from_name(&raw.measure).ok_or_else(|| {
        fail(format!(
            "measure `{}` is not one of {}",
            raw.measure,
            Measure::NAMES.join(", ")
        ))
    })?;
    let key = SweepKey::from_name(&raw.sweep.key).ok_or_else(|| {
        fail(format!(
            "[sweep] key `{}` is not one of {}",
            raw.sweep.key,
            SweepKey::NAMES.join(", ")
        ))
    })?;
    check_tables(measure, &raw).map_err(fail)?;
    let crash = leader_plan(&raw).map_err(fail)?;
    let experiment = Experiment {
        title: raw
            .title
            .unwrap_or_else(|| "Untitled experiment".to_string()),
        scenario: Scenario::new("", 1, 1),
        measure,
        crash,
        bound_ms: raw.bound_ms,
        trials: raw.trials,
        first_seed: raw.first_seed.unwrap_or(1),
        key,
        values: sweep_values(key, &raw.sweep.values).map_err(fail)?,
        heartbeat_half_min: heartbeat_rule(key, raw.sweep.heartbeat.as_deref()).map_err(fail)?,
        writes: match measure {
            Measure::MessagesPerCommit => raw.writes.unwrap_or(DEFAULT_WRITES),
            _ => 0,
        },
        checkpoint: None,
    };
    check_counts(&experiment).map_err(fail)?;
    Ok(ExperimentFile {
        file: file.to_string(),
        scenario: raw.scenario,
        checkpoint: raw.checkpoint,
        experiment,
    })
}

/// Writes sent at once by a `messages_per_commit` trial when the file does not say.
const DEFAULT_WRITES: u32 = 10;

/// Which tables and keys the measure takes: each belongs to one measure, and is refused elsewhere.
fn check_tables(measure: Measure, raw: &RawExperiment) -> Result<(), String> {
    let wanted = |table: &str| format!("measure \"{}\" needs {table}", measure.name());
    let refused = |table: &str| format!("measure \"{}\" takes no {table}", measure.name());
    match (measure, raw.crash.is_some(), raw.action.is_some()) {
        (Measure::ElectionAfterCrash, false, _) => {
            return Err(wanted("a [crash] table (settle_ms)"))
        }
        (Measure::ElectionAfterAction, _, false) => {
            return Err(wanted("an [action] table (kind, settle_ms)"))
        }
        (Measure::ElectionAfterAction, true, _) => {
            return Err(refused(
                "[crash] table (its [action] says kind = \"crash\")",
            ))
        }
        (Measure::ElectionAfterCrash, _, true) => {
            return Err(refused(
                "[action] table (use measure = \"election_after_action\")",
            ))
        }
        (_, true, _) if !measure.strikes_leader() => return Err(refused("[crash] table")),
        (_, _, true) if !measure.strikes_leader() => return Err(refused("[action] table")),
        _ => {}
    }
    match (measure, raw.writes) {
        (Measure::MessagesPerCommit, Some(writes)) if !(1..=MAX_WRITES).contains(&writes) => {
            return Err(format!("writes = {writes}: 1 to {MAX_WRITES}"))
        }
        (Measure::MessagesPerCommit, _) | (_, None) => {}
        (_, Some(_)) => {
            return Err(refused(
                "writes key (a struck leader's writes go in its table)",
            ))
        }
    }
    match (measure, raw.checkpoint.is_some()) {
        (Measure::CheckpointTime, false) => Err(wanted("checkpoint = \"…\" (a lesson checkpoint)")),
        (Measure::CheckpointTime, true) | (_, false) => Ok(()),
        (_, true) => Err(refused("checkpoint key")),
    }
}

/// The `[crash]` table, or the `[action]` table with its kind read.
fn leader_plan(raw: &RawExperiment) -> Result<Option<CrashPlan>, String> {
    if let Some(crash) = &raw.crash {
        return Ok(Some(CrashPlan {
            action: LeaderAction::Crash,
            resume_after_ms: None,
            first_leader_ms: crash.first_leader_ms,
            settle_ms: crash.settle_ms,
            spread_ms: crash.spread_ms,
            writes: crash.writes.unwrap_or(0),
        }));
    }
    let Some(table) = &raw.action else {
        return Ok(None);
    };
    let action = LeaderAction::from_name(&table.kind).ok_or_else(|| {
        format!(
            "[action] kind `{}` is not one of {}",
            table.kind,
            LeaderAction::NAMES.join(", ")
        )
    })?;
    match (action, table.resume_after_ms) {
        (LeaderAction::Crash, Some(_)) => {
            return Err("[action] resume_after_ms: a crash is not undone (leave it out)".into())
        }
        (_, Some(resume)) if !(1..=MAX_BOUND_MS).contains(&resume) => {
            return Err(format!(
                "[action] resume_after_ms = {resume}: 1 to {MAX_BOUND_MS}"
            ))
        }
        _ => {}
    }
    Ok(Some(CrashPlan {
        action,
        resume_after_ms: table.resume_after_ms,
        first_leader_ms: table.first_leader_ms,
        settle_ms: table.settle_ms,
        spread_ms: table.spread_ms,
        writes: table.writes.unwrap_or(0),
    }))
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Each value as `(min, max)`: a range key takes `[min, max]`, `heartbeat_ms` takes `[n]`.
fn sweep_values(key: SweepKey, values: &[Vec<u64>]) -> Result<Vec<(u64, u64)>, String> {
    if values.is_empty() || values.len() > MAX_LINES {
        return Err(format!(
            "[sweep] values: {} given, 1 to {MAX_LINES} expected",
            values.len()
        ));
    }
    values
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let place = format!("[sweep] value {}", index + 1);
            match (key.is_range(), value.as_slice()) {
                (true, [min, max]) if min <= max => Ok((*min, *max)),
                (true, [min, max]) => Err(format!("{place}: [{min}, {max}] has min above max")),
                (false, [one]) => Ok((*one, *one)),
                (true, _) => Err(format!("{place}: two numbers [min, max] expected")),
                (false, _) => Err(format!("{place}: one number [n] expected")),
            }
        })
        .collect()
}

fn heartbeat_rule(key: SweepKey, rule: Option<&str>) -> Result<bool, String> {
    match rule {
        None => Ok(false),
        Some("half_min") if key == SweepKey::ElectionTimeout => Ok(true),
        Some("half_min") => Err(format!(
            "[sweep] heartbeat = \"half_min\" follows election_timeout_ms, not {}",
            key.name()
        )),
        Some(other) => Err(format!(
            "[sweep] heartbeat `{other}` is not \"half_min\" (the only rule)"
        )),
    }
}

fn check_counts(experiment: &Experiment) -> Result<(), String> {
    if experiment.trials == 0 || experiment.trials > MAX_TRIALS {
        return Err(format!(
            "trials = {}: 1 to {MAX_TRIALS} per line",
            experiment.trials
        ));
    }
    let total = experiment.trials * experiment.values.len() as u64;
    if total > MAX_TOTAL_TRIALS {
        return Err(format!(
            "{total} trials in all ({} lines of {}): at most {MAX_TOTAL_TRIALS}",
            experiment.values.len(),
            experiment.trials
        ));
    }
    if experiment.bound_ms == 0 || experiment.bound_ms > MAX_BOUND_MS {
        return Err(format!(
            "bound_ms = {}: 1 to {MAX_BOUND_MS}",
            experiment.bound_ms
        ));
    }
    let table = match experiment.crash.map(|plan| plan.action) {
        Some(LeaderAction::Crash) if experiment.measure == Measure::ElectionAfterCrash => "[crash]",
        _ => "[action]",
    };
    match experiment.crash {
        Some(CrashPlan {
            spread_ms: Some(0), ..
        }) => Err(format!(
            "{table} spread_ms = 0: at least 1 (or leave it out: a heartbeat)"
        )),
        Some(plan) if plan.writes > MAX_WRITES => Err(format!(
            "{table} writes = {}: at most {MAX_WRITES}",
            plan.writes
        )),
        Some(plan) if !(1..=MAX_BOUND_MS).contains(&plan.first_leader_ms.unwrap_or(1)) => {
            Err(format!(
                "{table} first_leader_ms = {}: 1 to {MAX_BOUND_MS}",
                plan.first_leader_ms.unwrap_or(0)
            ))
        }
        Some(plan) if plan.settle_ms > MAX_BOUND_MS => Err(format!(
            "{table} settle_ms = {}: at most {MAX_BOUND_MS}",
            plan.settle_ms
        )),
        _ => Ok(()),
    }
}

/// Most client writes sent to the leader as the window opens (or by a `messages_per_commit` trial).
const MAX_WRITES: u32 = 1_000;

impl ExperimentFile {
    /// The experiment with `scenario` (the file this one names) as its base, every line checked: the
    /// scenario with each value written in must be valid, its world must elect a leader, and the
    /// crash plus the bound must fit in a run.
    pub fn with_scenario(self, scenario: Scenario) -> Result<Experiment, String> {
        let fail = |message: String| format!("{}: {message}", self.file);
        let mut experiment = self.experiment;
        if let Some(text) = &self.checkpoint {
            let names = NodeNames::of_scenario(&scenario);
            let checkpoint = parse_checkpoint(text, &names).map_err(|error| {
                let listed = match error.message.starts_with("unknown checkpoint") {
                    true => {
                        let names: Vec<&str> = checkpoint_names().collect();
                        format!("; the checkpoints are {}", names.join(", "))
                    }
                    false => String::new(),
                };
                fail(format!(
                    "checkpoint = \"{text}\": {}{listed}",
                    error.message
                ))
            })?;
            experiment.checkpoint = Some((text.clone(), checkpoint));
        }
        let needs_leader = experiment.measure != Measure::CheckpointTime;
        if needs_leader && !scenario.protocol.entry().capabilities.elects_leader {
            return Err(fail(format!(
                "scenario `{}`: its world ({}) elects no leader to measure",
                self.scenario,
                scenario.protocol_name()
            )));
        }
        experiment.scenario = scenario;
        let longest_ms = (0..experiment.values.len())
            .map(|line| super::trial::longest_trial_ms(&experiment, line))
            .max()
            .unwrap_or(0);
        if longest_ms > MAX_DURATION_MS {
            return Err(fail(format!(
                "a trial may run {longest_ms} ms (first_leader_ms, the crash window, bound_ms): \
                 more than the longest run, {MAX_DURATION_MS} ms"
            )));
        }
        for line in 0..experiment.values.len() {
            let trial = super::trial::line_scenario(&experiment, line, 0);
            trial.validate().map_err(|invalid| {
                fail(format!(
                    "with {} = {}: {invalid}",
                    experiment.key.name(),
                    experiment.value_text(line)
                ))
            })?;
        }
        Ok(experiment)
    }
}
