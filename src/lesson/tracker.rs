//! Following a lesson on the live run: the engine's lesson driver under the name the page knows it by.
//!
//! Everything about a lesson's progress on a run (the open step and its checkpoint, the ticks and
//! what each done step said, the "show me" actions waiting for their moment, the check grid) is
//! `quorumlab_sim::lesson::LessonDriver`, the one driver the headless lesson tests use too. The page
//! keeps one in `LessonContext`, calls `observe` after every change to the world while paused (each
//! click, each seek), and lends it the session's run to play frames (`lesson::drive`). Moving back in
//! time is noticed by the clock going backwards; see the module above for what then happens.

pub use quorumlab_sim::lesson::{
    LessonDriver as LessonTracker, NamesAtTick, Observation, ScheduledAction, DONE_EARLIER,
};
