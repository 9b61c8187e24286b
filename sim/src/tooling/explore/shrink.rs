//! Shrinking a found schedule: cutting it down while the same goal is still met.
//!
//! Breadth-first search already finds a schedule of the fewest steps it could see, but "fewest steps"
//! is not "fewest faults", and a schedule handed in from elsewhere (a sweep's seed, a learner's own
//! steps) may carry steps that play no part. So the result is cut down the way a test-case minimiser
//! does it: try removing one step, replay the shorter schedule as an ordinary scenario, keep the
//! removal when the same invariant still breaks (the same checkpoint is still met), and go round again
//! until a whole pass removes nothing. Faults go first, so the result has the fewest faults this way
//! can reach; then every step (drops, holds, duplicates and any fault left), for the fewest steps.
//!
//! Each try is one replay, so the number of tries is bounded (`max_attempts`) and the report says
//! whether that bound stopped the shrinking before its fixpoint. A greedy fixpoint is a local minimum:
//! no single step can go, which is what the report claims, not that no smaller schedule exists.

use super::choices::kind_of;
use super::goal::{replay_goal_prepared, Goal, Met};
use super::search::Prepare;
use crate::tooling::scenario::{Scenario, Step};
use serde::{Deserialize, Serialize};

/// What shrinking did, for the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShrinkReport {
    pub original_steps: u32,
    pub original_faults: u32,
    pub steps: u32,
    pub faults: u32,
    /// Replays tried.
    pub attempts: u32,
    pub max_attempts: u32,
    /// The attempt bound stopped it before no single step could be removed.
    pub bound_reached: bool,
}

/// A shrunk schedule with what it meets and where.
pub struct Shrunk {
    pub schedule: Vec<Step>,
    pub met: Met,
    pub seen_by_ms: u64,
    pub report: ShrinkReport,
}

/// A schedule that meets the goal, what it meets and the choice point by which it does.
type Meeting = (Vec<Step>, Met, u64);

/// Where and how a schedule is judged.
pub struct Judge<'a> {
    pub scenario: &'a Scenario,
    /// Already narrowed to what was met (`Goal::narrowed_to`).
    pub goal: &'a Goal,
    pub grain_ms: u64,
    pub horizon_ms: u64,
    pub max_attempts: u32,
    /// Done to each replayed world before it runs, as the search did to its own.
    pub prepare: Prepare<'a>,
}

/// The faults in `schedule` (drops, holds and duplicates are not).
pub fn fault_count(schedule: &[Step]) -> u32 {
    schedule
        .iter()
        .filter(|step| kind_of(&step.action).is_fault())
        .count() as u32
}

impl Judge<'_> {
    /// Shrinks `schedule`, which must meet the goal; `Err` if a replay cannot run or it does not.
    pub fn shrink(&self, schedule: Vec<Step>) -> Result<Shrunk, String> {
        let Some((met, seen_by_ms)) = self.judge(&schedule)? else {
            return Err("the schedule to shrink does not meet its goal".to_string());
        };
        let mut best: Meeting = (schedule.clone(), met, seen_by_ms);
        let mut attempts = 0;
        let mut bound_reached = false;
        for faults_only in [true, false] {
            let pass = self.pass_to_fixpoint(best, faults_only, &mut attempts)?;
            best = pass.0;
            bound_reached |= pass.1;
        }
        let (shrunk, met, seen_by_ms) = best;
        let report = ShrinkReport {
            original_steps: schedule.len() as u32,
            original_faults: fault_count(&schedule),
            steps: shrunk.len() as u32,
            faults: fault_count(&shrunk),
            attempts,
            max_attempts: self.max_attempts,
            bound_reached,
        };
        Ok(Shrunk {
            schedule: shrunk,
            met,
            seen_by_ms,
            report,
        })
    }

    /// Removes steps (faults only, or any) one at a time until a whole pass removes none, or the
    /// attempts run out (the second value says so).
    fn pass_to_fixpoint(
        &self,
        start: Meeting,
        faults_only: bool,
        attempts: &mut u32,
    ) -> Result<(Meeting, bool), String> {
        let mut best = start;
        loop {
            let mut removed_any = false;
            let mut index = 0;
            while index < best.0.len() {
                let removable = !faults_only || kind_of(&best.0[index].action).is_fault();
                if !removable {
                    index += 1;
                    continue;
                }
                if *attempts >= self.max_attempts {
                    return Ok((best, true));
                }
                *attempts += 1;
                let mut candidate = best.0.clone();
                candidate.remove(index);
                match self.judge(&candidate)? {
                    Some((met, seen_by_ms)) => {
                        best = (candidate, met, seen_by_ms);
                        removed_any = true;
                    }
                    None => index += 1,
                }
            }
            if !removed_any {
                return Ok((best, false));
            }
        }
    }

    fn judge(&self, schedule: &[Step]) -> Result<Option<(Met, u64)>, String> {
        let bounds = (self.grain_ms, self.horizon_ms);
        replay_goal_prepared(self.scenario, schedule, self.goal, bounds, self.prepare)
    }
}
