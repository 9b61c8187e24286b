//! A compare link inside a lesson step: the comparison is made of the lesson's own run.
//!
//! A link in a step's instruction or in one of its predictions' explanations asks "what would this
//! very moment look like with the option flipped?". So, while a lesson is open and its run's world has
//! the option, the link keeps that run where it is as the left side and sets beside it a right side
//! replayed to the same moment with the same actions (as the picker does). The lesson stays open: its
//! tracker goes on watching the left side, the only one it ever judges, and its "show me" actions
//! reach the right side at the instant they are performed (`lesson::drive::drive_mirrored`). The left
//! is the side the lesson names because it keeps the lesson's own settings, the ones its checkpoints
//! were written for; the right side shows what those settings prevent.
//!
//! A link in the lesson's prose (the edge cases to try) tells the story of one example scenario, with
//! its own scripted faults and figures, so it opens that example from its start, as outside a lesson;
//! the lesson's run is replaced and the lesson closes, which the notice says.

use crate::compare::open::{example, open_compare, open_compare_here, pair_of, variations_named};
use crate::lazy_part::PartMissing;
use crate::lesson::markdown::{parse_blocks, parse_inlines, Block, Inline};
use crate::state::AppState;
use leptos::prelude::*;
use quorumlab_sim::compare::variation::Variation;
use quorumlab_sim::lesson::LessonStep;
use quorumlab_sim::scenario::Scenario;

/// A compare link as a lesson writes it: `[words](compare:<example>/<options>)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareLink {
    pub example: String,
    pub variations: String,
}

/// What opening a lesson's compare link did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkOpened {
    /// The lesson's run is the left side; the lesson stays open and judges it.
    BesideLesson,
    /// The example runs on both sides from its start (no lesson was open, or it could not be kept).
    Example,
}

/// Whether a step's link may compare the lesson's run itself: the run's world has every option.
pub fn lesson_run_takes(lesson_run: &Scenario, variations: &[Variation]) -> bool {
    pair_of(lesson_run, variations).is_ok()
}

/// Opens the link `example`/`variations`. `lesson_run` is the scenario of the open lesson's run when
/// the link sits in one of its steps (`None` for prose, or with no lesson open). On failure nothing
/// changes and the error says why.
pub fn open_link(
    state: AppState,
    link: &CompareLink,
    lesson_run: Option<&Scenario>,
) -> Result<LinkOpened, String> {
    let chosen = variations_named(&link.variations)?;
    if lesson_run.is_some_and(|run| lesson_run_takes(run, &chosen)) {
        open_compare_here(state, chosen)?;
        return Ok(LinkOpened::BesideLesson);
    }
    let base = example(&link.example)?;
    open_compare(state, base, chosen)?;
    Ok(LinkOpened::Example)
}

/// [`open_link`] from a click: its code (the example reader among it) comes with the scenario reader's
/// part (`crate::scenario_reader`), since lesson text with a compare link is drawn by the first module
/// too (the lesson toast). `Err` when that part could not be fetched.
#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(scenario_reader, wasm_split_path = ::leptos::wasm_split, fallible))]
pub fn open_link_when_here(
    state: AppState,
    link: CompareLink,
    lesson_run: Option<Scenario>,
) -> Result<Result<LinkOpened, String>, PartMissing> {
    Ok(open_link(state, &link, lesson_run.as_ref()))
}

/// The scenario of the open lesson's run, if a lesson is open and still on its own run.
pub fn open_lesson_run(state: AppState) -> Option<Scenario> {
    state.parts().lesson.active.get_untracked()?;
    Some(state.with_session(|session| session.scenario().clone()))
}

/// Every compare link in `step`: in its instruction and in its predictions' options and explanations.
pub fn step_links(step: &LessonStep) -> Vec<CompareLink> {
    let mut links = Vec::new();
    for block in parse_blocks(&step.instruction) {
        match block {
            Block::Heading { text, .. } | Block::Paragraph(text) => collect(&text, &mut links),
            Block::List(items) => items.iter().for_each(|item| collect(item, &mut links)),
            Block::Checklist(items) => items.iter().for_each(|(_, item)| collect(item, &mut links)),
            Block::Code { .. } => {}
        }
    }
    for option in step
        .predict
        .iter()
        .flat_map(|prediction| &prediction.options)
    {
        collect(&parse_inlines(&option.text), &mut links);
        collect(&parse_inlines(&option.explanation), &mut links);
    }
    links
}

fn collect(inlines: &[Inline], links: &mut Vec<CompareLink>) {
    for inline in inlines {
        match inline {
            Inline::Strong(inner) | Inline::Emphasis(inner) => collect(inner, links),
            Inline::Compare {
                example,
                variations,
                ..
            } => links.push(CompareLink {
                example: example.clone(),
                variations: variations.clone(),
            }),
            Inline::Text(_)
            | Inline::Code(_)
            | Inline::Live(_)
            | Inline::Gallery { .. }
            | Inline::Experiment { .. }
            | Inline::Control { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::lockstep::replay_beside;
    use crate::lesson::course;
    use crate::lesson::drive::{drive_mirrored, show_me};
    use crate::lesson::headless::{lesson_session_at, play_to_step, resume_at};
    use crate::session::Session;
    use quorumlab_sim::lesson::Lesson;
    use quorumlab_sim::time::SimTime;

    /// Every step with a compare link, as (lesson, step index, link).
    fn steps_with_links() -> Vec<(Lesson, usize, CompareLink)> {
        let mut found = Vec::new();
        for lesson in course().unwrap() {
            for (index, step) in lesson.steps.iter().enumerate() {
                for link in step_links(step) {
                    found.push((lesson.clone(), index, link));
                }
            }
        }
        found
    }

    /// The lesson opened at `step` (earlier steps played), beside a right side with `link`'s options
    /// flipped, replayed to the same moment; "show me" pressed and driven in 1× frames until the left
    /// ticks or the step's time runs out. Returns the left's and the right's trackers and sessions.
    fn shown_beside(
        lesson: &Lesson,
        step: usize,
        link: &CompareLink,
    ) -> (bool, Session, Session, SimTime) {
        let mut left = lesson_session_at(lesson, step).unwrap();
        let mut tracker = play_to_step(&mut left, lesson, step).unwrap();
        let chosen = variations_named(&link.variations).unwrap();
        let (_, right_scenario) = pair_of(left.scenario(), &chosen).unwrap();
        let mut right = replay_beside(&left, right_scenario).unwrap();
        let began = tracker.step_began();
        let actions = left.actions().len();
        show_me(&mut left, &mut tracker, actions);
        right.seek(left.now());
        let deadline = began
            .plus_ms(lesson.steps[step].deadline_ms())
            .plus_ms(1_000);
        let mut mirror = |at: SimTime, action: &quorumlab_sim::action::Action| {
            right.advance_to(at);
            right.apply(action);
        };
        while tracker.current_step() == step && left.now() < deadline {
            let target = left.now().plus_micros(1_600);
            drive_mirrored(&mut left, &mut tracker, target, &mut mirror);
        }
        let ticked = tracker.current_step() > step;
        right.advance_to(left.now());
        (ticked, left, right, began)
    }

    /// The steps that open compare are those of lessons 6 and 8 whose question is "what if the
    /// design were the other one?"; each link fits the lesson's own world at that step.
    #[test]
    fn the_steps_with_compare_links_fit_their_lessons_runs() {
        let found = steps_with_links();
        for lesson_id in ["fencing-tokens", "avoiding-coordination"] {
            assert!(
                found.iter().any(|(lesson, _, _)| lesson.id == lesson_id),
                "{lesson_id} has a step with a compare link"
            );
        }
        for (lesson, step, link) in &found {
            let chosen = variations_named(&link.variations).unwrap();
            let run = lesson.world_of_step(*step).1;
            assert!(
                lesson_run_takes(run, &chosen),
                "{} step {}: {link:?} does not fit the lesson's world",
                lesson.id,
                step + 1
            );
        }
    }

    /// "Show me" on a step whose link was opened: both sides get the script at the same instants, the
    /// lesson's checkpoint is met on the left, and judged on the right (same step, same baseline) it
    /// is not: the flipped option is exactly what the step is about.
    #[test]
    fn show_me_beside_the_flipped_run_ticks_the_left_and_not_the_right() {
        for (lesson, step, link) in steps_with_links() {
            let (ticked, left, mut right, began) = shown_beside(&lesson, step, &link);
            let what = format!("{} step {}", lesson.id, step + 1);
            assert!(ticked, "{what}: the left side meets the checkpoint");
            assert_eq!(left.now(), right.now(), "{what}: one clock");
            let moves = |session: &Session| {
                session
                    .actions()
                    .iter()
                    .map(|recorded| (recorded.at, recorded.action.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(moves(&left), moves(&right), "{what}: the same actions");
            let now = right.now();
            let mut judge = resume_at(&mut right, &lesson, step, began);
            let observed = judge.observe(right.world());
            assert_eq!(right.now(), now);
            assert_eq!(
                observed.ticked, None,
                "{what}: the right side must not meet the checkpoint"
            );
        }
    }

    #[test]
    fn prose_links_are_not_step_links_and_options_are_checked() {
        let lesson = course()
            .unwrap()
            .into_iter()
            .find(|lesson| lesson.id == "zookeeper-election")
            .unwrap();
        assert!(lesson.body.contains("](compare:"));
        assert!(lesson.steps.iter().all(|step| step_links(step).is_empty()));
        let calm = lesson.world_of_step(0).1;
        assert!(lesson_run_takes(calm, &[Variation::ZkRecipe]));
        assert!(!lesson_run_takes(calm, &[Variation::Fencing]));
    }
}
