//! A step's pacing in the page (see `quorumlab_sim::lesson::StepPacing`): the speed a step plays at,
//! how many of the learner's moves the paused run waits for, and the "look now" moment a step may stop
//! the run at.
//!
//! None of it changes what the simulation does: the speed only sets how much simulated time a frame
//! covers, the moves are applied as any click is, and the look moment is one more place the frame
//! driver stops and pauses, as the learner pressing pause would.

use crate::context::lesson::LessonContext;
use leptos::prelude::*;
use quorumlab_sim::action::Action;
use quorumlab_sim::lesson::{Lesson, LookMoment};
use quorumlab_sim::time::SimTime;

/// The speed a lesson opens at, whatever the playground was set to (1× is a tenth of real time).
pub const LESSON_SPEED: f64 = 1.0;

/// The speed `step` (0-based) plays at, in the app's speed units (1.0 is a tenth of real time).
pub fn step_speed(lesson: &Lesson, step: usize) -> f64 {
    lesson
        .steps
        .get(step)
        .and_then(|step| step.pacing.playback_percent)
        .map_or(LESSON_SPEED, |percent| percent as f64 / 10.0)
}

/// How many moves `step`'s paused run waits for.
pub fn moves_while_paused(lesson: &Lesson, step: usize) -> u64 {
    lesson
        .steps
        .get(step)
        .map_or(1, |step| step.pacing.moves_while_paused.max(1))
}

pub(crate) fn current(lessons: LessonContext) -> Option<(Lesson, usize)> {
    lessons.with_tracker(|tracker| (tracker.lesson().clone(), tracker.current_step()))
}

/// One of the learner's moves while the lesson waits, paused: whether the run should start now.
pub fn paused_move_starts_run(lessons: LessonContext) -> bool {
    let left = lessons.pacing.moves_left.get_untracked().saturating_sub(1);
    lessons.pacing.moves_left.set(left);
    left == 0
}

pub(crate) fn look_of(lesson: &Lesson, step: usize) -> Option<&LookMoment> {
    lesson.steps.get(step)?.pacing.look.as_ref()
}

/// After `action`, a move of the learner's at `now`: arms the open step's look moment, once per step.
/// Only a move of a kind the step's own solution makes counts (adding a server, in a step about a
/// server joining): another move is not the moment the step points at.
pub fn after_learner_move(lessons: LessonContext, now: SimTime, action: &Action) {
    let Some((lesson, step)) = current(lessons) else {
        return;
    };
    let Some(look) = look_of(&lesson, step) else {
        return;
    };
    let kind = std::mem::discriminant(action);
    let asked_for = lesson.steps[step]
        .solution
        .iter()
        .any(|scripted| std::mem::discriminant(&scripted.action) == kind);
    if !asked_for {
        return;
    }
    if lessons.pacing.look_armed.get_value() == Some(step) {
        return;
    }
    lessons.pacing.look_armed.set_value(Some(step));
    lessons
        .pacing
        .look_at
        .set_value(Some((now.plus_ms(look.after_move_ms), step)));
}

/// The frame's target, brought forward to an armed look moment so the run stops exactly there.
pub fn clamp_to_look(lessons: LessonContext, target: SimTime) -> SimTime {
    lessons
        .pacing
        .look_at
        .get_value()
        .map_or(target, |(at, _)| target.min(at))
}

/// Where each of `quorumlab_sim::lesson::LOOK_VIEWS` is on the page.
pub fn view_selector(view: &str) -> &'static str {
    match view {
        "log strips" => "[data-testid=log-strips]",
        _ => "[data-testid=cluster-view]",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::course;
    use quorumlab_sim::lesson::LOOK_VIEWS;

    #[test]
    fn a_step_without_a_speed_plays_at_the_lesson_speed() {
        let lessons = course().unwrap();
        let paced = lessons
            .iter()
            .flat_map(|lesson| (0..lesson.steps.len()).map(move |step| (lesson, step)))
            .filter(|(lesson, step)| lesson.steps[*step].pacing.playback_percent.is_some())
            .collect::<Vec<_>>();
        assert!(!paced.is_empty(), "some step asks for a speed");
        for (lesson, step) in paced {
            let percent = lesson.steps[step].pacing.playback_percent.unwrap();
            assert!((step_speed(lesson, step) - percent as f64 / 10.0).abs() < 1e-9);
            assert!(
                step_speed(lesson, step) > LESSON_SPEED,
                "{} step {}",
                lesson.id,
                step + 1
            );
        }
        let plain = &lessons[0];
        let unpaced = (0..plain.steps.len())
            .find(|step| plain.steps[*step].pacing.playback_percent.is_none())
            .unwrap();
        assert_eq!(step_speed(plain, unpaced), LESSON_SPEED);
    }

    #[test]
    fn every_view_a_lesson_may_name_has_a_place_on_the_page() {
        let selectors: Vec<&str> = LOOK_VIEWS.iter().map(|view| view_selector(view)).collect();
        let mut distinct = selectors.clone();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            LOOK_VIEWS.len(),
            "each view has its own place"
        );
    }
}
