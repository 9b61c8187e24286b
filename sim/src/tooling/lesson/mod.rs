//! Lessons: guided labs whose every step the simulation itself checks.
//!
//! A lesson is a markdown file in `lessons/` that opens with TOML front matter between two `+++` lines:
//!
//! ```text
//! +++
//! id = "leader-election"
//! title = "Leader election"
//! order = 3
//! outcomes = ["Explain what a term is", "..."]
//! scenario = "lessons/scenarios/calm-five.toml"   # a compiled-in scenario file, by path from the repo root
//! start_ms = 1000                                 # optional: run this long before step 1 (a leader exists)
//!
//! [[step]]
//! instruction = "Crash the leader."              # markdown
//! checkpoint = "leader_changed"                  # see `checkpoint.rs` for the closed list
//! solution = [{ after_ms = 100, do = "crash", target = "leader" }]
//! within_ms = 3000                               # optional: time allowed after the last solution action
//! scenario = "lessons/scenarios/fencing-calm.toml" # optional: this step (and the ones after it)
//!                                                # begins on a fresh run of another world
//! playback_percent = 50                          # optional pacing for the page: see `pacing.rs`
//! search = { depth = 1, faults = 1, states = 200000, ahead_s = 4, answers = ["found"] }
//!                                                # optional: the learner's search answering ticks
//!                                                # the step too (see `search_step.rs`)
//!
//! [[step.predict]]
//! question = "What happens next?"
//! options = [{ text = "...", correct = true, explanation = "..." }, ...]
//!
//! [[interview]]                                  # optional: open questions, model answer behind a reveal
//! question = "Why are election timeouts random?"
//! answer = "..."
//! +++
//! ## The idea in plain words
//! ...
//! ```
//!
//! The scenario is named by path rather than written inline, so a lesson and the scenario tests, the
//! CLI and the app share one file; [`SCENARIO_FILES`] compiles the usable ones in. A solution action is a
//! scenario step with `after_ms` (milliseconds after the step begins) in place of `at_ms`, read by the
//! scenario parser's own action reader. The untouched scenario should be calm (no faults in its own
//! steps): the faults are the learner's to make, and a test proves no checkpoint is met without them.
//!
//! [`LESSONS`] compiles every lesson file in, so the tests and the CLI read the text the app fetches
//! (the app carries only [`LESSON_FILES`], paths and checksums, and loads the text when first needed);
//! [`parse_lessons`] parses them all and orders them by `order`. [`LessonDriver`] follows a lesson on any
//! run lent to it (the page's timeline or a headless world): it judges the open step, ticks it and
//! performs "show me" at its moments. [`LessonRun`] is that driver on a headless world of its own: the
//! native tests run every scripted solution and require every checkpoint, in order.

mod checkpoint;
mod driver;
mod errors;
mod evaluate;
mod live_names;
mod pacing;
mod parse;
mod runner;
mod search_step;

pub(crate) use checkpoint::parse_checkpoint;
pub use checkpoint::{checkpoint_names, Checkpoint, CheckpointError, WorldCheckpoint};
pub use driver::{
    Driven, LessonDriver, NamesAtTick, Observation, RunEnd, ScheduledAction, CHECK_EVERY_MS,
    DONE_EARLIER,
};
pub use errors::{LessonError, LessonErrorKind};
#[cfg(test)]
pub(crate) use evaluate::test_support;
pub use evaluate::{CheckpointEvaluator, Verdict};
pub use live_names::{leading_placeholder, placeholders, LiveName, LIVE_NAMES};
pub use pacing::{LookMoment, StepPacing, LOOK_VIEWS, MAX_PLAYBACK_PERCENT};
pub use parse::{parse_lesson, DEFAULT_START_MS, DEFAULT_WITHIN_MS};
pub use runner::LessonRun;
pub use search_step::{SearchAnswer, SearchFaultKinds, SearchStep};

use crate::contract::action::Action;
use crate::tooling::scenario::Scenario;

/// Declares the course once: [`LESSON_FILES`] (each file's path and checksum, small enough for the app
/// to carry while the text itself is fetched on demand) and [`LESSONS`] (the text, compiled in, for the
/// tests, the command line and anything else that runs without a web server).
macro_rules! course_files {
    ($($name:literal),* $(,)?) => {
        /// Every lesson file by path from the repository root (also its address beside the app's
        /// `index.html`), with the FNV-1a hash of the text this build was made with.
        pub const LESSON_FILES: &[LessonFile] = &[$(LessonFile {
            path: concat!("lessons/", $name),
            text_hash: crate::base::hash::fnv_of(include_bytes!(concat!("../../../../lessons/", $name))),
        }),*];
        /// `(path from the repository root, markdown text)` of every lesson, compiled in.
        pub const LESSONS: &[(&str, &str)] = &[$(
            (concat!("lessons/", $name), include_str!(concat!("../../../../lessons/", $name)))
        ),*];
    };
}

course_files![
    "01-exactly-once.md",
    "02-consensus-and-quorums.md",
    "03-leader-election.md",
    "04-leases.md",
    "05-distributed-locks.md",
    "06-fencing-tokens.md",
    "07-quorum-availability.md",
    "08-avoiding-coordination.md",
    "09-zookeeper-election.md",
    "10-guided-lab.md",
    "11-paxos.md",
    "12-byzantine.md",
    "13-membership.md",
    "14-sessions-lock-delay.md",
];

/// One lesson file as this build knows it, without its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonFile {
    pub path: &'static str,
    pub text_hash: u64,
}

impl LessonFile {
    /// Whether `text` is the very file this build was made with (a server or cache can hand a page a
    /// lesson from another version; its checkpoints could then name things this engine lacks).
    pub fn matches(&self, text: &str) -> bool {
        crate::base::hash::fnv_of(text.as_bytes()) == self.text_hash
    }
}

/// The folder every entry of [`SCENARIO_FILES`] lives in.
pub const LESSON_SCENARIO_FOLDER: &str = "lessons/scenarios/";

/// `(path from the repository root, TOML text)` of every scenario a lesson may name.
pub const SCENARIO_FILES: &[(&str, &str)] = &[
    (
        "lessons/scenarios/lease-history.toml",
        include_str!("../../../../lessons/scenarios/lease-history.toml"),
    ),
    (
        "lessons/scenarios/log-five.toml",
        include_str!("../../../../lessons/scenarios/log-five.toml"),
    ),
    (
        "lessons/scenarios/scheduler-lease-calm.toml",
        include_str!("../../../../lessons/scenarios/scheduler-lease-calm.toml"),
    ),
    (
        "lessons/scenarios/calm-five.toml",
        include_str!("../../../../lessons/scenarios/calm-five.toml"),
    ),
    (
        "lessons/scenarios/quorum-five.toml",
        include_str!("../../../../lessons/scenarios/quorum-five.toml"),
    ),
    (
        "lessons/scenarios/fencing-calm.toml",
        include_str!("../../../../lessons/scenarios/fencing-calm.toml"),
    ),
    (
        "lessons/scenarios/lease-five.toml",
        include_str!("../../../../lessons/scenarios/lease-five.toml"),
    ),
    (
        "lessons/scenarios/redis-lock-calm.toml",
        include_str!("../../../../lessons/scenarios/redis-lock-calm.toml"),
    ),
    (
        "lessons/scenarios/queue-calm.toml",
        include_str!("../../../../lessons/scenarios/queue-calm.toml"),
    ),
    (
        "lessons/scenarios/zk-herd-calm.toml",
        include_str!("../../../../lessons/scenarios/zk-herd-calm.toml"),
    ),
    (
        "lessons/scenarios/paxos-five.toml",
        include_str!("../../../../lessons/scenarios/paxos-five.toml"),
    ),
    (
        "lessons/scenarios/paxos-forgetful-three.toml",
        include_str!("../../../../lessons/scenarios/paxos-forgetful-three.toml"),
    ),
    (
        "lessons/scenarios/inventory-batch.toml",
        include_str!("../../../../lessons/scenarios/inventory-batch.toml"),
    ),
    (
        "lessons/scenarios/redis-unchecked-calm.toml",
        include_str!("../../../../lessons/scenarios/redis-unchecked-calm.toml"),
    ),
    (
        "lessons/scenarios/redis-retry-calm.toml",
        include_str!("../../../../lessons/scenarios/redis-retry-calm.toml"),
    ),
    (
        "lessons/scenarios/lock-queue-calm.toml",
        include_str!("../../../../lessons/scenarios/lock-queue-calm.toml"),
    ),
    (
        "lessons/scenarios/scheduler-fencing-calm.toml",
        include_str!("../../../../lessons/scenarios/scheduler-fencing-calm.toml"),
    ),
    (
        "lessons/scenarios/raft-four.toml",
        include_str!("../../../../lessons/scenarios/raft-four.toml"),
    ),
    (
        "lessons/scenarios/pbft-four.toml",
        include_str!("../../../../lessons/scenarios/pbft-four.toml"),
    ),
    (
        "lessons/scenarios/pbft-three-quorum-two.toml",
        include_str!("../../../../lessons/scenarios/pbft-three-quorum-two.toml"),
    ),
    (
        "lessons/scenarios/membership-three.toml",
        include_str!("../../../../lessons/scenarios/membership-three.toml"),
    ),
    (
        "lessons/scenarios/membership-direct.toml",
        include_str!("../../../../lessons/scenarios/membership-direct.toml"),
    ),
    (
        "lessons/scenarios/lock-delay-calm.toml",
        include_str!("../../../../lessons/scenarios/lock-delay-calm.toml"),
    ),
    (
        "lessons/scenarios/lock-delay-fenced-calm.toml",
        include_str!("../../../../lessons/scenarios/lock-delay-fenced-calm.toml"),
    ),
    (
        "lessons/scenarios/split-vote-calm.toml",
        include_str!("../../../../lessons/scenarios/split-vote-calm.toml"),
    ),
    (
        "lessons/scenarios/one-node-calm.toml",
        include_str!("../../../../lessons/scenarios/one-node-calm.toml"),
    ),
    (
        "lessons/scenarios/fifty-one-calm.toml",
        include_str!("../../../../lessons/scenarios/fifty-one-calm.toml"),
    ),
    (
        "lessons/scenarios/paxos-duel-remedy.toml",
        include_str!("../../../../lessons/scenarios/paxos-duel-remedy.toml"),
    ),
    (
        "lessons/scenarios/two-phase-calm.toml",
        include_str!("../../../../lessons/scenarios/two-phase-calm.toml"),
    ),
];

/// A parsed lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// Lowercase words joined by dashes; used in deep links (`#/lesson/<id>/step/<n>`).
    pub id: String,
    pub title: String,
    /// Position in the course (1-based; gaps allowed).
    pub order: u32,
    pub outcomes: Vec<String>,
    pub scenario_path: String,
    pub scenario: Scenario,
    /// Simulated time run before the first step begins.
    pub start_ms: u64,
    pub steps: Vec<LessonStep>,
    /// Interview-style questions whose model answers the app keeps behind a reveal.
    pub interview: Vec<InterviewQuestion>,
    /// The markdown after the front matter.
    pub body: String,
    /// FNV-1a of the whole file the lesson was read from (the `text_hash` of its [`LessonFile`]): the
    /// lesson's version, which completion codes name.
    pub source_hash: u64,
}

/// One interactive step: what to do, how the simulation knows it happened, and how to do it for you.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonStep {
    /// Markdown.
    pub instruction: String,
    /// As written in the file, e.g. `term_at_least(3)`.
    pub checkpoint_text: String,
    pub checkpoint: Checkpoint,
    /// The "show me" script. Invariant: `after_ms` nondecreasing.
    pub solution: Vec<SolutionAction>,
    /// Time the checkpoint is given after the last solution action.
    pub within_ms: u64,
    pub predict: Vec<Prediction>,
    /// A world of its own (`scenario = "..."` in the step): the step begins on a fresh run of it,
    /// `start_ms` in, and the steps after it go on in that world.
    pub own_world: Option<StepWorld>,
    /// How the page plays the run while this step is open (see `pacing.rs`).
    pub pacing: StepPacing,
    /// A "can it break?" step: the search answers that also complete it (see `search_step.rs`).
    pub search: Option<SearchStep>,
}

/// The scenario a step switches to, by path and parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepWorld {
    pub path: String,
    pub scenario: Scenario,
}

impl LessonStep {
    /// When, after the step begins, a scripted run gives up waiting for the checkpoint.
    pub fn deadline_ms(&self) -> u64 {
        self.solution.last().map_or(0, |action| action.after_ms) + self.within_ms
    }
}

/// One scripted action, `after_ms` after its step began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionAction {
    pub after_ms: u64,
    pub action: Action,
}

/// A multiple-choice question asked before the step is revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prediction {
    pub question: String,
    /// Invariant: at least one option is correct.
    pub options: Vec<PredictOption>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredictOption {
    pub text: String,
    pub correct: bool,
    /// Shown after the learner picks this option, right or wrong.
    pub explanation: String,
}

/// An open question with a model answer (markdown), shown after the learner has tried it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterviewQuestion {
    pub question: String,
    pub answer: String,
}

impl Lesson {
    /// The first step played on the world `step` runs in (0 or the nearest step at or before it with
    /// a world of its own), and that world's scenario.
    pub fn world_of_step(&self, step: usize) -> (usize, &Scenario) {
        self.steps
            .iter()
            .enumerate()
            .take(step.saturating_add(1))
            .rev()
            .find_map(|(index, step)| Some((index, &step.own_world.as_ref()?.scenario)))
            .unwrap_or((0, &self.scenario))
    }
}

/// Every compiled-in lesson, parsed, in course order.
pub fn parse_lessons() -> Result<Vec<Lesson>, LessonError> {
    parse_course(LESSONS)
}

/// Parses `(path, text)` lesson files and puts them in course order.
pub fn parse_course(files: &[(&str, &str)]) -> Result<Vec<Lesson>, LessonError> {
    let mut lessons = files
        .iter()
        .map(|(path, text)| parse_lesson(text, path))
        .collect::<Result<Vec<_>, _>>()?;
    lessons.sort_by_key(|lesson| lesson.order);
    Ok(lessons)
}
