//! The buttons for one node's faults, in rows (process, pause, network, clock, drift, client), drawn
//! from `crate::node_actions` for both the Inspector and the node's popover. A click goes through
//! `AppState::apply`, like every other action, so the timeline and share links see it. Under them, a
//! pause of a typed length.

use crate::context::run::RunContext;
use crate::context::{use_notices, use_run};
use crate::node_actions::{node_choices, rows, NodeChoice, NodeSituation, Tone};
use crate::state::controls::{use_controls, Controls};
use crate::world_text::names::node_name;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::ids::NodeId;

/// The rows `node` offers right now; a memo, so buttons are redrawn only when the offer changes.
pub fn offered_rows(run: RunContext, node: NodeId) -> Memo<Vec<(&'static str, Vec<NodeChoice>)>> {
    Memo::new(move |_| {
        run.panel_view.with(|view| {
            let Some(situation) = NodeSituation::of(view, node) else {
                return Vec::new();
            };
            let name = node_name(view.coordination.as_ref(), node);
            rows(node_choices(node, &name, situation))
                .into_iter()
                .map(|(group, choices)| (group.heading(), choices))
                .collect()
        })
    })
}

fn tone_class(tone: Tone) -> &'static str {
    match tone {
        Tone::Plain => "",
        Tone::Danger => "danger",
        Tone::Primary => "primary",
    }
}

fn choice_button(
    controls: Controls,
    choice: NodeChoice,
    named: bool,
    after: Option<Callback<()>>,
) -> impl IntoView {
    let action = choice.action;
    let aria_label = named.then_some(choice.aria_label);
    let apply = move |_| {
        controls.apply(action.clone());
        if let Some(after) = after {
            after.run(());
        }
    };
    view! {
        <button class=tone_class(choice.tone) aria-label=aria_label on:click=apply>
            {choice.text}
        </button>
    }
}

/// `named` gives every button an accessible name that says which node it breaks ("Crash n3"): the
/// popover needs it, floating apart from any heading; the Inspector's buttons sit under the node's name.
/// `after` runs after each applied choice, and after the run itself changed what is offered (a pause
/// that ended, a crash from a shortcut): the popover then puts focus back where it was.
///
/// Rows are keyed by what they offer: a row whose choices change (Pause becomes Resume) is drawn
/// anew, so a focused button never silently turns into a different action under the keyboard.
#[component]
pub fn NodeActionRows(
    node: NodeId,
    named: bool,
    #[prop(optional)] after: Option<Callback<()>>,
) -> impl IntoView {
    let controls = use_controls();
    let offered = offered_rows(use_run(), node);
    if let Some(after) = after {
        Effect::new(move |drawn: Option<()>| {
            offered.track();
            if drawn.is_some() {
                after.run(());
            }
        });
    }
    let row_key = |(heading, choices): &(&'static str, Vec<NodeChoice>)| {
        let offers: Vec<String> = choices
            .iter()
            .map(|choice| choice.aria_label.clone())
            .collect();
        (*heading, offers)
    };
    view! {
        <For each=move || offered.get() key=row_key let:row>
            <div class="action-row" data-group=row.0>
                <span class="action-heading">{row.0}</span>
                <span class="action-buttons">
                    {row.1.into_iter().map(|choice| choice_button(controls, choice, named, after)).collect_view()}
                </span>
            </div>
        </For>
    }
}

/// A pause of any length, typed in: the rows offer only a few lengths. It sits in the Inspector and in
/// the node's popover, beside the node, so a step that asks for "2500 next to Pause" never sends the
/// learner below the fold for it. Enter in the field pauses too.
#[component]
pub fn PauseForMs(
    node: NodeId,
    named: bool,
    #[prop(optional)] after: Option<Callback<()>>,
) -> impl IntoView {
    let run = use_run();
    let notices = use_notices();
    let controls = use_controls();
    let pause_ms = RwSignal::new(String::new());
    let pause = move || {
        let text = pause_ms.get_untracked();
        let duration_ms = match text.trim() {
            "" => None,
            value => match value.parse::<u64>() {
                Ok(ms) if ms > 0 && ms <= 600_000 => Some(ms),
                _ => {
                    notices.notice.set(Some(crate::context::notice::Notice {
                        text: format!("Pause length `{value}` must be a whole number of ms between 1 and 600000 (or empty for an open-ended pause)"),
                        is_error: true,
                    }));
                    return;
                }
            },
        };
        controls.apply(Action::Pause {
            target: NodeTarget::Node(node),
            duration_ms,
        });
        if let Some(after) = after {
            after.run(());
        }
    };
    let name = move || {
        run.panel_view
            .with(|view| node_name(view.coordination.as_ref(), node))
    };
    view! {
        <div class="action-row" data-group="any length">
            <span class="action-heading">"any length"</span>
            <span class="pause-control">
                <button data-testid="pause-for-ms" on:click=move |_| pause()
                    aria-label=move || named.then(|| format!("Pause {} for the length typed", name()))>"Pause"</button>
                <input type="text" inputmode="numeric" placeholder="for ms" data-testid="pause-ms"
                    aria-label=move || if named { format!("Pause {} for how many ms (optional)", name()) } else { "Pause duration in ms (optional)".to_string() }
                    prop:value=pause_ms on:input=move |event| pause_ms.set(event_target_value(&event))
                    on:keydown=move |event| if event.key() == "Enter" { event.prevent_default(); pause(); } />
            </span>
        </div>
    }
}
