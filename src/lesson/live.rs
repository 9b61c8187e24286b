//! The lesson in the page: which lesson is open, its tracker on the live session, the address, and the
//! progress kept in localStorage. Components read the signals here; everything that changes a lesson
//! goes through the functions below.
//!
//! Opening a lesson replaces the run the way the protocol picker or a share link does
//! ([`AppState::open_session`]): a fresh session of the lesson's scenario, run for its `start_ms` (and,
//! for a later step, with the earlier steps' solutions played into it). While it plays, each animation
//! frame goes through [`drive_frame`], which performs due "show me" actions through the session's
//! normal action path (logged, marked on the timeline, carried by share links) and checks the open step
//! at the same moments a headless run does. When paused, [`observe`] checks after each click or seek.
//! A run replaced by anything else (another protocol, new settings, a plain share link) closes the
//! lesson.

use crate::context::generation::Part;
use crate::context::lesson::{CourseState, LessonContext, LookNow};
use crate::context::notice::Notice;
use crate::format;
use crate::lesson::completion::CompletionLog;
use crate::lesson::completion_live as completion;
use crate::lesson::drive::{drive_mirrored, Driven};
use crate::lesson::headless::{lesson_session_at, opens_own_world};
use crate::lesson::loading::{load_course, Course};
use crate::lesson::markdown::{parse_blocks, Block};
use crate::lesson::pacing;
use crate::lesson::predictions::Predictions;
use crate::lesson::progress::{storage_key, Progress};
use crate::lesson::route::{is_lesson_fragment, lesson_fragment, parse_route};
use crate::lesson::runtime;
use crate::session::Session;
use crate::share::SharedLesson;
use crate::state::AppState;
use crate::web_io;
use leptos::prelude::*;
use quorumlab_sim::action::Action;
use quorumlab_sim::lesson::Lesson;
use quorumlab_sim::scenario::Scenario;
use quorumlab_sim::time::SimTime;

/// Runs `then` once the course has arrived (at once if it has), starting the fetch if nobody has.
/// Whatever waits sees the course through [`LessonContext::with_course`], loaded or failed.
pub fn when_course_loaded(state: AppState, then: impl FnOnce(AppState) + 'static) {
    let lessons = state.parts().lesson;
    if lessons.course_settled() {
        then(state);
        return;
    }
    let first_to_ask = lessons
        .course
        .with_value(|course| matches!(course, CourseState::NotLoaded));
    let then: Box<dyn FnOnce()> = Box::new(move || then(state));
    lessons.course.update_value(|course| match course {
        CourseState::Loading(waiting) => waiting.push(then),
        _ => *course = CourseState::Loading(vec![then]),
    });
    if first_to_ask {
        load_course(move |course| arrived(state, course));
    }
}

fn arrived(state: AppState, course: Course) {
    let waiting = state.parts().lesson.course.try_update_value(|stored| {
        match std::mem::replace(stored, CourseState::Loaded(course)) {
            CourseState::Loading(waiting) => waiting,
            _ => Vec::new(),
        }
    });
    state.parts().lesson.generation.bump(Part::Course);
    for then in waiting.unwrap_or_default() {
        then();
    }
}

/// How many mastery-checklist items a lesson's text has.
pub fn mastery_item_count(lesson: &Lesson) -> usize {
    parse_blocks(&lesson.body)
        .iter()
        .map(|block| match block {
            Block::Checklist(items) => items.len(),
            _ => 0,
        })
        .sum()
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The stored progress of `lesson` (empty when storage is missing, refused or unreadable).
pub fn load_progress(lesson: &Lesson) -> Progress {
    let text = storage()
        .and_then(|storage| storage.get_item(&storage_key(&lesson.id)).ok().flatten())
        .unwrap_or_default();
    Progress::from_storage(&text).clamped(lesson.steps.len(), mastery_item_count(lesson))
}

/// Changes and stores `lesson`'s progress; a refused write (private mode, full storage) is ignored:
/// progress is a convenience, never a reason to interrupt the lesson.
pub fn update_progress(
    lessons: LessonContext,
    lesson: &Lesson,
    change: impl FnOnce(&mut Progress),
) {
    let mut progress = load_progress(lesson);
    change(&mut progress);
    if let Some(storage) = storage() {
        let _ = storage.set_item(&storage_key(&lesson.id), &progress.to_storage());
    }
    lessons.generation.bump(Part::Progress);
}

fn notice(state: AppState, text: String, is_error: bool) {
    state
        .parts()
        .notices
        .notice
        .set(Some(Notice { text, is_error }));
}

/// Opens lesson `index` of the course at `step` (0-based): a fresh run of its scenario, earlier steps
/// played by their solutions. On failure nothing changes and the notice says why.
pub fn open_lesson(state: AppState, index: usize, step: usize) {
    let lessons = state.parts().lesson;
    let Ok(Some(lesson)) = lessons.with_course(|course| course.get(index).cloned()) else {
        return;
    };
    // Here whenever a course is: the course is read by the same part.
    let Some(machinery) = runtime::machinery() else {
        return;
    };
    let opened = lesson_session_at(&lesson, step).and_then(|mut session| {
        let began = session.now();
        let tracker = (machinery.play_to_step)(&mut session, &lesson, step)?;
        Ok((session, tracker, began))
    });
    match opened {
        Ok((session, tracker, began)) => {
            let first = lesson.world_of_step(step).0;
            lessons
                .completion
                .set_value(CompletionLog::opened(first, began, first..step));
            lessons.tracker.set_value(Some(tracker));
            lessons
                .run_scenario
                .set_value(Some(session.scenario().clone()));
            lessons.active.set(Some(index));
            lessons.list_open.set(false);
            lessons.next_world.set(None);
            lessons.show_me_log.set(Vec::new());
            lessons.verdict.set(String::new());
            lessons.predictions.set(Predictions::default());
            // Paused at the start, at the step's speed: the run waits while the learner reads.
            state.open_session(session, false);
            begin_step(state);
            lessons.waiting.set(true);
            lessons.bump();
            crate::lesson::reach::show_lesson_step(step + 1);
            web_io::replace_fragment(&lesson_fragment(&lesson.id, step + 1));
            // The panel itself says which lesson and step this is; an older notice no longer applies.
            state.parts().notices.notice.set(None);
        }
        Err(reason) => notice(
            state,
            format!("The lesson could not be opened: {reason}"),
            true,
        ),
    }
}

/// How long after start the course is fetched for a later visit without network.
const OFFLINE_PREFETCH_DELAY_MS: u32 = 3_000;

/// Once the page has settled, fetches the course if a service worker is keeping what the page loads:
/// the lessons then open offline too, although this visit never opened one. Without a service worker
/// nothing is fetched before a lesson is wanted.
pub fn prefetch_for_offline(state: AppState) {
    gloo_timers::callback::Timeout::new(OFFLINE_PREFETCH_DELAY_MS, move || {
        if web_io::service_worker_controls_page() {
            when_course_loaded(state, |_| ());
        }
    })
    .forget();
}

/// Leaves the lesson; the run goes on as it is.
pub fn close_lesson(state: AppState) {
    // The address no longer names what is on screen.
    if is_lesson_fragment(&web_io::location_hash()) {
        web_io::replace_fragment("");
    }
    let lessons = state.parts().lesson;
    lessons.waiting.set(false);
    lessons.next_world.set(None);
    lessons.tracker.set_value(None);
    lessons.run_scenario.set_value(None);
    lessons.active.set(None);
    lessons.bump();
}

/// A fresh run the learner started from Run settings while a lesson is open (a step may ask for an
/// option changed, as lesson 11's last one does): the lesson stays and follows that run, and the open
/// step watches it from its start, as after any move back in time. Any other new run (a share link,
/// the picker, the gallery) still closes the lesson.
pub fn follow_fresh_run(state: AppState, scenario: &Scenario) {
    let lessons = state.parts().lesson;
    let open = lessons.active.get_untracked().is_some();
    // `restart` refuses a run it cannot build, and then the lesson's own run is still on screen.
    let started = state
        .parts()
        .run
        .scenario
        .with_untracked(|shown| shown == scenario);
    if open && started {
        lessons.run_scenario.set_value(Some(scenario.clone()));
        lessons.bump();
    }
    completion::after_fresh_run(state, open && started);
}

/// Advances one animation frame while a lesson is open (see `lesson::drive`). Returns false when no
/// lesson is open (or it is complete with nothing queued), so the ordinary frame runs instead.
pub fn drive_frame(state: AppState, wall_ms: f64, speed: f64) -> bool {
    let lessons = state.parts().lesson;
    let has_work = lessons.tracker.try_with_value(|tracker| {
        tracker
            .as_ref()
            .is_some_and(|tracker| !tracker.is_complete() || tracker.pending_count() > 0)
    });
    // While the finished step's world waits to be replaced, it plays as a plain run: the open step
    // belongs to another world and must not be judged on this one.
    if has_work != Some(true) || lessons.next_world.get_untracked().is_some() {
        return false;
    }
    // While comparing, every "show me" action reaches the right side at the instant it is performed.
    let partner = state.compare().partner();
    let mut mirror = move |at: SimTime, action: &Action| {
        if let Some(partner) = partner {
            partner.mirror_at(at, action);
        }
    };
    let driven = state
        .update_session(|session| {
            let target = pacing::clamp_to_look(lessons, session.frame_target(wall_ms, speed)?);
            lessons
                .tracker
                .try_update_value(|tracker| {
                    tracker.as_mut().map(|tracker| {
                        drive_mirrored(session, tracker.as_mut(), target, &mut mirror)
                    })
                })
                .flatten()
        })
        .flatten();
    if let Some(driven) = driven {
        after_driving(state, driven);
    }
    after_look_frame(state, state.with_session(|session| session.now()));
    true
}

fn after_driving(state: AppState, driven: Driven) {
    let lessons = state.parts().lesson;
    if !driven.performed.is_empty() {
        state.parts().run.generation.bump(Part::History);
        lessons.show_me_log.update(|log| {
            log.extend(driven.performed.iter().map(|(scheduled, skipped)| {
                let action = format::describe_action(&scheduled.action);
                let at = format::sim_time(scheduled.at.as_micros());
                match skipped {
                    None => format!("Show me: {action} at {at}"),
                    Some(reason) => format!("Show me: {action} at {at} did nothing: {reason}"),
                }
            }))
        });
        lessons.bump();
    }
    publish_verdict(lessons);
    if driven.ticked {
        after_tick(state);
    }
}

fn publish_verdict(lessons: LessonContext) {
    let verdict = lessons
        .with_tracker(|tracker| tracker.last_verdict().to_string())
        .unwrap_or_default();
    if lessons.verdict.with_untracked(|shown| *shown != verdict) {
        lessons.verdict.set(verdict);
    }
}

/// Looks at the world outside the frame loop (after a click, a seek, or while paused): notices a move
/// back in time and ticks a step the learner completed by acting. While playing, the frame driver
/// does this at its own stops.
pub fn observe(state: AppState) {
    let lessons = state.parts().lesson;
    if lessons.next_world.get_untracked().is_some() {
        return;
    }
    let observed = state.with_session(|session| {
        lessons
            .tracker
            .try_update_value(|tracker| {
                tracker
                    .as_mut()
                    .map(|tracker| tracker.observe(session.world()))
            })
            .flatten()
    });
    let Some(observation) = observed else {
        return;
    };
    publish_verdict(lessons);
    if observation.rewound {
        lessons.bump();
    }
    if observation.ticked.is_some() {
        after_tick(state);
    }
}

/// After the open step ticked (by the run, or by the search answering): progress, completion log, the
/// next step or world, and the address.
pub(crate) fn after_tick(state: AppState) {
    let lessons = state.parts().lesson;
    let Some((lesson, done, current)) = lessons.with_tracker(|tracker| {
        (
            tracker.lesson().clone(),
            tracker.steps_done(),
            tracker.current_step(),
        )
    }) else {
        return;
    };
    update_progress(lessons, &lesson, |progress| progress.record_steps(done));
    if let Some(began) = lessons.with_tracker(|tracker| tracker.step_began()) {
        let ticked = current.saturating_sub(1);
        lessons
            .completion
            .update_value(|log| log.mark_tick(ticked, began));
    }
    if opens_own_world(&lesson, current) {
        // The next step is played on another world. Opening it at once would wipe the badges, the
        // narration and the drawing of what just happened, so this run stays up, paused, until the
        // learner opens the next one (or asks "show me" there).
        state.parts().playback.playing.set(false);
        lessons.next_world.set(Some(current));
        let title = lesson.world_of_step(current).1.title.clone();
        notice(
            state,
            format!(
                "Step {} is done: look around this run. Step {} runs on a new world ({title}); \
                 open it from the lesson panel when you are ready.",
                current,
                current + 1
            ),
            false,
        );
        lessons.bump();
        return;
    }
    begin_step(state);
    let shown_step = (current + 1).min(lesson.steps.len());
    web_io::replace_fragment(&lesson_fragment(&lesson.id, shown_step));
    lessons.bump();
}

/// Replaces the finished step's run with a fresh run of the open step's own world, paused, as a lesson
/// opens; what the learner saw happen stays written under each step done so far.
pub fn open_next_world(state: AppState) {
    let lessons = state.parts().lesson;
    let (Some(current), Some(index)) = (
        lessons.next_world.get_untracked(),
        lessons.active.get_untracked(),
    ) else {
        return;
    };
    let Some((texts, names, title)) = lessons.with_tracker(|tracker| {
        let texts = (0..current)
            .map(|step| tracker.done(step).unwrap_or_default().to_string())
            .collect::<Vec<_>>();
        (
            texts,
            tracker.names_at_ticks(),
            tracker.lesson().world_of_step(current).1.title.clone(),
        )
    }) else {
        return;
    };
    // The learner may have locked in this step's prediction while the finished run was on screen.
    let predictions = lessons.predictions.get_untracked();
    completion::set_run_aside(state);
    let kept = lessons.completion.get_value();
    open_lesson(state, index, current);
    lessons.predictions.set(predictions);
    lessons
        .completion
        .update_value(|fresh| *fresh = kept.continued_by(std::mem::take(fresh)));
    lessons.tracker.update_value(|tracker| {
        if let Some(tracker) = tracker {
            tracker.set_done_texts(texts);
            tracker.set_names_at_ticks(names);
        }
    });
    notice(
        state,
        format!("Step {} runs on a new world: {title}.", current + 1),
        false,
    );
}

/// Opens the lesson the address names (`#/lesson/<id>[/step/<n>]`), or says why it cannot; anything
/// else in the address is left to others.
pub fn open_from_address(state: AppState) {
    if is_lesson_fragment(&web_io::location_hash()) {
        when_course_loaded(state, open_address_now);
    }
}

fn open_address_now(state: AppState) {
    let fragment = web_io::location_hash();
    // The address may have changed while the course was on its way.
    if !is_lesson_fragment(&fragment) {
        return;
    }
    // A deck's link asks for presenter mode after the route (`?presenter=on`, see `crate::deck`).
    let (route_part, query) = crate::share::view_options::split(&fragment);
    let presenter = crate::deck::presenter_asked(query);
    let resolved = presenter.clone().and_then(|_| parse_route(route_part));
    let resolved = resolved.and_then(|route| {
        state
            .parts()
            .lesson
            .with_course(|course| route.resolve(course))
            .and_then(|resolved| resolved)
    });
    match resolved {
        Ok((index, step)) => {
            open_lesson(state, index, step);
            if presenter == Ok(true) {
                state.parts().playback.presenter.set(true);
            }
        }
        Err(reason) => notice(
            state,
            format!("This lesson address could not be opened: {reason}."),
            true,
        ),
    }
}

/// The open lesson as a share link carries it.
pub fn shared_lesson(state: AppState) -> Option<SharedLesson> {
    state.parts().lesson.with_tracker(|tracker| SharedLesson {
        id: tracker.lesson().id.clone(),
        step: tracker.current_step(),
        step_began: tracker.step_began(),
    })
}

/// Before a share link's replayed `session` is shown: reopens the lesson the link was made in (or
/// closes any lesson when it was made outside one). Returns a sentence for the notice when the link
/// names a lesson this version does not have.
pub fn resume_shared(
    state: AppState,
    session: &mut Session,
    shared: Option<&SharedLesson>,
) -> Option<String> {
    let lessons = state.parts().lesson;
    let Some(shared) = shared else {
        close_lesson(state);
        return None;
    };
    let found = lessons
        .with_course(|course| {
            course
                .iter()
                .position(|lesson| lesson.id == shared.id)
                .map(|index| (index, course[index].clone()))
        })
        .ok()
        .flatten();
    let (Some((index, lesson)), Some(machinery)) = (found, runtime::machinery()) else {
        close_lesson(state);
        return Some(format!(
            "it was made in lesson `{}`, which this version does not have",
            shared.id
        ));
    };
    let tracker = (machinery.resume_at)(session, &lesson, shared.step, shared.step_began);
    let before_step = session
        .actions()
        .iter()
        .filter(|recorded| recorded.at <= shared.step_began)
        .count();
    lessons.pacing.set_actions_at_step_start(before_step);
    lessons
        .completion
        .set_value(CompletionLog::opened(shared.step, shared.step_began, 0..0));
    lessons.tracker.set_value(Some(tracker));
    lessons
        .run_scenario
        .set_value(Some(session.scenario().clone()));
    lessons.active.set(Some(index));
    lessons.show_me_log.set(Vec::new());
    lessons.predictions.set(Predictions::default());
    lessons.bump();
    None
}

/// Keeps the lesson in step with the run: observes after every view change, closes the lesson when
/// another run replaces its own, and follows lesson addresses typed into an open tab.
pub fn install(state: AppState) {
    Effect::new(move |_| {
        state.parts().run.view.with(|_| ());
        if !state.parts().playback.playing.get_untracked() {
            observe(state);
        }
    });
    Effect::new(move |_| {
        let scenario = state.parts().run.scenario.get();
        let replaced = state
            .parts()
            .lesson
            .run_scenario
            .with_value(|own| own.as_ref().is_some_and(|own| *own != scenario));
        if replaced {
            close_lesson(state);
        }
    });
    let listener = window_event_listener(leptos::ev::hashchange, move |_| open_from_address(state));
    on_cleanup(move || listener.remove());
}

/// As a step opens (a lesson opened at it, or the step before it ticked): its speed, its count of
/// paused moves, where the run's log stands, and no look moment yet. A step without a speed of its own goes back to the lesson's,
/// so a fast step does not leave the next one racing.
fn begin_step(state: AppState) {
    let lessons = state.parts().lesson;
    let Some((lesson, step)) = pacing::current(lessons) else {
        return;
    };
    state.set_speed(pacing::step_speed(&lesson, step));
    let actions = state.with_session(|session| session.actions().len());
    lessons.pacing.actions_at_step_start.set_value(actions);
    let moves = pacing::moves_while_paused(&lesson, step);
    lessons.pacing.moves_left.set(moves);
    lessons.pacing.moves_asked.set(moves);
    lessons.pacing.look_at.set_value(None);
    lessons.pacing.look_armed.set_value(None);
    if lessons.pacing.look_now.get_untracked().is_some() {
        lessons.pacing.look_now.set(None);
    }
}

/// After a frame reached `now`: at the armed look moment, pauses the run, says what to look at and
/// brings the part of the page it names into view.
fn after_look_frame(state: AppState, now: SimTime) {
    let lessons = state.parts().lesson;
    let Some((at, step)) = lessons.pacing.look_at.get_value() else {
        return;
    };
    if now < at {
        return;
    }
    lessons.pacing.look_at.set_value(None);
    let Some((lesson, current_step)) = pacing::current(lessons) else {
        return;
    };
    let Some(look) = pacing::look_of(&lesson, step).filter(|_| current_step == step) else {
        return;
    };
    state.parts().playback.playing.set(false);
    lessons.pacing.look_now.set(Some(LookNow {
        step,
        say: look.say.clone(),
    }));
    if let Some(view) = &look.view {
        crate::lesson::reach::bring_into_view(pacing::view_selector(view));
    }
}
