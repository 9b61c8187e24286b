//! Opening a lesson's run in the page: a fresh session of the world a step plays in, and the earlier
//! steps of that world played straight into it by the lesson's driver, as the headless
//! `quorumlab_sim::lesson::LessonRun` plays them: a deep link to step 3 must find the world as step 3
//! expects it. The actions go through the session's run, so they are in the action log, on the
//! timeline and in any share link made later, exactly as if the learner had pressed "show me" on each
//! step. A run reopened from a share link resumes its step's watch where the link says it began.

use super::tracker::LessonTracker;
use crate::session::Session;
use quorumlab_sim::lesson::Lesson;
use quorumlab_sim::time::SimTime;

/// A fresh session of the lesson's scenario, run for the lesson's `start_ms`.
pub fn lesson_session(lesson: &Lesson) -> Result<Session, String> {
    lesson_session_at(lesson, 0)
}

/// A fresh session of the world `step` runs in (the lesson's, or the nearest earlier step's own),
/// run for the lesson's `start_ms`.
pub fn lesson_session_at(lesson: &Lesson, step: usize) -> Result<Session, String> {
    let mut session = Session::new(lesson.world_of_step(step).1.clone())?;
    session.advance_to(SimTime::from_ms(lesson.start_ms));
    Ok(session)
}

/// Whether `step` (0-based) begins on a world of its own, so the page must open a fresh session
/// of it when the step before ticks.
pub fn opens_own_world(lesson: &Lesson, step: usize) -> bool {
    lesson
        .steps
        .get(step)
        .is_some_and(|step| step.own_world.is_some())
}

/// Plays the steps before `step` that run in its world (from [`lesson_session_at`]) with their
/// scripted solutions, as the lesson's driver plays them headless (`LessonDriver::play_solution`):
/// each script at once, then its checkpoint watched every `CHECK_EVERY_MS` until met. Returns a
/// tracker at `step`, the steps of earlier worlds counted as done. Fails, naming the step, if a
/// checkpoint is not met by its deadline (the lesson tests make sure that never happens).
pub fn play_to_step(
    session: &mut Session,
    lesson: &Lesson,
    step: usize,
) -> Result<LessonTracker, String> {
    let (first, _) = lesson.world_of_step(step);
    let mut tracker = LessonTracker::at_step(lesson.clone(), first, session.world());
    for index in first..step.min(lesson.steps.len()) {
        let verdict = tracker.play_solution(session.driver_mut());
        if tracker.current_step() == index {
            return Err(format!(
                "step {} did not complete by itself: {}",
                index + 1,
                verdict.explanation
            ));
        }
    }
    Ok(tracker)
}

/// A tracker at `step` whose watch began at `began` (a run reopened from a share link): the session is
/// moved to `began` so the step's checkpoint takes its baseline there, then back to where it was.
pub fn resume_at(
    session: &mut Session,
    lesson: &Lesson,
    step: usize,
    began: SimTime,
) -> LessonTracker {
    let position = session.now();
    session.seek(began.min(position));
    let tracker = LessonTracker::at_step(lesson.clone(), step, session.world());
    session.seek(position);
    tracker
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::course;

    #[test]
    fn a_deep_link_plays_the_earlier_steps_into_the_action_log() {
        for lesson in course()
            .unwrap()
            .into_iter()
            .filter(|lesson| lesson.steps.len() >= 2)
        {
            let mut session = lesson_session(&lesson).unwrap();
            let tracker = play_to_step(&mut session, &lesson, 1).unwrap();
            assert_eq!(tracker.current_step(), 1);
            assert!(tracker.done(1).is_none());
            if lesson.steps[1].own_world.is_some() {
                // A second step with a world of its own begins on a fresh run: nothing of step 1 is
                // played into it, and step 1 counts as done earlier.
                assert!(session.actions().is_empty(), "{}", lesson.id);
                assert!(tracker.done(0).is_some(), "{}", lesson.id);
                continue;
            }
            assert_eq!(
                session.actions().len(),
                lesson.steps[0].solution.len(),
                "{}",
                lesson.id
            );
            assert!(tracker
                .done(0)
                .is_some_and(|text| text != crate::lesson::tracker::DONE_EARLIER));
        }
    }

    #[test]
    fn a_resumed_tracker_watches_from_its_recorded_beginning() {
        let lesson = course()
            .unwrap()
            .into_iter()
            .find(|lesson| lesson.steps.len() >= 2)
            .unwrap();
        let mut session = lesson_session(&lesson).unwrap();
        let began = session.now();
        session.advance_to(began.plus_ms(200));
        let tracker = resume_at(&mut session, &lesson, 1, began);
        assert_eq!(tracker.step_began(), began);
        assert_eq!(session.now(), began.plus_ms(200));
        assert_eq!(tracker.done(0), Some(crate::lesson::tracker::DONE_EARLIER));
    }
}
