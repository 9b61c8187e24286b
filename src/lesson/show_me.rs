//! "Show me" in the page: the open step's script, performed on the live run from where the step
//! began (see `lesson::drive::show_me`), then played so it happens.
//!
//! A learner who already tried the step by hand and then asks to be shown gets the step done on the
//! world it expects, not on top of their own attempt: their moves are set aside, the log beside the
//! steps says so, and the page's "bring the old future back" control offers their run again.

use crate::context::generation::Part;
use crate::context::lesson::LessonContext;
use crate::format;
use crate::lesson::drive;
use crate::lesson::live::open_next_world;
use crate::state::AppState;
use leptos::prelude::*;

/// "Show me" on the open step (opening the step's own world first if the finished run is still up).
pub fn show_me(state: AppState) {
    let lessons = state.parts().lesson;
    if lessons.next_world.get_untracked().is_some() {
        open_next_world(state);
    }
    let actions_at_step_start = lessons.pacing.actions_at_step_start();
    // A completion code says which steps "show me" did.
    if let Some(step) = lessons.with_tracker(|tracker| tracker.current_step()) {
        lessons
            .completion
            .update_value(|log| log.mark_show_me(step));
    }
    let shown = state
        .update_session(|session| {
            lessons
                .with_tracker_mut(|tracker| drive::show_me(session, tracker, actions_at_step_start))
        })
        .flatten();
    let Some(shown) = shown else {
        return;
    };
    if shown.set_aside.is_some() {
        state
            .parts()
            .notices
            .replaced_future
            .set(shown.set_aside.clone());
        state.parts().run.generation.bump(Part::History);
    }
    log_rewind(lessons, &shown);
    if shown.queued > 0 {
        lessons.waiting.set(false);
        state.parts().playback.playing.set(true);
    }
    lessons.bump();
}

fn log_rewind(lessons: LessonContext, shown: &drive::ShowMe) {
    let Some(began) = shown.rewound_to else {
        return;
    };
    let at = format::sim_time(began.as_micros());
    let line = match shown.moves_set_aside {
        0 => format!("Show me: back to {at}, where this step began"),
        1 => format!(
            "Show me: the step starts again from {at}; your 1 move since then is set aside (“Bring the old future back” restores it)"
        ),
        moves => format!(
            "Show me: the step starts again from {at}; your {moves} moves since then are set aside (“Bring the old future back” restores them)"
        ),
    };
    lessons.show_me_log.update(|log| log.push(line));
}
