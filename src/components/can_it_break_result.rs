//! The result of a "Can it break?" search, said plainly: what broke (or the example found), with the
//! found steps one per line and "Play it"; or that nothing was found within the bounds, which the
//! words never call safe; or that the state budget ran out first.

use crate::explore::search::{headline, kinds_words, SearchState, SearchStatus};
use crate::format;
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::explore::Outcome;
use std::sync::Arc;

#[component]
pub fn SearchResult() -> impl IntoView {
    let search = expect_context::<SearchState>();
    let state = expect_context::<AppState>();
    move || {
        let SearchStatus::Finished(finished) = search.status.get() else {
            return None;
        };
        Some(result_view(finished, search, state))
    }
}

fn result_view(
    finished: Arc<crate::explore::search::Finished>,
    search: SearchState,
    state: AppState,
) -> impl IntoView {
    let report = &finished.report;
    let (max_depth, max_faults) = finished.request_bounds;
    let said = headline(report, max_depth, max_faults);
    let kind = match report.outcome {
        Outcome::Found { .. } => "found",
        Outcome::Example { .. } => "example",
        Outcome::BoundReached { .. } => "bound",
    };
    let seconds = format!("{:.1}", finished.elapsed_ms / 1_000.0);
    let schedule = report.outcome.schedule().unwrap_or_default().to_vec();
    let found = report.outcome.schedule().is_some();
    let shrunk = report.shrink.as_ref().map(|shrink| {
        if shrink.original_steps as usize == schedule.len() {
            "Shrinking found nothing to remove: this is as short as it gets.".to_string()
        } else {
            format!(
                "Shrunk from {} steps and {} faults.",
                shrink.original_steps, shrink.original_faults
            )
        }
    });
    let kinds = kinds_words(finished.kinds);
    let look_ahead = format!(
        "Looked {} into the run, in {seconds} s of your time. A bounded search proves nothing beyond its bounds.",
        whole_seconds(report.horizon_ms)
    );
    view! {
        <div class="search-result" data-testid="search-result" data-result=kind>
            <p class="search-headline" data-testid="search-headline">{said}</p>
            {(!schedule.is_empty()).then(|| view! {
                <ol class="search-schedule" data-testid="search-schedule">
                    {schedule.iter().map(|step| {
                        let action = state.with_session(|session| {
                            format::describe_action_named(&step.action, &|node| session.node_label(node))
                        });
                        view! { <li>{format!("at {}: {action}", format::sim_time(step.at_ms * 1_000))}</li> }
                    }).collect_view()}
                </ol>
            })}
            {shrunk.map(|words| view! { <p class="search-note">{words}</p> })}
            <p class="search-note" data-testid="search-kinds-used">{kinds}</p>
            <p class="search-note">{look_ahead}</p>
            {found.then(|| view! {
                <button class="primary" data-testid="search-play" on:click=move |_| { search.play_it(state); show_the_played_run(); }>"Play it"</button>
            })}
        </div>
    }
}

/// The played run is the thing to watch: the page goes to its top (header, cluster, play bar, the
/// lesson's tick), as a scenario opened from the gallery does. On a phone the card sits far below the
/// cluster, and staying there left the learner looking at an unchanged form.
fn show_the_played_run() {
    if let Some(window) = web_sys::window() {
        window.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// `4000` as `4 s`, `4500` as `4.5 s`.
fn whole_seconds(ms: u64) -> String {
    match ms % 1_000 {
        0 => format!("{} s", ms / 1_000),
        _ => format!("{:.1} s", ms as f64 / 1_000.0),
    }
}
