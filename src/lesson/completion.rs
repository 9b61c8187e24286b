//! The learner's side of completion codes: what the page keeps while a lesson is played so it can write
//! one (`quorumlab_sim::completion` holds the format and the checking).
//!
//! A code needs every run the lesson was played on, but the page keeps only the run on screen: a step
//! with a world of its own, or a fresh run started from the run settings, replaces it. So
//! [`CompletionLog`] keeps the finished runs' records as they are replaced, the run on screen's first
//! step and the moment the lesson began watching it, which steps "show me" played (pressed, or played
//! by the page to open the lesson at a later step) and when each step ticked. The code is written
//! when asked, from that log, the live session and the tracker's ticks, and read back at once, so a
//! run too long for a code is said so here instead of travelling.
//!
//! Only this visit's runs are in it: progress kept from an earlier visit is not proof of anything.
//! Plain Rust, tested natively; `completion_live` keeps it in step with the page.

use crate::lesson::tracker::DONE_EARLIER;
use crate::session::Session;
use quorumlab_sim::completion::{decode, encode, CompletionCode, LessonRunRecord, StepRecord};
use quorumlab_sim::lesson::Lesson;
use quorumlab_sim::scenario::to_toml_string;
use quorumlab_sim::time::SimTime;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// What the page has kept of the open lesson's runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompletionLog {
    finished: Vec<LessonRunRecord>,
    /// The run on screen: the step open when it began, and when the lesson began watching it.
    current: Option<(usize, SimTime)>,
    /// The run on screen's record, taken just before a fresh run from the settings may replace it.
    set_aside: Option<LessonRunRecord>,
    show_me: BTreeSet<usize>,
    ticked: BTreeMap<usize, SimTime>,
}

/// The record of the run `session` holds, begun at `first_step` at `began`: its seed, and all its
/// settings when the learner changed more than the seed from the world the lesson gives that step.
pub fn run_record(
    lesson: &Lesson,
    first_step: usize,
    began: SimTime,
    session: &Session,
) -> LessonRunRecord {
    let own = lesson.world_of_step(first_step).1;
    let scenario = session.scenario();
    let mut with_own_seed = scenario.clone();
    with_own_seed.seed = own.seed;
    LessonRunRecord {
        settings_toml: (with_own_seed != *own).then(|| to_toml_string(scenario)),
        ..LessonRunRecord::new(
            first_step,
            scenario.seed,
            began,
            session.horizon().max(session.now()),
            session.actions(),
        )
    }
}

impl CompletionLog {
    /// A lesson opened on a fresh run at `first_step` (watched from `began`), the steps in
    /// `played_by_page` played by their scripts to reach the step asked for.
    pub fn opened(
        first_step: usize,
        began: SimTime,
        played_by_page: Range<usize>,
    ) -> CompletionLog {
        CompletionLog {
            current: Some((first_step, began)),
            show_me: played_by_page.collect(),
            ..CompletionLog::default()
        }
    }

    pub fn mark_show_me(&mut self, step: usize) {
        self.show_me.insert(step);
    }

    pub fn mark_tick(&mut self, step: usize, at: SimTime) {
        self.ticked.insert(step, at);
    }

    /// The run on screen is about to be replaced: keeps its record aside until the new run begins.
    pub fn set_run_aside(&mut self, lesson: &Lesson, session: &Session) {
        self.set_aside = self
            .current
            .map(|(first, began)| run_record(lesson, first, began, session));
    }

    /// A new run begins at `first_step`, watched from `began`: the run set aside is finished. A
    /// finished run that began at this step or later now covers no step, and is dropped.
    pub fn begin_run(&mut self, first_step: usize, began: SimTime) {
        if let Some(record) = self.set_aside.take() {
            self.finished.push(record);
        }
        self.finished
            .retain(|record| usize::from(record.first_step) < first_step);
        self.current = Some((first_step, began));
    }

    /// The replacement did not happen: nothing set aside is kept.
    pub fn keep_current(&mut self) {
        self.set_aside = None;
    }

    /// This log, continued by `fresh` (the log a step's own world opened with).
    pub fn continued_by(mut self, fresh: CompletionLog) -> CompletionLog {
        if let Some((first, began)) = fresh.current {
            self.begin_run(first, began);
        }
        self.show_me.extend(fresh.show_me);
        self.ticked.extend(fresh.ticked);
        self
    }

    /// The code for `lesson` as played so far; the run on screen is `session`.
    pub fn code(
        &self,
        lesson: &Lesson,
        tracker: &dyn crate::lesson::runtime::LessonRuntime,
        session: &Session,
    ) -> Result<String, String> {
        let mut runs = self.finished.clone();
        if let Some((first, began)) = self.current {
            runs.push(run_record(lesson, first, began, session));
        }
        let steps = (0..lesson.steps.len())
            .map(|step| StepRecord {
                show_me: self.show_me.contains(&step),
                claimed_met: tracker.done(step).is_some_and(|text| text != DONE_EARLIER),
                ticked_us: self.ticked.get(&step).map(|at| at.as_micros()),
            })
            .collect();
        let text = encode(&CompletionCode::new(lesson, steps, runs));
        // Read back as a checker will: a code that would be refused is not handed out.
        decode(&text).map_err(|error| format!("No code can be made for this run: {error}."))?;
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::course;
    use crate::lesson::headless::{lesson_session, lesson_session_at, play_to_step};
    use crate::lesson::tracker::LessonTracker;
    use quorumlab_sim::completion::{verify_text, HowMet, StepStatus};

    fn lesson(id: &str) -> Lesson {
        course()
            .unwrap()
            .into_iter()
            .find(|lesson| lesson.id == id)
            .unwrap()
    }

    #[test]
    fn a_lesson_shown_across_its_worlds_writes_a_code_that_checks() {
        // Paxos's last two steps each open a world of their own: three runs in one code.
        let lesson = lesson("paxos");
        let starts: Vec<usize> = std::iter::once(0)
            .chain((0..lesson.steps.len()).filter(|&step| lesson.steps[step].own_world.is_some()))
            .collect();
        assert!(starts.len() >= 3, "{starts:?}");
        let mut session = lesson_session(&lesson).unwrap();
        let began = session.now();
        let mut tracker = LessonTracker::start(lesson.clone(), session.world());
        let mut log = CompletionLog::opened(0, began, 0..0);
        let mut done_texts = Vec::new();
        for (world, &first) in starts.iter().enumerate() {
            let end = starts.get(world + 1).copied().unwrap_or(lesson.steps.len());
            if first > 0 {
                // The next world opens as the page opens it, the run before finished.
                log.set_run_aside(&lesson, &session);
                session = lesson_session_at(&lesson, first).unwrap();
                let next_began = session.now();
                tracker = play_to_step(&mut session, &lesson, first).unwrap();
                log = log.continued_by(CompletionLog::opened(first, next_began, first..first));
                tracker.set_done_texts(done_texts.clone());
            }
            // Each step shown, as the page plays them.
            for step in first..end {
                assert!(
                    tracker.play_solution(session.driver_mut()).satisfied,
                    "step {}",
                    step + 1
                );
                log.mark_show_me(step);
                done_texts.push(tracker.done(step).unwrap().to_string());
            }
        }
        let (next, next_tracker) = (session, tracker);
        let text = log.code(&lesson, &next_tracker, &next).unwrap();
        let checked = verify_text(&text, &course().unwrap());
        let report = &checked.codes[0];

        assert_eq!(report.error, None);
        assert_eq!(report.met, lesson.steps.len(), "{:?}", report.steps);
        assert!(report
            .steps
            .iter()
            .all(|step| step.how == Some(HowMet::ShowMe)));
    }

    #[test]
    fn a_fresh_run_at_the_same_step_replaces_the_run_before() {
        let lesson = lesson("leader-election");
        let session = lesson_session(&lesson).unwrap();
        let tracker = LessonTracker::start(lesson.clone(), session.world());
        let mut log = CompletionLog::opened(0, session.now(), 0..0);
        log.set_run_aside(&lesson, &session);
        let mut reseeded = lesson.scenario.clone();
        reseeded.seed += 7;
        let fresh = Session::new(reseeded).unwrap();
        log.begin_run(0, fresh.now());
        let text = log.code(&lesson, &tracker, &fresh).unwrap();
        let code = decode(&text).unwrap();
        assert_eq!(code.runs.len(), 1);
        assert_eq!(code.runs[0].seed, lesson.scenario.seed + 7);
        assert_eq!(code.runs[0].settings_toml, None);
        let checked = verify_text(&text, &course().unwrap());
        assert_eq!(checked.codes[0].steps[0].status, StepStatus::NotMet);
    }
}
