//! Scenario files and traces: export the run as a scenario file (TOML) or as a trace file (JSON lines
//! that replay it exactly), and import either, chosen or pasted — a trace file is recognised by its
//! first character. An import that fails any check changes nothing and shows exactly what is wrong.

use crate::context::notice::Notice;
use crate::context::notice::NoticeContext;
use crate::context::run::RunContext;
use crate::context::{use_notices, use_run};
use crate::share::replay::capture;
use crate::state::controls::{use_controls, Controls};
use crate::transfer::trace::{import_trace, looks_like_trace_file, trace_file_text};
use crate::transfer::{
    file_stem, import_scenario, scenario_file_text, scenario_with_recorded_steps, MAX_IMPORT_BYTES,
};
use crate::web_io;
use leptos::prelude::*;
use quorumlab_sim::trace_file::MAX_TRACE_FILE_BYTES;
use wasm_bindgen::JsCast;

/// What the file buttons read and act on: the run, the notice bar and the run's controls.
#[derive(Clone, Copy)]
struct Files {
    run: RunContext,
    notices: NoticeContext,
    controls: Controls,
}

#[component]
pub fn ImportExport() -> impl IntoView {
    let files = Files {
        run: use_run(),
        notices: use_notices(),
        controls: use_controls(),
    };
    let gallery = use_context::<crate::components::gallery::GalleryState>();
    let pasted = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let import = move |file_name: &str, text: &str| {
        if looks_like_trace_file(text) {
            open_trace(files, error, file_name, text);
            return;
        }
        import_scenario_text(files, error, file_name, text);
        // An imported scenario also joins the gallery (kept in the browser), to reopen in front of
        // a class; a file too long to keep is still there for this visit.
        if let (Some(gallery), Ok(scenario)) = (gallery, import_scenario(text, file_name)) {
            let _for_this_visit_only = gallery.add_import(file_name, text, scenario);
        }
    };
    let import_pasted = move |_| {
        let text = pasted.get_untracked();
        let name = if looks_like_trace_file(&text) {
            "pasted trace"
        } else {
            "pasted scenario"
        };
        import(name, &text);
    };
    let import_file = move |event: leptos::ev::Event| {
        let Some(input) = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let max_bytes = MAX_TRACE_FILE_BYTES.max(MAX_IMPORT_BYTES);
        web_io::read_chosen_file(&input, max_bytes, move |outcome| match outcome {
            Ok((name, text)) => import(&name, &text),
            Err(problem) => error.set(Some(format!("Not imported: {problem}"))),
        });
        // Choosing the same file again should import it again.
        input.set_value("");
    };
    view! {
        <section class="card import-export" aria-label="Scenario and trace files" data-testid="import-export">
            <h2>"Scenario and trace files"</h2>
            <div class="row">
                <button on:click=move |_| export_scenario(files) data-testid="export-toml">"Export scenario (TOML)"</button>
                <button on:click=move |_| export_trace(files) data-testid="export-trace">"Export trace (JSON lines)"</button>
            </div>
            <p class="hint">"A scenario file holds your actions as steps at whole milliseconds, so it re-runs the scenario at that precision. A trace file (or a share link) replays this run exactly and also lists what happened."</p>
            <label class="field">
                <span>"Import a scenario or trace file"</span>
                <input type="file" accept=".toml,.jsonl,text/plain,application/x-ndjson" data-testid="import-file" on:change=import_file />
            </label>
            <label class="field">
                <span>"…or paste one"</span>
                <textarea rows="4" spellcheck="false" data-testid="import-text" placeholder="protocol = \"raft\"\nnodes = 5\nduration_ms = 10000"
                    prop:value=pasted on:input=move |event| pasted.set(event_target_value(&event))></textarea>
            </label>
            <Show when=move || error.with(Option::is_some)>
                <p class="error" role="alert" data-testid="import-error">{move || error.get().unwrap_or_default()}</p>
            </Show>
            <button class="primary" on:click=import_pasted data-testid="import-button">"Import pasted text"</button>
        </section>
    }
}

fn import_scenario_text(
    files: Files,
    error: RwSignal<Option<String>>,
    file_name: &str,
    text: &str,
) {
    match import_scenario(text, file_name) {
        Ok(scenario) => {
            error.set(None);
            let title = scenario.title.clone();
            files.controls.restart(scenario);
            files.notices.notice.set(Some(Notice {
                text: format!("Imported {file_name}: {title}"),
                is_error: false,
            }));
        }
        Err(problem) => error.set(Some(format!("Not imported: {problem}"))),
    }
}

/// Replaces the run only when the whole file checked out and replayed to its recorded fingerprint.
fn open_trace(files: Files, error: RwSignal<Option<String>>, file_name: &str, text: &str) {
    match import_trace(text) {
        Ok(session) => {
            error.set(None);
            let text = format!(
                "Opened trace {file_name}: {} · seed {}, paused at {}",
                session.scenario().title,
                session.scenario().seed,
                session.now()
            );
            files.controls.open_session(session, false);
            files.notices.notice.set(Some(Notice {
                text,
                is_error: false,
            }));
        }
        Err(problem) => error.set(Some(format!("Not imported: {problem}"))),
    }
}

fn export_scenario(files: Files) {
    let export = files
        .run
        .with_session(|session| scenario_with_recorded_steps(&capture(session)));
    let file_name = format!("{}.toml", file_stem(&export.scenario.title));
    let outcome =
        web_io::download_text(&file_name, "application/toml", &scenario_file_text(&export));
    let failed = outcome.is_err();
    let mut text = match outcome {
        Ok(()) => format!(
            "Exported {file_name} with {} of your actions as steps (at whole milliseconds)",
            export.user_steps
        ),
        Err(problem) => format!("Export failed: {problem}"),
    };
    if export.left_out > 0 {
        text.push_str(&format!(
            "; {} actions past what a scenario file can hold were left out",
            export.left_out
        ));
    }
    files.notices.notice.set(Some(Notice {
        text,
        is_error: failed || export.left_out > 0,
    }));
}

fn export_trace(files: Files) {
    // Settle the instant first (events already due at it run), as sharing does: the file then records
    // the fingerprint that replaying it to this instant reproduces.
    let now_us = files.run.with_session(|session| session.now().as_micros());
    files.controls.seek_us(now_us);
    let (title, text) = files
        .run
        .with_session(|session| (session.scenario().title.clone(), trace_file_text(session)));
    let file_name = format!("{}-trace.jsonl", file_stem(&title));
    let notice = match web_io::download_text(&file_name, "application/x-ndjson", &text) {
        Ok(()) => Notice {
            text: format!("Exported {file_name} ({} lines)", text.lines().count()),
            is_error: false,
        },
        Err(problem) => Notice {
            text: format!("Export failed: {problem}"),
            is_error: true,
        },
    };
    files.notices.notice.set(Some(notice));
}
