//! The inputs mutations start from: every example scenario and lesson scenario, every lesson file,
//! and real exports made now — each example run for a while with a few learner actions, then
//! exported as a scenario file, a trace file and a share link (one of them from inside a lesson), so
//! the corpus follows the formats as the app writes them today.

use quorumlab::lesson::completion::CompletionLog;
use quorumlab::lesson::course;
use quorumlab::lesson::headless::{lesson_session, play_to_step};
use quorumlab::lesson::tracker::LessonTracker;
use quorumlab::session::Session;
use quorumlab::share::replay::capture;
use quorumlab::share::{encode_fragment, ShareError, SharedLesson};
use quorumlab::transfer::trace::trace_file_text;
use quorumlab::transfer::{scenario_file_text, scenario_with_recorded_steps};
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::client_history::OpCall;
use quorumlab_sim::lesson::{LESSONS, SCENARIO_FILES};
use quorumlab_sim::linearizable::export::export_history;
use quorumlab_sim::scenario::{parse_scenario, Scenario, EXAMPLES};
use quorumlab_sim::time::SimTime;

/// Seed inputs by the parser that reads them.
pub struct Corpus {
    pub scenarios: Vec<String>,
    pub lessons: Vec<String>,
    pub traces: Vec<String>,
    pub links: Vec<String>,
    pub lesson_routes: Vec<String>,
    /// Completion codes as the page writes them: every lesson's first world shown step by step.
    pub codes: Vec<String>,
    /// Client histories as the history panel exports them, from every example that has one.
    pub histories: Vec<String>,
}

impl Corpus {
    pub fn build() -> Corpus {
        let mut corpus = Corpus {
            scenarios: EXAMPLES
                .iter()
                .chain(SCENARIO_FILES)
                .map(|(_, text)| text.to_string())
                .collect(),
            lessons: LESSONS.iter().map(|(_, text)| text.to_string()).collect(),
            traces: Vec::new(),
            links: Vec::new(),
            lesson_routes: vec![
                "#/lesson/fencing-tokens".to_string(),
                "#/lesson/leader-election/step/2".to_string(),
            ],
            codes: Vec::new(),
            histories: Vec::new(),
        };
        for (name, text) in EXAMPLES.iter().chain(SCENARIO_FILES) {
            let scenario = parse_scenario(text, name).expect("the examples parse");
            let session = played(scenario);
            corpus.add_exports(&session, None);
        }
        corpus.add_lesson_link();
        corpus.add_codes();
        corpus
    }

    /// A code per lesson: its first world's steps shown one by one, as the page plays them.
    fn add_codes(&mut self) {
        for lesson in course().expect("the course parses") {
            let mut session = lesson_session(&lesson).expect("a lesson opens");
            let began = session.now();
            let mut tracker = LessonTracker::start(lesson.clone(), session.world());
            let mut log = CompletionLog::opened(0, began, 0..0);
            let first_world_steps = (1..lesson.steps.len())
                .find(|&step| lesson.steps[step].own_world.is_some())
                .unwrap_or(lesson.steps.len());
            for step in 0..first_world_steps {
                tracker.play_solution(session.driver_mut());
                log.mark_show_me(step);
            }
            let code = log
                .code(&lesson, &tracker, &session)
                .expect("a played lesson has a code");
            self.codes.push(code);
        }
    }

    fn add_exports(&mut self, session: &Session, lesson: Option<SharedLesson>) {
        let mut run = capture(session);
        run.lesson = lesson;
        // A run whose setting no link can carry (the hand-edited membership mode) is refused by name;
        // its trace file and scenario still go into the corpus.
        match encode_fragment(&run) {
            Ok(link) => self.links.push(link),
            Err(ShareError::NotShareable { .. }) => {}
            Err(error) => panic!("a played example can be shared: {error:?}"),
        }
        self.traces.push(trace_file_text(session));
        let world = session.world();
        let ops = world.client_log().ops();
        if ops.iter().any(|op| matches!(op.call, OpCall::Kv(_))) {
            let name = |node| world.node_label(node);
            self.histories.push(export_history(&ops, &name));
        }
        let export = scenario_with_recorded_steps(&run);
        self.scenarios.push(scenario_file_text(&export));
    }

    /// A link made inside a lesson, one step in (the lesson opens again at step 2 from it).
    fn add_lesson_link(&mut self) {
        let lessons = course().expect("the course parses");
        let Some(lesson) = lessons.iter().find(|lesson| lesson.steps.len() >= 2) else {
            return;
        };
        let mut session = lesson_session(lesson).expect("a lesson opens");
        let tracker = play_to_step(&mut session, lesson, 1).expect("step 1 plays");
        let shared = SharedLesson {
            id: lesson.id.clone(),
            step: tracker.current_step(),
            step_began: tracker.step_began(),
        };
        self.add_exports(&session, Some(shared));
    }
}

/// `scenario` run to 1.2 s (or its end) with learner actions on the way — one of them a request, one
/// mid-millisecond — then scrubbed back, so the log has a recorded future.
fn played(scenario: Scenario) -> Session {
    let end_ms = scenario.duration_ms.min(1_200);
    let mut session = Session::new(scenario).expect("the examples open");
    session.advance_to(SimTime::from_ms(end_ms / 3));
    session.apply(&Action::Request {
        count: 3,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    });
    session.advance_to(SimTime(end_ms * 500 + 300));
    session.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    session.advance_to(SimTime::from_ms(end_ms));
    session.seek(SimTime::from_ms(end_ms * 9 / 10));
    session
}
