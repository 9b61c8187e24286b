//! Running the live session forward while a lesson is open: the session lends its run to the lesson's
//! driver (`LessonDriver::drive` in the engine), which stops at every moment the lesson cares about —
//! each check and each queued "show me" action — instead of leaping a whole animation frame. The
//! driver is the one headless `LessonRun` uses, so a lesson shown step by step in the page reproduces
//! the run its tests check, event for event.
//!
//! What stays here is what only the page has: "show me" going back to where the step began, setting
//! the learner's own moves in the step aside as a future they can bring back.

use super::runtime::LessonRuntime;
use crate::session::Session;
use quorumlab_sim::action::Action;
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::time::SimTime;

pub use quorumlab_sim::lesson::Driven;

/// What pressing "show me" did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShowMe {
    /// The run went back to where the step began.
    pub rewound_to: Option<SimTime>,
    /// The learner's own moves in this step, set aside by going back (they are in `set_aside`).
    pub moves_set_aside: usize,
    /// The run as it was before "show me" set the learner's moves aside, to bring back if wanted.
    pub set_aside: Option<crate::branch::ReplacedFuture>,
    /// How many actions were queued.
    pub queued: usize,
}

/// "Show me" on the open step: the run goes back to where the step began, so the script always runs
/// on the world the step expects, at exactly the moments a headless run uses. Nothing recorded before
/// the step is lost. Moves the learner made in this step (the actions logged after the first
/// `actions_at_step_start`, or recorded past the step's beginning) are set aside rather than piled
/// under the script: the run is rebuilt without them, and the run as it was is returned so the page
/// can offer it back. An action recorded at the very moment the step began by the step before (the
/// one that ticked it) is kept.
pub fn show_me(
    session: &mut Session,
    tracker: &mut dyn LessonRuntime,
    actions_at_step_start: usize,
) -> ShowMe {
    let began = tracker.step_began();
    let kept: Vec<RecordedAction> = session
        .actions()
        .iter()
        .take(actions_at_step_start)
        .filter(|recorded| recorded.at <= began)
        .cloned()
        .collect();
    let moves_set_aside = session.actions().len() - kept.len();
    let mut shown = ShowMe::default();
    if moves_set_aside > 0 {
        let rebuilt = Session::replaying(session.scenario().clone(), kept).map(|mut fresh| {
            fresh.seek(began);
            fresh
        });
        if let Ok(rebuilt) = rebuilt {
            shown.set_aside = Some(crate::branch::ReplacedFuture {
                scenario: session.scenario().clone(),
                actions: session.actions().to_vec(),
                acted_at: began,
                horizon: session.horizon(),
            });
            *session = rebuilt;
            shown.moves_set_aside = moves_set_aside;
            shown.rewound_to = Some(began);
        }
    } else if session.now() > began {
        session.seek(began);
        shown.rewound_to = Some(began);
    }
    if shown.rewound_to.is_some() {
        tracker.observe(session.world());
    }
    shown.queued = tracker.show_me(session.world());
    shown
}

/// Runs `session` to `target`, performing due "show me" actions and checking the open step at each stop.
pub fn drive_to(session: &mut Session, tracker: &mut dyn LessonRuntime, target: SimTime) -> Driven {
    drive_mirrored(session, tracker, target, &mut |_, _| {})
}

/// As [`drive_to`], handing each "show me" action to `mirror` with the instant it was performed at
/// (compare mode applies it to the right side there, so both sides get it at the same instant).
pub fn drive_mirrored(
    session: &mut Session,
    tracker: &mut dyn LessonRuntime,
    target: SimTime,
    mirror: &mut dyn FnMut(SimTime, &Action),
) -> Driven {
    tracker.drive(session, target, mirror)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::course;
    use crate::lesson::headless::{
        lesson_session, lesson_session_at, opens_own_world, play_to_step,
    };
    use crate::lesson::tracker::LessonTracker;
    use quorumlab_sim::lesson::LessonRun;

    /// "Show me" pressed the moment each step opens, driven in frames of `frame_us`.
    fn shown_in_frames(
        lesson: &quorumlab_sim::lesson::Lesson,
        frame_us: u64,
    ) -> (Session, LessonTracker) {
        let (session, tracker, _) = shown_with_results(lesson, frame_us);
        (session, tracker)
    }

    /// As [`shown_in_frames`], with each step's "what happened" as it ticked (a step's own world
    /// starts a tracker that has forgotten the earlier worlds' sentences).
    fn shown_with_results(
        lesson: &quorumlab_sim::lesson::Lesson,
        frame_us: u64,
    ) -> (Session, LessonTracker, Vec<Option<String>>) {
        let mut results = vec![None; lesson.steps.len()];
        let mut session = lesson_session(lesson).unwrap();
        let mut tracker = LessonTracker::start(lesson.clone(), session.world());
        let mut shown = None;
        let end = session.now().plus_ms(120_000);
        while !tracker.is_complete() && session.now() < end {
            let step = tracker.current_step();
            if shown != Some(step) && step > 0 && opens_own_world(lesson, step) {
                // As the page does when the step before ticks: a fresh run of the step's world.
                session = lesson_session_at(lesson, step).unwrap();
                tracker = play_to_step(&mut session, lesson, step).unwrap();
            }
            if shown != Some(tracker.current_step()) {
                shown = Some(tracker.current_step());
                let actions = session.actions().len();
                show_me(&mut session, &mut tracker, actions);
            }
            let target = session.now().plus_micros(frame_us);
            drive_to(&mut session, &mut tracker, target);
            for (step, result) in results.iter_mut().enumerate() {
                match tracker.done(step) {
                    Some(text)
                        if result.is_none() && text != crate::lesson::tracker::DONE_EARLIER =>
                    {
                        *result = Some(text.to_string())
                    }
                    _ => {}
                }
            }
        }
        (session, tracker, results)
    }

    #[test]
    fn the_edge_case_steps_say_what_the_simulation_saw() {
        // (lesson, step number, words its "what happened" must hold) for the steps taken from the
        // lesson source's edge cases: each sentence names the edge case, not merely a tick.
        let expected = [
            ("leases", 5, "kept its lease and token "),
            ("leases", 6, "crashed while holding the lock (token "),
            ("leases", 7, "restarted remembering no lock"),
            (
                "distributed-locks",
                4,
                "SET NX was applied on the server, but the reply never reached it",
            ),
            (
                "distributed-locks",
                5,
                "freed by a client that did not hold it",
            ),
            (
                "distributed-locks",
                6,
                "queued behind one holder at once while the grants in the last second fell to ",
            ),
            ("quorum-availability", 4, " ms after it was sent"),
            ("quorum-availability", 5, "came back "),
            ("guided-lab", 4, "of a batch it had already applied"),
            (
                "guided-lab",
                5,
                "grants since the step began, each above the one before, none repeated",
            ),
            ("guided-lab", 6, "leads the scheduler with token "),
            (
                "guided-lab",
                7,
                "invoice store refused 1 run carrying an old token",
            ),
            ("guided-lab", 8, "malformed"),
        ];
        let lessons = course().unwrap();
        for (id, ..) in &expected {
            assert!(
                lessons.iter().any(|lesson| lesson.id == *id),
                "no lesson {id}"
            );
        }
        for lesson in lessons {
            let mine: Vec<_> = expected
                .iter()
                .filter(|(id, ..)| *id == lesson.id)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let (_, _, results) = shown_with_results(&lesson, 33_333);
            for (id, number, words) in mine {
                let said = results[number - 1].clone().unwrap_or_default();
                assert!(said.contains(words), "{id} step {number} said: {said:?}");
            }
        }
    }

    #[test]
    fn show_me_on_every_step_completes_every_lesson_at_any_speed() {
        // Frames of 1.6 ms and 33 ms of simulated time: 1× and 20× playback at 60 frames a second.
        for lesson in course().unwrap() {
            for frame_us in [1_600, 33_333] {
                let (session, tracker) = shown_in_frames(&lesson, frame_us);
                assert!(
                    tracker.is_complete(),
                    "{} at {frame_us} µs frames, step {}: {}",
                    lesson.id,
                    tracker.current_step() + 1,
                    tracker.last_verdict()
                );
                // Only the last world's actions are in this session's log: the steps' scripts, and
                // the world's own scenario steps that have come due.
                let (first, world) = lesson.world_of_step(lesson.steps.len() - 1);
                let scenario_steps_due = world
                    .steps
                    .iter()
                    .filter(|step| SimTime::from_ms(step.at_ms) <= session.now())
                    .count();
                let scripted: usize = lesson.steps[first..]
                    .iter()
                    .map(|step| step.solution.len())
                    .sum::<usize>()
                    + scenario_steps_due;
                assert_eq!(
                    session.actions().len(),
                    scripted,
                    "{}: every scripted action is in the log once",
                    lesson.id
                );
            }
        }
    }

    #[test]
    fn show_me_in_the_page_reproduces_the_headless_run_event_for_event() {
        // Each step's "show me" goes back to where the step began, performs the script at its moments
        // and is judged at the headless run's instants: every step ticks at the same moment on the
        // same world, whatever the frame size.
        for lesson in course().unwrap() {
            let mut headless = LessonRun::new(&lesson).unwrap();
            for step in 0..lesson.steps.len() {
                assert!(headless.apply_solution(step).satisfied, "{}", lesson.id);
            }
            for frame_us in [1_600, 33_333] {
                let (mut session, tracker) = shown_in_frames(&lesson, frame_us);
                assert!(tracker.is_complete(), "{}", lesson.id);
                assert!(
                    session.now() >= headless.now(),
                    "{} at {frame_us} µs",
                    lesson.id
                );
                session.seek(headless.now());
                assert_eq!(
                    session.world().trace_hash(),
                    headless.world().trace_hash(),
                    "{} at {frame_us} µs frames",
                    lesson.id
                );
            }
        }
    }
}
