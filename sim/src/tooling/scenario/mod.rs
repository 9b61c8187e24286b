//! Scenario files: the TOML format that lessons, instructors, tests and the headless runner share.
//!
//! A scenario names a protocol, a cluster size, a seed, how long to run, optional timing and protocol
//! options, and a script of timed steps (`[[step]]`), each of which becomes one [`Action`] handed to the
//! world when the simulated clock reaches its `at_ms`. Every key and its default is documented in
//! `sim/SCENARIOS.md`.
//!
//! Parsing is strict on purpose: an unknown key, a misspelled action or a node that does not exist is an
//! error pointing at the file, line and column, never something silently ignored. A teacher who types
//! `taget = "n2"` must learn it at once, not wonder why the crash never happened.
//!
//! [`to_toml_string`] writes a scenario back out in the same format; parsing that text gives back an
//! equal [`Scenario`]. This is how a chaos sweep turns a failing seed into a file anyone can re-run.

pub(crate) mod errors;
mod examples;
pub(crate) mod export;
pub(crate) mod fields;
mod limits;
mod network_steps;
mod parse;
pub(crate) mod steps;
mod validate;

pub use errors::{shown, ScenarioError, ScenarioErrorKind};
pub use examples::{all_examples, example_text, EXAMPLES};
pub use export::to_toml_string;
pub use limits::*;
pub use parse::{parse_scenario, LOCK_KEYS, TIMING_KEYS};
pub use steps::ACTION_NAMES;
pub use validate::{action as validate_action, nodes_after, Invalid};

use crate::contract::action::Action;
use crate::contract::config::{ProtocolConfig, RaftOptions, Timing};
use serde::{Deserialize, Serialize};

/// One scripted action and the simulated time at which it is applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub at_ms: u64,
    pub action: Action,
}

/// A validated scenario: every node named in it exists, every range is ordered and every step falls
/// inside the run.
///
/// Invariant: `steps` are in nondecreasing `at_ms`, and no step is later than `duration_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub title: String,
    /// Which world, with its own options (`protocol = "…"` and its tables).
    pub protocol: ProtocolConfig,
    /// Servers, `1..=MAX_NODES`, named `n1`..`nN`; a coordination world's other actors come on top.
    pub node_count: usize,
    pub seed: u64,
    /// Simulated time the run lasts.
    pub duration_ms: u64,
    pub timing: Timing,
    pub raft: RaftOptions,
    pub steps: Vec<Step>,
}

impl Scenario {
    /// A scenario with every default and no steps: a cluster left alone to elect a leader.
    pub fn new(title: &str, node_count: usize, duration_ms: u64) -> Scenario {
        Scenario {
            title: title.to_string(),
            protocol: ProtocolConfig::default(),
            node_count,
            seed: DEFAULT_SEED,
            duration_ms,
            timing: Timing::default(),
            raft: RaftOptions::default(),
            steps: Vec::new(),
        }
    }

    /// The protocol name as written in files (`raft`, `lock-service`, ...), from the registry.
    pub fn protocol_name(&self) -> &'static str {
        self.protocol.name()
    }

    /// Who is who among the actors, for a coordination world (`None` for plain Raft).
    pub fn layout(&self) -> Option<crate::worlds::coordination::Layout> {
        let protocol = &self.protocol;
        protocol
            .is_coordination()
            .then(|| crate::worlds::coordination::Layout::new(self.node_count, protocol))
    }

    /// Every actor the world will hold: the servers, and a coordination world's workers and store.
    pub fn actor_count(&self) -> usize {
        self.layout()
            .map_or(self.node_count, |layout| layout.total())
    }

    /// The time of the last step, if any.
    pub fn last_step_ms(&self) -> Option<u64> {
        self.steps.last().map(|step| step.at_ms)
    }
}
