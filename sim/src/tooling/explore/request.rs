//! What a search is asked: the goal (one invariant or any, or an example of a checkpoint) and the
//! bounds. Validated against the scenario before anything runs, so a bad request costs nothing and
//! says what is wrong.
//!
//! Clock faults are offered only within the world's bounds ([`clock_bounds`]): time keeps its
//! meaning, so a design that allows for bounded drift is judged under the drift it allows for.

use super::goal::Goal;
use crate::contract::action::ByzantineMode;
use crate::engine::world::World;
use crate::tooling::runner::world_config;
use crate::tooling::scenario::Scenario;
use crate::tooling::suggest::did_you_mean;
use serde::{Deserialize, Serialize};

/// The largest state budget a request may ask for, so no request can run for hours.
pub const MAX_STATES: u64 = 5_000_000;
/// The deepest schedule a request may ask for (each level multiplies the work).
pub const MAX_DEPTH: u32 = 6;
/// The most pause lengths offered (each is one more choice per node and choice point).
pub const MAX_PAUSE_LENGTHS: usize = 8;
/// The most replays shrinking may try.
pub const MAX_SHRINK_ATTEMPTS: u32 = 10_000;
/// A world that states no clock allowance of its own is held to this drift (0.1 %: ten times what a
/// common quartz oscillator is rated for, and far less than any lease margin here).
pub const DEFAULT_MAX_DRIFT_PPM: i64 = 1_000;
/// ... and to jumps of at most this much.
pub const DEFAULT_MAX_JUMP_MS: i64 = 5;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreRequest {
    /// The invariant to break, by its checker's name; `None` for any invariant.
    pub invariant: Option<String>,
    /// Look for an example of this lesson checkpoint (`stale_write_refused`) instead of a violation.
    pub example: Option<String>,
    /// Most steps in a schedule.
    pub max_depth: u32,
    /// Most node and network faults in a schedule.
    pub max_faults: u32,
    /// Most single-message drops in a schedule (apart from faults).
    pub max_drops: u32,
    /// Most messages delivered as late as their link allows (another delivery order, not a fault).
    pub max_holds: u32,
    /// Most messages in flight delivered a second time.
    pub max_duplicates: u32,
    /// Most distinct states visited before giving up.
    pub max_states: u64,
    /// Distance between two choice points.
    pub grain_ms: u64,
    /// The lengths a timed pause may have.
    pub pause_ms: Vec<u64>,
    /// Offer crashes (and restarts).
    pub crash: bool,
    /// Offer isolating a node (and healing).
    pub isolate: bool,
    /// Offer cutting the link between one pair of nodes, both ways (and healing): n(n-1)/2 more
    /// choices at a choice point, so off unless asked.
    #[serde(default)]
    pub cut_links: bool,
    /// Clock drifts offered (ppm, signed), each within the world's bound.
    pub drift_ppm: Vec<i64>,
    /// Clock jumps offered (ms, signed), each within the world's bound.
    pub jump_ms: Vec<i64>,
    /// Shrink a found schedule before reporting it.
    pub shrink: bool,
    /// Most replays shrinking may try.
    pub max_shrink_attempts: u32,
    /// Where the search stops looking; `None` for the scenario's end.
    pub horizon_ms: Option<u64>,
    /// Where the search starts adding steps ("this moment"): no choice is offered before it, so every
    /// step it adds lies at or after it. Choice points stay on the `grain_ms` grid from zero (the
    /// first is the first grid point at or after this, or the horizon), as a replay asks the goal.
    #[serde(default)]
    pub from_ms: u64,
    /// Most nodes made Byzantine in a schedule (0: none), in the worlds whose nodes can lie (Raft
    /// servers, PBFT replicas). A PBFT of 3f + 1 replicas is built to survive f of them.
    #[serde(default)]
    pub max_byzantine: u32,
    /// The ways a node made Byzantine may lie (every lying mode unless the request narrows it).
    #[serde(default = "lying_modes")]
    pub byzantine_modes: Vec<ByzantineMode>,
    /// Visit each family of mirror-image states once, where that is sound (`symmetry.rs`: a plain
    /// Raft cluster of at most five servers, searched for an invariant, with no step left that names
    /// a server); elsewhere the search runs without it and says why. Off unless asked, so a request
    /// without it searches as before.
    #[serde(default, skip_serializing_if = "is_off")]
    pub symmetry: bool,
}

fn is_off(value: &bool) -> bool {
    !*value
}

/// Every mode in which a node lies (all but `Honest`), in the catalogue's order.
pub fn lying_modes() -> Vec<ByzantineMode> {
    vec![
        ByzantineMode::Equivocate,
        ByzantineMode::Lie,
        ByzantineMode::Silent,
        ByzantineMode::Selective,
    ]
}

impl Default for ExploreRequest {
    fn default() -> Self {
        ExploreRequest {
            invariant: None,
            example: None,
            max_depth: 2,
            max_faults: 2,
            max_drops: 0,
            max_holds: 0,
            max_duplicates: 0,
            max_states: 100_000,
            grain_ms: 50,
            pause_ms: vec![250, 1_000, 2_000],
            crash: true,
            isolate: true,
            cut_links: false,
            drift_ppm: Vec::new(),
            jump_ms: Vec::new(),
            shrink: true,
            max_shrink_attempts: 500,
            horizon_ms: None,
            from_ms: 0,
            max_byzantine: 0,
            byzantine_modes: lying_modes(),
            symmetry: false,
        }
    }
}

impl ExploreRequest {
    /// Checks the request against `scenario`; the error is one short sentence.
    pub fn validate(&self, scenario: &Scenario) -> Result<(), String> {
        if self.example.is_some() && self.invariant.is_some() {
            return Err("ask for an invariant or an example, not both".to_string());
        }
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
                (self.max_faults
                    + self.max_drops
                    + self.max_holds
                    + self.max_duplicates
                    + self.max_byzantine) as u64,
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
        if self.max_shrink_attempts > MAX_SHRINK_ATTEMPTS {
            return Err(format!("at most {MAX_SHRINK_ATTEMPTS} shrink attempts"));
        }
        let horizon_ms = self.horizon_ms(scenario);
        if self.from_ms > horizon_ms {
            return Err(format!(
                "the search starts at {} ms, after its horizon ({horizon_ms} ms)",
                self.from_ms
            ));
        }
        self.validate_clock(scenario)?;
        self.validate_byzantine(scenario)
    }

    /// Byzantine faults are asked for only where some node can lie, in lying modes.
    fn validate_byzantine(&self, scenario: &Scenario) -> Result<(), String> {
        if self.max_byzantine == 0 {
            return Ok(());
        }
        if self.byzantine_modes.is_empty() || self.byzantine_modes.contains(&ByzantineMode::Honest)
        {
            return Err(
                "Byzantine modes must be lying ones (equivocate, lie, silent, selective)"
                    .to_string(),
            );
        }
        let mut modes = self.byzantine_modes.clone();
        modes.sort_by_key(|mode| mode.name());
        modes.dedup();
        if modes.len() != self.byzantine_modes.len() {
            return Err("each Byzantine mode may be offered once".to_string());
        }
        let world = World::new(world_config(scenario))?;
        if world
            .nodes()
            .iter()
            .all(|slot| slot.actor.lying().is_none())
        {
            return Err(
                "no node of this world can be made Byzantine (only Raft servers and PBFT \
                 replicas can lie)"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// Every clock fault offered lies within the world's bounds, and there are few enough.
    fn validate_clock(&self, scenario: &Scenario) -> Result<(), String> {
        if self.drift_ppm.len() + self.jump_ms.len() > MAX_PAUSE_LENGTHS {
            return Err(format!("at most {MAX_PAUSE_LENGTHS} clock faults in all"));
        }
        let bounds = clock_bounds(scenario);
        if let Some(ppm) = self
            .drift_ppm
            .iter()
            .find(|ppm| **ppm == 0 || ppm.abs() > bounds.max_drift_ppm)
        {
            return Err(format!(
                "a drift of {ppm} ppm is outside this world's bound (1 to {} ppm either way)",
                bounds.max_drift_ppm
            ));
        }
        if let Some(ms) = self
            .jump_ms
            .iter()
            .find(|ms| **ms == 0 || ms.abs() > bounds.max_jump_ms)
        {
            return Err(format!(
                "a clock jump of {ms} ms is outside this world's bound (1 to {} ms either way)",
                bounds.max_jump_ms
            ));
        }
        Ok(())
    }

    /// What the search looks for; `Err` names an unknown checkpoint and lists the valid ones.
    pub fn goal(&self, scenario: &Scenario) -> Result<Goal, String> {
        match &self.example {
            Some(text) => Goal::example(text, scenario),
            None => Ok(Goal::Invariant(self.invariant.clone())),
        }
    }

    /// The first choice point: the first multiple of `grain_ms` at or after `from_ms`, or the
    /// horizon if that comes first (the horizon is a choice point too).
    pub fn first_choice_ms(&self, scenario: &Scenario) -> u64 {
        let grain_ms = self.grain_ms.max(1);
        let on_grid_ms = self.from_ms.div_ceil(grain_ms).saturating_mul(grain_ms);
        on_grid_ms.min(self.horizon_ms(scenario))
    }

    /// The instant the search stops looking, in ms.
    pub fn horizon_ms(&self, scenario: &Scenario) -> u64 {
        self.horizon_ms
            .unwrap_or(scenario.duration_ms)
            .min(scenario.duration_ms)
    }
}

/// How far a node's clock may stray in a world: what the design allows for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockBounds {
    pub max_drift_ppm: i64,
    pub max_jump_ms: i64,
}

/// A world that states a drift allowance (Redlock's `drift_allowance_ms`) is held to it: a jump of
/// at most the allowance, a drift that uses at most the allowance over one lease. Any other world is
/// held to [`DEFAULT_MAX_DRIFT_PPM`] and [`DEFAULT_MAX_JUMP_MS`].
pub fn clock_bounds(scenario: &Scenario) -> ClockBounds {
    let entry = scenario.protocol.entry();
    let states_allowance = entry.lock_keys.contains(&"drift_allowance_ms");
    match scenario.protocol.lock_options() {
        Some(locks) if states_allowance && locks.lease_ttl_ms > 0 => ClockBounds {
            max_drift_ppm: (locks.drift_allowance_ms * 1_000_000 / locks.lease_ttl_ms) as i64,
            max_jump_ms: locks.drift_allowance_ms as i64,
        },
        _ => ClockBounds {
            max_drift_ppm: DEFAULT_MAX_DRIFT_PPM,
            max_jump_ms: DEFAULT_MAX_JUMP_MS,
        },
    }
}
