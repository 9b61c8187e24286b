//! The selected node, in full: what it believes (role, term, vote, log, indexes, timers, clock) and the
//! faults you can inflict on it.

use crate::format;
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::view::NodeView;
use quorumlab_sim::world::NodeStatus;

const FACT_LABELS: [&str; 11] = [
    "role",
    "term",
    "voted for",
    "believes leader",
    "commit / applied",
    "log",
    "nextIndex",
    "matchIndex",
    "clock",
    "timers",
    "queued inputs",
];

fn indexes(values: &Option<Vec<u64>>) -> String {
    match values {
        Some(values) => values
            .iter()
            .enumerate()
            .map(|(index, value)| format!("n{}:{value}", index + 1))
            .collect::<Vec<_>>()
            .join(" "),
        None => "—".to_string(),
    }
}

fn timers(node: &NodeView, now_us: u64) -> String {
    if node.timers.is_empty() {
        return "none".to_string();
    }
    node.timers
        .iter()
        .map(|timer| {
            let left_us = timer.due_at_us.saturating_sub(now_us);
            format!("{} in {}", timer.kind, format::sim_time(left_us))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The values for `FACT_LABELS`, in order.
fn fact_values(node: &NodeView, now_us: u64) -> Vec<String> {
    let newest_terms: Vec<String> = node
        .log_terms
        .iter()
        .rev()
        .take(12)
        .rev()
        .map(u64::to_string)
        .collect();
    vec![
        format!("{:?}", node.role).to_lowercase(),
        node.term.to_string(),
        node.voted_for
            .map_or("nobody".to_string(), |vote| vote.to_string()),
        node.leader_hint
            .map_or("unknown".to_string(), |leader| leader.to_string()),
        format!("{} / {}", node.commit_index, node.applied_index),
        format!(
            "{} {}; newest terms [{}]",
            node.log_len,
            if node.log_len == 1 {
                "entry"
            } else {
                "entries"
            },
            newest_terms.join(" ")
        ),
        indexes(&node.next_index),
        indexes(&node.match_index),
        format!(
            "{} (true {}), offset {}, drift {}",
            format::sim_time(node.local_clock_us.max(0) as u64),
            format::sim_time(node.true_clock_us),
            format::clock_offset(node.clock_offset_us),
            format::drift(node.clock_drift_ppm)
        ),
        timers(node, now_us),
        node.queued_inputs.to_string(),
    ]
}

#[component]
pub fn Inspector() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section class="card inspector" aria-label="Node inspector" data-testid="inspector">
            <h2>"Inspector"</h2>
            {move || match state.selected.get() {
                None => view! { <p class="hint">"Select a node (click it, or press 1–9) to see what it believes and to break it."</p> }.into_any(),
                Some(node) => view! { <NodeFacts node=node /> <NodeActions node=node /> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn NodeFacts(node: NodeId) -> impl IntoView {
    let state = expect_context::<AppState>();
    let values = Memo::new(move |_| {
        state.view.with(|view| {
            view.nodes
                .get(node.index())
                .map(|node_view| (node_view.status, fact_values(node_view, view.now_us)))
        })
    });
    let status = move || {
        values.with(|values| {
            values
                .as_ref()
                .map_or("gone", |(status, _)| status.as_str())
        })
    };
    let rows = FACT_LABELS
        .iter()
        .enumerate()
        .map(|(index, label)| {
            let value = move || {
                values.with(|values| {
                    values
                        .as_ref()
                        .map(|(_, values)| values[index].clone())
                        .unwrap_or_default()
                })
            };
            view! { <div class="fact"><dt>{*label}</dt><dd>{value}</dd></div> }
        })
        .collect_view();
    view! {
        <h3 class="inspector-title">{move || format!("{node} — {}", status())}</h3>
        <dl class="facts">{rows}</dl>
    }
}

#[component]
fn NodeActions(node: NodeId) -> impl IntoView {
    let state = expect_context::<AppState>();
    let status = Memo::new(move |_| {
        state.view.with(|view| {
            view.nodes
                .get(node.index())
                .map_or(NodeStatus::Up, |node_view| node_view.status)
        })
    });
    let target = NodeTarget::Node(node);
    let pause_ms = RwSignal::new(String::new());
    let act = move |action: Action| move |_| state.apply(action.clone());
    let pause = move |_| {
        let text = pause_ms.get_untracked();
        let duration_ms = match text.trim() {
            "" => None,
            value => match value.parse::<u64>() {
                Ok(ms) if ms > 0 && ms <= 600_000 => Some(ms),
                _ => {
                    state.notice.set(Some(crate::state::Notice {
                        text: format!("Pause length `{value}` must be a whole number of ms between 1 and 600000 (or empty for an open-ended pause)"),
                        is_error: true,
                    }));
                    return;
                }
            },
        };
        state.apply(Action::Pause {
            target,
            duration_ms,
        });
    };
    view! {
        <div class="action-grid" role="group" aria-label=format!("Faults for {node}")>
            {move || match status.get() {
                NodeStatus::Crashed => view! { <button class="primary" on:click=act(Action::Restart { target })>"Restart"</button> }.into_any(),
                _ => view! { <button class="danger" on:click=act(Action::Crash { target })>"Crash"</button> }.into_any(),
            }}
            {move || match status.get() {
                NodeStatus::Paused => view! { <button class="primary" on:click=act(Action::Resume { target })>"Resume"</button> }.into_any(),
                _ => view! {
                    <span class="pause-control">
                        <button on:click=pause>"Pause"</button>
                        <input type="text" inputmode="numeric" placeholder="for ms" aria-label="Pause duration in ms (optional)"
                            prop:value=pause_ms on:input=move |event| pause_ms.set(event_target_value(&event)) />
                    </span>
                }.into_any(),
            }}
            <button on:click=act(Action::Isolate { target })>"Isolate"</button>
            <button on:click=act(Action::Request { count: 1, target, kind: RequestKind::Put })>"Send a write here"</button>
            <button on:click=act(Action::ClockJump { target, by_ms: 500 })>"Clock +500 ms"</button>
            <button on:click=act(Action::ClockJump { target, by_ms: -500 })>"Clock −500 ms"</button>
            <button on:click=act(Action::ClockDrift { target, ppm: 100_000 })>"Drift +10%"</button>
            <button on:click=act(Action::ClockDrift { target, ppm: -100_000 })>"Drift −10%"</button>
            <button on:click=act(Action::ClockDrift { target, ppm: 0 })>"No drift"</button>
        </div>
    }
}
