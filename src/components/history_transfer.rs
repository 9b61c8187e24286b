//! The history panel's files: export the run's client history as Jepsen-style lines, and import such
//! a history (a chosen file or pasted text) to check and draw in the same lanes.
//!
//! The format is the engine's (`linearizable::export` and `import`, documented in
//! `docs/history-format.md`), so what the page saves, `quorumlab history check` reads, and what
//! Knossos or Porcupine users write, the page reads. An imported history is no run: it is shown in
//! place of the run's history, labelled as imported, until "Back to the run"; the run itself is not
//! touched, and a file that fails to read changes nothing and says where it went wrong (line and
//! column). The check runs with the app's budget, so a history too hard for it reads "undecided".

use crate::context::notice::Notice;
use crate::context::{use_notices, use_run};
use crate::history_view::{judge_imported, Judged};
use crate::web_io;
use leptos::prelude::*;
use quorumlab_sim::linearizable::export::export_history;
use quorumlab_sim::linearizable::import::{import_history, MAX_IMPORT_BYTES};
use quorumlab_sim::linearizable::Budget;
use wasm_bindgen::JsCast;

/// A history read from a file, judged, and the name it came under.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub name: String,
    pub judged: Judged,
    /// Wall time the import and check took in this tab, when measured.
    pub check_ms: Option<f64>,
}

/// Reads `text` and judges it, or says what is wrong with it.
pub fn import_text(name: &str, text: &str) -> Result<Imported, String> {
    let ops = import_history(text).map_err(|problem| format!("Not imported: {problem}"))?;
    if ops.is_empty() {
        return Err("Not imported: the text holds no operation".to_string());
    }
    Ok(Imported {
        name: name.to_string(),
        judged: judge_imported(ops, Budget::APP),
        check_ms: None,
    })
}

fn wall_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map_or(0.0, |clock| clock.now())
}

#[component]
pub fn HistoryTransfer(imported: RwSignal<Option<Imported>>) -> impl IntoView {
    let run = use_run();
    let notices = use_notices();
    let pasted = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let open = move |name: &str, text: &str| {
        let started = wall_ms();
        match import_text(name, text) {
            Ok(mut history) => {
                history.check_ms = Some(wall_ms() - started);
                error.set(None);
                imported.set(Some(history));
            }
            Err(problem) => error.set(Some(problem)),
        }
    };
    let export = move |_| {
        let (title, text) = run.with_session(|session| {
            let world = session.world();
            let text = export_history(&world.client_log().ops(), &|node| world.node_label(node));
            (session.scenario().title.clone(), text)
        });
        let file_name = format!("{}-history.edn", crate::transfer::file_stem(&title));
        let notice = match web_io::download_text(&file_name, "application/edn", &text) {
            Ok(()) => Notice {
                text: format!("Exported {file_name} ({} events)", text.lines().count()),
                is_error: false,
            },
            Err(problem) => Notice {
                text: format!("Export failed: {problem}"),
                is_error: true,
            },
        };
        notices.notice.set(Some(notice));
    };
    let choose_file = move |event: leptos::ev::Event| {
        let Some(input) = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        web_io::read_chosen_file(&input, MAX_IMPORT_BYTES, move |outcome| match outcome {
            Ok((name, text)) => open(&name, &text),
            Err(problem) => error.set(Some(format!("Not imported: {problem}"))),
        });
        input.set_value("");
    };
    view! {
        <div class="hv-transfer">
            <button data-testid="history-export" on:click=export
                title="Save the run's client history as Jepsen-style EDN lines (docs/history-format.md)">
                "Export history"
            </button>
            <details class="hv-import" data-testid="history-import">
                <summary>"Import history"</summary>
                <p class="hint">"A Jepsen-style history, one event a line, EDN or JSON: "
                    <code>"{:process 0, :type :invoke, :f :write, :value [1 3]}"</code>
                    ". It is checked and drawn here in place of the run's history; the run is not changed."</p>
                <label class="field">
                    <span>"A file"</span>
                    <input type="file" accept=".edn,.jsonl,.json,.txt,text/plain" data-testid="history-import-file"
                        on:change=choose_file />
                </label>
                <label class="field">
                    <span>"…or paste it"</span>
                    <textarea rows="4" spellcheck="false" data-testid="history-import-text"
                        placeholder="{:process 0, :type :invoke, :f :read, :value [1 nil]}"
                        prop:value=pasted on:input=move |event| pasted.set(event_target_value(&event))></textarea>
                </label>
                <button class="primary" data-testid="history-import-button"
                    on:click=move |_| open("pasted history", &pasted.get_untracked())>
                    "Check pasted history"
                </button>
                <Show when=move || error.with(Option::is_some)>
                    <p class="error" role="alert" data-testid="history-import-error">{move || error.get().unwrap_or_default()}</p>
                </Show>
            </details>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history_view::VerdictKind;

    #[test]
    fn a_pasted_stale_read_is_judged_and_a_bad_line_says_where() {
        let text = "{:process 0, :type :invoke, :f :write, :value [1 3]}\n\
                    {:process 0, :type :ok, :f :write, :value [1 3]}\n\
                    {:process 0, :type :invoke, :f :write, :value [1 4]}\n\
                    {:process 0, :type :ok, :f :write, :value [1 4]}\n\
                    {:process 1, :type :invoke, :f :read, :value [1 nil]}\n\
                    {:process 1, :type :ok, :f :read, :value [1 3], :node \"n2\"}\n";
        let imported = import_text("pasted history", text).unwrap();
        assert_eq!(imported.judged.kind, VerdictKind::NotLinearizable);
        assert_eq!(imported.judged.ops.len(), 3);
        assert_eq!(imported.judged.served_by[2].as_deref(), Some("n2"));
        let problem =
            import_text("x", "{:process 0, :type :invoke, :f :read}\n{:process").unwrap_err();
        assert!(
            problem.starts_with("Not imported: line 2, column "),
            "{problem}"
        );
        assert!(import_text("x", "\n\n").is_err(), "nothing to draw");
    }
}
