//! Compare mode's stage: the line saying how the two runs differ so far, then the two runs side by
//! side, each with its own invariant badges, cluster drawing and caption. The right side's components
//! read the right run's state (provided here as their context); whatever they do to it (a node's
//! menu, a badge's "show me") the right state hands to the left one, which applies it to both.

use crate::components::checker_badges::CheckerBadges;
use crate::components::cluster::ClusterStage;
use crate::components::compare_actions::CompareActions;
use crate::components::narration::NarrationCaption;
use crate::context::use_run;
use crate::state::controls::use_controls;
use crate::state::AppState;

use leptos::prelude::*;

/// Compare mode's stage: its code arrives the first time two runs are compared (`crate::lazy_part`).
#[component]
pub fn CompareStage() -> impl IntoView {
    crate::lazy_part::lazy_part(
        "compare mode",
        || crate::arrival!(compare_stage_code()),
        |draw: fn() -> AnyView| draw(),
    )
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(compare_stage, wasm_split_path = ::leptos::wasm_split, fallible))]
fn compare_stage_code() -> Result<fn() -> AnyView, crate::lazy_part::PartMissing> {
    Ok(|| view! { <CompareStageOpen /> }.into_any())
}

#[component]
fn CompareStageOpen() -> impl IntoView {
    let compare = use_controls().compare();
    let hook = compare;
    let line = move || {
        hook.difference.with(|difference| {
            difference
                .as_ref()
                .map_or_else(String::new, |difference| difference.line.clone())
        })
    };
    let tallies = move || {
        hook.difference.with(|difference| {
            difference
                .as_ref()
                .map_or_else(String::new, |difference| difference.tallies.join(" · "))
        })
    };
    // Until the stories part, the learner is told what to watch for (when the options say).
    let hint = move || {
        let parted = hook.difference.with(|difference| {
            difference
                .as_ref()
                .is_some_and(|difference| difference.parted_at_us.is_some())
        });
        if parted {
            return None;
        }
        hook.watch_for
            .get()
            .map(|words| format!("Watch for it: {words}."))
    };
    view! {
        <section class="compare-stage" data-testid="compare-stage" aria-label="Two runs compared">
            <div class="compare-bar">
                <div class="compare-words">
                    <p class="compare-difference" data-testid="compare-difference" aria-live="polite">{line}</p>
                    {move || hint().map(|words| view! { <p class="compare-hint" data-testid="compare-hint">{words}</p> })}
                    <p class="compare-tallies" data-testid="compare-tallies">{tallies}</p>
                </div>
                <CompareActions />
            </div>
            <div class="compare-sides">
                <div class="compare-side" data-testid="compare-left">
                    <SidePanels title=Signal::derive(move || hook.labels.with(|labels| format!("Left · {}", labels.left))) />
                </div>
                {move || hook.partner.get().map(|partner| {
                    let label = hook.labels.with(|labels| labels.right.clone());
                    view! { <RightSide partner=partner label=label /> }
                })}
            </div>
        </section>
    }
}

/// One side's own panels, drawn from whichever state the context holds. The side's fingerprint (its
/// trace hash, as the header shows the left one's) follows the panels' refresh.
#[component]
fn SidePanels(title: Signal<String>) -> impl IntoView {
    let run = use_run();
    let hash = move || {
        run.panel_view.track();
        format!("{:016x}", run.with_session(|session| session.trace_hash()))
    };
    view! {
        <div class="compare-side-head">
            <h2 class="compare-side-title">{title}</h2>
            <span class="compare-side-print">"run " <code data-testid="side-trace-hash" data-trace-hash=hash>{hash}</code></span>
        </div>
        <CheckerBadges />
        <div class="cluster-panel"><ClusterStage /><NarrationCaption /></div>
    }
}

#[component]
fn RightSide(partner: AppState, label: String) -> impl IntoView {
    partner.provide();
    view! {
        <div class="compare-side" data-testid="compare-right">
            <SidePanels title=Signal::stored(format!("Right · {label}")) />
        </div>
    }
}
