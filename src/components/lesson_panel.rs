//! The open lesson beside the cluster: title and outcomes, the lesson's text, its steps (done, open,
//! locked), the interview questions with their model answers behind a reveal, and the mastery
//! checklist, whose ticks are kept in localStorage. The cluster and every control stay usable: the
//! learner makes the faults happen, and the steps tick as the simulation sees them.
//!
//! The text is split at its "Steps" heading so the interactive steps sit where the lesson talks about
//! them; a lesson without that heading gets its steps after the text. Each part is a fold: open beside
//! the cluster, closed on one column (a phone), where the step in hand comes last, just above the
//! cluster, and the rest is a tap away.

use crate::components::completion_code::CompletionCodeControl;
use crate::components::lesson_markdown::{blocks_view, ChecklistItem, LinkScope};
use crate::components::lesson_step::{CurrentStepCard, StepCard};
use crate::context::generation::Part;
use crate::context::use_lesson;
use crate::lesson::live::{self, load_progress, update_progress};
use crate::lesson::markdown::{parse_blocks, plain_text, Block};
use crate::state::controls::use_controls;
use leptos::prelude::*;
use quorumlab_sim::lesson::Lesson;

/// The body's blocks before the "Steps" section, that section (heading and text), and the rest.
fn split_at_steps(blocks: Vec<Block>) -> (Vec<Block>, Vec<Block>, Vec<Block>) {
    let is_steps = |block: &Block| matches!(block, Block::Heading { text, .. } if plain_text(text).trim().eq_ignore_ascii_case("steps"));
    let Some(start) = blocks.iter().position(is_steps) else {
        return (blocks, Vec::new(), Vec::new());
    };
    let level = match &blocks[start] {
        Block::Heading { level, .. } => *level,
        _ => 2,
    };
    let end = blocks[start + 1..]
        .iter()
        .position(|block| matches!(block, Block::Heading { level: next, .. } if *next <= level))
        .map_or(blocks.len(), |offset| start + 1 + offset);
    let mut before = blocks;
    let rest = before.split_off(end);
    let steps = before.split_off(start);
    (before, steps, rest)
}

#[component]
pub fn LessonPanel() -> impl IntoView {
    let lessons = use_lesson();
    move || {
        lessons.generation.of(Part::Course).track();
        let index = lessons.active.get()?;
        let known = lessons
            .with_course(|course| index < course.len())
            .unwrap_or(false);
        known.then(|| {
            crate::lazy_part::lazy_part(
                "the lesson",
                || crate::arrival!(open_lesson_code()),
                move |draw: fn(usize) -> AnyView| draw(index),
            )
        })
    }
}

/// The open lesson's panel, whose code arrives with the first lesson opened (`crate::lazy_part`).
#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(lesson_panel, wasm_split_path = ::leptos::wasm_split, fallible))]
fn open_lesson_code() -> Result<fn(usize) -> AnyView, crate::lazy_part::PartMissing> {
    Ok(draw_open_lesson)
}

fn draw_open_lesson(index: usize) -> AnyView {
    let lessons = use_lesson();
    match lessons.with_course(|course| course.get(index).cloned()) {
        Ok(Some(lesson)) => view! { <OpenLesson lesson=lesson /> }.into_any(),
        _ => ().into_any(),
    }
}

#[component]
fn OpenLesson(lesson: Lesson) -> impl IntoView {
    // Runs once the panel is in the page: a lesson opened before its panel's code arrived is shown now.
    Effect::new(move |_| crate::lesson::reach::lesson_panel_drawn());
    let lessons = use_lesson();
    let controls = use_controls();
    let step_count = lesson.steps.len();
    let (before, steps_section, after) = split_at_steps(parse_blocks(&lesson.body));
    let stored = StoredValue::new_local(lesson.clone());
    let mastery_item = move |item: usize, label: AnyView| -> AnyView {
        let ticked = move || {
            lessons.generation.of(Part::Progress).track();
            stored.with_value(|lesson| load_progress(lesson).mastery.contains(&item))
        };
        view! {
            <label class="mastery-item">
                <input type="checkbox" data-testid="mastery-item" prop:checked=ticked
                    on:change=move |_| stored.with_value(|lesson| update_progress(lessons, lesson, |progress| progress.toggle_mastery(item))) />
                <span>{label}</span>
            </label>
        }
        .into_any()
    };
    let mut items = 0;
    let before_view = blocks_view(
        &before,
        &mut items,
        Some(&mastery_item as ChecklistItem),
        LinkScope::Prose,
    );
    let steps_heading = if steps_section.is_empty() {
        view! { <h3>"Steps"</h3> }.into_any()
    } else {
        blocks_view(
            &steps_section,
            &mut items,
            Some(&mastery_item as ChecklistItem),
            LinkScope::Prose,
        )
    };
    let after_view = blocks_view(
        &after,
        &mut items,
        Some(&mastery_item as ChecklistItem),
        LinkScope::Prose,
    );
    let steps = lesson
        .steps
        .iter()
        .enumerate()
        .map(|(index, step)| view! { <StepCard index=index step=step.clone() /> })
        .collect_view();
    let interview = lesson
        .interview
        .iter()
        .map(|question| {
            let mut no_items = 0;
            let answer = blocks_view(
                &parse_blocks(&question.answer),
                &mut no_items,
                None,
                LinkScope::Prose,
            );
            view! {
                <div class="interview-question" data-testid="interview-question">
                    <p><strong>{question.question.clone()}</strong></p>
                    <details>
                        <summary>"Show the model answer"</summary>
                        <div class="interview-answer">{answer}</div>
                    </details>
                </div>
            }
        })
        .collect_view();
    let kicker = move || {
        lessons.generation.of(Part::Lesson).track();
        let current = lessons
            .with_tracker(|tracker| tracker.current_step())
            .unwrap_or(0);
        if current >= step_count {
            format!("Lesson {} · complete", lesson.order)
        } else {
            format!(
                "Lesson {} · step {} of {step_count}",
                lesson.order,
                current + 1
            )
        }
    };
    // Beside the cluster the whole lesson is open to read; above it (one column, a phone) the text
    // folds away so the step in hand sits right over the nodes (see `lesson::reach`).
    let unfolded = !crate::lesson::reach::is_single_column();
    view! {
        <aside class="lesson-panel card" aria-label="Lesson" data-testid="lesson-panel"
            data-lesson-id=lesson.id.clone()>
            <div class="lesson-head">
                <p class="lesson-kicker" data-testid="lesson-progress">{kicker}</p>
                <button class="link" data-testid="close-lesson" aria-label="Close the lesson"
                    on:click=move |_| live::close_lesson(controls.root())>"Close ✕"</button>
            </div>
            <h2 class="lesson-title">{lesson.title.clone()}</h2>
            <details class="lesson-outcomes">
                <summary>"What you will be able to do"</summary>
                <ul>{lesson.outcomes.iter().map(|outcome| view! { <li>{outcome.clone()}</li> }).collect_view()}</ul>
            </details>
            <Show when=move || lessons.waiting.get()>
                // The play control sits where the learner is reading: at 1280×720 the playback bar is
                // below the fold.
                <p class="lesson-waiting" data-testid="lesson-waiting" role="status">
                    "Paused while you read. "
                    <button class="primary" data-testid="lesson-play" on:click=move |_| controls.toggle_playing()>"▶ Play"</button>
                    {move || waiting_words(lessons.pacing.moves_left.get(), lessons.pacing.moves_asked.get())}
                </p>
            </Show>
            <CurrentStepCard steps=lesson.steps.clone() />
            <LessonComplete />
            <CompletionCodeControl />
            <details class="lesson-fold" data-testid="lesson-text-fold" prop:open=unfolded>
                <summary>"The lesson: the idea, terms and a mental model"</summary>
                <div class="lesson-text">{before_view}</div>
            </details>
            <details class="lesson-fold" data-testid="lesson-steps-fold" prop:open=unfolded>
                <summary>{format!("All {step_count} steps, with their predictions")}</summary>
                <section class="lesson-steps" aria-label="Steps">
                    {steps_heading}
                    <ol class="lesson-step-list">{steps}</ol>
                    <ShowMeLog />
                </section>
            </details>
            <details class="lesson-fold" data-testid="lesson-after-fold" prop:open=unfolded>
                <summary>"Edge cases to try and the mastery checklist"</summary>
                <div class="lesson-text">{after_view}</div>
            </details>
            <details class="lesson-fold" data-testid="lesson-interview-fold" prop:open=unfolded>
                <summary>"Interview questions"</summary>
                <section class="lesson-interview" aria-label="Interview questions">
                    <h3>"Interview questions"</h3>
                    {interview}
                </section>
            </details>
        </aside>
    }
    .into_any()
}

/// After the play button: what starts the run. A step that needs several moves at one instant keeps
/// the run paused until the last of them, and says how many are left.
fn waiting_words(moves_left: u64, moves_asked: u64) -> String {
    match (moves_left, moves_asked) {
        (_, 0 | 1) => " (or Space, or your first move) starts the run.".to_string(),
        (0 | 1, _) => format!(
            " This step needs {moves_asked} moves at the same instant: your next one is the last, and the run starts by itself after it."
        ),
        (left, _) => format!(
            " This step needs {moves_asked} moves at the same instant, so the run stays paused for your next {left}; \
             it starts by itself after the last one (or press Play)."
        ),
    }
}

/// Said once the lesson's last step is done. A lesson opened at a later step (a link to step 8) finishes
/// without the earlier steps having happened here: the words say which, and how to see them.
#[component]
fn LessonComplete() -> impl IntoView {
    let lessons = use_lesson();
    let complete = move || {
        lessons.generation.of(Part::Lesson).track();
        lessons
            .with_tracker(|tracker| tracker.is_complete())
            .unwrap_or(false)
    };
    let words = move || {
        lessons.generation.of(Part::Lesson).track();
        let not_seen = lessons
            .with_tracker(|tracker| tracker.steps_not_seen())
            .unwrap_or_default();
        complete_message(&not_seen)
    };
    view! {
        <Show when=complete>
            <p class="lesson-complete" data-testid="lesson-complete" role="status">{words}</p>
        </Show>
    }
}

/// The words under a finished lesson; `not_seen` are the steps (1-based) it was opened past.
fn complete_message(not_seen: &[usize]) -> String {
    const NEXT: &str = "Try the edge cases, then tick the mastery checklist.";
    match not_seen {
        [] => format!("✓ Lesson complete: every step was seen by the simulation. {NEXT}"),
        [only] => format!(
            "✓ The last step is done. Step {only} was skipped (the lesson was opened past it), so this run never showed it: reopen the lesson from the list's \"Start\" to do every step. {NEXT}"
        ),
        [first, .., last] => format!(
            "✓ The last step is done. Steps {first}–{last} were skipped (the lesson was opened past them), so this run never showed them: reopen the lesson from the list's \"Start\" to do every step. {NEXT}"
        ),
    }
}

#[cfg(test)]
mod waiting_tests {
    use super::waiting_words;

    #[test]
    fn a_step_of_several_moves_counts_them_down() {
        assert!(waiting_words(1, 1).contains("your first move"));
        assert!(waiting_words(2, 2).contains("paused for your next 2"));
        assert!(waiting_words(1, 2).contains("your next one is the last"));
    }
}

/// What "show me" did, so an audience watching an instructor can follow it.
#[component]
fn ShowMeLog() -> impl IntoView {
    let lessons = use_lesson();
    view! {
        <Show when=move || lessons.show_me_log.with(|log| !log.is_empty())>
            <div class="show-me-log" aria-live="polite" data-testid="show-me-log">
                <p class="muted">"Show me did:"</p>
                <ul>{move || lessons.show_me_log.get().into_iter().rev().take(6).map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::course;

    #[test]
    fn every_lesson_splits_with_its_steps_section_in_the_middle() {
        for lesson in course().unwrap() {
            let blocks = parse_blocks(&lesson.body);
            let total = blocks.len();
            let (before, steps, after) = split_at_steps(blocks);
            assert_eq!(before.len() + steps.len() + after.len(), total);
            assert!(!steps.is_empty(), "{} has a Steps section", lesson.id);
            assert!(matches!(&steps[0], Block::Heading { .. }));
            assert!(
                after
                    .iter()
                    .any(|block| matches!(block, Block::Checklist(_))),
                "{}",
                lesson.id
            );
        }
    }

    #[test]
    fn a_lesson_finished_from_a_later_step_names_the_steps_it_skipped() {
        assert!(complete_message(&[]).contains("every step was seen"));
        let one = complete_message(&[1]);
        assert!(one.contains("Step 1 was skipped") && !one.contains("every step was seen"));
        let many = complete_message(&[1, 2, 3, 4, 5, 6, 7]);
        assert!(many.contains("Steps 1–7 were skipped"), "{many}");
    }

    #[test]
    fn without_a_steps_heading_everything_comes_first() {
        let (before, steps, after) = split_at_steps(parse_blocks("## Intro\n\ntext"));
        assert_eq!(before.len(), 2);
        assert!(steps.is_empty() && after.is_empty());
    }
}
