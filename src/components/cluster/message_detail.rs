//! What the message under the pointer (or last tapped) is, in words, on the stage itself: on a phone
//! the space-time diagram's caption is a long scroll away from the dot that was touched.

use crate::format;
use crate::state::AppState;
use crate::world_text::names::node_name;
use leptos::prelude::*;
use quorumlab_sim::view::MessageView;
use quorumlab_sim::view_coordination::CoordinationView;

/// One line about `message`: kind, sender → receiver, term, entries, when sent and its fate.
pub fn describe_message(message: &MessageView, coordination: Option<&CoordinationView>) -> String {
    let mut parts = vec![format!(
        "{} {} → {}",
        message.kind,
        node_name(coordination, message.from),
        node_name(coordination, message.to)
    )];
    if coordination.is_none() {
        parts.push(format!("term {}", message.term));
    }
    if message.entry_count > 0 {
        parts.push(format!("{} entries", message.entry_count));
    }
    parts.push(format!("sent {}", format::sim_time(message.sent_at_us)));
    parts.push(if message.dropped {
        "lost on the way".to_string()
    } else {
        format!("arrives {}", format::sim_time(message.deliver_at_us))
    });
    parts.join(" · ")
}

#[component]
pub fn MessageDetail() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = Memo::new(move |_| {
        let id = state.hovered_message.get()?;
        state.view.with(|view| {
            let message = view.messages.iter().find(|message| message.id == id)?;
            Some(describe_message(message, view.coordination.as_ref()))
        })
    });
    view! {
        <Show when=move || text.with(Option::is_some)>
            <p class="message-detail" data-testid="message-detail">{move || text.get().unwrap_or_default()}</p>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::units::Term;

    #[test]
    fn a_message_says_who_to_whom_and_its_fate() {
        let mut message = MessageView {
            id: 4,
            from: NodeId(0),
            to: NodeId(2),
            kind: "AppendEntries",
            term: Term(3),
            entry_count: 2,
            sent_at_us: 1_200_000,
            deliver_at_us: 1_210_000,
            dropped: false,
            held_ms: 0,
        };
        assert_eq!(
            describe_message(&message, None),
            "AppendEntries n1 → n3 · term 3 · 2 entries · sent 1.200 s · arrives 1.210 s"
        );
        message.dropped = true;
        message.entry_count = 0;
        assert_eq!(
            describe_message(&message, None),
            "AppendEntries n1 → n3 · term 3 · sent 1.200 s · lost on the way"
        );
    }
}
