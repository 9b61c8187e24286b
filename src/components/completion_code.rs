//! "Completion code" in the lesson panel: the learner's proof of the steps they did, one line to copy
//! and hand in (see `lesson::completion` for what it holds). Written when the button is pressed, so it
//! covers the lesson as played up to then; pressing again writes it afresh. The code sits in a
//! read-only field that selects itself on focus, so it can be copied by hand where the page may not
//! use the clipboard, and "Copy" says whether it worked.

use crate::context::generation::Part;
use crate::context::use_lesson;
use crate::lesson::completion_live::code_now;
use crate::state::controls::use_controls;
use crate::web_io;
use leptos::prelude::*;

#[component]
pub fn CompletionCodeControl() -> impl IntoView {
    let lessons = use_lesson();
    let controls = use_controls();
    let code = RwSignal::new(None::<Result<String, String>>);
    let status = RwSignal::new(String::new());
    let steps_done = move || {
        lessons.generation.of(Part::Lesson).track();
        lessons
            .with_tracker(|tracker| (tracker.steps_done(), tracker.lesson().steps.len()))
            .unwrap_or_default()
    };
    let write = move |_| {
        code.set(Some(code_now(controls.root())));
        let (done, total) = steps_done();
        status.set(format!("Code for {done} of {total} steps done so far."));
    };
    let copy = move |_| {
        let Some(Ok(text)) = code.get_untracked() else {
            return;
        };
        web_io::copy_text(&text, move |copied| {
            let _ = status.try_set(if copied {
                "Copied. Paste it where your instructor asks for it.".to_string()
            } else {
                "The browser did not allow copying: select the code and copy it by hand."
                    .to_string()
            });
        });
    };
    let select_all = |event: leptos::ev::FocusEvent| {
        use wasm_bindgen::JsCast;
        if let Some(field) = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        {
            field.select();
        }
    };
    view! {
        <section class="completion-code" data-testid="completion-code" aria-label="Completion code">
            <button data-testid="completion-code-button" on:click=write
                aria-expanded=move || code.with(Option::is_some).to_string()>
                {move || if code.with(Option::is_some) { "Update the completion code" } else { "Completion code" }}
            </button>
            {move || code.get().map(|written| match written {
                Ok(text) => view! {
                    <label class="completion-code-label" for="completion-code-text">
                        "Your runs in this lesson, to hand in. An instructor checks it under Lessons → Check completion codes."
                    </label>
                    <div class="completion-code-row">
                        <textarea id="completion-code-text" class="completion-code-text" data-testid="completion-code-text"
                            readonly rows="3" spellcheck="false" prop:value=text on:focus=select_all></textarea>
                        <button class="primary" data-testid="completion-code-copy" on:click=copy>"Copy"</button>
                    </div>
                    <p class="muted completion-code-status" role="status" data-testid="completion-code-status">{move || status.get()}</p>
                }.into_any(),
                Err(error) => view! {
                    <p class="error" role="alert" data-testid="completion-code-error">{error}</p>
                }.into_any(),
            })}
        </section>
    }
}
