//! Messages in flight, moving along their link from send time to delivery time. Colour and label say
//! what kind of message it is; a dropped message turns into a ✕ before it would have arrived. A click,
//! a tap, or Enter on a focused dot pauses the run and opens the message's menu (drop it, hold it
//! back: `message_detail.rs`).

use super::geometry::StageGeometry;
use super::message_detail::MessageMenuTarget;
use crate::components::recycle::recycled;
use crate::context::hover::HoverContext;
use crate::context::run::RunContext;
use crate::context::{use_hover, use_playback, use_run};
use crate::layout::{flight_progress, message_position};
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::view::MessageView;

/// Labels are drawn only while the cluster is small enough for them to be legible.
const LABELS_UP_TO_NODES: usize = 9;
/// Radius of the invisible target around each dot (a dot is 9 user units, about 3 px on a phone).
const TAP_RADIUS: f64 = 26.0;
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

/// Style classes drawn by the bulk renderer, in drawing order (dropped messages last, on top).
const BULK_CLASSES: [&str; 8] = [
    "msg-heartbeat",
    "msg-append",
    "msg-append-ok",
    "msg-append-reject",
    "msg-vote-request",
    "msg-vote-granted",
    "msg-vote-denied",
    "msg-other",
];

#[component]
pub fn ClusterMessages(geometry: Memo<StageGeometry>) -> impl IntoView {
    let compact = Memo::new(move |_| geometry.with(|geometry| geometry.compact));
    view! {
        {move || if compact.get() {
            view! { <BulkMessages geometry=geometry /> }.into_any()
        } else {
            view! { <MessageDots geometry=geometry /> }.into_any()
        }}
    }
}

/// One element per message: labels, ✕ marks, and linking with the space-time diagram by hover or tap.
#[component]
fn MessageDots(geometry: Memo<StageGeometry>) -> impl IntoView {
    let run = use_run();
    let hover = use_hover();
    recycled(move || {
        let sources = DotSources::new(run, hover, geometry);
        let messages = Memo::new(move |_| run.view.with(|view| view.messages.clone()));
        view! {
            <g class="messages">
                <For each=move || messages.get() key=|message| (message.id, message.dropped) let:message>
                    <MessageDot message=message sources=sources />
                </For>
            </g>
        }
    })
}

/// What a dot reads, copied for one recycle epoch so that dots never subscribe to the app's own
/// signals (`components::recycle` says why).
#[derive(Clone, Copy)]
struct DotSources {
    now_us: Memo<u64>,
    geometry: Memo<StageGeometry>,
    hovered: Memo<Option<u64>>,
}

impl DotSources {
    fn new(run: RunContext, hover: HoverContext, geometry: Memo<StageGeometry>) -> DotSources {
        DotSources {
            now_us: Memo::new(move |_| run.view.with(|view| view.now_us)),
            geometry: Memo::new(move |_| geometry.get()),
            hovered: Memo::new(move |_| hover.hovered_message.get()),
        }
    }
}

/// Every message of one kind as a single path of round dots (`M x y h0` segments): in a large cluster
/// hundreds of messages fly at once, and one attribute per kind per frame is far cheaper than hundreds
/// of elements coming and going. No labels or hover here; dropped messages are red dots.
#[component]
fn BulkMessages(geometry: Memo<StageGeometry>) -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let path_for = move |class: &'static str| {
        move || {
            geometry.with(|geometry| {
                run.view.with(|view| {
                    bulk_path(
                        &view.messages,
                        class,
                        view.now_us,
                        geometry,
                        playback.reduced_motion,
                    )
                })
            })
        }
    };
    view! {
        <g class="messages bulk">
            {BULK_CLASSES.iter().map(|class| view! { <path class=format!("bulk {class}") d=path_for(class)></path> }).collect_view()}
            <path class="bulk msg-dropped" d=path_for("dropped")></path>
        </g>
    }
}

/// The `d` attribute drawing every message of `class` (or every dropped message for "dropped").
pub fn bulk_path(
    messages: &[MessageView],
    class: &str,
    now_us: u64,
    geometry: &StageGeometry,
    reduced_motion: bool,
) -> String {
    let mut path = String::new();
    for message in messages {
        let wanted = if class == "dropped" {
            message.dropped
        } else {
            !message.dropped && message_style(message.kind).0 == class
        };
        if !wanted {
            continue;
        }
        let point = message_position(
            geometry.position(message.from),
            geometry.position(message.to),
            (message.sent_at_us, message.deliver_at_us),
            now_us,
            reduced_motion,
        );
        path.push_str(&format!("M{:.1} {:.1}h0", point.x, point.y));
    }
    path
}

#[component]
fn MessageDot(message: MessageView, sources: DotSources) -> impl IntoView {
    let playback = use_playback();
    let hover = use_hover();
    let controls = use_controls();
    let DotSources {
        now_us,
        geometry,
        hovered,
    } = sources;
    let now_us = move || now_us.get();
    let position = move || {
        geometry.with(|geometry| {
            message_position(
                geometry.position(message.from),
                geometry.position(message.to),
                (message.sent_at_us, message.deliver_at_us),
                now_us(),
                playback.reduced_motion,
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
    let menu = expect_context::<MessageMenuTarget>().0;
    let open_menu = move || {
        hover.hovered_message.set(Some(id));
        if !dropped {
            if playback.playing.get_untracked() {
                controls.toggle_playing();
            }
            menu.set(Some(id));
        }
    };
    let label = format!(
        "{} from {} to {}{}",
        message.kind,
        message.from,
        message.to,
        if dropped {
            ", lost on the way"
        } else {
            ": press Enter to drop it or hold it back"
        }
    );
    let classes = move || {
        if hovered.get() == Some(id) {
            format!("{classes} hovered")
        } else {
            classes.clone()
        }
    };
    view! {
        // A tap sets what a hover would (a touch screen has no hover); the next tap elsewhere clears it.
        <g class=classes transform=transform data-kind=message.kind data-message-id=id.to_string()
            tabindex="0" role="button" aria-label=label
            on:mouseenter=move |_| hover.hovered_message.set(Some(id))
            on:mouseleave=move |_| hover.hovered_message.set(None)
            on:click=move |_| open_menu()
            on:keydown=move |event| {
                if event.key() == "Enter" || event.key() == " " {
                    event.prevent_default();
                    open_menu();
                }
            }>
            // Wider than the dot, so a finger can hit it on a phone-sized stage.
            <circle class="message-hit" r=TAP_RADIUS></circle>
            <Show when=move || !drop_visible() fallback=|| view! { <text class="drop-mark" y="7">"✕"</text> }>
                <circle r=if message.kind == "Heartbeat" { 6.0 } else { 9.0 }></circle>
            </Show>
            <Show when=move || show_caption() && !caption.is_empty()>
                <text class="message-caption" y="-14">{caption}</text>
            </Show>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Point;
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::units::Term;

    fn geometry() -> StageGeometry {
        StageGeometry {
            positions: vec![Point { x: 0.0, y: 0.0 }, Point { x: 100.0, y: 0.0 }],
            node_radius: 10.0,
            ring_radius: 350.0,
            timer_gap: 4.0,
            compact: true,
        }
    }

    fn message(id: u64, kind: &'static str, dropped: bool) -> MessageView {
        MessageView {
            id,
            from: NodeId(0),
            to: NodeId(1),
            kind,
            term: Term(1),
            entry_count: 0,
            sent_at_us: 0,
            deliver_at_us: 1_000,
            dropped,
            held_ms: 0,
            content: None,
        }
    }

    #[test]
    fn bulk_paths_draw_each_message_once_under_its_kind_or_as_dropped() {
        let messages = vec![
            message(1, "Heartbeat", false),
            message(2, "Heartbeat", true),
            message(3, "RequestVote", false),
        ];
        let heartbeats = bulk_path(&messages, "msg-heartbeat", 500, &geometry(), false);
        assert_eq!(heartbeats, "M50.0 0.0h0");
        assert_eq!(
            bulk_path(&messages, "dropped", 250, &geometry(), false),
            "M25.0 0.0h0"
        );
        assert_eq!(
            bulk_path(&messages, "msg-vote-request", 1_000, &geometry(), false),
            "M100.0 0.0h0"
        );
        assert_eq!(
            bulk_path(&messages, "msg-append", 500, &geometry(), false),
            ""
        );
    }
}
