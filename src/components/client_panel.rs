//! Client requests: send writes or reads to the leader or to a chosen node, and see how each ended as
//! the client sees it — committed, rejected with a hint, or unknown after a timeout. In a coordination
//! world the panel first says who really drives the load (the workers' own loops); where the servers
//! run Raft it still offers extra log writes to them, and for Redis-style locks it offers nothing.

use crate::context::{use_notices, use_run};
use crate::format;
use crate::state::controls::use_controls;
use crate::world_text::client::{self, ClientPath};
use crate::world_text::names::node_name;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};

const SHOWN_REQUESTS: usize = 8;

#[component]
pub fn ClientPanel() -> impl IntoView {
    let run = use_run();
    let notices = use_notices();
    let controls = use_controls();
    let target_choice = RwSignal::new("leader".to_string());
    let path = Memo::new(move |_| {
        run.view
            .with(|view| client::client_path(view.coordination.as_ref()))
    });
    let load_sentence = Memo::new(move |_| {
        run.view
            .with(|view| client::load_sentence(view.coordination.as_ref()))
    });
    let options = Memo::new(move |_| {
        run.view
            .with(|view| client::target_options(view.coordination.as_ref(), view.nodes.len()))
    });
    let target = move || {
        let choice = target_choice.get_untracked();
        if choice == "leader" {
            return Some(NodeTarget::Leader);
        }
        // Only the values the menu offers (servers) parse; anything else asks for a choice.
        options
            .with_untracked(|options| client::parse_target(&choice, options))
            .map(NodeTarget::Node)
    };
    let send = move |kind: RequestKind| {
        move |_| match target() {
            Some(target) => controls.apply(Action::Request {
                count: 1,
                target,
                kind: kind.clone(),
            }),
            None => notices.notice.set(Some(crate::context::notice::Notice {
                text: "Choose where to send the request".to_string(),
                is_error: true,
            })),
        }
    };
    let recent = Memo::new(move |_| {
        run.panel_view.with(|view| {
            view.recent_requests
                .iter()
                .rev()
                .take(SHOWN_REQUESTS)
                .map(|record| {
                    let place = record.node.map_or("leader".to_string(), |node| {
                        node_name(view.coordination.as_ref(), node)
                    });
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
        run.view
            .with(|view| format!("{} waiting", view.pending_requests))
    };
    view! {
        <section class="card client-panel" aria-label="Client requests" data-testid="client-panel">
            <h2>"Client"</h2>
            <Show when=move || !load_sentence.with(String::is_empty)>
                <p class="hint" data-testid="client-load-note">{move || load_sentence.get()}</p>
            </Show>
            <Show when=move || path.get() != ClientPath::None>
                <div class="row">
                    <label>{move || if path.get() == ClientPath::Raft { "Send to " } else { "Extra write to " }}
                        <select aria-label="Request target" data-testid="request-target" on:change=move |event| target_choice.set(event_target_value(&event))>
                            {move || options.get().into_iter().map(|(value, text)| {
                                let selected = value == "leader";
                                view! { <option value=value selected=selected>{text}</option> }
                            }).collect_view()}
                        </select>
                    </label>
                    <button class="primary" data-testid="send-write" on:click=send(RequestKind::Put)>"Write"</button>
                    <Show when=move || path.get() == ClientPath::Raft>
                        <button on:click=send(RequestKind::Get)>"Read"</button>
                    </Show>
                    <span class="muted">{counts}</span>
                </div>
            </Show>
            <ul class="requests" data-testid="request-list">
                <For each=move || recent.get() key=|row| (row.0, row.2.clone()) let:row>
                    <li class=format!("request outcome-{}", row.3)><span class="request-what">{row.1}</span><span class="request-outcome">{row.2}</span></li>
                </For>
            </ul>
        </section>
    }
}
