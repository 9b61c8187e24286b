//! The buttons for one node's faults, in rows (process, pause, network, clock, drift, client), drawn
//! from `crate::node_actions` for both the Inspector and the node's popover. A click goes through
//! `AppState::apply`, like every other action, so the timeline and share links see it.

use crate::node_actions::{node_choices, rows, NodeChoice, NodeSituation, Tone};
use crate::state::AppState;
use crate::world_text::names::node_name;
use leptos::prelude::*;
use quorumlab_sim::ids::NodeId;

/// The rows `node` offers right now; a memo, so buttons are redrawn only when the offer changes.
pub fn offered_rows(state: AppState, node: NodeId) -> Memo<Vec<(&'static str, Vec<NodeChoice>)>> {
    Memo::new(move |_| {
        state.panel_view.with(|view| {
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
    state: AppState,
    choice: NodeChoice,
    named: bool,
    after: Option<Callback<()>>,
) -> impl IntoView {
    let action = choice.action;
    let aria_label = named.then_some(choice.aria_label);
    let apply = move |_| {
        state.apply(action.clone());
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
/// `after` runs after each applied choice (the popover puts focus back where it was).
///
/// Rows are keyed by what they offer: a row whose choices change (Pause becomes Resume) is drawn
/// anew, so a focused button never silently turns into a different action under the keyboard.
#[component]
pub fn NodeActionRows(
    node: NodeId,
    named: bool,
    #[prop(optional)] after: Option<Callback<()>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let offered = offered_rows(state, node);
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
                    {row.1.into_iter().map(|choice| choice_button(state, choice, named, after)).collect_view()}
                </span>
            </div>
        </For>
    }
}
