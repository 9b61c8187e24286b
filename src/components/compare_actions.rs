//! Compare mode's buttons: share both runs in one link, save both traces (each replayable on its own
//! with `quorumlab replay`), and go back to one run.

use crate::compare::link::encode_pair;
use crate::context::notice::Notice;
use crate::state::AppState;
use crate::transfer::file_stem;
use crate::transfer::trace::trace_file_text;
use crate::web_io;
use leptos::prelude::*;

fn tell(state: AppState, text: String, is_error: bool) {
    _ = state.notice.try_set(Some(Notice { text, is_error }));
}

/// Pausing settles the instant (events already due at it run) on both sides, as a single run's share
/// and export do, so the link and the files hold what is shown.
fn settle(state: AppState) {
    let now_us = state.with_session(|session| session.now().as_micros());
    state.seek_us(now_us);
}

fn share_both(state: AppState) {
    let Some(partner) = state.compare.partner() else {
        return;
    };
    settle(state);
    let fragment =
        state.with_session(|left| partner.with_session(|right| encode_pair(left, right)));
    match fragment.map(|fragment| web_io::replace_fragment(&fragment)) {
        Ok(Some(address)) => web_io::copy_text(&address, move |copied| {
            let text = if copied {
                "Link copied — it opens both runs side by side, paused at this moment"
            } else {
                "Link ready in the address bar (the browser did not allow copying)"
            };
            tell(state, text.to_string(), false);
        }),
        Ok(None) => tell(
            state,
            "The browser would not let the link into the address bar".into(),
            true,
        ),
        Err(reason) => tell(
            state,
            format!("These runs cannot be shared: {reason}"),
            true,
        ),
    }
}

fn export_both(state: AppState) {
    let Some(partner) = state.compare.partner() else {
        return;
    };
    settle(state);
    let mut saved = Vec::new();
    for (side, side_state) in [("left", state), ("right", partner)] {
        let (title, text) = side_state
            .with_session(|session| (session.scenario().title.clone(), trace_file_text(session)));
        let file_name = format!("{}-{side}-trace.jsonl", file_stem(&title));
        if let Err(problem) = web_io::download_text(&file_name, "application/x-ndjson", &text) {
            return tell(
                state,
                format!("Export of {file_name} failed: {problem}"),
                true,
            );
        }
        saved.push(file_name);
    }
    tell(state, format!("Exported {}", saved.join(" and ")), false);
}

#[component]
pub fn CompareActions() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <div class="compare-actions">
            <button data-testid="compare-share" on:click=move |_| share_both(state)
                title="Put a link to both runs at this moment in the address bar and the clipboard">"Share both"</button>
            <button data-testid="compare-export" on:click=move |_| export_both(state)
                title="Save each run as a trace file that replays it exactly">"Export both traces"</button>
            <button data-testid="compare-end" on:click=move |_| state.compare.end()>"Back to one run"</button>
        </div>
    }
}
