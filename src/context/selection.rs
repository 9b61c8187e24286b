//! Which nodes the learner picked out: the one selected (its details in the side panels) and those a
//! chosen line of the story is about (drawn highlighted on the ring).

use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;

#[derive(Clone, Copy)]
pub struct SelectionContext {
    pub selected: RwSignal<Option<NodeId>>,
    /// Nodes a chosen narration line is about, drawn highlighted on the ring.
    pub highlighted: RwSignal<Vec<NodeId>>,
}

impl SelectionContext {
    pub fn new() -> SelectionContext {
        SelectionContext {
            selected: RwSignal::new(None),
            highlighted: RwSignal::new(Vec::new()),
        }
    }
}

impl Default for SelectionContext {
    fn default() -> Self {
        SelectionContext::new()
    }
}
