//! What is under the pointer. Kept apart from the selection because it changes with every move of the
//! mouse, and only the drawings that highlight a message need to hear of it.

use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct HoverContext {
    /// The message under the pointer, in the cluster view or the space-time diagram (both highlight it).
    pub hovered_message: RwSignal<Option<u64>>,
}

impl HoverContext {
    pub fn new() -> HoverContext {
        HoverContext {
            hovered_message: RwSignal::new(None),
        }
    }
}

impl Default for HoverContext {
    fn default() -> Self {
        HoverContext::new()
    }
}
