//! One badge per invariant, always visible: green while it holds, red with a one-line explanation and
//! a "show me" link that jumps to the first violating moment. Which invariants show depends on the
//! protocol: Raft's where a Raft group exists, the lock, lease and invoice invariants in coordination
//! worlds, and any invariant that was violated, relevant or not.

use crate::components::history_lanes::reveal_history;
use crate::context::{use_run, use_selection};
use crate::state::controls::use_controls;
use crate::world_text::capabilities::{relevant_invariants, tokens_fence};
use crate::world_text::hold_words::reworded_holds;
use leptos::prelude::*;
use quorumlab_sim::checker::LINEARIZABLE_READS;
use quorumlab_sim::registry;

/// The registry's own spelling of an invariant some world lists (a violated one shows even where it is
/// not expected), or `None` for a name no world knows.
fn known_invariant(name: &str) -> Option<&'static str> {
    registry::ENTRIES
        .iter()
        .flat_map(|entry| entry.invariants())
        .find(|invariant| invariant.name == name)
        .map(|invariant| invariant.name)
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct BadgeState {
    name: &'static str,
    promise: &'static str,
    /// First violation: when (µs) and what.
    first_violation: Option<(u64, String)>,
    count: u64,
}

#[component]
pub fn CheckerBadges() -> impl IntoView {
    let run = use_run();
    let violation_count = Memo::new(move |_| {
        run.view
            .with(|view| (view.violation_count, view.now_us == 0))
    });
    let badges = Memo::new(move |_| {
        let _violations_changed = violation_count.get();
        let protocol = run.scenario.with(|scenario| scenario.protocol.kind());
        let tokens = tokens_fence(protocol);
        run.with_session(|session| {
            let counts = session.violation_counts();
            let mut names = relevant_invariants(protocol);
            for name in counts.keys() {
                if !names.contains(&name.as_str()) {
                    if let Some(known) = known_invariant(name) {
                        names.push(known);
                    }
                }
            }
            names
                .into_iter()
                .map(|name| {
                    let first = session
                        .violations()
                        .iter()
                        .find(|violation| violation.invariant == name);
                    BadgeState {
                        name,
                        promise: registry::promise(name),
                        first_violation: first.map(|violation| {
                            let detail = reworded_holds(&violation.detail, tokens);
                            (violation.at_ms * 1_000, detail)
                        }),
                        count: counts.get(name).copied().unwrap_or(0),
                    }
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="card checkers" aria-label="Invariant checkers" data-testid="checker-badges">
            <h2>"Invariants"</h2>
            <ul class="badges">
                <For each=move || badges.get() key=|badge| badge.clone() let:badge>
                    <Badge badge=badge />
                </For>
            </ul>
        </section>
    }
}

#[component]
fn Badge(badge: BadgeState) -> impl IntoView {
    let controls = use_controls();
    // The client history panel exists only in a world with a model of what its clients see.
    let has_history = use_run()
        .scenario
        .with_untracked(|scenario| crate::history_view::has_history_model(&scenario.protocol));
    let holds = badge.first_violation.is_none();
    let class = if holds {
        "badge holds"
    } else {
        "badge violated"
    };
    view! {
        <li class=class data-invariant=badge.name aria-label=format!("{}: {}", badge.name, if holds { "holds" } else { "violated" })>
            <span class="badge-mark">{if holds { "✓" } else { "✗" }}</span>
            <span class="badge-name">{badge.name}</span>
            {match badge.first_violation {
                None => view! { <span class="badge-detail">{badge.promise}</span> }.into_any(),
                Some((at_us, detail)) => view! {
                    <span class="badge-detail">{format!("{detail} ({}×)", badge.count)}</span>
                    // One millisecond past the recorded moment, so the violating state is on screen.
                    <button class="link" on:click=move |_| controls.seek_us(at_us + 1_000)>"show me"</button>
                }.into_any(),
            }}
            {(badge.name == LINEARIZABLE_READS && has_history).then(|| {
                let open = use_selection().history_open;
                view! {
                    <button class="link badge-history-link" data-testid="badge-history-link"
                        on:click=move |_| reveal_history(open)>"what the clients saw"</button>
                }
            })}
        </li>
    }
}
