//! The lesson concern of the run's controls: an open lesson waits, paused, for the learner's first
//! move, and some steps watch for a move of a certain kind (see `crate::lesson::pacing`).
//!
//! The controls call these few functions at the points where a lesson cares (before and after the
//! learner's action, when the learner takes the clock); the lesson's own driving of the run during a
//! frame is composed in by `crate::frame_loop`, not here.

use super::AppState;
use crate::lesson::pacing;
use leptos::prelude::*;
use quorumlab_sim::action::Action;

/// Before the learner's action: a lesson waiting for its first move starts playing (a step that needs
/// several moves at one instant, `moves_while_paused`, waits for the last of them).
pub(super) fn before_learner_move(state: &AppState) {
    if state.parts().lesson.waiting.get_untracked()
        && pacing::paused_move_starts_run(state.parts().lesson)
    {
        state.parts().lesson.waiting.set(false);
        state.parts().playback.playing.set(true);
    }
}

/// After the learner's action `action`: the open step may arm its look moment.
pub(super) fn after_learner_move(state: &AppState, action: &Action) {
    let now = state
        .parts()
        .run
        .session
        .with_value(|session| session.now());
    pacing::after_learner_move(state.parts().lesson, now, action);
}

/// The learner took the clock (play, step, seek): the lesson no longer waits for a first move.
pub(super) fn learner_took_the_clock(state: &AppState) {
    state.parts().lesson.waiting.set(false);
}
