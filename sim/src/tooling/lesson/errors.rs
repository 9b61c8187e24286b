//! What can be wrong with a lesson file, with the place it is wrong.
//!
//! Lesson errors look like scenario errors (`file:line:column: step N key `k`: what`), and a mistake in a
//! solution action *is* a scenario error: the lesson parser hands those tables to the scenario parser's
//! own action reader, so `do = "crsh"` is reported the same way in both formats.

use super::LESSON_SCENARIO_FOLDER;
use crate::tooling::scenario::errors::shown;
use crate::tooling::scenario::{ScenarioError, ScenarioErrorKind};
use crate::tooling::suggest::did_you_mean;
use std::fmt;

/// Where every key of a lesson file is described.
const LESSON_FORMAT: &str = "the lesson format in sim/src/tooling/lesson/mod.rs";

/// A lesson file that cannot be used, and where the problem is.
///
/// `line` and `column` are 1-based positions in the lesson file (front matter lines count from the
/// `+++` line at the top). `step` is the 1-based index of the `[[step]]` involved, when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub step: Option<usize>,
    pub key: Option<String>,
    /// Boxed to keep `Result<_, LessonError>` small.
    pub kind: Box<LessonErrorKind>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonErrorKind {
    /// The file does not start with a `+++` line, or the front matter is never closed.
    MissingFrontMatter,
    /// Anything the scenario format also reports: bad TOML, unknown or missing keys, wrong types,
    /// unknown actions, node names that do not exist, numbers out of range.
    Format(ScenarioErrorKind),
    /// `scenario` names a file that is not compiled into the library; `known` are the paths that are.
    UnknownScenario { path: String, known: Vec<String> },
    /// The scenario file itself does not parse.
    BadScenario { message: String },
    /// A checkpoint expression that does not parse (the column inside the string is `at`, 1-based).
    BadCheckpoint {
        text: String,
        at: usize,
        message: String,
    },
    /// A `{word}` in an instruction that names nothing the run knows (see `live_names.rs`).
    UnknownLiveName { word: String, known: Vec<String> },
    /// A multiple-choice question with no option marked `correct = true`.
    NoCorrectOption,
    /// An `id` that is not lowercase words joined by dashes.
    BadId { id: String },
    /// A step's `look.view` that names no part of the page the app can bring into view.
    UnknownView { view: String, known: Vec<String> },
    /// A step's `search` that the search would refuse, or whose answers are not the search's.
    BadSearch { message: String },
}

impl fmt::Display for LessonErrorKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LessonErrorKind::MissingFrontMatter => write!(
                formatter,
                "a lesson starts with a `+++` line, then TOML front matter, then a closing `+++` line"
            ),
            // A lesson's keys are the lesson format's, not the scenario format's the words would point to.
            LessonErrorKind::Format(ScenarioErrorKind::UnknownKey { key, allowed }) => {
                let hint = did_you_mean(key, allowed.iter().copied(), "key", LESSON_FORMAT);
                write!(formatter, "unknown key; {hint}")
            }
            LessonErrorKind::Format(kind) => write!(formatter, "{kind}"),
            LessonErrorKind::UnknownScenario { path, known } => write!(
                formatter,
                "no scenario `{}` is compiled in; {}",
                shown(path),
                did_you_mean(
                    path,
                    known.iter().map(String::as_str),
                    "scenario file",
                    &format!("{LESSON_SCENARIO_FOLDER}, sim/scenarios/ and the worlds' folders")
                )
            ),
            LessonErrorKind::BadScenario { message } => {
                write!(formatter, "the scenario does not parse: {message}")
            }
            LessonErrorKind::BadCheckpoint { text, at, message } => {
                let text = shown(text);
                write!(formatter, "checkpoint `{text}` at character {at}: {message}")
            }
            LessonErrorKind::BadSearch { message } => write!(formatter, "the step's search: {message}"),
            LessonErrorKind::UnknownView { view, known } => write!(
                formatter,
                "`{}` is not a part of the page a step can point at; {}",
                shown(view),
                did_you_mean(
                    view,
                    known.iter().map(String::as_str),
                    "part of the page",
                    "sim/src/tooling/lesson/pacing.rs"
                )
            ),
            LessonErrorKind::UnknownLiveName { word, known } => {
                let braced: Vec<String> = known.iter().map(|name| format!("{{{name}}}")).collect();
                write!(
                    formatter,
                    "`{{{}}}` names nothing in the run; {}",
                    shown(word),
                    did_you_mean(
                        &format!("{{{word}}}"),
                        braced.iter().map(String::as_str),
                        "live name",
                        "sim/src/tooling/lesson/live_names.rs"
                    )
                )
            }
            LessonErrorKind::NoCorrectOption => {
                write!(formatter, "no option is marked `correct = true`")
            }
            LessonErrorKind::BadId { id } => write!(
                formatter,
                "`{}` is not a lesson id: use lowercase letters, digits and dashes",
                shown(id)
            ),
        }
    }
}

impl fmt::Display for LessonError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = (self.file.as_str(), self.line, self.column);
        crate::tooling::scenario::errors::write_place(
            formatter,
            place,
            self.step,
            self.key.as_deref(),
        )?;
        write!(formatter, "{}", self.kind)
    }
}

impl std::error::Error for LessonError {}

impl From<ScenarioError> for LessonError {
    fn from(error: ScenarioError) -> LessonError {
        LessonError {
            file: error.file,
            line: error.line,
            column: error.column,
            step: error.step,
            key: error.key,
            kind: Box::new(LessonErrorKind::Format(error.kind)),
        }
    }
}
