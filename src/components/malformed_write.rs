//! The Workers card's "Send a malformed write" button: the learner plays a worker with a bug, which
//! sends the store a write with no fencing token beside the batch it is working on.
//!
//! It sits under the worker lanes, right below the cluster, so on a phone it is in reach of the step
//! that asks for it. The first worker that is up sends the write, and the line beside the button says
//! which one, so nothing happens to a worker the learner did not expect. What the store makes of the
//! write shows where every store answer does: the caption, the narration and the store's ledger.

use crate::context::use_run;
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, MalformedFault, NodeTarget};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::view::ClusterView;
use quorumlab_sim::world::NodeStatus;

/// The worker that sends the write: the first that is up, with its name. `None` without a store or
/// with every worker paused or crashed.
fn sender(view: &ClusterView) -> Option<(NodeId, String)> {
    let coordination = view.coordination.as_ref()?;
    coordination.resource.as_ref()?;
    let worker = coordination.workers.iter().find(|worker| {
        view.nodes
            .get(worker.id.index())
            .is_some_and(|node| node.status == NodeStatus::Up)
    })?;
    let name = coordination
        .labels
        .get(worker.id.index())
        .cloned()
        .unwrap_or_else(|| worker.id.to_string());
    Some((worker.id, name))
}

#[component]
pub fn MalformedWriteControl() -> impl IntoView {
    let run = use_run();
    let controls = use_controls();
    let has_store = Memo::new(move |_| {
        run.panel_view.with(|view| {
            view.coordination
                .as_ref()
                .is_some_and(|coordination| coordination.resource.is_some())
        })
    });
    let chosen = Memo::new(move |_| run.panel_view.with(sender));
    let send = move |_| {
        if let Some((worker, _)) = chosen.get_untracked() {
            controls.apply(Action::MalformedWrite {
                target: NodeTarget::Node(worker),
                fault: MalformedFault::MissingToken,
            });
        }
    };
    let line = move || match chosen.get() {
        Some((_, name)) => format!(
            "{name} sends the store {}",
            MalformedFault::MissingToken.text()
        ),
        None => "Every worker is paused or crashed: none can send it".to_string(),
    };
    view! {
        <Show when=move || has_store.get()>
            <div class="malformed-write row" data-testid="malformed-write">
                <button data-testid="send-malformed-write" on:click=send disabled=move || chosen.with(Option::is_none)
                    title="Play a worker with a bug: the store must refuse a write it cannot read, and change nothing">
                    "Send a malformed write"
                </button>
                <span class="muted" data-testid="malformed-write-sender">{line}</span>
            </div>
        </Show>
    }
}
