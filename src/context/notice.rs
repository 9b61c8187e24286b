//! What the page says to the learner outside the drawing: the notice bar, the shortcut sheet, and the
//! offer to bring back a future that an action in the past replaced.

use crate::branch::ReplacedFuture;
use leptos::prelude::*;

/// A short message shown after an action, e.g. why it was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub is_error: bool,
}

#[derive(Clone, Copy)]
pub struct NoticeContext {
    pub notice: RwSignal<Option<Notice>>,
    pub help_open: RwSignal<bool>,
    /// The future the last action in the past replaced, which the learner may bring back.
    pub replaced_future: RwSignal<Option<ReplacedFuture>>,
    /// A notice that is true only while the run stands still ("paused; press Space to play"): the
    /// notice bar drops it the moment the run plays, so it never contradicts the running clock.
    pub true_while_paused: RwSignal<Option<Notice>>,
}

impl NoticeContext {
    pub fn new() -> NoticeContext {
        NoticeContext {
            notice: RwSignal::new(None),
            help_open: RwSignal::new(false),
            replaced_future: RwSignal::new(None),
            true_while_paused: RwSignal::new(None),
        }
    }
}

impl NoticeContext {
    /// Shows `notice` until the run next plays (or another notice replaces it).
    pub fn say_while_paused(&self, notice: Notice) {
        self.notice.set(Some(notice.clone()));
        self.true_while_paused.set(Some(notice));
    }
}

impl Default for NoticeContext {
    fn default() -> Self {
        NoticeContext::new()
    }
}
