//! Playing a lesson headless: the same moves a learner makes, driven by the lesson's own script.
//!
//! [`LessonRun`] is the [`LessonDriver`] on a headless [`World`] of its own, the run stopping at its
//! scenario's end as the runner's does. [`LessonRun::new`] builds the lesson's scenario world and runs
//! it for `start_ms`. A step begins ([`LessonRun::begin`]) the first time it is touched, so "the leader
//! changed" is judged against the leader of that moment. [`LessonRun::apply_solution`] is the "show
//! me" button: it applies the step's actions at their offsets, then runs time forward, checking every
//! [`CHECK_EVERY_MS`](super::CHECK_EVERY_MS), until the checkpoint is met or the step's deadline
//! passes. [`LessonRun::watch`] runs forward without acting, which is how the tests prove a
//! checkpoint can fail. A step with a world of its own begins on a fresh run of that scenario,
//! `start_ms` in, as the app opens it; every such world is built up front, so a lesson whose worlds
//! do not build fails at once.

use super::driver::LessonDriver;
use super::evaluate::Verdict;
use super::Lesson;
use crate::base::time::SimTime;
use crate::engine::world::World;
use crate::tooling::runner::ScenarioRun;

/// A lesson in progress on its own world.
#[derive(Clone, Debug)]
pub struct LessonRun {
    driver: LessonDriver,
    run: ScenarioRun,
    /// When each step began, once it has.
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
            driver: LessonDriver::start(lesson.clone(), run.world()).stopping_at_end(),
            run,
            started_at: vec![None; lesson.steps.len()],
            fresh_worlds,
        })
    }

    pub fn lesson(&self) -> &Lesson {
        self.driver.lesson()
    }

    /// The lesson's state: the open step, what each done step said.
    pub fn driver(&self) -> &LessonDriver {
        &self.driver
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

    /// Starts watching `step` now, unless it has already begun. Returns when it began. Steps are
    /// played in order: beginning a step opens it in the driver, whatever step was open.
    pub fn begin(&mut self, step: usize) -> SimTime {
        assert!(
            step < self.lesson().steps.len(),
            "no step {step} in this lesson"
        );
        if let Some(began) = self.started_at[step] {
            return began;
        }
        if let Some(mut fresh) = self.fresh_worlds[step].take() {
            fresh.advance_to(SimTime::from_ms(self.lesson().start_ms));
            self.run = fresh;
        }
        self.driver.open_step(step, self.run.world());
        let began = self.now();
        *self.started_at[step].insert(began)
    }

    /// "Show me": applies the step's scripted actions at their offsets from its beginning, then runs
    /// forward until the checkpoint is met or the step's deadline. Returns the last verdict.
    pub fn apply_solution(&mut self, step: usize) -> Verdict {
        self.begin(step);
        match self.met(step) {
            Some(verdict) => verdict,
            None => self.driver.play_solution(&mut self.run),
        }
    }

    /// Runs forward to `until` without acting, checking `step` every
    /// [`CHECK_EVERY_MS`](super::CHECK_EVERY_MS); stops early when the checkpoint is met. Returns the
    /// last verdict.
    pub fn watch(&mut self, step: usize, until: SimTime) -> Verdict {
        self.begin(step);
        match self.met(step) {
            Some(verdict) => verdict,
            None => self.driver.watch(&mut self.run, until),
        }
    }

    /// `step`'s verdict if it is already met (the driver has moved past it).
    fn met(&self, step: usize) -> Option<Verdict> {
        (self.driver.current_step() > step)
            .then(|| Verdict::yes(self.driver.done(step).unwrap_or_default().to_string()))
    }
}
