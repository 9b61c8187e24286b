//! Moving a lent run forward under the lesson, in the two shapes the lesson is played in.
//!
//! The page plays a lesson frame by frame: [`LessonDriver::drive`] runs to the end of one frame, but
//! instead of leaping there it stops at every moment the lesson cares about, each check and each
//! queued "show me" action, performs the actions through the run's normal action path (so they are
//! logged like clicks) and judges the open step at each stop.
//!
//! A headless run (the lesson tests, a deep link that plays the earlier steps) does not wait for
//! frames: [`LessonDriver::play_solution`] performs the open step's script at its offsets at once, and
//! [`LessonDriver::watch`] runs on until the checkpoint is met or a deadline passes. Watching is
//! driving, stop by stop, ending at the tick: it stops where the page would and nowhere else.
//!
//! So both judge at the same instants, whoever acts: every [`CHECK_EVERY_MS`](super::CHECK_EVERY_MS)
//! on a grid that starts at the step's beginning and restarts at its last "show me" action (while a
//! script is being performed nothing is judged). A learner's own clicks move nothing: a step met by
//! hand ticks at the next check on that grid, on the page and headless alike.

use super::{LessonDriver, RunEnd, ScheduledAction};
use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::contract::checkpoint::Verdict;
use crate::engine::run::Run;
use crate::engine::world::ActionOutcome;
use crate::tooling::runner::ScenarioRun;

/// What one stretch of driving did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Driven {
    /// "Show me" actions performed, in order, each with the moment it was performed at (its `at`) and,
    /// if the world refused one (a node already crashed, say), why.
    pub performed: Vec<(ScheduledAction, Option<String>)>,
    /// Whether some step ticked.
    pub ticked: bool,
}

impl LessonDriver {
    /// Runs `run` to `target`, performing due "show me" actions and judging the open step at each
    /// stop; each performed action is also handed to `mirror` with the instant it was performed at
    /// (compare mode applies it to the other run there, so both get it at the same instant).
    pub fn drive<R: Run>(
        &mut self,
        run: &mut ScenarioRun<R>,
        target: SimTime,
        mirror: &mut dyn FnMut(SimTime, &Action),
    ) -> Driven {
        let target = self.reachable(run, target);
        let mut driven = Driven::default();
        loop {
            let stop = self.next_stop(run.world().now());
            if stop > target {
                // The frame ends between two checks: run to its end without judging there.
                self.advance(run, target);
                return driven;
            }
            if stop > run.world().now() {
                self.advance(run, stop);
            }
            for scheduled in self.take_due(run.world().now()) {
                driven
                    .performed
                    .push(self.perform(run, scheduled, &mut *mirror));
            }
            driven.ticked |= self.observe(run.world()).ticked.is_some();
            if run.world().now() >= target {
                return driven;
            }
        }
    }

    /// Performs one queued action now; returns it stamped with the moment it was performed at (a
    /// late action happens now, not at its due moment) and, if the world refused it, why.
    fn perform<R: Run>(
        &self,
        run: &mut ScenarioRun<R>,
        scheduled: ScheduledAction,
        mirror: &mut dyn FnMut(SimTime, &Action),
    ) -> (ScheduledAction, Option<String>) {
        // As before each scripted action in a headless run: events the previous action made due at
        // this very instant (a clock jump firing a timer) run first.
        let now = run.world().now();
        self.advance(run, now);
        let skipped = match run.run_mut().apply(&scheduled.action) {
            ActionOutcome::Applied => None,
            ActionOutcome::Skipped { reason } => Some(reason),
        };
        let now = run.world().now();
        mirror(now, &scheduled.action);
        (
            ScheduledAction {
                at: now,
                ..scheduled
            },
            skipped,
        )
    }

    /// "Show me" at once: performs the open step's script at its offsets from the step's beginning,
    /// judges the step at its last action (as [`Self::drive`] does after performing it), then
    /// [watches](Self::watch) until the checkpoint is met or the step's deadline. Returns the last
    /// verdict (satisfied: the step ticked and the next one is open).
    pub fn play_solution<R: Run>(&mut self, run: &mut ScenarioRun<R>) -> Verdict {
        let Some(step) = self.lesson.steps.get(self.current).cloned() else {
            return Verdict::yes("the lesson is complete".to_string());
        };
        let began = self.step_began;
        for scripted in &step.solution {
            self.advance(run, began.plus_ms(scripted.after_ms));
            run.run_mut().apply(&scripted.action);
        }
        if !step.solution.is_empty() {
            self.grid_anchor = run.world().now();
            if self.observe(run.world()).ticked.is_some() {
                return self.verdict_for(self.current - 1);
            }
        }
        self.watch(run, began.plus_ms(step.deadline_ms()))
    }

    /// Runs forward to `until` without acting, stopping exactly where [`Self::drive`] would (each
    /// check on the step's grid, each queued action) and stopping early when the open step ticks.
    /// A learner's own actions between two calls are therefore judged at the same instants headless
    /// as on the page. Returns the open step's verdict: met, or the last reason it was not.
    pub fn watch<R: Run>(&mut self, run: &mut ScenarioRun<R>, until: SimTime) -> Verdict {
        let until = self.reachable(run, until);
        let step = self.current;
        let mut mirror = |_: SimTime, _: &Action| {};
        while self.current == step && run.world().now() < until {
            let stop = self.next_stop(run.world().now()).min(until);
            self.drive(run, stop, &mut mirror);
        }
        self.verdict_for(step)
    }

    /// `step`'s verdict as the driver last saw it: met with its "what happened" line, the lesson
    /// complete, or not yet with the last reason given.
    fn verdict_for(&self, step: usize) -> Verdict {
        match self.done(step) {
            Some(explanation) => Verdict::yes(explanation.to_string()),
            None if self.is_complete() => Verdict::yes("the lesson is complete".to_string()),
            None => Verdict::not_yet(self.last_verdict.clone()),
        }
    }

    /// `until`, or the scenario's end if this driver's run stops there first.
    fn reachable<R: Run>(&self, run: &ScenarioRun<R>, until: SimTime) -> SimTime {
        match self.run_end {
            RunEnd::StopAtScenarioEnd => until.min(run.end_time()),
            RunEnd::PlayOn => until,
        }
    }

    fn advance<R: Run>(&self, run: &mut ScenarioRun<R>, until: SimTime) {
        match self.run_end {
            RunEnd::StopAtScenarioEnd => run.advance_to(until),
            RunEnd::PlayOn => run.advance_past_end_to(until),
        }
    }
}
