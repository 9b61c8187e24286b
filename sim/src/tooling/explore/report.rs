//! What a search answers: a schedule that breaks the invariant, or the bound it reached without one.
//! Never "safe": a bounded search proves nothing beyond its bound, and the words say so.

use super::shrink::ShrinkReport;
use crate::tooling::scenario::Step;
use serde::{Deserialize, Serialize};

/// Which bound ended a search that found nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// Every schedule up to the depth (and fault budget) was explored.
    Depth,
    /// The state budget ran out part way through a level.
    States,
    /// A level had more schedules to walk than the state budget allows; those that fit were walked.
    Frontier,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    Found {
        invariant: String,
        /// The choice point at or before which the violation showed (the run reports the instant).
        seen_by_ms: u64,
        /// The steps to add to the scenario, in time order.
        schedule: Vec<Step>,
        faults: u32,
    },
    /// A state where the example's checkpoint holds.
    Example {
        /// The checkpoint as written.
        checkpoint: String,
        /// The checkpoint's own sentence on why it holds.
        why: String,
        seen_by_ms: u64,
        schedule: Vec<Step>,
        faults: u32,
    },
    BoundReached {
        bound: Bound,
        /// The last level explored in full.
        complete_depth: Option<u32>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreReport {
    pub outcome: Outcome,
    /// Distinct states visited.
    pub states: u64,
    /// States reached again and cut off.
    pub duplicates: u64,
    pub horizon_ms: u64,
    pub grain_ms: u64,
    /// What shrinking the found schedule did (`None` when nothing was found or it was not asked).
    pub shrink: Option<ShrinkReport>,
    /// One sentence for people.
    pub summary: String,
    pub covers: String,
    /// An estimate of the memory the search held at its end, in bytes: the arena of schedules and
    /// the visited set, the two parts that grow with the states (both bounded by the state budget).
    /// Besides them it keeps one live run of the world per depth, at most `MAX_DEPTH + 1`.
    #[serde(default)]
    pub memory_bytes: u64,
}

/// What the search covers, in one line (the module notes say it at length).
pub const COVERS: &str = "crash, restart, timed pause, resume, isolate, cutting one pair's link \
(when asked), heal, single-message \
drops, duplicates and holds to the link's latest delivery, clock jumps and drifts within the \
world's bounds, the Byzantine modes of nodes that can lie (within their own budget), at choice \
points every grain_ms; not covered: faults between choice points, early deliveries, timers other \
than when due, clock faults beyond the world's bounds, other seeds, node symmetry; an example's \
checkpoint memory is not part of the state digest";

impl Outcome {
    /// The schedule found, if anything was.
    pub fn schedule(&self) -> Option<&[Step]> {
        match self {
            Outcome::Found { schedule, .. } | Outcome::Example { schedule, .. } => Some(schedule),
            Outcome::BoundReached { .. } => None,
        }
    }

    /// One sentence for people, with the numbers that bound it; `sought` is "counterexample" or
    /// "example".
    pub fn summary(
        &self,
        sought: &str,
        states: u64,
        bounds: (u32, u32, u64),
        horizon_ms: u64,
    ) -> String {
        let (depth, faults, max_states) = bounds;
        match self {
            Outcome::Found {
                invariant,
                seen_by_ms,
                schedule,
                faults,
            } => format!(
                "{invariant} broke by {seen_by_ms} ms with {} step(s) and {faults} fault(s) \
                 ({states} states explored)",
                schedule.len()
            ),
            Outcome::Example {
                checkpoint,
                seen_by_ms,
                schedule,
                faults,
                ..
            } => format!(
                "an example of {checkpoint} by {seen_by_ms} ms with {} step(s) and {faults} \
                 fault(s) ({states} states explored)",
                schedule.len()
            ),
            Outcome::BoundReached {
                bound: Bound::Depth,
                ..
            } => format!(
                "no {sought} within {depth} step(s) and {faults} fault(s), horizon \
                 {horizon_ms} ms ({states} states); a bound was reached, nothing more is proven"
            ),
            Outcome::BoundReached {
                bound: Bound::States,
                complete_depth,
            } => format!(
                "no {sought} before the {max_states}-state bound (complete to depth {}); \
                 nothing more is proven",
                complete_depth.map_or("none".to_string(), |depth| depth.to_string())
            ),
            Outcome::BoundReached {
                bound: Bound::Frontier,
                complete_depth,
            } => format!(
                "no {sought} within {} step(s) ({states} states); the next level had more \
                 than {max_states} schedules, the state bound, and was only partly explored, so \
                 nothing more is proven",
                complete_depth.map_or(0, |depth| depth)
            ),
        }
    }
}
