//! The open lesson's signals, one set per app: the course (fetched on first use), the tracker on the
//! live run, what the panel shows and the step's pacing. Changed through `crate::lesson::live`, which
//! drives the lesson; components read them here without reaching for the whole app state.

use crate::context::generation::{Generation, Part};
use crate::lesson::completion::CompletionLog;
use crate::lesson::loading::Course;
use crate::lesson::predictions::Predictions;
use crate::lesson::runtime::LessonRuntime;
use leptos::prelude::*;
use quorumlab_sim::lesson::Lesson;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// The lesson signals, one set per app (a field of `crate::state::AppState`).
#[derive(Clone, Copy)]
pub struct LessonContext {
    /// Fetched and parsed on first use: most visits never open a lesson.
    pub(crate) course: StoredValue<CourseState, LocalStorage>,
    pub(crate) tracker: StoredValue<Option<Box<dyn LessonRuntime>>, LocalStorage>,
    /// The scenario of the lesson's run: a run of anything else closes the lesson.
    pub(crate) run_scenario: StoredValue<Option<Scenario>, LocalStorage>,
    /// What a completion code needs of the open lesson's runs (see `lesson::completion`).
    pub(crate) completion: StoredValue<CompletionLog, LocalStorage>,
    /// The app's generation number: `Part::Lesson` moves whenever what the panel shows of the tracker
    /// changes (a tick, a new step, "show me"), `Part::Course` when the course has arrived (or failed
    /// to), `Part::Progress` after every write to localStorage, so views showing them redraw.
    pub generation: Generation,
    /// The open step's latest "not yet: ..." sentence.
    pub verdict: RwSignal<String>,
    pub list_open: RwSignal<bool>,
    /// Index in the course of the open lesson.
    pub active: RwSignal<Option<usize>>,
    /// What "show me" did, newest last, so an audience can see it.
    pub show_me_log: RwSignal<Vec<String>>,
    /// The lesson opened paused and waits for the learner to press play or act.
    pub waiting: RwSignal<bool>,
    /// The open step (0-based) when it runs on a world of its own that is not on screen yet: the step
    /// before it just ticked, and its run stays up, paused, until the learner opens the next one, so
    /// the badges and narration of what happened can still be read.
    pub next_world: RwSignal<Option<usize>>,
    /// The learner's locked-in predictions; kept when a step's own world opens.
    pub predictions: RwSignal<Predictions>,
    /// The open step's speed, paused moves and look moment.
    pub pacing: PacingSignals,
}

impl LessonContext {
    pub fn new(generation: Generation) -> LessonContext {
        LessonContext {
            course: StoredValue::new_local(CourseState::NotLoaded),
            tracker: StoredValue::new_local(None),
            run_scenario: StoredValue::new_local(None),
            completion: StoredValue::new_local(CompletionLog::default()),
            generation,
            verdict: RwSignal::new(String::new()),
            list_open: RwSignal::new(false),
            active: RwSignal::new(None),
            show_me_log: RwSignal::new(Vec::new()),
            waiting: RwSignal::new(false),
            next_world: RwSignal::new(None),
            predictions: RwSignal::new(Predictions::default()),
            pacing: PacingSignals::new(),
        }
    }

    /// Reads the course; before it has arrived, says so (see `lesson::live::when_course_loaded` to wait for it).
    pub fn with_course<T>(&self, read: impl FnOnce(&[Lesson]) -> T) -> Result<T, String> {
        self.course.with_value(|course| match course {
            CourseState::Loaded(Ok(lessons)) => Ok(read(lessons)),
            CourseState::Loaded(Err(error)) => Err(error.clone()),
            CourseState::NotLoaded | CourseState::Loading(_) => {
                Err("the lessons are still loading".into())
            }
        })
    }

    /// Whether the course has arrived (or failed to): [`LessonContext::with_course`] then answers for good.
    pub fn course_settled(&self) -> bool {
        self.course
            .with_value(|course| matches!(course, CourseState::Loaded(_)))
    }

    /// Reads the open lesson's tracker, if a lesson is open.
    pub fn with_tracker<T>(&self, read: impl FnOnce(&dyn LessonRuntime) -> T) -> Option<T> {
        self.tracker
            .try_with_value(|tracker| tracker.as_deref().map(read))
            .flatten()
    }

    /// Changes the open lesson's tracker, if a lesson is open.
    pub fn with_tracker_mut<T>(
        &self,
        change: impl FnOnce(&mut (dyn LessonRuntime + 'static)) -> T,
    ) -> Option<T> {
        self.tracker
            .try_update_value(|tracker| tracker.as_deref_mut().map(change))
            .flatten()
    }

    pub(crate) fn bump(&self) {
        self.generation.bump(Part::Lesson);
    }
}

/// Where the course is: not asked for, on its way (with what to do when it lands), or here.
pub(crate) enum CourseState {
    NotLoaded,
    Loading(Vec<Box<dyn FnOnce()>>),
    Loaded(Course),
}

/// What the page shows at a look moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookNow {
    /// The step (0-based) it belongs to.
    pub step: usize,
    pub say: String,
}

/// The pacing state of the open lesson, one set per app.
#[derive(Clone, Copy)]
pub struct PacingSignals {
    /// Moves the paused run still waits for before it starts by itself, and how many the step asked.
    pub moves_left: RwSignal<u64>,
    pub moves_asked: RwSignal<u64>,
    /// The armed look moment: when to stop, and for which step.
    pub(crate) look_at: StoredValue<Option<(SimTime, usize)>, LocalStorage>,
    /// The step whose look moment was armed already (a step stops the run once).
    pub(crate) look_armed: StoredValue<Option<usize>, LocalStorage>,
    /// Shown while paused at a look moment.
    pub look_now: RwSignal<Option<LookNow>>,
    /// How many actions the run's log held when the open step began: later ones are the learner's
    /// moves in this step (what "show me" sets aside).
    pub(crate) actions_at_step_start: StoredValue<usize, LocalStorage>,
}

impl PacingSignals {
    pub fn new() -> PacingSignals {
        PacingSignals {
            moves_left: RwSignal::new(1),
            moves_asked: RwSignal::new(1),
            look_at: StoredValue::new_local(None),
            look_armed: StoredValue::new_local(None),
            look_now: RwSignal::new(None),
            actions_at_step_start: StoredValue::new_local(0),
        }
    }
}

impl PacingSignals {
    pub fn actions_at_step_start(&self) -> usize {
        self.actions_at_step_start.get_value()
    }

    /// For a run reopened from a share link, whose step began before the page saw it.
    pub fn set_actions_at_step_start(&self, actions: usize) {
        self.actions_at_step_start.set_value(actions);
    }
}

impl Default for PacingSignals {
    fn default() -> PacingSignals {
        PacingSignals::new()
    }
}
