//! Two runs side by side on one clock: both advance to the same instants, and every action is applied
//! to both at the same instant (each records it in its own action log), so the only differences
//! between them are the options their scenarios set differently.
//!
//! Deterministic like a single run: the same two scenarios and the same actions at the same instants
//! give both sides bit for bit.

use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::engine::world::ActionOutcome;
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{validate_action, Scenario};
use crate::views::difference::moments::MomentLog;
use crate::views::difference::summary::{differ, Difference};

/// The two runs of a comparison, left and right.
#[derive(Clone, Debug)]
pub struct ComparedRuns {
    left: ScenarioRun,
    right: ScenarioRun,
    left_moments: MomentLog,
    right_moments: MomentLog,
}

/// Why two scenarios cannot be compared, in a sentence (`None` when they can): both sides must share
/// the seed, the length of the run and the number of actors, so one clock and one node id mean the
/// same on both.
pub fn incomparable(left: &Scenario, right: &Scenario) -> Option<String> {
    if left.seed != right.seed {
        return Some(format!(
            "the two sides have different seeds ({} and {})",
            left.seed, right.seed
        ));
    }
    if left.duration_ms != right.duration_ms {
        return Some(format!(
            "the two sides run for different times ({} ms and {} ms)",
            left.duration_ms, right.duration_ms
        ));
    }
    if left.actor_count() != right.actor_count() {
        return Some(format!(
            "the two sides have different numbers of nodes ({} and {})",
            left.actor_count(),
            right.actor_count()
        ));
    }
    None
}

impl ComparedRuns {
    /// Both runs at time zero; refused if either scenario is invalid or the two cannot share a clock.
    pub fn new(left: Scenario, right: Scenario) -> Result<ComparedRuns, String> {
        if let Some(reason) = incomparable(&left, &right) {
            return Err(reason);
        }
        let left = ScenarioRun::new(left).map_err(|reason| format!("left side: {reason}"))?;
        let right = ScenarioRun::new(right).map_err(|reason| format!("right side: {reason}"))?;
        Ok(ComparedRuns {
            left,
            right,
            left_moments: MomentLog::new(),
            right_moments: MomentLog::new(),
        })
    }

    pub fn left(&self) -> &ScenarioRun {
        &self.left
    }

    pub fn right(&self) -> &ScenarioRun {
        &self.right
    }

    /// The shared clock (both sides are always at the same instant).
    pub fn now(&self) -> SimTime {
        self.left.world().now()
    }

    /// Runs both sides to `until`, each applying its own scripted steps on the way.
    pub fn advance_to(&mut self, until: SimTime) {
        self.left.advance_to(until);
        self.right.advance_to(until);
        debug_assert_eq!(self.left.world().now(), self.right.world().now());
    }

    /// Applies `action` to both sides at the current instant. An action naming a node one side lacks is
    /// refused for both, with the reason, and changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<[ActionOutcome; 2], String> {
        for (side, run) in [("left", &self.left), ("right", &self.right)] {
            validate_action("action", action, run.scenario().actor_count())
                .map_err(|invalid| format!("{side} side: {invalid}"))?;
        }
        let left = self.left.world_mut().apply(action);
        let right = self.right.world_mut().apply(action);
        Ok([left, right])
    }

    /// How the two runs differ so far (reads only what their traces gained since the last call).
    pub fn difference(&mut self) -> Difference {
        self.left_moments.catch_up(self.left.world());
        self.right_moments.catch_up(self.right.world());
        differ(&self.left_moments, &self.right_moments)
    }

    /// Both sides' trace hashes, left first.
    pub fn trace_hashes(&self) -> [u64; 2] {
        [
            self.left.world().trace_hash(),
            self.right.world().trace_hash(),
        ]
    }
}
