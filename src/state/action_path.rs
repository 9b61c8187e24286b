//! The path one action of the learner's takes through the app, composed of the concerns that hear of
//! it, in order: compare mode routes it to the side that owns the clock, the lesson may start playing,
//! the branch concern notes the future it replaces, the session applies it, the lesson and the notice
//! bar hear how it went, compare mode mirrors it onto the partner, and the views are republished. A schedule edit takes the same path, minus the lesson.
//!
//! Each concern is a small adapter in its own file beside this one (`branch_adapter`,
//! `lesson_adapter`, `follow` for compare mode); this file only says in what order they run.

use super::{branch_adapter, lesson_adapter, AppState, CAPTION_READ};
use crate::context::generation::Part;
use crate::context::notice::Notice;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::scenario::Step;
use quorumlab_sim::ActionOutcome;

impl AppState {
    pub fn apply(&self, action: Action) {
        if let Some(leader) = self.compare.leader() {
            return leader.apply(action);
        }
        lesson_adapter::before_learner_move(self);
        // A step note says what the last single step did; after a move of the learner's it is history.
        self.parts.playback.stepped.set(None);
        let replaced = branch_adapter::before_acting(self);
        let outcome = self
            .parts()
            .run
            .session
            .try_update_value(|session| session.apply(&action));
        branch_adapter::after_acting(self, replaced);
        lesson_adapter::after_learner_move(self, &action);
        // The learner's own move is told at once, not after the current caption's hold.
        self.caption_age_refreshes.set_value(CAPTION_READ);
        tell_outcome(self, outcome);
        self.mirror_to_partner(&action);
        self.parts.run.generation.bump(Part::History);
        self.publish();
    }

    /// Gives the run `steps` as its schedule from now on (an edit in the fault-schedule lane). The
    /// right side of a comparison takes it first, so a refusal changes neither run; an edit in the
    /// past replaces the recorded future, as an action there does.
    pub fn set_future_steps(&self, steps: Vec<Step>) -> Result<(), String> {
        self.mirror_schedule_to_partner(&steps)?;
        let replaced = branch_adapter::before_acting(self);
        self.update_session(|session| session.set_future_steps(steps))
            .unwrap_or_else(|| Err("the run is gone".into()))?;
        branch_adapter::after_acting(self, replaced);
        self.parts
            .run
            .scenario
            .set(self.with_session(|session| session.scenario().clone()));
        self.parts.run.generation.bump(Part::History);
        Ok(())
    }

    pub fn apply_to_leader(&self, make: impl FnOnce(NodeTarget) -> Action) {
        self.apply(make(NodeTarget::Leader));
    }
}

/// The notice bar after an action: cleared when it was applied, the reason when it was skipped.
fn tell_outcome(state: &AppState, outcome: Option<ActionOutcome>) {
    match outcome {
        Some(ActionOutcome::Applied) => state.parts().notices.notice.set(None),
        Some(ActionOutcome::Skipped { reason }) => state.parts().notices.notice.set(Some(Notice {
            text: format!("Nothing happened: {reason}"),
            is_error: true,
        })),
        None => {}
    }
}
