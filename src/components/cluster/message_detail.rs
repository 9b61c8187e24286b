//! What the message under the pointer (or last tapped) is, in words, on the stage itself: on a phone
//! the space-time diagram's caption is a long scroll away from the dot that was touched. A message that
//! was clicked, tapped or chosen with Enter also gets its menu here: drop it, or hold it back a while
//! (recorded actions naming the message's id, so a share link replays them).

use crate::context::{use_hover, use_run};
use crate::format;
use crate::state::controls::use_controls;
use crate::world_text::names::node_name;
use leptos::prelude::*;
use quorumlab_sim::action::Action;
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
    // What this recipient was told: a liar's messages differ here from one recipient to the next.
    if let Some(content) = &message.content {
        parts.push(format!("says “{content}”"));
    }
    parts.push(format!("sent {}", format::sim_time(message.sent_at_us)));
    parts.push(if message.dropped {
        "lost on the way".to_string()
    } else if message.held_ms > 0 {
        format!(
            "held back {} ms, arrives {}",
            message.held_ms,
            format::sim_time(message.deliver_at_us)
        )
    } else {
        format!("arrives {}", format::sim_time(message.deliver_at_us))
    });
    parts.join(" · ")
}

/// The message whose menu is open, by id, shared by the dots and the menu.
#[derive(Clone, Copy)]
pub struct MessageMenuTarget(pub RwSignal<Option<u64>>);

/// How long "Hold" holds a message back, each a button: a heartbeat's worth, and past an election timeout.
const HOLD_CHOICES_MS: [u64; 2] = [200, 1_000];

/// A hold button's words: `Hold 200 ms`, `Hold 1 s`.
fn hold_text(by_ms: u64) -> String {
    if by_ms.is_multiple_of(1_000) {
        format!("Hold {} s", by_ms / 1_000)
    } else {
        format!("Hold {by_ms} ms")
    }
}

#[component]
pub fn MessageDetail() -> impl IntoView {
    let run = use_run();
    let hover = use_hover();
    let controls = use_controls();
    let menu = expect_context::<MessageMenuTarget>().0;
    let text = Memo::new(move |_| {
        let id = menu.get().or_else(|| hover.hovered_message.get())?;
        run.view.with(|view| {
            let message = view.messages.iter().find(|message| message.id == id)?;
            Some(describe_message(message, view.coordination.as_ref()))
        })
    });
    // The open menu's message, while it is still on its way (a step or a scrub may have delivered it).
    let chosen = Memo::new(move |_| {
        let id = menu.get()?;
        run.view.with(|view| {
            view.messages
                .iter()
                .find(|message| message.id == id && !message.dropped)
                .map(|message| (message.id, message.from, message.to))
        })
    });
    let act = move |make: &dyn Fn(
        u64,
        quorumlab_sim::ids::NodeId,
        quorumlab_sim::ids::NodeId,
    ) -> Action| {
        if let Some((id, from, to)) = chosen.get_untracked() {
            controls.apply(make(id, from, to));
        }
        menu.set(None);
    };
    view! {
        <Show when=move || text.with(Option::is_some)>
            <div class="message-detail" data-testid="message-detail">
                <p>{move || text.get().unwrap_or_default()}</p>
                <Show when=move || chosen.with(Option::is_some)>
                    <div class="row message-menu" role="group" aria-label="This message" data-testid="message-menu"
                        on:keydown=move |event| if event.key() == "Escape" { menu.set(None) }>
                        <button class="danger" data-testid="message-drop"
                            on:click=move |_| act(&|message, from, to| Action::DropMessage { message, from, to })>"Drop it"</button>
                        {HOLD_CHOICES_MS.into_iter().map(|by_ms| view! {
                            <button data-testid=format!("message-hold-{by_ms}")
                                on:click=move |_| act(&|message, from, to| Action::HoldMessage { message, from, to, by_ms })>
                                {hold_text(by_ms)}</button>
                        }).collect_view()}
                        <button class="link" on:click=move |_| menu.set(None)>"Close"</button>
                    </div>
                </Show>
            </div>
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
            content: None,
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
