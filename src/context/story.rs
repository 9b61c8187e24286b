//! The run told in words: the event log's lines and the caption over the cluster.

use crate::narration::NarrationView;
use leptos::prelude::*;
use quorumlab_sim::narration::NarrationLine;

#[derive(Clone, Copy)]
pub struct StoryContext {
    /// The event log lines and quiet count; refreshed with the panels.
    pub narration: RwSignal<NarrationView>,
    /// The caption over the cluster: the newest turn of the story, held long enough to read.
    pub caption: RwSignal<Option<NarrationLine>>,
}

impl StoryContext {
    pub fn new() -> StoryContext {
        StoryContext {
            narration: RwSignal::new(NarrationView::default()),
            caption: RwSignal::new(None),
        }
    }
}

impl Default for StoryContext {
    fn default() -> Self {
        StoryContext::new()
    }
}
