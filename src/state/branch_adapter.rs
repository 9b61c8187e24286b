//! The branch concern of the action path: an action taken in the past replaces the recorded future,
//! and the page offers that old future back (see `crate::branch`).
//!
//! The action path (`state::action_path`) asks here what an action is about to replace before it
//! acts, and hands the answer back once it has acted; nothing else in the path knows of branches.

use super::AppState;
use crate::branch::ReplacedFuture;
use crate::context::notice::Notice;
use leptos::prelude::*;

/// What acting now would replace: `None` when nothing is recorded past the present.
pub(super) fn before_acting(state: &AppState) -> Option<ReplacedFuture> {
    state
        .parts()
        .run
        .session
        .with_value(ReplacedFuture::before_acting)
}

/// After the action: the future it replaced becomes the one the page offers to bring back (an
/// action with nothing recorded after it leaves the last offer standing).
pub(super) fn after_acting(state: &AppState, replaced: Option<ReplacedFuture>) {
    if replaced.is_some() {
        state.parts().notices.replaced_future.set(replaced);
    }
}

impl AppState {
    /// Brings back the future the last action in the past replaced, at the moment of that action.
    pub fn restore_replaced_future(&self) {
        let Some(replaced) = self.parts.notices.replaced_future.get_untracked() else {
            return;
        };
        match replaced.restore() {
            Ok(session) => self.open_session(session, false),
            Err(reason) => self.parts.notices.notice.set(Some(Notice {
                text: format!("The earlier future could not be rebuilt: {reason}"),
                is_error: true,
            })),
        }
    }
}
