//! A checkpoint's time to tick: from time zero, how long until a lesson checkpoint first holds.
//!
//! The checkpoint is one of the lessons' own (`tooling::lesson::Checkpoint`), read with the lessons'
//! parser and watched by the same `CheckpointEvaluator` a lesson step uses, begun at time zero as a
//! step that opens with the run. It is asked after every event and every scripted step, so the
//! instant it first holds is exact to the microsecond (a lesson asks every few simulated
//! milliseconds, so a learner sees it tick a little later). What makes it tick is the scenario's own
//! steps: an experiment adds none. A trial in which it has not held by `bound_ms` is censored.

use super::trial::{step_once, Outcome};
use crate::base::time::SimTime;
use crate::tooling::lesson::{Checkpoint, CheckpointEvaluator};
use crate::tooling::runner::ScenarioRun;

/// `(Measured, µs from zero)` at the first instant `checkpoint` holds, or `(NotAcknowledged, None)`
/// when it has not by `until`.
pub(super) fn time_to_tick(
    run: &mut ScenarioRun,
    checkpoint: &Checkpoint,
    until: SimTime,
) -> (Outcome, Option<u64>) {
    let mut evaluator = CheckpointEvaluator::begin(checkpoint.clone(), run.world());
    loop {
        if evaluator.check(run.world()).satisfied {
            return (Outcome::Measured, Some(run.world().now().as_micros()));
        }
        if !step_once(run, until) {
            return (Outcome::NotAcknowledged, None);
        }
    }
}
