//! The lesson machinery as a part of its own: what the page asks of an open lesson's tracker, and
//! the code that makes one, which arrives with the course.
//!
//! Judging a lesson's checkpoints is the engine's largest single body of code the default playground
//! never runs (its checkpoint evaluators, the lesson driver, the lesson parser). The page reaches it
//! only through [`LessonRuntime`], a trait object, and through the few plain functions in
//! [`LessonMachinery`], which a split function hands over (`crate::lazy_part`): the split build then
//! moves the driver, the evaluators and the parser into the part the course's fetch asks for, and the
//! first module keeps only calls through the trait object's table.
//!
//! The course is parsed by that part, so by the time any lesson can open (a list entry, a lesson
//! address, a share link made in a lesson) the machinery is here, and opening stays synchronous.
//! Natively (tests, tools) there is no split and [`machinery`] answers at once.

use crate::lazy_part::PartMissing;
use crate::session::Session;
use quorumlab_sim::action::Action;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::lesson::{
    Driven, Lesson, LessonDriver, LiveName, NamesAtTick, Observation, SearchAnswer,
};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::world::World;
use std::cell::Cell;

/// The open lesson's tracker as the page uses it: which step is open, what each done step said, and
/// the moves that check the open step on the live run. The engine's `LessonDriver` is the one
/// implementation; the headless lesson tests use the same driver.
pub trait LessonRuntime {
    fn lesson(&self) -> &Lesson;
    fn current_step(&self) -> usize;
    fn is_complete(&self) -> bool;
    fn step_began(&self) -> SimTime;
    fn done(&self, step: usize) -> Option<&str>;
    fn name_at_tick(&self, step: usize, name: LiveName) -> Option<(String, Option<NodeId>)>;
    fn steps_done(&self) -> usize;
    fn steps_not_seen(&self) -> Vec<usize>;
    fn last_verdict(&self) -> &str;
    /// How many "show me" actions wait for their moment.
    fn pending_count(&self) -> usize;
    fn set_done_texts(&mut self, texts: Vec<String>);
    fn names_at_ticks(&self) -> Vec<Option<NamesAtTick>>;
    fn set_names_at_ticks(&mut self, names: Vec<Option<NamesAtTick>>);
    fn observe(&mut self, world: &World) -> Observation;
    fn search_answered(
        &mut self,
        answer: SearchAnswer,
        summary: &str,
        world: &World,
    ) -> Option<usize>;
    fn show_me(&mut self, world: &World) -> usize;
    fn drive(
        &mut self,
        session: &mut Session,
        target: SimTime,
        mirror: &mut dyn FnMut(SimTime, &Action),
    ) -> Driven;
}

impl LessonRuntime for LessonDriver {
    fn lesson(&self) -> &Lesson {
        LessonDriver::lesson(self)
    }
    fn current_step(&self) -> usize {
        LessonDriver::current_step(self)
    }
    fn is_complete(&self) -> bool {
        LessonDriver::is_complete(self)
    }
    fn step_began(&self) -> SimTime {
        LessonDriver::step_began(self)
    }
    fn done(&self, step: usize) -> Option<&str> {
        LessonDriver::done(self, step)
    }
    fn name_at_tick(&self, step: usize, name: LiveName) -> Option<(String, Option<NodeId>)> {
        LessonDriver::name_at_tick(self, step, name)
    }
    fn steps_done(&self) -> usize {
        LessonDriver::steps_done(self)
    }
    fn steps_not_seen(&self) -> Vec<usize> {
        LessonDriver::steps_not_seen(self)
    }
    fn last_verdict(&self) -> &str {
        LessonDriver::last_verdict(self)
    }
    fn pending_count(&self) -> usize {
        self.pending().len()
    }
    fn set_done_texts(&mut self, texts: Vec<String>) {
        LessonDriver::set_done_texts(self, texts)
    }
    fn names_at_ticks(&self) -> Vec<Option<NamesAtTick>> {
        LessonDriver::names_at_ticks(self)
    }
    fn set_names_at_ticks(&mut self, names: Vec<Option<NamesAtTick>>) {
        LessonDriver::set_names_at_ticks(self, names)
    }
    fn observe(&mut self, world: &World) -> Observation {
        LessonDriver::observe(self, world)
    }
    fn search_answered(
        &mut self,
        answer: SearchAnswer,
        summary: &str,
        world: &World,
    ) -> Option<usize> {
        LessonDriver::search_answered(self, answer, summary, world)
    }
    fn show_me(&mut self, world: &World) -> usize {
        LessonDriver::show_me(self, world)
    }
    fn drive(
        &mut self,
        session: &mut Session,
        target: SimTime,
        mirror: &mut dyn FnMut(SimTime, &Action),
    ) -> Driven {
        LessonDriver::drive(self, session.driver_mut(), target, mirror)
    }
}

/// A course read from its files, or why it does not parse.
pub type ParsedCourse = Result<Vec<Lesson>, String>;
/// A tracker for a lesson's run, or why the run could not be brought to its step.
pub type OpenedTracker = Result<Box<dyn LessonRuntime>, String>;

/// The lesson part's plain functions: reading the course, and making a tracker for a lesson's run.
#[derive(Clone, Copy)]
pub struct LessonMachinery {
    /// The course from its files (path, text), or why it does not parse.
    pub parse_course: fn(&[(&str, &str)]) -> ParsedCourse,
    /// See `headless::play_to_step`.
    pub play_to_step: fn(&mut Session, &Lesson, usize) -> OpenedTracker,
    /// See `headless::resume_at`.
    pub resume_at: fn(&mut Session, &Lesson, usize, SimTime) -> Box<dyn LessonRuntime>,
}

thread_local! {
    static ARRIVED: Cell<Option<LessonMachinery>> = const { Cell::new(None) };
}

/// The machinery if its part has arrived (always, natively).
pub fn machinery() -> Option<LessonMachinery> {
    #[cfg(not(feature = "split"))]
    let here = Some(the_machinery());
    #[cfg(feature = "split")]
    let here = ARRIVED.with(Cell::get);
    here
}

/// Fetches the machinery's part (once; later calls answer from memory).
pub async fn fetch_machinery() -> Result<LessonMachinery, PartMissing> {
    if let Some(here) = ARRIVED.with(Cell::get) {
        return Ok(here);
    }
    let fetched = crate::arrival!(lesson_machinery()).await?;
    ARRIVED.with(|arrived| arrived.set(Some(fetched)));
    Ok(fetched)
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(lesson_runtime, wasm_split_path = ::leptos::wasm_split, fallible))]
fn lesson_machinery() -> Result<LessonMachinery, PartMissing> {
    Ok(the_machinery())
}

fn the_machinery() -> LessonMachinery {
    LessonMachinery {
        parse_course: |files| {
            quorumlab_sim::lesson::parse_course(files).map_err(|error| error.to_string())
        },
        play_to_step: |session, lesson, step| {
            super::headless::play_to_step(session, lesson, step)
                .map(|tracker| Box::new(tracker) as Box<dyn LessonRuntime>)
        },
        resume_at: |session, lesson, step, began| {
            Box::new(super::headless::resume_at(session, lesson, step, began))
        },
    }
}
