//! The protected resource's ledger, newest first: every access accepted (with its token) or refused by
//! fencing ("stale: 33 < 34"). A new refusal flashes once: rows are keyed by their position in the whole
//! run and what they say, so only a new row is created and animated, and another run's row at the same
//! position (an imported trace, say) replaces the old one.

use crate::context::use_run;
use crate::format;
use crate::world_text::capabilities::tokens_fence;
use crate::world_text::ledger::{ledger_sentence, outcome_class};
use leptos::prelude::*;
use quorumlab_sim::resource::LedgerEntry;
use quorumlab_sim::units::FencingToken;

/// Rows drawn (the view carries more; the newest matter).
const MAX_ROWS: usize = 24;

#[derive(Clone, Debug, PartialEq, Eq)]
struct LedgerSummary {
    label: String,
    fencing: bool,
    /// Whether tokens mean anything (not for Redis-style locks).
    tokens: bool,
    value: u64,
    highest_seen: FencingToken,
    accepted: u64,
    rejected: u64,
    malformed: u64,
    /// Newest first: (ordinal in the whole run, entry, client name, tokens shown).
    rows: Vec<(u64, LedgerEntry, String, bool)>,
}

#[component]
pub fn ResourceLedger() -> impl IntoView {
    let run = use_run();
    let summary = Memo::new(move |_| {
        run.panel_view.with(|view| {
            let coordination = view.coordination.as_ref()?;
            // The invoice store has its own strip; its ledger of accesses stays empty.
            if coordination.scheduler().is_some() {
                return None;
            }
            let resource = coordination.resource.as_ref()?;
            let total =
                resource.accepted + resource.rejected + resource.duplicates + resource.malformed;
            let first = total.saturating_sub(resource.ledger.len() as u64);
            let name = |index: usize| {
                coordination
                    .labels
                    .get(index)
                    .cloned()
                    .unwrap_or_else(|| format!("n{}", index + 1))
            };
            let tokens = tokens_fence(coordination.kind);
            let rows = resource
                .ledger
                .iter()
                .enumerate()
                .rev()
                .take(MAX_ROWS)
                .map(|(position, entry)| {
                    (
                        first + position as u64,
                        *entry,
                        name(entry.client.index()),
                        tokens,
                    )
                })
                .collect();
            Some(LedgerSummary {
                label: name(resource.id.index()),
                fencing: resource.fencing,
                tokens,
                value: resource.value,
                highest_seen: resource.highest_seen,
                accepted: resource.accepted,
                rejected: resource.rejected,
                malformed: resource.malformed,
                rows,
            })
        })
    });
    let read = move |pick: fn(&LedgerSummary) -> String| {
        move || summary.with(|summary| summary.as_ref().map(pick).unwrap_or_default())
    };
    // The rows scroll once a run has many writes: the list takes focus, so a keyboard can scroll it too.
    view! {
        <Show when=move || summary.with(Option::is_some)>
            <section class="card resource-ledger" aria-label="Resource ledger" data-testid="resource-ledger">
                <h2>
                    {read(|summary| format!("⬢ {} ledger", summary.label))}
                    <span class="muted">{read(|summary| if summary.fencing { " · fencing on".to_string() } else { " · fencing off".to_string() })}</span>
                </h2>
                <p class="ledger-totals">
                    {read(|summary| format!(
                        "value {}{} · {} accepted · {} rejected{}",
                        summary.value,
                        if summary.tokens { format!(" · highest token seen {}", summary.highest_seen) } else { String::new() },
                        summary.accepted, summary.rejected,
                        if summary.malformed > 0 { format!(" · {} malformed", summary.malformed) } else { String::new() }
                    ))}
                </p>
                <ol class="ledger-rows" aria-live="polite" tabindex="0" aria-label="Ledger entries, newest last">
                    <For
                        each=move || summary.with(|summary| summary.as_ref().map(|summary| summary.rows.clone()).unwrap_or_default())
                        key=|(ordinal, entry, client, tokens)| (*ordinal, ledger_sentence(entry, client, *tokens), entry.local_us)
                        let:row
                    >
                        <LedgerRow entry=row.1 client=row.2 tokens=row.3 />
                    </For>
                </ol>
            </section>
        </Show>
    }
}

#[component]
fn LedgerRow(entry: LedgerEntry, client: String, tokens: bool) -> impl IntoView {
    let class = format!("ledger-row {}", outcome_class(entry.outcome));
    let mark = match entry.outcome {
        quorumlab_sim::resource::AccessOutcome::StaleToken
        | quorumlab_sim::resource::AccessOutcome::Malformed(_) => "✗",
        quorumlab_sim::resource::AccessOutcome::Duplicate => "=",
        quorumlab_sim::resource::AccessOutcome::Accepted => "✓",
    };
    view! {
        <li class=class>
            <span class="ledger-mark" aria-hidden="true">{mark}</span>
            <span class="ledger-text">{ledger_sentence(&entry, &client, tokens)}</span>
            <span class="ledger-time muted">{format::sim_time(entry.local_us)}</span>
        </li>
    }
}
