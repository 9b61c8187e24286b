//! "Check completion codes": the instructor's side. Opened from the lesson list or at the address
//! `#/verify` (the address the page had comes back when it closes), it takes one or many codes pasted into a text area (one per line, or separated by any
//! whitespace), replays each against the lessons this build has (`quorumlab_sim::completion`), and
//! lists per code the lesson, each step met or not and how (by hand or with "show me"), a total, and
//! any claim its replay does not bear out. A malformed code gets its own short error and spoils
//! nothing else. At most `MAX_CODES_PER_CHECK` codes are read from one paste, and the page says so
//! when there were more. Codes are replayed one per timer tick, so the page stays responsive while a
//! class's worth is checked, and a new check or closing the sheet stops the one in progress.
//!
//! Nothing leaves the page: the codes carry the runs, and the lessons are the app's own.

use crate::context::generation::Part;
use crate::context::use_lesson;
use crate::lesson::live;
use crate::state::controls::use_controls;
use crate::web_io;
use leptos::prelude::*;
use quorumlab_sim::completion::{
    check_one, split_codes, CodeReport, StepReport, MAX_CODES_PER_CHECK,
};

/// The address that opens the sheet.
pub const VERIFY_FRAGMENT: &str = "#/verify";

thread_local! {
    /// The address the page showed before the sheet took it, given back when the sheet closes.
    static RETURN_TO: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Opens the sheet and puts its address in the address bar. The address is replaced, not pushed:
/// going Back to an open lesson's address would reopen the lesson on a fresh run and lose the one
/// on screen. Every address listener hears of it (each leaves `#/verify` alone but this sheet).
pub fn open_verify_sheet() {
    RETURN_TO.with(|kept| *kept.borrow_mut() = web_io::location_hash());
    web_io::replace_fragment(VERIFY_FRAGMENT);
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new("hashchange")) {
        let _ = window.dispatch_event(&event);
    }
}

fn at_verify_address() -> bool {
    web_io::location_hash() == VERIFY_FRAGMENT
}

/// The code checker: its code arrives the first time it opens (`crate::lazy_part`).
#[component]
pub fn VerifySheet() -> impl IntoView {
    let open = RwSignal::new(at_verify_address());
    let listener = window_event_listener(leptos::ev::hashchange, move |_| {
        open.set(at_verify_address())
    });
    on_cleanup(move || listener.remove());
    view! {
        <Show when=move || open.get()>
            {crate::lazy_part::lazy_sheet("the code checker", || crate::arrival!(verify_sheet_code()), move |draw: fn(RwSignal<bool>) -> AnyView| draw(open), move || close_sheet(open))}
        </Show>
    }
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(verify_sheet, wasm_split_path = ::leptos::wasm_split, fallible))]
fn verify_sheet_code() -> Result<fn(RwSignal<bool>) -> AnyView, crate::lazy_part::PartMissing> {
    Ok(|open| view! { <VerifySheetOpen open=open /> }.into_any())
}

/// Closes the sheet and gives the address bar back what it showed before.
fn close_sheet(open: RwSignal<bool>) {
    open.set(false);
    if at_verify_address() {
        web_io::replace_fragment(&RETURN_TO.with(|kept| std::mem::take(&mut *kept.borrow_mut())));
    }
}

#[component]
fn VerifySheetOpen(open: RwSignal<bool>) -> impl IntoView {
    let close = move || close_sheet(open);
    let on_key = move |event: leptos::ev::KeyboardEvent| {
        if event.key() == "Escape" {
            event.stop_propagation();
            close();
        }
    };
    Effect::new(move |_| {
        if open.get() {
            request_animation_frame(|| web_io::focus_element("[data-testid=verify-input]"));
        }
    });
    view! {
        <Show when=move || open.get()>
            <div class="sheet-backdrop" on:click=move |_| close()>
                <div class="sheet verify-sheet" role="dialog" aria-modal="true" aria-labelledby="verify-title"
                    data-testid="verify-sheet" on:click=|event| event.stop_propagation() on:keydown=on_key>
                    <div class="lesson-head">
                        <h2 id="verify-title">"Check completion codes"</h2>
                        <button class="link" aria-label="Close the code checker" data-testid="verify-close"
                            on:click=move |_| close()>"Close ✕"</button>
                    </div>
                    <Checker />
                </div>
            </div>
        </Show>
    }
}

#[component]
fn Checker() -> impl IntoView {
    let lessons = use_lesson();
    let controls = use_controls();
    let text = RwSignal::new(String::new());
    let results = RwSignal::new(Vec::<CodeReport>::new());
    let summary = RwSignal::new(String::new());
    // Bumped by every new check: a check in progress stops when it no longer matches.
    let run = StoredValue::new(0_u64);
    on_cleanup(move || run.update_value(|number| *number += 1));
    let check = move |_| {
        run.update_value(|number| *number += 1);
        let this_run = run.get_value();
        results.set(Vec::new());
        let pasted = text.get_untracked();
        let (codes, over) = split_codes(&pasted);
        if codes.is_empty() {
            summary.set("Paste one or more codes first (one per line).".to_string());
            return;
        }
        let codes: Vec<String> = codes.into_iter().map(str::to_string).collect();
        summary.set(format!("Checking {} code(s)…", codes.len()));
        live::when_course_loaded(controls.root(), move |_| {
            check_next(
                lessons,
                codes,
                0,
                over,
                CheckOutputs {
                    results,
                    summary,
                    run,
                    this_run,
                },
            )
        });
    };
    view! {
        <p class="muted">"Paste learners’ codes, one per line. Each is replayed here, in this page: what it claims is never taken on trust."</p>
        <label class="verify-label" for="verify-input">"Completion codes"</label>
        <textarea id="verify-input" class="verify-input" data-testid="verify-input" rows="5" spellcheck="false"
            placeholder="QLC1.…" prop:value=move || text.get()
            on:input=move |event| text.set(event_target_value(&event))></textarea>
        <div class="verify-actions">
            <button class="primary" data-testid="verify-check" on:click=check>"Check"</button>
            <span class="muted" role="status" data-testid="verify-summary">{move || summary.get()}</span>
        </div>
        <ol class="verify-results" data-testid="verify-results">
            {move || {
                lessons.generation.of(Part::Course).track();
                results.get().into_iter().map(|report| view! { <CodeResult report=report /> }).collect_view()
            }}
        </ol>
    }
}

#[derive(Clone, Copy)]
struct CheckOutputs {
    results: RwSignal<Vec<CodeReport>>,
    summary: RwSignal<String>,
    run: StoredValue<u64>,
    this_run: u64,
}

/// Checks code `index`, shows it, and leaves the next to the next timer tick.
fn check_next(
    lessons: crate::context::lesson::LessonContext,
    codes: Vec<String>,
    index: usize,
    over: usize,
    outputs: CheckOutputs,
) {
    if outputs.run.try_get_value() != Some(outputs.this_run) {
        return;
    }
    let Some(code) = codes.get(index) else {
        let _ = outputs
            .summary
            .try_set(finished_words(&outputs.results.get_untracked(), over));
        return;
    };
    let report = lessons
        .with_course(|course| check_one(index + 1, code, course))
        .unwrap_or_else(|error| {
            CodeReport::refused(
                index + 1,
                code,
                false,
                format!("The lessons could not be read: {error}"),
            )
        });
    outputs.results.update(|results| results.push(report));
    gloo_timers::callback::Timeout::new(0, move || {
        check_next(lessons, codes, index + 1, over, outputs)
    })
    .forget();
}

fn finished_words(results: &[CodeReport], over: usize) -> String {
    let malformed = results.iter().filter(|report| report.malformed).count();
    let altered = results
        .iter()
        .filter(|report| report.mismatches > 0)
        .count();
    let mut words = format!("Checked {} code(s)", results.len());
    if malformed > 0 {
        words.push_str(&format!(", {malformed} unreadable"));
    }
    if altered > 0 {
        words.push_str(&format!(
            ", {altered} with claims the replay does not bear out"
        ));
    }
    words.push('.');
    if over > 0 {
        words.push_str(&format!(
            " Only the first {MAX_CODES_PER_CHECK} were read; {over} more were not: check them in another go."
        ));
    }
    words
}

#[component]
fn CodeResult(report: CodeReport) -> impl IntoView {
    let heading = match (&report.lesson_title, &report.error) {
        (Some(title), None) => format!(
            "Code {} · {title} · {} of {} steps met",
            report.code, report.met, report.total
        ),
        _ => format!("Code {} ({}…)", report.code, report.starts),
    };
    let class = if report.error.is_some() || report.mismatches > 0 {
        "verify-result problem"
    } else {
        "verify-result"
    };
    view! {
        <li class=class data-testid="verify-result" data-malformed=report.malformed.to_string()
            data-lesson-id=report.lesson_id.clone().unwrap_or_default()>
            <h3>{heading}</h3>
            {report.error.clone().map(|error| view! { <p class="error" data-testid="verify-error">{error}</p> })}
            {(report.mismatches > 0).then(|| view! {
                <p class="verify-warning" data-testid="verify-mismatches">
                    {format!("⚠ {} claim(s) not borne out by the replay: this code was altered or comes from another version.", report.mismatches)}
                </p>
            })}
            <ol class="verify-steps">
                {report.steps.into_iter().map(|step| view! { <StepResult step=step /> }).collect_view()}
            </ol>
        </li>
    }
}

#[component]
fn StepResult(step: StepReport) -> impl IntoView {
    let verdict = match step.how {
        Some(how) => format!("{} {}", step.status.words(), how.words()),
        None => step.status.words().to_string(),
    };
    let status = step.status.words().replace(' ', "-");
    let settings = if step.changed_settings {
        " (on run settings the learner changed)"
    } else {
        ""
    };
    view! {
        <li class=format!("verify-step {status}") data-testid="verify-step" data-status=status>
            <span class="verify-step-head">
                {format!("Step {} · ", step.step)}<code>{step.checkpoint.clone()}</code>
                " — "<strong data-testid="verify-step-verdict">{verdict}</strong>{settings}
            </span>
            <span class="verify-step-detail muted">{step.detail.clone()}</span>
            {step.mismatch.clone().map(|mismatch| view! { <span class="verify-warning">{format!("⚠ {mismatch}")}</span> })}
        </li>
    }
}
