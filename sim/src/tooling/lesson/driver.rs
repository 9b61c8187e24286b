//! Following a lesson on a run: which step is open, whether its checkpoint is met yet, and the "show
//! me" actions waiting for their moment. One driver for every way a lesson is played, so the headless
//! tests and the page agree by construction rather than by a test that compares them.
//!
//! The driver holds only the lesson's state; the run is lent to it (any [`ScenarioRun`] over a
//! [`Run`]: the headless `World` of [`LessonRun`](super::LessonRun) and the tests, or the app's
//! `Timeline`). Whoever owns the run also owns the decision to open a fresh world for a step that has
//! one of its own, and hands the driver that world with [`LessonDriver::open_step`].
//!
//! Looking at the run ([`LessonDriver::observe`]) judges the open step with its
//! [`CheckpointEvaluator`], which began the moment the step did, so "the leader changed" means changed
//! since then. A step whose checkpoint is met ticks with the evaluator's sentence as its "what
//! happened" line, and the next step begins at that simulated moment. "Show me"
//! ([`LessonDriver::show_me`]) does not act by itself: it queues the step's scripted actions at
//! `after_ms` past the step's beginning, and the run performs them as it reaches each moment.
//!
//! The run moves forward in two ways (see `driver/advance.rs`), and both judge at the same instants:
//! every [`CHECK_EVERY_MS`] counted from the step's beginning or from its last scripted action.
//! [`LessonDriver::drive`] is the page's: it runs to the end of an animation frame, stopping at each
//! check and each queued action. [`LessonDriver::play_solution`] and [`LessonDriver::watch`] are the
//! headless tests' and a deep link's: the script at once, then the same stops, one at a time, until
//! the checkpoint is met or time runs out.
//!
//! Moving back in time is noticed by the clock going backwards: ticks are sticky (a step once done
//! stays done), the open step starts watching afresh from the moment moved to, and queued actions not
//! yet performed are dropped (those performed stay in a timeline's recorded future and replay).

mod advance;

use super::evaluate::{CheckpointEvaluator, Verdict};
use super::live_names::{LiveName, LIVE_NAMES};
use super::{Lesson, SearchAnswer};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::engine::world::World;

pub use advance::Driven;

/// How often (simulated milliseconds) a driven run evaluates the open step's checkpoint.
pub const CHECK_EVERY_MS: u64 = 5;

/// What the earlier steps show when the learner did not watch them happen on this run.
pub const DONE_EARLIER: &str = "done before this point";

/// What each live name ({leader}, {paused}, ...) said at one moment, and the node it pointed at.
pub type NamesAtTick = Vec<(LiveName, String, Option<NodeId>)>;

/// A "show me" action and the simulated moment it is due.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledAction {
    /// The step (0-based) whose solution this is; it still fires if that step ticks first, as in a
    /// headless run, which performs a whole solution before judging it.
    pub step: usize,
    pub at: SimTime,
    pub action: Action,
}

/// What one observation changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The step (0-based) whose checkpoint was just met.
    pub ticked: Option<usize>,
    /// The clock had gone backwards since the last observation.
    pub rewound: bool,
}

/// Whether a driven run may pass its scenario's end: a headless run stops there, as the runner
/// does; the app's run plays on, since its playground keeps going.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    StopAtScenarioEnd,
    PlayOn,
}

/// A lesson being followed on a run lent to it call by call.
#[derive(Clone, Debug)]
pub struct LessonDriver {
    lesson: Lesson,
    /// The open step (0-based); equal to the step count once the lesson is complete.
    current: usize,
    step_began: SimTime,
    evaluator: Option<CheckpointEvaluator>,
    /// Per step: the "what happened" sentence once it is done.
    done: Vec<Option<String>>,
    /// Per step ticked here: its live names as they were at the tick, so a done step's words stop
    /// following the run (a step done earlier, elsewhere, has none and keeps following it).
    names_at_tick: Vec<Option<NamesAtTick>>,
    /// The open step's latest verdict ("not yet: ...").
    last_verdict: String,
    last_seen: SimTime,
    /// Checks fall every [`CHECK_EVERY_MS`] from here: the step's beginning, then the moment its last
    /// "show me" action was performed.
    grid_anchor: SimTime,
    queue: Vec<ScheduledAction>,
    /// The step whose "show me" was already pressed (pressing again must not repeat its actions).
    shown_step: Option<usize>,
    run_end: RunEnd,
}

/// Every live name's value in `world` now.
fn names_now(world: &World) -> NamesAtTick {
    let view = world.view();
    LIVE_NAMES
        .iter()
        .map(|(_, name)| (*name, name.value(&view), name.nodes(&view).first().copied()))
        .collect()
}

impl LessonDriver {
    /// Opens `lesson` at its first step on `world` as it is now.
    pub fn start(lesson: Lesson, world: &World) -> LessonDriver {
        LessonDriver::at_step(lesson, 0, world)
    }

    /// Opens `lesson` at `step` (0-based, at most the step count) on `world` as it is now; the earlier
    /// steps count as done. The run may play past its scenario's end (see [`Self::stopping_at_end`]).
    pub fn at_step(lesson: Lesson, step: usize, world: &World) -> LessonDriver {
        let steps = lesson.steps.len();
        let mut driver = LessonDriver {
            lesson,
            current: 0,
            step_began: world.now(),
            evaluator: None,
            done: vec![None; steps],
            names_at_tick: vec![None; steps],
            last_verdict: String::new(),
            last_seen: world.now(),
            grid_anchor: world.now(),
            queue: Vec::new(),
            shown_step: None,
            run_end: RunEnd::PlayOn,
        };
        driver.open_step(step, world);
        driver
    }

    /// The same driver, its run stopping at the scenario's end as a headless runner's does.
    pub fn stopping_at_end(mut self) -> LessonDriver {
        self.run_end = RunEnd::StopAtScenarioEnd;
        self
    }

    /// Makes `step` (at most the step count) the open step, beginning its watch on `world` now (a
    /// fresh world the step has of its own, or the same run); steps before it not yet done count as
    /// done earlier, and queued actions are dropped.
    pub fn open_step(&mut self, step: usize, world: &World) {
        let step = step.min(self.lesson.steps.len());
        for entry in self.done.iter_mut().take(step) {
            entry.get_or_insert_with(|| DONE_EARLIER.to_string());
        }
        self.current = step;
        self.queue.clear();
        self.shown_step = None;
        self.last_seen = world.now();
        self.begin_current(world);
    }

    fn begin_current(&mut self, world: &World) {
        self.step_began = world.now();
        self.grid_anchor = world.now();
        self.evaluator = self
            .lesson
            .steps
            .get(self.current)
            .map(|step| CheckpointEvaluator::begin(step.checkpoint.clone(), world));
        self.last_verdict.clear();
    }

    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    pub fn run_end(&self) -> RunEnd {
        self.run_end
    }

    /// The open step (0-based); equals the step count once complete.
    pub fn current_step(&self) -> usize {
        self.current
    }

    pub fn is_complete(&self) -> bool {
        self.current >= self.lesson.steps.len()
    }

    /// When the open step began (simulated time).
    pub fn step_began(&self) -> SimTime {
        self.step_began
    }

    /// What happened in `step`, once it is done.
    pub fn done(&self, step: usize) -> Option<&str> {
        self.done.get(step).and_then(|entry| entry.as_deref())
    }

    /// What the live name `name` said when `step` ticked here, and the node it named.
    pub fn name_at_tick(&self, step: usize, name: LiveName) -> Option<(String, Option<NodeId>)> {
        let names = self.names_at_tick.get(step)?.as_ref()?;
        names
            .iter()
            .find(|(known, _, _)| *known == name)
            .map(|(_, value, node)| (value.clone(), *node))
    }

    /// Steps done so far.
    pub fn steps_done(&self) -> usize {
        self.done.iter().take_while(|entry| entry.is_some()).count()
    }

    /// The steps (1-based numbers) counted as done without being seen here: the lesson was opened at
    /// a later step, so nothing in this run showed them.
    pub fn steps_not_seen(&self) -> Vec<usize> {
        self.done
            .iter()
            .enumerate()
            .filter(|(_, entry)| entry.as_deref() == Some(DONE_EARLIER))
            .map(|(index, _)| index + 1)
            .collect()
    }

    /// The open step's latest verdict, in words (empty before the first observation).
    pub fn last_verdict(&self) -> &str {
        &self.last_verdict
    }

    /// "Show me" actions not yet performed.
    pub fn pending(&self) -> &[ScheduledAction] {
        &self.queue
    }

    /// Records the earlier steps' "what happened" lines (from a run on an earlier world).
    pub fn set_done_texts(&mut self, texts: Vec<String>) {
        for (entry, text) in self.done.iter_mut().zip(texts) {
            if entry.is_some() {
                *entry = Some(text);
            }
        }
    }

    /// Each step's live names as they were at its tick here, to hand to the next world's driver.
    pub fn names_at_ticks(&self) -> Vec<Option<NamesAtTick>> {
        self.names_at_tick.clone()
    }

    /// Takes the tick-time names of steps done on an earlier world (like [`Self::set_done_texts`]).
    pub fn set_names_at_ticks(&mut self, names: Vec<Option<NamesAtTick>>) {
        let done = self.done.iter().map(Option::is_some);
        for ((entry, names), done) in self.names_at_tick.iter_mut().zip(names).zip(done) {
            if done && entry.is_none() {
                *entry = names;
            }
        }
    }

    /// Looks at `world`: notices a rewind, and ticks the open step if its checkpoint is now met.
    pub fn observe(&mut self, world: &World) -> Observation {
        self.look(world).0
    }

    /// As [`Self::observe`], with the open step's verdict when it was judged (not while its own "show
    /// me" script is still being performed: like a headless run, a step being shown is judged once
    /// the whole script is in).
    fn look(&mut self, world: &World) -> (Observation, Option<Verdict>) {
        let now = world.now();
        let rewound = now < self.last_seen;
        self.last_seen = now;
        if rewound {
            self.queue.clear();
            self.shown_step = None;
            self.begin_current(world);
        }
        let showing = self.queue.iter().any(|queued| queued.step == self.current);
        let verdict = self
            .evaluator
            .as_mut()
            .filter(|_| !showing)
            .map(|evaluator| evaluator.check(world));
        let ticked = match &verdict {
            Some(verdict) if verdict.satisfied => Some(self.tick(world, &verdict.explanation)),
            Some(verdict) => {
                self.last_verdict = verdict.explanation.clone();
                None
            }
            None => None,
        };
        (Observation { ticked, rewound }, verdict)
    }

    /// The learner's search on this run finished with `answer` (`summary`: its sentence): ticks the
    /// open step if it is a "can it break?" step that this answer completes (`search_step.rs`), and
    /// returns the step. Any other step, or an answer the step does not list, changes nothing.
    pub fn search_answered(
        &mut self,
        answer: SearchAnswer,
        summary: &str,
        world: &World,
    ) -> Option<usize> {
        let step = self.lesson.steps.get(self.current)?;
        if !step.search.as_ref()?.accepts(answer) {
            return None;
        }
        let said = format!("The search answered: {summary}");
        Some(self.tick(world, &said))
    }

    /// Marks the open step done with `explanation` and opens the next one now; returns the step.
    fn tick(&mut self, world: &World, explanation: &str) -> usize {
        let ticked = self.current;
        self.done[ticked] = Some(explanation.to_string());
        self.names_at_tick[ticked] = Some(names_now(world));
        self.current += 1;
        self.begin_current(world);
        ticked
    }

    /// Queues the open step's scripted solution, each action `after_ms` after the step began. On
    /// `world` at the very moment the step began, the checkpoint's watch starts afresh there, exactly
    /// as in a headless run. Returns how many actions were queued (none if the lesson is complete or
    /// this step's solution was already queued since the step began or time last moved back).
    pub fn show_me(&mut self, world: &World) -> usize {
        let Some(step) = self.lesson.steps.get(self.current) else {
            return 0;
        };
        if world.now() == self.step_began {
            self.evaluator = Some(CheckpointEvaluator::begin(step.checkpoint.clone(), world));
        }
        if self.shown_step == Some(self.current) {
            return 0;
        }
        self.shown_step = Some(self.current);
        let before = self.queue.len();
        self.queue
            .extend(step.solution.iter().map(|scripted| ScheduledAction {
                step: self.current,
                at: self.step_began.plus_ms(scripted.after_ms),
                action: scripted.action.clone(),
            }));
        // Stable: actions due at the same moment keep their order in the script.
        self.queue.sort_by_key(|queued| queued.at);
        self.queue.len() - before
    }

    /// Takes the queued actions due by `now`, earliest first (the caller performs them now).
    pub fn take_due(&mut self, now: SimTime) -> Vec<ScheduledAction> {
        let due = self
            .queue
            .iter()
            .take_while(|scheduled| scheduled.at <= now)
            .count();
        let taken: Vec<ScheduledAction> = self.queue.drain(..due).collect();
        if taken.iter().any(|scheduled| scheduled.step == self.current) {
            self.grid_anchor = now;
        }
        taken
    }

    /// The next moment after `now` the run should stop at: the next check or the next queued action
    /// (`now` itself when an action is already due).
    pub fn next_stop(&self, now: SimTime) -> SimTime {
        let every_us = CHECK_EVERY_MS * 1_000;
        let since_us = now.as_micros().saturating_sub(self.grid_anchor.as_micros());
        let next_check =
            SimTime(self.grid_anchor.as_micros() + (since_us / every_us + 1) * every_us);
        self.next_due()
            .map_or(next_check, |due| due.max(now).min(next_check))
    }

    /// The earliest queued action's moment, if any.
    pub fn next_due(&self) -> Option<SimTime> {
        self.queue.first().map(|scheduled| scheduled.at)
    }
}
