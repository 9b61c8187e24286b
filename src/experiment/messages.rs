//! What the page and the experiment worker say to each other: one JSON text per message, each way.
//!
//! Why JSON text rather than structured clones of JS objects: both ends are Rust, serde already
//! describes every type, and a string crosses `postMessage` with no glue code that could drift
//! from the types. The messages are small except the finished result, which holds one row per trial
//! (a few dozen bytes each, at most [`MAX_BROWSER_TRIALS`] of them).

use serde::{Deserialize, Serialize};

/// Most trials one experiment may run in the page's worker, over all its lines. The CLI allows more
/// (`experiment::MAX_TOTAL_TRIALS`); in a tab the rows are drawn and kept while the page lives.
pub const MAX_BROWSER_TRIALS: u64 = 10_000;

/// What the page asks of the worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToWorker {
    /// Run an experiment: its file's text and the text of the scenario that file names.
    Run {
        experiment_toml: String,
        scenario_toml: String,
    },
    /// The whole scenario of one trial of the last experiment run, to open it as a run of its own.
    TrialScenario { line: usize, trial: u64 },
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker's wasm is loaded and it listens: the page may send requests.
    Ready,
    /// The experiment was read and checked, and runs: `total` trials in all.
    Started { total: u64 },
    /// So many trials are done.
    Progress { done: u64, total: u64 },
    /// Every trial ran: the result as the CLI's JSON and CSV, and the worker's own wall time for the runs.
    Finished {
        result_json: String,
        result_csv: String,
        wall_ms: f64,
    },
    /// The experiment or a trial could not be run: why, in one line.
    Failed { error: String },
    /// The scenario of the trial asked for, as scenario-file text.
    TrialScenario {
        line: usize,
        trial: u64,
        title: String,
        scenario_toml: String,
    },
}

impl ToWorker {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<ToWorker, String> {
        serde_json::from_str(text)
            .map_err(|error| format!("not a request the worker knows: {error}"))
    }
}

impl FromWorker {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<FromWorker, String> {
        serde_json::from_str(text)
            .map_err(|error| format!("the worker's answer is unreadable: {error}"))
    }
}
