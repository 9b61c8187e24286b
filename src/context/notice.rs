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
}

impl NoticeContext {
    pub fn new() -> NoticeContext {
        NoticeContext {
            notice: RwSignal::new(None),
            help_open: RwSignal::new(false),
            replaced_future: RwSignal::new(None),
        }
    }
}

impl Default for NoticeContext {
    fn default() -> Self {
        NoticeContext::new()
    }
}
