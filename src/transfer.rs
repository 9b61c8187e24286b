//! Scenario files and traces in and out of the app: pure helpers behind the export/import panel.
//! Trace files (JSON lines that replay a run exactly) are in [`trace`].
//!
//! Export writes the scenario format the headless runner reads, with the learner's own actions turned
//! into `[[step]]` entries. That format counts time in whole milliseconds, so each action lands on the
//! millisecond it happened in (rounded down) and runs after every event due by then, not between two
//! events as it may have: a file re-runs the same story, often the same trace, but only a share link or
//! a trace file is exact.

use crate::share::SharedRun;
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::scenario::{
    parse_scenario, to_toml_string, validate_action, Scenario, ScenarioError, Step,
    MAX_DURATION_MS, MAX_STEPS,
};
use quorumlab_sim::time::SimTime;
use std::fmt;

pub mod trace;

/// Largest scenario file accepted for import.
pub const MAX_IMPORT_BYTES: usize = 1_000_000;

/// A scenario ready to write out, and what happened to the learner's actions on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioExport {
    pub scenario: Scenario,
    /// Recorded actions written as steps (scripted steps that already ran are not counted twice).
    pub user_steps: usize,
    /// Recorded actions no step can express (past one simulated hour, or beyond the step limit).
    pub left_out: usize,
}

/// The scenario of `run` with its recorded actions merged in as steps, in time order.
pub fn scenario_with_recorded_steps(run: &SharedRun) -> ScenarioExport {
    let mut scenario = run.scenario.clone();
    let user_actions = unscripted_actions(&scenario.steps, &run.actions);
    let mut steps = scenario.steps.clone();
    let (mut user_steps, mut left_out) = (0, 0);
    for recorded in user_actions {
        let step = Step {
            at_ms: recorded.at.as_ms(),
            action: recorded.action.clone(),
        };
        let fits = step.at_ms <= MAX_DURATION_MS
            && steps.len() < MAX_STEPS
            && validate_action("", &step.action, scenario.actor_count()).is_ok();
        if fits {
            steps.push(step);
            user_steps += 1;
        } else {
            left_out += 1;
        }
    }
    // Stable: at the same millisecond a scripted step keeps its place before later user actions.
    steps.sort_by_key(|step| step.at_ms);
    let last_ms = steps.last().map_or(0, |step| step.at_ms);
    scenario.duration_ms = scenario.duration_ms.max(last_ms);
    scenario.steps = steps;
    ScenarioExport {
        scenario,
        user_steps,
        left_out,
    }
}

/// Recorded actions that are not a scripted step being applied (each step matches one record at most).
fn unscripted_actions<'a>(
    steps: &[Step],
    actions: &'a [RecordedAction],
) -> Vec<&'a RecordedAction> {
    let mut step_used = vec![false; steps.len()];
    actions
        .iter()
        .filter(|recorded| {
            let scripted = steps.iter().enumerate().position(|(index, step)| {
                !step_used[index]
                    && SimTime::from_ms(step.at_ms) == recorded.at
                    && step.action == recorded.action
            });
            match scripted {
                Some(index) => {
                    step_used[index] = true;
                    false
                }
                None => true,
            }
        })
        .collect()
}

/// The file text: a header that says what precision it has, then the scenario.
pub fn scenario_file_text(export: &ScenarioExport) -> String {
    format!(
        "# Exported from Quorum Lab. Your actions are [[step]] entries at whole milliseconds: this file\n\
         # re-runs the scenario at that precision; a share link replays the run exactly.\n\n{}",
        to_toml_string(&export.scenario)
    )
}

/// A file name from a title: lower-case words joined by dashes, e.g. `five-node-raft-cluster`.
pub fn file_stem(title: &str) -> String {
    let words: Vec<String> = title
        .split(|character: char| !character.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    match words.join("-") {
        stem if stem.is_empty() => "quorum-lab".to_string(),
        stem => stem.chars().take(60).collect(),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    TooLarge { bytes: usize, max: usize },
    Invalid(ScenarioError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::TooLarge { bytes, max } => write!(
                formatter,
                "the file is {bytes} bytes; scenario files may be at most {max} bytes"
            ),
            ImportError::Invalid(error) => write!(formatter, "{error}"),
        }
    }
}

/// Parses and validates a scenario file; errors name the line, column, step and key.
pub fn import_scenario(text: &str, file_name: &str) -> Result<Scenario, ImportError> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            max: MAX_IMPORT_BYTES,
        });
    }
    parse_scenario(text, file_name).map_err(ImportError::Invalid)
}

#[cfg(test)]
mod tests;
