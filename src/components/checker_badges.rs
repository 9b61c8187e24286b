//! One badge per invariant, always visible: green while it holds, red with a one-line explanation and
//! a "show me" link that jumps to the first violating moment. Which invariants show depends on the
//! protocol: Raft's where a Raft group exists, the lock, lease and invoice invariants in coordination
//! worlds, and any invariant that was violated, relevant or not.

use super::coordination::{promise, relevant_invariants};
use crate::state::AppState;
use leptos::prelude::*;

/// Every invariant a badge can name (a violated one shows even where it is not expected).
const KNOWN: [&str; 13] = [
    quorumlab_sim::checker::ELECTION_SAFETY,
    quorumlab_sim::checker::LEADER_APPEND_ONLY,
    quorumlab_sim::checker::LOG_MATCHING,
    quorumlab_sim::checker::LEADER_COMPLETENESS,
    quorumlab_sim::checker::STATE_MACHINE_SAFETY,
    quorumlab_sim::checker::LINEARIZABLE_READS,
    quorumlab_sim::checker::MUTUAL_EXCLUSION,
    quorumlab_sim::checker::TOKEN_MONOTONICITY,
    quorumlab_sim::checker::NO_LOST_UPDATES,
    quorumlab_sim::checker::SINGLE_LEASE_HOLDER,
    quorumlab_sim::checker::RELEASE_BY_OWNER,
    quorumlab_sim::checker::EXCLUSIVE_BELIEF,
    quorumlab_sim::checker::NO_DUPLICATE_INVOICE,
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
        let protocol = state.scenario.with(|scenario| scenario.protocol_name());
        state.with_session(|session| {
            let checkers = session.world().checkers();
            let mut names = relevant_invariants(protocol);
            for name in checkers.violation_counts().keys() {
                if !names.contains(&name.as_str()) {
                    if let Some(known) = KNOWN.iter().find(|known| **known == name.as_str()) {
                        names.push(known);
                    }
                }
            }
            names
                .into_iter()
                .map(|name| {
                    let first = checkers
                        .violations()
                        .iter()
                        .find(|violation| violation.invariant == name);
                    BadgeState {
                        name,
                        promise: promise(name),
                        first_violation: first
                            .map(|violation| (violation.at_ms * 1_000, violation.detail.clone())),
                        count: checkers.violation_counts().get(name).copied().unwrap_or(0),
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
