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
//! [`LESSONS`] compiles every lesson file in, so the app and the tests read the same text;
//! [`parse_lessons`] parses them all and orders them by `order`. [`LessonRun`] plays a lesson headless:
//! the native tests run every scripted solution and require every checkpoint, in order.

mod checkpoint;
mod errors;
mod evaluate;
mod parse;
mod runner;

pub use checkpoint::{Checkpoint, CheckpointError, CHECKPOINT_NAMES};
pub use errors::{LessonError, LessonErrorKind};
pub use evaluate::{CheckpointEvaluator, Verdict};
pub use parse::{parse_lesson, DEFAULT_START_MS, DEFAULT_WITHIN_MS};
pub use runner::{LessonRun, CHECK_EVERY_MS};

use crate::action::Action;
use crate::scenario::Scenario;

/// `(path from the repository root, markdown text)` of every lesson, compiled in.
pub const LESSONS: &[(&str, &str)] = &[
    (
        "lessons/01-exactly-once.md",
        include_str!("../../../lessons/01-exactly-once.md"),
    ),
    (
        "lessons/02-consensus-and-quorums.md",
        include_str!("../../../lessons/02-consensus-and-quorums.md"),
    ),
    (
        "lessons/03-leader-election.md",
        include_str!("../../../lessons/03-leader-election.md"),
    ),
    (
        "lessons/04-leases.md",
        include_str!("../../../lessons/04-leases.md"),
    ),
    (
        "lessons/05-distributed-locks.md",
        include_str!("../../../lessons/05-distributed-locks.md"),
    ),
    (
        "lessons/06-fencing-tokens.md",
        include_str!("../../../lessons/06-fencing-tokens.md"),
    ),
    (
        "lessons/07-quorum-availability.md",
        include_str!("../../../lessons/07-quorum-availability.md"),
    ),
    (
        "lessons/08-avoiding-coordination.md",
        include_str!("../../../lessons/08-avoiding-coordination.md"),
    ),
    (
        "lessons/09-zookeeper-election.md",
        include_str!("../../../lessons/09-zookeeper-election.md"),
    ),
    (
        "lessons/10-guided-lab.md",
        include_str!("../../../lessons/10-guided-lab.md"),
    ),
];

/// `(path from the repository root, TOML text)` of every scenario a lesson may name.
pub const SCENARIO_FILES: &[(&str, &str)] = &[
    (
        "lessons/scenarios/log-five.toml",
        include_str!("../../../lessons/scenarios/log-five.toml"),
    ),
    (
        "lessons/scenarios/scheduler-lease-calm.toml",
        include_str!("../../../lessons/scenarios/scheduler-lease-calm.toml"),
    ),
    (
        "lessons/scenarios/calm-five.toml",
        include_str!("../../../lessons/scenarios/calm-five.toml"),
    ),
    (
        "lessons/scenarios/quorum-five.toml",
        include_str!("../../../lessons/scenarios/quorum-five.toml"),
    ),
    (
        "lessons/scenarios/fencing-calm.toml",
        include_str!("../../../lessons/scenarios/fencing-calm.toml"),
    ),
    (
        "lessons/scenarios/lease-five.toml",
        include_str!("../../../lessons/scenarios/lease-five.toml"),
    ),
    (
        "lessons/scenarios/redis-lock-calm.toml",
        include_str!("../../../lessons/scenarios/redis-lock-calm.toml"),
    ),
    (
        "lessons/scenarios/queue-calm.toml",
        include_str!("../../../lessons/scenarios/queue-calm.toml"),
    ),
    (
        "lessons/scenarios/zk-herd-calm.toml",
        include_str!("../../../lessons/scenarios/zk-herd-calm.toml"),
    ),
    (
        "lessons/scenarios/inventory-batch.toml",
        include_str!("../../../lessons/scenarios/inventory-batch.toml"),
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

/// Every compiled-in lesson, parsed, in course order.
pub fn parse_lessons() -> Result<Vec<Lesson>, LessonError> {
    let mut lessons = LESSONS
        .iter()
        .map(|(path, text)| parse_lesson(text, path))
        .collect::<Result<Vec<_>, _>>()?;
    lessons.sort_by_key(|lesson| lesson.order);
    Ok(lessons)
}
