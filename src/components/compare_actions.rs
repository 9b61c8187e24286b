//! Compare mode's buttons: share both runs in one link, save both traces (each replayable on its own
//! with `quorumlab replay`), and go back to one run.

use crate::compare::link::encode_pair;
use crate::context::notice::Notice;
use crate::context::notice::NoticeContext;
use crate::context::run::RunContext;
use crate::context::{use_notices, use_run};
use crate::state::controls::{use_controls, Controls};
use crate::transfer::file_stem;
use crate::transfer::trace::trace_file_text;
use crate::web_io;
use leptos::prelude::*;

/// What the buttons read and act on: the left run, its notice bar and its controls (the right run is
/// reached through compare mode's hook).
#[derive(Clone, Copy)]
struct Left {
    run: RunContext,
    notices: NoticeContext,
    controls: Controls,
}

fn tell(left: Left, text: String, is_error: bool) {
    _ = left.notices.notice.try_set(Some(Notice { text, is_error }));
}

/// Pausing settles the instant (events already due at it run) on both sides, as a single run's share
/// and export do, so the link and the files hold what is shown.
fn settle(left: Left) {
    let now_us = left.run.with_session(|session| session.now().as_micros());
    left.controls.seek_us(now_us);
}

fn share_both(left: Left) {
    let Some(partner) = left.controls.compare().partner() else {
        return;
    };
    settle(left);
    let fragment = left
        .run
        .with_session(|left| partner.with_session(|right| encode_pair(left, right)));
    match fragment.map(|fragment| web_io::replace_fragment(&fragment)) {
        Ok(Some(address)) => web_io::copy_text(&address, move |copied| {
            let text = if copied {
                "Link copied — it opens both runs side by side, paused at this moment"
            } else {
                "Link ready in the address bar (the browser did not allow copying)"
            };
            tell(left, text.to_string(), false);
        }),
        Ok(None) => tell(
            left,
            "The browser would not let the link into the address bar".into(),
            true,
        ),
        Err(reason) => tell(left, format!("These runs cannot be shared: {reason}"), true),
    }
}

fn export_both(left: Left) {
    let Some(partner) = left.controls.compare().partner() else {
        return;
    };
    settle(left);
    let mut saved = Vec::new();
    let read = |session: &crate::session::Session| {
        (session.scenario().title.clone(), trace_file_text(session))
    };
    let files = [
        ("left", left.run.with_session(read)),
        ("right", partner.with_session(read)),
    ];
    for (side, (title, text)) in files {
        let file_name = format!("{}-{side}-trace.jsonl", file_stem(&title));
        if let Err(problem) = web_io::download_text(&file_name, "application/x-ndjson", &text) {
            return tell(
                left,
                format!("Export of {file_name} failed: {problem}"),
                true,
            );
        }
        saved.push(file_name);
    }
    tell(left, format!("Exported {}", saved.join(" and ")), false);
}

#[component]
pub fn CompareActions() -> impl IntoView {
    let controls = use_controls();
    let left = Left {
        run: use_run(),
        notices: use_notices(),
        controls,
    };
    view! {
        <div class="compare-actions">
            <button data-testid="compare-share" on:click=move |_| share_both(left)
                title="Put a link to both runs at this moment in the address bar and the clipboard">"Share both"</button>
            <button data-testid="compare-export" on:click=move |_| export_both(left)
                title="Save each run as a trace file that replays it exactly">"Export both traces"</button>
            <button data-testid="compare-end" on:click=move |_| controls.compare().end()>"Back to one run"</button>
        </div>
    }
}
