//! Which nodes the learner picked out: the one selected (its details in the side panels) and those a
//! chosen line of the story is about (drawn highlighted on the ring), and whether the history of what
//! the clients saw is unfolded.

use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;

#[derive(Clone, Copy)]
pub struct SelectionContext {
    pub selected: RwSignal<Option<NodeId>>,
    /// Nodes a chosen narration line is about, drawn highlighted on the ring.
    pub highlighted: RwSignal<Vec<NodeId>>,
    /// Whether "What the clients saw" is unfolded; the Linearizable Reads badge unfolds it too.
    pub history_open: RwSignal<bool>,
}

impl SelectionContext {
    pub fn new() -> SelectionContext {
        SelectionContext {
            selected: RwSignal::new(None),
            highlighted: RwSignal::new(Vec::new()),
            history_open: RwSignal::new(false),
        }
    }
}

impl Default for SelectionContext {
    fn default() -> Self {
        SelectionContext::new()
    }
}
