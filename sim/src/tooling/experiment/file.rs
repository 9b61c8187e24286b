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
    CrashPlan, Experiment, Measure, SweepKey, MAX_BOUND_MS, MAX_LINES, MAX_TOTAL_TRIALS, MAX_TRIALS,
};
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
    sweep: RawSweep,
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
    let experiment = Experiment {
        title: raw
            .title
            .unwrap_or_else(|| "Untitled experiment".to_string()),
        scenario: Scenario::new("", 1, 1),
        measure,
        crash: raw.crash.map(|crash| CrashPlan {
            first_leader_ms: crash.first_leader_ms,
            settle_ms: crash.settle_ms,
            spread_ms: crash.spread_ms,
            writes: crash.writes.unwrap_or(0),
        }),
        bound_ms: raw.bound_ms,
        trials: raw.trials,
        first_seed: raw.first_seed.unwrap_or(1),
        key,
        values: sweep_values(key, &raw.sweep.values).map_err(fail)?,
        heartbeat_half_min: heartbeat_rule(key, raw.sweep.heartbeat.as_deref()).map_err(fail)?,
    };
    check_counts(&experiment).map_err(fail)?;
    Ok(ExperimentFile {
        file: file.to_string(),
        scenario: raw.scenario,
        experiment,
    })
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
    match (experiment.measure, experiment.crash) {
        (Measure::ElectionAfterCrash, None) => {
            Err("measure \"election_after_crash\" needs a [crash] table (settle_ms)".to_string())
        }
        (measure, Some(_)) if measure != Measure::ElectionAfterCrash => Err(format!(
            "measure \"{}\" takes no [crash] table",
            measure.name()
        )),
        (
            _,
            Some(CrashPlan {
                spread_ms: Some(0), ..
            }),
        ) => Err("[crash] spread_ms = 0: at least 1 (or leave it out: a heartbeat)".to_string()),
        (_, Some(plan)) if plan.writes > MAX_WRITES => Err(format!(
            "[crash] writes = {}: at most {MAX_WRITES}",
            plan.writes
        )),
        (_, Some(plan)) if !(1..=MAX_BOUND_MS).contains(&plan.first_leader_ms.unwrap_or(1)) => {
            Err(format!(
                "[crash] first_leader_ms = {}: 1 to {MAX_BOUND_MS}",
                plan.first_leader_ms.unwrap_or(0)
            ))
        }
        (_, Some(plan)) if plan.settle_ms > MAX_BOUND_MS => Err(format!(
            "[crash] settle_ms = {}: at most {MAX_BOUND_MS}",
            plan.settle_ms
        )),
        _ => Ok(()),
    }
}

/// Most client writes sent to the leader as the crash window opens.
const MAX_WRITES: u32 = 1_000;

impl ExperimentFile {
    /// The experiment with `scenario` (the file this one names) as its base, every line checked: the
    /// scenario with each value written in must be valid, its world must elect a leader, and the
    /// crash plus the bound must fit in a run.
    pub fn with_scenario(self, scenario: Scenario) -> Result<Experiment, String> {
        let fail = |message: String| format!("{}: {message}", self.file);
        let mut experiment = self.experiment;
        if !scenario.protocol.entry().capabilities.elects_leader {
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
