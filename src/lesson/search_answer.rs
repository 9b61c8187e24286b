//! A "can it break?" step ticked by the learner's own search.
//!
//! Such a step (`search = { ..., answers = [...] }` in the lesson file, see the engine's
//! `lesson/search_step.rs`) asks the learner to predict, then to ask the search on the lesson's run.
//! Its checkpoint still ticks it when a run shows the break, but the search's answer is the point of
//! the step, so it completes the step too: when a search the learner started finishes, its answer
//! (found, no counterexample within the bound, or bound reached) is handed to the lesson's driver,
//! which ticks the open step if the step lists that answer. A cancelled or failed search, a search
//! finished while another step was open, and a search while the lesson waits for the next step's
//! world tick nothing.
//!
//! The search's state is read, never changed: `explore::search::SearchState` is the panel's, and a
//! finished search stays on screen whatever the lesson does with its answer.

use crate::explore::search::{headline, Finished, SearchState, SearchStatus};
use crate::lesson::live;
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::lesson::SearchAnswer;
use quorumlab_sim::lesson_search::answer_of;
use std::sync::Arc;

/// Follows the search: each time one finishes, its answer goes to the open lesson, once.
pub fn install(state: AppState, search: SearchState) {
    let handed: StoredValue<Option<Arc<Finished>>> = StoredValue::new(None);
    Effect::new(move |_| {
        let SearchStatus::Finished(finished) = search.status.get() else {
            return;
        };
        let seen = handed.with_value(|last| {
            last.as_ref()
                .is_some_and(|last| Arc::ptr_eq(last, &finished))
        });
        if seen {
            return;
        }
        handed.set_value(Some(finished.clone()));
        let answer = answer_of(&finished.report.outcome);
        // The step's "what happened" is the headline the learner just read in the search's card.
        let (depth, faults) = finished.request_bounds;
        let said = headline(&finished.report, depth, faults);
        // What ticking reads and writes is the lesson's, not this effect's to follow.
        untrack(|| answered(state, answer, &said));
    });
}

/// Hands a finished search's `answer` to the open lesson; ticks its step where the step lists it.
fn answered(state: AppState, answer: SearchAnswer, headline: &str) {
    let lessons = state.parts().lesson;
    if lessons.next_world.get_untracked().is_some() {
        return;
    }
    let ticked = state.with_session(|session| {
        lessons
            .tracker
            .try_update_value(|tracker| {
                tracker
                    .as_mut()
                    .and_then(|tracker| tracker.search_answered(answer, headline, session.world()))
            })
            .flatten()
    });
    if ticked.is_some() {
        live::after_tick(state);
    }
}
