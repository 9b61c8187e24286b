//! Playing a lesson's earlier steps straight into a session, the way `quorumlab_sim::lesson::LessonRun`
//! does headless: a deep link to step 3 must find the world as step 3 expects it. The actions go through
//! [`Session::apply`], so they are in the action log, on the timeline and in any share link made later,
//! exactly as if the learner had pressed "show me" on each step.

use super::tracker::LessonTracker;
use crate::session::Session;
use quorumlab_sim::lesson::{Lesson, CHECK_EVERY_MS};
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
/// scripted solutions, each checkpoint watched every [`CHECK_EVERY_MS`] until met; returns a tracker
/// at `step`, the steps of earlier worlds counted as done. Fails, naming the step, if a checkpoint is
/// not met by its deadline (the lesson tests make sure that never happens).
pub fn play_to_step(
    session: &mut Session,
    lesson: &Lesson,
    step: usize,
) -> Result<LessonTracker, String> {
    let (first, _) = lesson.world_of_step(step);
    let mut tracker = LessonTracker::at_step(lesson.clone(), first, session.world());
    let mut texts = vec![super::tracker::DONE_EARLIER.to_string(); first];
    for (index, scripted_step) in lesson.steps.iter().enumerate().take(step).skip(first) {
        let began = tracker.step_began();
        for scripted in &scripted_step.solution {
            session.advance_to(began.plus_ms(scripted.after_ms));
            session.apply(&scripted.action);
        }
        let deadline = began.plus_ms(scripted_step.deadline_ms());
        loop {
            if tracker.observe(session.world()).ticked == Some(index) {
                texts.push(tracker.done(index).unwrap_or_default().to_string());
                break;
            }
            if session.now() >= deadline {
                return Err(format!(
                    "step {} did not complete by itself: {}",
                    index + 1,
                    tracker.last_verdict()
                ));
            }
            session.advance_to(session.now().plus_ms(CHECK_EVERY_MS).min(deadline));
        }
    }
    tracker.set_done_texts(texts);
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

    /// Drives a tracker the way the page does (frames of 1.6 ms, as at 1×) until the open step ticks
    /// or `until`.
    fn play_like_the_page(session: &mut Session, tracker: &mut LessonTracker, until: SimTime) {
        let step = tracker.current_step();
        while session.now() < until && tracker.current_step() == step {
            let target = session.now().plus_micros(1_600).min(until);
            crate::lesson::drive::drive_to(session, tracker, target);
        }
    }

    #[test]
    fn without_show_me_no_step_ticks() {
        for lesson in course().unwrap() {
            let mut session = lesson_session(&lesson).unwrap();
            let mut tracker = LessonTracker::start(lesson.clone(), session.world());
            let deadline = tracker.step_began().plus_ms(lesson.steps[0].deadline_ms());
            play_like_the_page(&mut session, &mut tracker, deadline);
            assert_eq!(tracker.steps_done(), 0, "{}", lesson.id);
            assert!(!tracker.last_verdict().is_empty());
        }
    }

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
                .is_some_and(|text| text != super::super::tracker::DONE_EARLIER));
        }
    }

    #[test]
    fn a_done_step_keeps_its_live_names_as_they_were_at_its_tick() {
        use quorumlab_sim::action::{Action, NodeTarget};
        use quorumlab_sim::lesson::LiveName;
        let lesson = course()
            .unwrap()
            .into_iter()
            .find(|lesson| lesson.id == "leases")
            .unwrap();
        let mut session = lesson_session(&lesson).unwrap();
        let tracker = play_to_step(&mut session, &lesson, 1).unwrap();
        let live = |session: &Session| LiveName::Leader.value(&session.world().view());
        let (frozen, node) = tracker
            .name_at_tick(0, LiveName::Leader)
            .expect("step 1 ticked here");
        assert_eq!(frozen, live(&session), "taken at the tick's moment");
        // The leader crashes after the tick: the live name moves on, the done step's stays.
        session.apply(&Action::Crash {
            target: NodeTarget::Leader,
        });
        session.advance_to(session.now().plus_ms(3_000));
        assert_ne!(live(&session), frozen);
        assert_eq!(
            tracker.name_at_tick(0, LiveName::Leader),
            Some((frozen, node))
        );
        assert_eq!(
            tracker.name_at_tick(1, LiveName::Leader),
            None,
            "the open step's names follow the run"
        );
    }

    #[test]
    fn moving_back_in_time_keeps_ticks_and_drops_queued_actions() {
        let lesson = course()
            .unwrap()
            .into_iter()
            .find(|lesson| lesson.steps.len() >= 2)
            .unwrap();
        let mut session = lesson_session(&lesson).unwrap();
        let mut tracker = play_to_step(&mut session, &lesson, 1).unwrap();
        let began = tracker.step_began();
        tracker.show_me(session.world());
        session.advance_to(began.plus_ms(1));
        tracker.observe(session.world());
        session.seek(SimTime::from_ms(lesson.start_ms));
        let observation = tracker.observe(session.world());
        assert!(observation.rewound);
        assert!(tracker.pending().is_empty());
        assert_eq!(tracker.current_step(), 1, "the done step stays done");
        assert_eq!(tracker.step_began(), SimTime::from_ms(lesson.start_ms));
    }

    #[test]
    fn show_me_actions_wait_for_their_moment_and_late_ones_fire_at_once() {
        let lesson = course().unwrap().into_iter().next().unwrap();
        let session = lesson_session(&lesson).unwrap();
        let mut tracker = LessonTracker::start(lesson.clone(), session.world());
        let queued = tracker.show_me(session.world());
        assert_eq!(queued, lesson.steps[0].solution.len());
        assert_eq!(
            tracker.show_me(session.world()),
            0,
            "a second press queues nothing more"
        );
        let first_at = tracker
            .step_began()
            .plus_ms(lesson.steps[0].solution[0].after_ms);
        if first_at > tracker.step_began() {
            assert!(tracker.take_due(tracker.step_began()).is_empty());
        }
        let late = tracker.take_due(SimTime::from_ms(lesson.start_ms + 1_000_000));
        assert_eq!(late.len(), queued);
        assert!(tracker.pending().is_empty());
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
        assert_eq!(tracker.done(0), Some(super::super::tracker::DONE_EARLIER));
    }

    #[test]
    fn steps_skipped_by_opening_later_are_not_seen_and_a_full_walk_sees_all() {
        let lesson = course()
            .unwrap()
            .into_iter()
            .find(|lesson| lesson.steps.len() >= 3)
            .unwrap();
        let session = lesson_session(&lesson).unwrap();
        let skipped = LessonTracker::at_step(lesson.clone(), 2, session.world());
        assert_eq!(skipped.steps_not_seen(), vec![1, 2]);
        let fresh = LessonTracker::start(lesson, session.world());
        assert!(fresh.steps_not_seen().is_empty());
    }
}
