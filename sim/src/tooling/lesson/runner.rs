//! Playing a lesson headless: the same moves a learner makes, driven by the lesson's own script.
//!
//! [`LessonRun::new`] builds the lesson's scenario world and runs it for `start_ms`. For each step the
//! run starts a [`CheckpointEvaluator`] the first time the step is touched, so "the leader changed" is
//! judged against the leader of that moment. [`LessonRun::apply_solution`] is the "show me" button: it
//! applies the step's actions at their offsets, then runs time forward, checking every
//! [`CHECK_EVERY_MS`], until the checkpoint is met or the step's deadline passes.
//! [`LessonRun::watch`] runs forward without acting, which is how the tests prove a checkpoint can fail.
//! A step with a world of its own begins on a fresh run of that scenario, `start_ms` in, as the app
//! opens it; every such world is built up front, so a lesson whose worlds do not build fails at once.

use super::evaluate::{CheckpointEvaluator, Verdict};
use super::Lesson;
use crate::base::time::SimTime;
use crate::engine::world::World;
use crate::tooling::runner::ScenarioRun;

/// How often (simulated milliseconds) a scripted run evaluates the checkpoint.
pub const CHECK_EVERY_MS: u64 = 5;

/// A lesson in progress on its own world.
#[derive(Clone, Debug)]
pub struct LessonRun {
    lesson: Lesson,
    run: ScenarioRun,
    /// One evaluator per step, created when the step begins.
    evaluators: Vec<Option<CheckpointEvaluator>>,
    /// When each step began.
    started_at: Vec<Option<SimTime>>,
    /// Per step with a world of its own: that world, built and not yet run.
    fresh_worlds: Vec<Option<ScenarioRun>>,
}

impl LessonRun {
    pub fn new(lesson: &Lesson) -> Result<LessonRun, String> {
        let mut run = ScenarioRun::new(lesson.scenario.clone())?;
        run.advance_to(SimTime::from_ms(lesson.start_ms));
        let fresh_worlds = lesson
            .steps
            .iter()
            .map(|step| {
                step.own_world
                    .as_ref()
                    .map(|world| ScenarioRun::new(world.scenario.clone()))
                    .transpose()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LessonRun {
            lesson: lesson.clone(),
            run,
            evaluators: vec![None; lesson.steps.len()],
            started_at: vec![None; lesson.steps.len()],
            fresh_worlds,
        })
    }

    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    pub fn world(&self) -> &World {
        self.run.world()
    }

    /// For the learner's own actions; the world logs them like any other.
    pub fn world_mut(&mut self) -> &mut World {
        self.run.world_mut()
    }

    pub fn now(&self) -> SimTime {
        self.run.world().now()
    }

    /// Runs the world to `until` (never past the scenario's end), applying the scenario's own steps.
    pub fn advance_to(&mut self, until: SimTime) {
        self.run.advance_to(until);
    }

    /// Starts watching `step` now, unless it has already begun. Returns when it began.
    pub fn begin(&mut self, step: usize) -> SimTime {
        assert!(
            step < self.lesson.steps.len(),
            "no step {step} in this lesson"
        );
        if self.evaluators[step].is_none() {
            if let Some(mut fresh) = self.fresh_worlds[step].take() {
                fresh.advance_to(SimTime::from_ms(self.lesson.start_ms));
                self.run = fresh;
            }
            let checkpoint = self.lesson.steps[step].checkpoint.clone();
            self.evaluators[step] = Some(CheckpointEvaluator::begin(checkpoint, self.run.world()));
            self.started_at[step] = Some(self.now());
        }
        self.started_at[step].expect("set together with the evaluator")
    }

    /// Evaluates `step`'s checkpoint now (beginning the step if it had not begun).
    pub fn check(&mut self, step: usize) -> Verdict {
        self.begin(step);
        let evaluator = self.evaluators[step]
            .as_mut()
            .expect("begin created the evaluator");
        evaluator.check(self.run.world())
    }

    /// "Show me": applies the step's scripted actions at their offsets from now, then runs forward
    /// until the checkpoint is met or the step's deadline. Returns the last verdict.
    pub fn apply_solution(&mut self, step: usize) -> Verdict {
        let started = self.begin(step);
        let solution = self.lesson.steps[step].solution.clone();
        for scripted in &solution {
            self.advance_to(started.plus_ms(scripted.after_ms));
            self.run.world_mut().apply(&scripted.action);
        }
        let deadline = started.plus_ms(self.lesson.steps[step].deadline_ms());
        self.watch(step, deadline)
    }

    /// Runs forward to `until` without acting, checking `step` every [`CHECK_EVERY_MS`]; stops early
    /// when the checkpoint is met. Returns the last verdict.
    pub fn watch(&mut self, step: usize, until: SimTime) -> Verdict {
        let until = until.min(self.run.end_time());
        let mut verdict = self.check(step);
        while !verdict.satisfied && self.now() < until {
            let next = self.now().plus_ms(CHECK_EVERY_MS).min(until);
            self.advance_to(next);
            verdict = self.check(step);
        }
        verdict
    }
}
