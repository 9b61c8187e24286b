//! One badge per invariant, always visible: green while it holds, red with a one-line explanation and
//! a "show me" link that jumps to the first violating moment.

use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::checker::LINEARIZABLE_READS;
use quorumlab_sim::checker::{
    ELECTION_SAFETY, LEADER_APPEND_ONLY, LEADER_COMPLETENESS, LOG_MATCHING, STATE_MACHINE_SAFETY,
};

/// What each invariant promises, in a phrase a learner can hold on to.
const INVARIANTS: [(&str, &str); 6] = [
    (ELECTION_SAFETY, "at most one leader per term"),
    (LEADER_APPEND_ONLY, "a leader never rewrites its own log"),
    (LOG_MATCHING, "same index and term means same history"),
    (
        LEADER_COMPLETENESS,
        "committed entries survive into every later leader",
    ),
    (
        STATE_MACHINE_SAFETY,
        "no two nodes apply different commands at one index",
    ),
    (LINEARIZABLE_READS, "a read never returns stale data"),
];

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
    let state = expect_context::<AppState>();
    let violation_count = Memo::new(move |_| {
        state
            .view
            .with(|view| (view.violation_count, view.now_us == 0))
    });
    let badges = Memo::new(move |_| {
        let _violations_changed = violation_count.get();
        state.with_session(|session| {
            let checkers = session.world().checkers();
            INVARIANTS
                .iter()
                .map(|(name, promise)| {
                    let first = checkers
                        .violations()
                        .iter()
                        .find(|violation| violation.invariant == *name);
                    BadgeState {
                        name,
                        promise,
                        first_violation: first
                            .map(|violation| (violation.at_ms * 1_000, violation.detail.clone())),
                        count: checkers.violation_counts().get(*name).copied().unwrap_or(0),
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
    let state = expect_context::<AppState>();
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
                    <button class="link" on:click=move |_| state.seek_us(at_us + 1_000)>"show me"</button>
                }.into_any(),
            }}
        </li>
    }
}
