//! What the page and the search worker say to each other: one JSON text per message, each way, as
//! for the experiment worker (both ends are Rust and serde describes every type).

use quorumlab_sim::explore::{ExploreReport, ExploreRequest, Progress};
use quorumlab_sim::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// What the page asks of the search worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToSearch {
    /// Search `scenario` as `request` says.
    Run {
        scenario: Box<Scenario>,
        request: ExploreRequest,
    },
}

/// What the search worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromSearch {
    /// The worker's wasm is loaded and it listens.
    Ready,
    /// How far the search has got, and the worker's wall time since it began.
    Progress { progress: Progress, elapsed_ms: f64 },
    /// The search ended: found, or a bound reached.
    Finished {
        report: Box<ExploreReport>,
        elapsed_ms: f64,
    },
    /// The request could not be searched: why, in one line.
    Failed { error: String },
}

impl ToSearch {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<ToSearch, String> {
        serde_json::from_str(text)
            .map_err(|error| format!("not a request the search worker knows: {error}"))
    }
}

impl FromSearch {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<FromSearch, String> {
        serde_json::from_str(text)
            .map_err(|error| format!("the search worker's answer is unreadable: {error}"))
    }
}
