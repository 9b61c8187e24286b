//! The experiment sheet: choose what to measure and what to sweep, run it over many seeds in the
//! worker with a progress bar and Cancel, then read the distributions (`ExperimentChart`) and open
//! any trial as a run of its own on the cluster.
//!
//! Its address is `#/experiment/<preset>` (`crate::experiment::route`), so a lesson step or a slide
//! links to it. The worker starts on the first Run, not before: a learner who never runs an
//! experiment never downloads it. Cancel terminates the worker; a new run starts a fresh one.

use crate::components::experiment_chart::ExperimentChart;
use crate::components::experiment_form::ExperimentFormFields;
use crate::experiment::route::is_experiment_fragment;
use crate::experiment::sheet::{ExperimentSheetState, RunStatus};
use crate::state::AppState;
use crate::web_io;
use leptos::prelude::*;

/// The sheet: its code arrives the first time it opens (`crate::lazy_part`).
#[component]
pub fn ExperimentSheet() -> impl IntoView {
    let sheet = expect_context::<ExperimentSheetState>();
    view! {
        <Show when=move || sheet.open.get()>
            {crate::lazy_part::lazy_sheet("the experiment sheet", || crate::arrival!(experiment_sheet_code()), |draw: fn() -> AnyView| draw(), move || sheet.open.set(false))}
        </Show>
    }
}

/// The lazily loaded part: everything below, with the chart and the form.
#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(experiment_sheet, wasm_split_path = ::leptos::wasm_split, fallible))]
fn experiment_sheet_code() -> Result<fn() -> AnyView, crate::lazy_part::PartMissing> {
    Ok(|| view! { <ExperimentSheetOpen /> }.into_any())
}

/// The open sheet.
#[component]
fn ExperimentSheetOpen() -> impl IntoView {
    let sheet = expect_context::<ExperimentSheetState>();
    let close = move || {
        sheet.open.set(false);
        if is_experiment_fragment(&web_io::location_hash()) {
            web_io::replace_fragment("");
        }
    };
    Effect::new(move |_| {
        if sheet.open.get() {
            request_animation_frame(|| web_io::focus_element("[data-testid=experiment-preset]"));
        }
    });
    view! {
        <Show when=move || sheet.open.get()>
            <div class="sheet-backdrop" on:click=move |_| close()>
                <div class="sheet experiment-sheet" role="dialog" aria-modal="true" aria-label="Experiment" data-testid="experiment"
                    on:click=|event| event.stop_propagation()
                    on:keydown=move |event| if event.key() == "Escape" { event.prevent_default(); close(); }>
                    <div class="lesson-head">
                        <h2>"Experiment: one world, many seeds"</h2>
                        <button class="link" aria-label="Close the experiment" data-testid="experiment-close" on:click=move |_| close()>"Close ✕"</button>
                    </div>
                    <ExperimentFormFields />
                    <RunControls />
                    <ExperimentChart />
                </div>
            </div>
        </Show>
    }
}

/// Run, Cancel, the progress bar and what went wrong.
#[component]
fn RunControls() -> impl IntoView {
    let sheet = expect_context::<ExperimentSheetState>();
    let state = expect_context::<AppState>();
    let running = move || {
        matches!(
            sheet.status.get(),
            RunStatus::Starting | RunStatus::Running { .. }
        )
    };
    let trial_count = move || {
        let form = sheet.form.get();
        form.values()
            .map(|values| values.len() as u64 * form.trials)
            .unwrap_or(0)
    };
    let run_text = move || match trial_count() {
        0 => "Run".to_string(),
        1 => "Run 1 trial".to_string(),
        count => format!("Run {count} trials"),
    };
    let progress = move || match sheet.status.get() {
        RunStatus::Starting => Some((0, 0, "Starting the experiment worker…".to_string())),
        RunStatus::Running { done, total } => {
            Some((done, total, format!("{done} of {total} trials run")))
        }
        _ => None,
    };
    let said = move || match sheet.status.get() {
        RunStatus::Cancelled { done, total } if total > 0 => Some((
            false,
            format!("Cancelled after {done} of {total} trials; nothing was kept."),
        )),
        RunStatus::Cancelled { .. } => Some((false, "Cancelled.".to_string())),
        RunStatus::Failed(problem) => {
            Some((true, format!("The experiment did not run: {problem}")))
        }
        RunStatus::Finished(finished) => Some((
            false,
            format!(
                "{} trials ran in {:.2} s in this tab's background worker.",
                finished.outcome.rows.len(),
                finished.wall_ms / 1_000.0
            ),
        )),
        _ => None,
    };
    view! {
        <div class="experiment-run">
            <Show when=running fallback=move || view! {
                <button class="button primary" data-testid="experiment-run" on:click=move |_| sheet.run(state)>{run_text}</button>
            }>
                <button class="button" data-testid="experiment-cancel" on:click=move |_| sheet.cancel()>"Cancel"</button>
            </Show>
            {move || progress().map(|(done, total, text)| view! {
                <progress max=total.max(1) value=done aria-label="Trials run" data-testid="experiment-progress"></progress>
                <span role="status" class="muted">{text}</span>
            })}
            <p class="muted experiment-limits">{format!(
                "Here at most {} trials an experiment, each waiting at most {} s of simulated time for what it measures; a trial past its wait is counted apart as censored (no leader, no answer or no tick).",
                crate::format::thousands(crate::experiment::messages::MAX_BROWSER_TRIALS),
                quorumlab_sim::experiment::MAX_BOUND_MS / 1_000
            )}</p>
            {move || said().map(|(is_error, text)| view! {
                <p class=if is_error { "experiment-said error" } else { "experiment-said" } role=if is_error { "alert" } else { "status" }
                    data-testid="experiment-said">{text}</p>
            })}
        </div>
    }
}
