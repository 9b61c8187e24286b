//! The line under the history's verdict after a click on an operation: where the run went and what
//! the node that answered looked like at that instant — its term, its lease and its clock against
//! true time — with a button that brings the inspector into view.
//!
//! Why a line of its own: the seek and the selection change the space-time diagram and the inspector,
//! which on most screens sit out of view from the history panel; without it a learner clicks a bar
//! and sees only the lanes redrawn shorter, and has to hunt for what the click did.

use crate::context::use_run;
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;

/// One click on an operation of the run's history.
#[derive(Clone, Debug, PartialEq)]
pub struct Jump {
    /// The operation's number in the history (its bar's `data-op`).
    pub op: u32,
    /// The operation as its bar is labelled ("get k1 → 1").
    pub op_words: String,
    /// Where the click took the run: the answer, or the invocation when no answer came.
    pub at_us: u64,
    pub served_by: Option<NodeId>,
}

#[component]
pub fn JumpNote(jump: RwSignal<Option<Jump>>) -> impl IntoView {
    let run = use_run();
    let words = move || {
        let jump = jump.get()?;
        let at = crate::format::sim_time(jump.at_us);
        let Some(node) = jump.served_by else {
            let text = format!(
                "Now at {at}, when “{}” was sent; no node answered it.",
                jump.op_words
            );
            return Some((text, None));
        };
        let facts = run.panel_view.with(|view| {
            view.nodes
                .iter()
                .find(|seen| seen.id == node)
                .map(node_facts)
        });
        let text = format!(
            "Now at {at}, when {node} answered “{}”. {node} {}",
            jump.op_words,
            facts.unwrap_or_else(|| "is no longer in the cluster.".to_string())
        );
        Some((text, Some(node)))
    };
    view! {
        {move || words().map(|(text, node)| view! {
            <p class="hv-jumped" data-testid="history-jumped" role="status">
                <span>{text}</span>
                {node.map(|node| view! {
                    <button data-testid="history-show-inspector" on:click=move |_| show_inspector()>
                        {format!("Show {node} in the inspector")}
                    </button>
                })}
            </p>
        })}
    }
}

/// "was in term 2, its lease held by its own clock, which ran 180 ms ahead of true time."
fn node_facts(node: &quorumlab_sim::view::NodeView) -> String {
    let lease = match node.lease_holds {
        Some(true) => ", its lease held by its own clock",
        Some(false) => ", its lease had run out",
        None => "",
    };
    let ahead_ms = (node.local_clock_us - node.true_clock_us as i64) as f64 / 1e3;
    let clock = if ahead_ms.abs() < 0.5 {
        "its clock agreed with true time".to_string()
    } else if ahead_ms > 0.0 {
        format!("its clock ran {ahead_ms:.0} ms ahead of true time")
    } else {
        format!("its clock ran {:.0} ms behind true time", -ahead_ms)
    };
    format!("was in term {}{lease}; {clock}.", node.term)
}

fn show_inspector() {
    let inspector = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| {
            document
                .query_selector("[data-testid=inspector]")
                .ok()
                .flatten()
        });
    if let Some(inspector) = inspector {
        inspector.scroll_into_view();
    }
}
