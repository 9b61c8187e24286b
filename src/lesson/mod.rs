//! The app's side of the lessons: everything about a guided lab that is plain Rust and tested natively.
//!
//! The engine parses the lesson files and judges checkpoints (`quorumlab_sim::lesson`); this module turns
//! that into something a page can drive. [`markdown`] reads the small markdown subset the lessons are
//! written in into blocks the components build DOM nodes from (lesson text never reaches `innerHTML`).
//! [`route`] reads and writes the `#/lesson/<id>/step/<n>` addresses. [`predictions`] keeps the open lesson's locked-in picks; [`pacing`] plays
//! each step at its speed, waits for its paused moves and stops at its "look now" moment.
//! [`completion`] keeps what a completion code needs of the lesson's runs ([`completion_live`] in the page).
//! [`progress`] is what the browser
//! remembers per lesson (steps done, mastery ticks) as a short, forgiving text. [`tracker`] is the
//! engine's lesson driver (the one the headless tests use) under the page's name: it watches the
//! current step's checkpoint, ticks it and opens the next, and holds the "show me" actions until the
//! simulation reaches their moment ([`show_me`] starts them from where the step began); [`drive`]
//! lends it the session's run to play forward, stopping at exactly those moments; [`compare`] opens a step's compare link on the lesson's
//! own run, so the lesson goes on beside the flipped one. [`reach`] keeps what the step in hand needs
//! within reach: a control far from the lesson, and on a narrow screen the step beside the cluster.
//! [`search_answer`] ticks a "can it break?" step when the learner's search answers as it asks.
//! [`headless`] plays earlier steps' solutions straight into
//! a session, for deep links to a later step. [`live`] is the lesson in the page: the open lesson's
//! signals, its address and stored progress, and the controller the frame loop and the buttons call.
//!
//! Time travel: steps begin at simulated moments, so scrubbing back could put the world before the step
//! the learner is on. Ticks are sticky (a step once done stays done, as in the progress store); when time
//! moves backwards, the step in progress starts watching afresh from the moment moved to, and any "show
//! me" actions not yet performed are dropped (those already performed stay in the recorded future and
//! replay as the run plays forward).

pub mod compare;
pub mod completion;
pub mod completion_live;
pub mod drive;
pub mod headless;
pub mod live;
pub mod loading;
pub mod markdown;
pub mod pacing;
pub mod predictions;
pub mod progress;
pub mod reach;
pub mod route;
pub mod runtime;
pub mod search_answer;
pub mod show_me;
pub mod tracker;

use quorumlab_sim::lesson::{parse_lessons, Lesson};

/// Every compiled-in lesson in course order, or the parse error as text (a broken lesson file is a
/// bug the native tests catch; the app shows the message instead of a list).
pub fn course() -> Result<Vec<Lesson>, String> {
    parse_lessons().map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_course_is_in_order_and_not_empty() {
        let lessons = course().unwrap();
        assert!(!lessons.is_empty());
        assert!(lessons
            .windows(2)
            .all(|pair| pair[0].order <= pair[1].order));
    }
}
