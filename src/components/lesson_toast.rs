//! The tick, announced where the learner is looking: a small banner by the cluster that says a step
//! just ticked and what comes next (and, to a screen reader, what the simulation saw).
//!
//! The step's own card says the same, but in the lesson panel: beside the cluster on a wide screen (at
//! the edge of sight while watching the nodes), above it on a phone (off screen while acting). A learner
//! who just crashed a node is looking at the node, so the news goes there: one or two lines over the
//! narration caption under the ring (over the strip above the ring on a phone, where the playback bar
//! covers the foot, and on one line: the step in hand is right above the cluster there, so the next
//! step's words are not repeated), never over a node. It follows the tracker's
//! count of steps done: only a rise within the same lesson announces anything (opening a lesson further
//! on, or a step's own world, does not), and it goes away on its own after a while, on ✕, or with the
//! next tick's news.

use crate::components::lesson_markdown::{inlines_view, LinkScope};
use crate::context::generation::Part;
use crate::context::lesson::LessonContext;
use crate::context::use_lesson;
use crate::lesson::live;
use crate::lesson::markdown::{parse_blocks, Block, Inline};
use crate::state::controls::{use_controls, Controls};
use leptos::prelude::*;
use quorumlab_sim::lesson::Lesson;

/// How long the banner stays unless dismissed: long enough to read two lines after looking up.
const SHOWN_FOR_MS: u32 = 15_000;

#[derive(Clone)]
struct TickNews {
    /// The step that ticked (0-based).
    step: usize,
    what_happened: String,
    lesson: Lesson,
}

/// The first bold phrase of a step's instruction: the lessons bold the action to take.
fn action_of(instruction: &str) -> Option<Vec<Inline>> {
    parse_blocks(instruction)
        .into_iter()
        .filter_map(|block| match block {
            Block::Paragraph(inlines) => Some(inlines),
            _ => None,
        })
        .flatten()
        .find_map(|inline| match inline {
            Inline::Strong(inner) => Some(inner),
            _ => None,
        })
}

#[component]
pub fn LessonTickToast() -> impl IntoView {
    let lessons = use_lesson();
    let controls = use_controls();
    let news = RwSignal::new(None::<TickNews>);
    let generation = StoredValue::new(0_u64);
    let progress = Memo::new(move |_| {
        lessons.generation.of(Part::Lesson).track();
        lessons.with_tracker(|tracker| (tracker.lesson().id.clone(), tracker.steps_done()))
    });
    Effect::new(move |previous: Option<Option<(String, usize)>>| {
        let now = progress.get();
        match (previous.flatten(), &now) {
            (Some((was, before)), Some((id, done))) if was == *id && *done > before => {
                let step = done - 1;
                let ticked = lessons.with_tracker(|tracker| TickNews {
                    step,
                    what_happened: tracker.done(step).unwrap_or_default().to_string(),
                    lesson: tracker.lesson().clone(),
                });
                news.set(ticked);
                generation.update_value(|count| *count += 1);
                let mine = generation.get_value();
                gloo_timers::callback::Timeout::new(SHOWN_FOR_MS, move || {
                    if generation.try_get_value() == Some(mine) {
                        news.set(None);
                    }
                })
                .forget();
            }
            (_, None) => news.set(None),
            _ => {}
        }
        now
    });
    move || {
        news.get()
            .map(|ticked| tick_banner(lessons, controls, ticked, news))
    }
}

/// What comes after the step that ticked: the next step's action, its own world to open, or the end.
fn next_view(lessons: LessonContext, controls: Controls, ticked: &TickNews) -> AnyView {
    let next = ticked.step + 1;
    let Some(step) = ticked.lesson.steps.get(next) else {
        return view! { <span>"That was the last step: the lesson is complete."</span> }.into_any();
    };
    let number = next + 1;
    if lessons.next_world.get().is_some() {
        return view! {
            <span class="lesson-toast-words">{format!("Step {number} starts from a fresh run. ")}</span>
            <button class="primary" data-testid="toast-open-world" on:click=move |_| live::open_next_world(controls.root())>
                {format!("Open step {number}'s world")}
            </button>
        }
        .into_any();
    }
    let action = action_of(&step.instruction)
        .map(|action| inlines_view(&action, LinkScope::Step))
        .unwrap_or_else(|| "read it in the lesson".into_any());
    view! {
        <span class="lesson-toast-words">{format!("Next, step {number}: ")}<strong>{action}</strong>" "</span>
        <button class="link" data-testid="toast-read-step" on:click=move |_| crate::lesson::reach::show_current_step()>
            {format!("Read step {number}")}
        </button>
    }
    .into_any()
}

fn tick_banner(
    lessons: LessonContext,
    controls: Controls,
    ticked: TickNews,
    news: RwSignal<Option<TickNews>>,
) -> AnyView {
    let number = ticked.step + 1;
    let next = next_view(lessons, controls, &ticked);
    // What the simulation saw is read out, but not drawn: drawn, it took four lines and covered the
    // nodes at the ring's foot; the step's card (beside the cluster, or "Read step N" away) shows it.
    let heard = if ticked.what_happened.is_empty() {
        String::new()
    } else {
        format!(": {}.", ticked.what_happened.trim_end_matches('.'))
    };
    view! {
        <div class="lesson-toast" role="status" data-testid="lesson-toast" data-step=number>
            <p class="lesson-toast-line">
                <strong class="lesson-toast-done">{format!("✓ Step {number} done")}</strong>
                <span class="sr-only" data-testid="toast-what-happened">{heard}</span>
                " · "
                {next}
            </p>
            <button class="link lesson-toast-close" aria-label="Dismiss" data-testid="toast-dismiss"
                on:click=move |_| news.set(None)>"✕"</button>
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::markdown::plain_text;

    #[test]
    fn the_next_action_is_the_first_bold_phrase() {
        let action = action_of("Now **Restart B**, then **pause A**.").unwrap();
        assert_eq!(plain_text(&action), "Restart B");
        assert!(action_of("No bold words here.").is_none());
        for lesson in crate::lesson::course().unwrap() {
            for step in &lesson.steps {
                assert!(
                    action_of(&step.instruction).is_some(),
                    "{}: {}",
                    lesson.id,
                    step.instruction
                );
            }
        }
    }
}
