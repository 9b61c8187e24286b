//! Messages in flight, moving along their link from send time to delivery time. Colour and label say
//! what kind of message it is; a dropped message turns into a ✕ before it would have arrived.

use super::cluster::StageGeometry;
use crate::layout::{flight_progress, message_position};
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::view::MessageView;

/// Labels are drawn only while the cluster is small enough for them to be legible.
const LABELS_UP_TO_NODES: usize = 9;
/// Share of its flight after which a dropped message shows its ✕.
const DROP_MARK_FROM_PROGRESS: f64 = 0.55;

/// CSS class and a short caption per message kind.
pub fn message_style(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "RequestVote" => ("msg-vote-request", "vote?"),
        "PreVote" => ("msg-vote-request", "pre-vote?"),
        "Vote granted" | "PreVote granted" => ("msg-vote-granted", "yes"),
        "Vote denied" | "PreVote denied" => ("msg-vote-denied", "no"),
        "AppendEntries" => ("msg-append", "append"),
        "Heartbeat" => ("msg-heartbeat", ""),
        "AppendEntries ok" => ("msg-append-ok", "ok"),
        "AppendEntries reject" => ("msg-append-reject", "reject"),
        _ => ("msg-other", ""),
    }
}

#[component]
pub fn ClusterMessages(geometry: Memo<StageGeometry>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let messages = Memo::new(move |_| state.view.with(|view| view.messages.clone()));
    view! {
        <g class="messages">
            <For each=move || messages.get() key=|message| (message.id, message.dropped) let:message>
                <MessageDot message=message geometry=geometry />
            </For>
        </g>
    }
}

#[component]
fn MessageDot(message: MessageView, geometry: Memo<StageGeometry>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let now_us = move || state.view.with(|view| view.now_us);
    let position = move || {
        geometry.with(|geometry| {
            message_position(
                geometry.position(message.from),
                geometry.position(message.to),
                message.sent_at_us,
                message.deliver_at_us,
                now_us(),
            )
        })
    };
    let transform = move || {
        let point = position();
        format!("translate({:.1} {:.1})", point.x, point.y)
    };
    let (class, caption) = message_style(message.kind);
    let show_caption =
        move || geometry.with(|geometry| geometry.positions.len() <= LABELS_UP_TO_NODES);
    let dropped = message.dropped;
    let drop_visible = move || {
        dropped
            && flight_progress(message.sent_at_us, message.deliver_at_us, now_us())
                >= DROP_MARK_FROM_PROGRESS
    };
    let classes = format!("message {class}{}", if dropped { " dropped" } else { "" });
    // Hovering a dot highlights the same message in the space-time diagram, and the other way round.
    let id = message.id;
    let classes = move || {
        if state.hovered_message.get() == Some(id) {
            format!("{classes} hovered")
        } else {
            classes.clone()
        }
    };
    view! {
        <g class=classes transform=transform data-kind=message.kind data-message-id=id.to_string()
            on:mouseenter=move |_| state.hovered_message.set(Some(id))
            on:mouseleave=move |_| state.hovered_message.set(None)>
            <Show when=move || !drop_visible() fallback=|| view! { <text class="drop-mark" y="7">"✕"</text> }>
                <circle r=if message.kind == "Heartbeat" { 6.0 } else { 9.0 }></circle>
            </Show>
            <Show when=move || show_caption() && !caption.is_empty()>
                <text class="message-caption" y="-14">{caption}</text>
            </Show>
        </g>
    }
}
