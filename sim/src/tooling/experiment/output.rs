//! What an experiment gives back: every trial's row and each line's summary, as JSON (serde) and as
//! CSV (one row per trial, for a spreadsheet or a plotting script).

use super::measure::Unit;
use super::summary::Summary;
use super::trial::TrialRow;
use super::Experiment;
use serde::Serialize;
use std::fmt::Write;

/// One line of the experiment: its value and its numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineResult {
    /// The swept value as written: `150-155` or `75`.
    pub value: String,
    /// The heartbeat interval the line ran with, ms.
    pub heartbeat_ms: u64,
    pub summary: Summary,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExperimentResult {
    pub title: String,
    pub measure: &'static str,
    /// Written only for a count (a result without it is a time, as every result was before counts).
    #[serde(skip_serializing_if = "Unit::is_time")]
    pub unit: Unit,
    /// `election_after_action`: what was done to the leader (`crash`, `pause`, `isolate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<&'static str>,
    /// `checkpoint_time`: the checkpoint as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
    pub key: &'static str,
    pub trials_per_line: u64,
    pub first_seed: u64,
    pub bound_ms: u64,
    pub lines: Vec<LineResult>,
    pub rows: Vec<TrialRow>,
}

impl ExperimentResult {
    pub fn new(experiment: &Experiment, rows: Vec<TrialRow>) -> ExperimentResult {
        let lines = (0..experiment.values.len())
            .map(|line| {
                let of_line: Vec<&TrialRow> = rows.iter().filter(|row| row.line == line).collect();
                let trial = super::trial::line_scenario(experiment, line, 0);
                LineResult {
                    value: experiment.value_text(line),
                    heartbeat_ms: trial.timing.heartbeat_ms,
                    summary: Summary::of(experiment.measure.unit(), &of_line),
                }
            })
            .collect();
        ExperimentResult {
            title: experiment.title.clone(),
            measure: experiment.measure.name(),
            unit: experiment.measure.unit(),
            action: (experiment.measure == super::Measure::ElectionAfterAction)
                .then(|| experiment.crash.map(|plan| plan.action.name()))
                .flatten(),
            checkpoint: experiment.checkpoint.as_ref().map(|(text, _)| text.clone()),
            key: experiment.key.name(),
            trials_per_line: experiment.trials,
            first_seed: experiment.first_seed,
            bound_ms: experiment.bound_ms,
            lines,
            rows,
        }
    }
}

/// One row per trial: `value,seed,from_ms,outcome,measured_ms` for a time, `measured_count` in the
/// last column for a count (empty when nothing was measured).
pub fn to_csv(result: &ExperimentResult) -> String {
    let column = result.unit.csv_column();
    let mut out = format!("{},seed,from_ms,outcome,{column}\n", result.key);
    for row in &result.rows {
        let measured = row
            .measured
            .map(|value| format!("{}.{:03}", value / 1_000, value % 1_000))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{},{}.{:03},{},{measured}",
            result.lines[row.line].value,
            row.seed,
            row.from_us / 1_000,
            row.from_us % 1_000,
            row.outcome.name()
        );
    }
    out
}
