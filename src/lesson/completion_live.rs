//! The completion log in the page: written to as the lesson's run is replaced, and read when the
//! learner asks for a code (see `lesson::completion` for the log itself). Apart from it because the
//! log is part of the lesson's context, which the app state holds, and these read the app state.

use crate::state::AppState;
use leptos::prelude::*;

/// The open lesson's completion code now, or why there is none.
pub fn code_now(state: AppState) -> Result<String, String> {
    let lessons = state.parts().lesson;
    let log = lessons.completion.get_value();
    state
        .with_session(|session| {
            lessons.with_tracker(|tracker| log.code(tracker.lesson(), tracker, session))
        })
        .unwrap_or_else(|| Err("Open a lesson to get its completion code.".to_string()))
}

/// Before a fresh run from the run settings replaces the lesson's run.
pub fn set_run_aside(state: AppState) {
    let lessons = state.parts().lesson;
    let Some(lesson) = lessons.with_tracker(|tracker| tracker.lesson().clone()) else {
        return;
    };
    state.with_session(|session| {
        lessons
            .completion
            .update_value(|log| log.set_run_aside(&lesson, session))
    });
}

/// After it: the lesson follows the fresh run from the open step (`followed`), or nothing changed.
pub fn after_fresh_run(state: AppState, followed: bool) {
    let lessons = state.parts().lesson;
    let step = lessons.with_tracker(|tracker| tracker.current_step());
    let now = state.with_session(|session| session.now());
    lessons.completion.update_value(|log| match step {
        Some(step) if followed => log.begin_run(step, now),
        _ => log.keep_current(),
    });
}
