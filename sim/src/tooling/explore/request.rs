//! What a search is asked: the goal (one invariant or any) and the bounds. Validated against the
//! scenario before anything runs, so a bad request costs nothing and says what is wrong.

use crate::tooling::scenario::Scenario;
use crate::tooling::suggest::did_you_mean;
use serde::{Deserialize, Serialize};

/// The largest state budget a request may ask for, so no request can run for hours.
pub const MAX_STATES: u64 = 5_000_000;
/// The deepest schedule a request may ask for (each level multiplies the work).
pub const MAX_DEPTH: u32 = 6;
/// The most pause lengths offered (each is one more choice per node and choice point).
pub const MAX_PAUSE_LENGTHS: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreRequest {
    /// The invariant to break, by its checker's name; `None` for any invariant.
    pub invariant: Option<String>,
    /// Most steps in a schedule.
    pub max_depth: u32,
    /// Most node and network faults in a schedule.
    pub max_faults: u32,
    /// Most single-message drops in a schedule (apart from faults).
    pub max_drops: u32,
    /// Most messages delivered as late as their link allows (another delivery order, not a fault).
    pub max_holds: u32,
    /// Most distinct states visited before giving up.
    pub max_states: u64,
    /// Distance between two choice points.
    pub grain_ms: u64,
    /// The lengths a timed pause may have.
    pub pause_ms: Vec<u64>,
    /// Where the search stops looking; `None` for the scenario's end.
    pub horizon_ms: Option<u64>,
}

impl Default for ExploreRequest {
    fn default() -> Self {
        ExploreRequest {
            invariant: None,
            max_depth: 2,
            max_faults: 2,
            max_drops: 0,
            max_holds: 0,
            max_states: 100_000,
            grain_ms: 50,
            pause_ms: vec![250, 1_000, 2_000],
            horizon_ms: None,
        }
    }
}

impl ExploreRequest {
    /// Checks the request against `scenario`; the error is one short sentence.
    pub fn validate(&self, scenario: &Scenario) -> Result<(), String> {
        if let Some(name) = &self.invariant {
            let entry = scenario.protocol.entry();
            let known: Vec<&str> = entry.invariants().map(|info| info.name).collect();
            if !known.contains(&name.as_str()) {
                let hint = did_you_mean(name, known, "invariant", "the world's badges");
                return Err(format!("unknown invariant {name:?} in this world: {hint}"));
            }
        }
        let positive = [
            ("states", self.max_states),
            ("depth", self.max_depth as u64),
            (
                "faults",
                (self.max_faults + self.max_drops + self.max_holds) as u64,
            ),
            ("grain_ms", self.grain_ms),
        ];
        if let Some((name, _)) = positive.iter().find(|(_, value)| *value == 0) {
            return Err(format!("the {name} budget must be at least 1"));
        }
        if self.max_states > MAX_STATES {
            return Err(format!(
                "at most {MAX_STATES} states, not {}",
                self.max_states
            ));
        }
        if self.max_depth > MAX_DEPTH {
            return Err(format!("at most depth {MAX_DEPTH}, not {}", self.max_depth));
        }
        if self.pause_ms.len() > MAX_PAUSE_LENGTHS {
            return Err(format!("at most {MAX_PAUSE_LENGTHS} pause lengths"));
        }
        if self.pause_ms.contains(&0) {
            return Err("a pause length must be at least 1 ms".to_string());
        }
        Ok(())
    }

    /// The instant the search stops looking, in ms.
    pub fn horizon_ms(&self, scenario: &Scenario) -> u64 {
        self.horizon_ms
            .unwrap_or(scenario.duration_ms)
            .min(scenario.duration_ms)
    }
}
