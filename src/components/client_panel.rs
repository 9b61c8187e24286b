//! Client requests: send writes or reads to the leader or to a chosen node, and see how each ended as
//! the client sees it — committed, rejected with a hint, or unknown after a timeout.

use crate::format;
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;

const SHOWN_REQUESTS: usize = 8;

#[component]
pub fn ClientPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let target_choice = RwSignal::new("leader".to_string());
    let node_count = Memo::new(move |_| state.view.with(|view| view.nodes.len()));
    let target = move || {
        let choice = target_choice.get_untracked();
        if choice == "leader" {
            Some(NodeTarget::Leader)
        } else {
            NodeId::parse(&choice, node_count.get_untracked())
                .ok()
                .map(NodeTarget::Node)
        }
    };
    let send = move |kind: RequestKind| {
        move |_| match target() {
            Some(target) => state.apply(Action::Request {
                count: 1,
                target,
                kind: kind.clone(),
            }),
            None => state.notice.set(Some(crate::state::Notice {
                text: "Choose where to send the request".to_string(),
                is_error: true,
            })),
        }
    };
    let recent = Memo::new(move |_| {
        state.view.with(|view| {
            view.recent_requests
                .iter()
                .rev()
                .take(SHOWN_REQUESTS)
                .map(|record| {
                    let place = record
                        .node
                        .map_or("leader".to_string(), |node| node.to_string());
                    let what = match record.command {
                        Some(quorumlab_sim::protocol::ClientCommand::Put { key, value }) => {
                            format!("put k{key}={value}")
                        }
                        Some(quorumlab_sim::protocol::ClientCommand::Get { key }) => {
                            format!("get k{key}")
                        }
                        None => "request".to_string(),
                    };
                    (
                        record.id,
                        format!("#{} {what} → {place}", record.id),
                        format::client_outcome(&record.outcome),
                        format::outcome_class(&record.outcome),
                    )
                })
                .collect::<Vec<_>>()
        })
    });
    let counts = move || {
        state
            .view
            .with(|view| format!("{} waiting", view.pending_requests))
    };
    view! {
        <section class="card client-panel" aria-label="Client requests" data-testid="client-panel">
            <h2>"Client"</h2>
            <div class="row">
                <label>"Send to "
                    <select aria-label="Request target" on:change=move |event| target_choice.set(event_target_value(&event))>
                        <option value="leader" selected>"the leader"</option>
                        {move || (1..=node_count.get()).map(|number| view! { <option value=format!("n{number}")>{format!("n{number}")}</option> }).collect_view()}
                    </select>
                </label>
                <button class="primary" data-testid="send-write" on:click=send(RequestKind::Put)>"Write"</button>
                <button on:click=send(RequestKind::Get)>"Read"</button>
                <span class="muted">{counts}</span>
            </div>
            <ul class="requests" data-testid="request-list">
                <For each=move || recent.get() key=|row| (row.0, row.2.clone()) let:row>
                    <li class=format!("request outcome-{}", row.3)><span class="request-what">{row.1}</span><span class="request-outcome">{row.2}</span></li>
                </For>
            </ul>
        </section>
    }
}
