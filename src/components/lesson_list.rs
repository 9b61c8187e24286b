//! The course list: every lesson in course order with its outcomes and the progress this browser has
//! kept (steps done of the total, mastery items ticked). Opened from the header's Lessons button or
//! with `L`. A lesson not begun offers "Start"; a half-done one offers "Continue at step N" (the first
//! step not yet done) first and "Start over" second; a finished one offers "Start" again.

use crate::context::generation::Part;
use crate::context::use_lesson;
use crate::lesson::live::{self, load_progress, mastery_item_count};
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::lesson::Lesson;

/// The course list: its code arrives the first time it opens (`crate::lazy_part`).
#[component]
pub fn LessonList() -> impl IntoView {
    let lessons = use_lesson();
    view! {
        <Show when=move || lessons.list_open.get()>
            {crate::lazy_part::lazy_sheet("the lessons", || crate::arrival!(lesson_list_code()), |draw: fn() -> AnyView| draw(), move || lessons.list_open.set(false))}
        </Show>
    }
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(lesson_list, wasm_split_path = ::leptos::wasm_split, fallible))]
fn lesson_list_code() -> Result<fn() -> AnyView, crate::lazy_part::PartMissing> {
    Ok(|| view! { <LessonListOpen /> }.into_any())
}

#[component]
fn LessonListOpen() -> impl IntoView {
    let lessons = use_lesson();
    let controls = use_controls();
    // Keyboard users land in the list: focus its first Start button once it is drawn.
    Effect::new(move |_| {
        lessons.generation.of(Part::Course).track();
        if lessons.list_open.get() {
            live::when_course_loaded(controls.root(), |_| ());
            request_animation_frame(focus_first_lesson);
        }
    });
    view! {
        <Show when=move || lessons.list_open.get()>
            <div class="sheet-backdrop" on:click=move |_| lessons.list_open.set(false)>
                <div class="sheet lesson-list" role="dialog" aria-modal="true" aria-label="Lessons" data-testid="lesson-list"
                    on:click=|event| event.stop_propagation()>
                    <div class="lesson-head">
                        <h2>"Lessons"</h2>
                        <button class="link" aria-label="Close the lesson list" on:click=move |_| lessons.list_open.set(false)>"Close ✕"</button>
                    </div>
                    <p class="lesson-list-tools">
                        <button data-testid="open-verify" on:click=move |_| {
                            lessons.list_open.set(false);
                            crate::components::verify_codes::open_verify_sheet();
                        }>"Check completion codes"</button>
                        <span class="muted">" For instructors: replay learners’ codes and see the steps each met."</span>
                    </p>
                    {move || match lessons.generation.of(Part::Course).with(|_| lessons.with_course(|course| course.to_vec())) {
                        _ if !lessons.course_settled() => view! { <p class="lesson-loading" role="status">"Loading the lessons…"</p> }.into_any(),
                        Ok(course) => view! {
                            <ol class="lesson-entries">
                                {course.into_iter().enumerate().map(|(index, lesson)| view! { <LessonEntry index=index lesson=lesson /> }).collect_view()}
                            </ol>
                        }.into_any(),
                        Err(error) => view! { <p class="error">{format!("The lessons could not be read: {error}")}</p> }.into_any(),
                    }}
                </div>
            </div>
        </Show>
    }
}

fn focus_first_lesson() {
    crate::web_io::focus_element("[data-testid=lesson-list] .lesson-entry button.primary");
}

#[component]
fn LessonEntry(index: usize, lesson: Lesson) -> impl IntoView {
    let lessons = use_lesson();
    let controls = use_controls();
    let steps = lesson.steps.len();
    let items = mastery_item_count(&lesson);
    let stored = StoredValue::new_local(lesson.clone());
    let progress = move || {
        lessons.generation.of(Part::Progress).track();
        stored.with_value(load_progress)
    };
    let summary = move || {
        let progress = progress();
        let mark = if progress.steps_done >= steps {
            "✓ "
        } else {
            ""
        };
        format!(
            "{mark}{} of {steps} steps · {} of {items} mastery items ticked",
            progress.steps_done,
            progress.mastery.len()
        )
    };
    let resume_step = move || {
        let done = progress().steps_done;
        (done > 0 && done < steps).then_some(done)
    };
    let title = format!("{}: {}", lesson.order, lesson.title);
    let buttons = move || {
        let title = title.clone();
        match resume_step() {
            // Half done: going on is the first choice; starting over is still offered, second.
            Some(step) => view! {
                <button class="primary" data-testid="continue-lesson" on:click=move |_| live::open_lesson(controls.root(), index, step)
                    aria-label=format!("Continue lesson {title} at step {}", step + 1)>
                    {format!("Continue at step {}", step + 1)}
                </button>
                <button data-testid="restart-lesson" on:click=move |_| live::open_lesson(controls.root(), index, 0)>"Start over"</button>
            }
            .into_any(),
            None => view! {
                <button class="primary" data-testid="open-lesson" on:click=move |_| live::open_lesson(controls.root(), index, 0)
                    aria-label=format!("Start lesson {title}")>"Start"</button>
            }
            .into_any(),
        }
    };
    view! {
        <li class="lesson-entry" data-testid="lesson-item" data-lesson-id=lesson.id.clone()>
            <h3>{format!("{}. {}", lesson.order, lesson.title)}</h3>
            <ul class="lesson-outcome-list">
                {lesson.outcomes.iter().map(|outcome| view! { <li>{outcome.clone()}</li> }).collect_view()}
            </ul>
            <p class="muted" data-testid="lesson-item-progress">{summary}</p>
            <div class="row">
                {buttons}
                <a class="button" data-testid="lesson-deck" href=crate::deck::deck_fragment(&crate::deck::DeckRoute::Lesson(lesson.id.clone()))
                    aria-label=format!("Print deck of lesson {}: {} (each step's link with a QR code)", lesson.order, lesson.title)>"Print deck"</a>
            </div>
        </li>
    }
    .into_any()
}
