//! A "can it break?" step: one that also ticks when the learner's bounded search answers.
//!
//! Every step ticks when its checkpoint is met on the run (a played run, "show me", a headless test).
//! A step that asks the learner to predict and then ask the search ("Can it break?" in the app, the
//! `explore` command headless) can say, besides, which of the search's answers complete it:
//!
//! ```text
//! search = { invariant = "No Lost Updates", depth = 1, faults = 1, states = 200000, ahead_s = 4,
//!            answers = ["found"] }
//! ```
//!
//! `invariant` is the one the instruction tells the learner to pick (left out: any invariant);
//! `depth`, `faults`, `states` and `ahead_s` (whole seconds) or `ahead_ms` (one of the two) are the
//! budget it states. The kinds of fault the search may use are the card's checkboxes, each optional:
//! `crash` (crash and restart, default on), `pauses` (timed pauses, default on), `isolate` (cut one
//! node off from all, default on) and `cut_links` (cut the link of one pair of nodes, default off, as
//! in the card and the engine). `answers` are the answers that tick the step, one or more of:
//!
//! - `found`: the search found a schedule that breaks the invariant (or an example it was asked for);
//! - `none_within_bound`: it walked every schedule up to the depth and fault budget and none broke it
//!   ("no counterexample within depth D and F faults": a statement about that budget, not a proof);
//! - `bound_reached`: its state budget ran out before it had walked a whole level (neither a break nor
//!   a pass).
//!
//! A cancelled or failed search never ticks a step. The page ticks the open step when a search the
//! learner ran on the lesson's run finishes with one of the step's answers (`LessonDriver::
//! search_answered`, the answer read off the report by `tooling::lesson_search`, which sits above
//! both the lessons and the search); the question and budget are what the instruction asks for, and the lesson tests
//! run exactly that search on the step's world and require an answer the step accepts, so the words
//! stay true (`sim/tests/explore_lessons.rs`). The checkpoint stays the step's other way to tick, so
//! "show me" and the headless lesson runs judge the step as before.

use super::errors::{LessonError, LessonErrorKind};
use super::parse::{lesson_error, table_of};
use crate::tooling::scenario::fields::{Field, TableReader};
use crate::tooling::scenario::Scenario;
use crate::tooling::suggest::did_you_mean;

const SEARCH_KEYS: &[&str] = &[
    "invariant",
    "depth",
    "faults",
    "states",
    "ahead_s",
    "ahead_ms",
    "crash",
    "pauses",
    "isolate",
    "cut_links",
    "answers",
];
/// Longest look-ahead a step may state, in seconds (the page's own limit for "seconds ahead").
pub const MAX_AHEAD_S: u64 = 60;
/// Shortest look-ahead a step may state, in ms (the page's own shortest: a tenth of a second).
pub const MIN_AHEAD_MS: u64 = 100;

/// One kind of answer a finished search gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchAnswer {
    /// A schedule that breaks the invariant, or an example of the checkpoint asked for.
    Found,
    /// Every schedule within the depth and fault budget was walked; none broke it.
    NoneWithinBound,
    /// The state budget ran out before a level was walked in full.
    BoundReached,
}

impl SearchAnswer {
    pub const ALL: [SearchAnswer; 3] = [
        SearchAnswer::Found,
        SearchAnswer::NoneWithinBound,
        SearchAnswer::BoundReached,
    ];

    /// The name a lesson file writes.
    pub fn name(self) -> &'static str {
        match self {
            SearchAnswer::Found => "found",
            SearchAnswer::NoneWithinBound => "none_within_bound",
            SearchAnswer::BoundReached => "bound_reached",
        }
    }

    pub fn from_name(name: &str) -> Option<SearchAnswer> {
        SearchAnswer::ALL
            .into_iter()
            .find(|answer| answer.name() == name)
    }
}

/// The search a step asks for, and the answers that complete it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchStep {
    /// `None`: any invariant.
    pub invariant: Option<String>,
    pub depth: u32,
    pub faults: u32,
    pub states: u64,
    /// How far past the start the search looks, in ms of simulated time.
    pub ahead_ms: u64,
    /// The kinds of fault the search may use.
    pub kinds: SearchFaultKinds,
    pub answers: Vec<SearchAnswer>,
}

/// The kinds of fault a step's search may use: the card's checkboxes, as the engine's request has them
/// (`crash`, a non-empty `pause_ms`, `isolate`, `cut_links`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFaultKinds {
    pub crash: bool,
    pub pauses: bool,
    pub isolate: bool,
    pub cut_links: bool,
}

impl Default for SearchFaultKinds {
    /// The engine's and the card's defaults: every kind but one-link cuts.
    fn default() -> Self {
        SearchFaultKinds {
            crash: true,
            pauses: true,
            isolate: true,
            cut_links: false,
        }
    }
}

impl SearchStep {
    pub fn accepts(&self, answer: SearchAnswer) -> bool {
        self.answers.contains(&answer)
    }
}

/// Reads a step's `search` table; its invariant must be one of `world`'s, the world the step is played
/// on. (The search's own bounds are the search's to check: this module sits below it, and the lesson
/// tests run every step's search, which refuses a request out of bounds.)
pub(super) fn read_search(field: Field<'_>, world: &Scenario) -> Result<SearchStep, LessonError> {
    let table = table_of(field, "a step's search")?;
    table.check_keys(SEARCH_KEYS)?;
    let invariant = match table.optional("invariant") {
        Some(field) => Some(field.string()?.to_string()),
        None => None,
    };
    let small = |key| -> Result<u32, LessonError> {
        Ok(table.required(key)?.unsigned_in(0, u64::from(u32::MAX))? as u32)
    };
    let answers_field = table.required("answers")?;
    let mut answers = Vec::new();
    for entry in answers_field.array()? {
        let name = answers_field.element(entry).string()?;
        let answer = SearchAnswer::from_name(name).ok_or_else(|| {
            lesson_error(
                &answers_field,
                LessonErrorKind::BadSearch {
                    message: format!(
                        "`{name}` is no answer of the search; it answers {}",
                        SearchAnswer::ALL.map(SearchAnswer::name).join(", ")
                    ),
                },
            )
        })?;
        answers.push(answer);
    }
    if answers.is_empty() {
        let message = "list the answers that complete the step".to_string();
        return Err(lesson_error(
            &answers_field,
            LessonErrorKind::BadSearch { message },
        ));
    }
    if let Some(name) = &invariant {
        let known: Vec<&str> = world
            .protocol
            .entry()
            .invariants()
            .map(|info| info.name)
            .collect();
        if !known.contains(&name.as_str()) {
            let message = format!(
                "unknown invariant {name:?} in this world: {}",
                did_you_mean(name, known, "invariant", "the world's badges")
            );
            return Err(lesson_error(&field, LessonErrorKind::BadSearch { message }));
        }
    }
    let flag = |key, default| -> Result<bool, LessonError> {
        match table.optional(key) {
            Some(field) => Ok(field.boolean()?),
            None => Ok(default),
        }
    };
    let defaults = SearchFaultKinds::default();
    let kinds = SearchFaultKinds {
        crash: flag("crash", defaults.crash)?,
        pauses: flag("pauses", defaults.pauses)?,
        isolate: flag("isolate", defaults.isolate)?,
        cut_links: flag("cut_links", defaults.cut_links)?,
    };
    if !(kinds.crash || kinds.pauses || kinds.isolate || kinds.cut_links) {
        let message = "leave the search at least one kind of fault".to_string();
        return Err(lesson_error(&field, LessonErrorKind::BadSearch { message }));
    }
    Ok(SearchStep {
        invariant,
        depth: small("depth")?,
        faults: small("faults")?,
        states: table.required("states")?.unsigned_in(1, u64::MAX)?,
        ahead_ms: read_ahead_ms(&table, &field)?,
        kinds,
        answers,
    })
}

/// `ahead_s` (whole seconds) or `ahead_ms`, exactly one of them.
fn read_ahead_ms(table: &TableReader<'_>, field: &Field<'_>) -> Result<u64, LessonError> {
    match (table.optional("ahead_s"), table.optional("ahead_ms")) {
        (Some(seconds), None) => Ok(seconds.unsigned_in(1, MAX_AHEAD_S)? * 1_000),
        (None, Some(ms)) => Ok(ms.unsigned_in(MIN_AHEAD_MS, MAX_AHEAD_S * 1_000)?),
        (seconds, _) => {
            let message = match seconds {
                Some(_) => "state how far ahead once: `ahead_s` or `ahead_ms`, not both",
                None => "state how far ahead to look: `ahead_s` or `ahead_ms`",
            };
            let message = message.to_string();
            Err(lesson_error(field, LessonErrorKind::BadSearch { message }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_lesson;
    use super::*;

    fn lesson_with(search: &str) -> String {
        format!(
            "+++\nid = \"asks\"\ntitle = \"Asks\"\norder = 1\noutcomes = [\"o\"]\n\
             scenario = \"lessons/scenarios/redis-lock-calm.toml\"\n\n[[step]]\n\
             instruction = \"Ask the search.\"\ncheckpoint = \"lost_update\"\n{search}\n+++\nbody\n"
        )
    }

    #[test]
    fn a_step_says_which_answers_complete_it() {
        let text = lesson_with(
            "search = { invariant = \"No Lost Updates\", depth = 1, faults = 1, states = 200000, \
             ahead_s = 4, answers = [\"found\", \"bound_reached\"] }",
        );
        let lesson = parse_lesson(&text, "asks.md").unwrap();
        let search = lesson.steps[0].search.clone().unwrap();
        assert!(search.accepts(SearchAnswer::Found));
        assert!(search.accepts(SearchAnswer::BoundReached));
        assert!(!search.accepts(SearchAnswer::NoneWithinBound));
        assert_eq!(search.invariant.as_deref(), Some("No Lost Updates"));
        assert_eq!(
            (search.depth, search.faults, search.states, search.ahead_ms),
            (1, 1, 200_000, 4_000)
        );
        assert_eq!(search.kinds, SearchFaultKinds::default());
        let plain = parse_lesson(&lesson_with(""), "asks.md").unwrap();
        assert_eq!(plain.steps[0].search, None);
    }

    #[test]
    fn a_bad_search_is_refused_with_what_is_wrong() {
        let budget = "depth = 1, faults = 1, states = 200000, ahead_s = 4";
        for (search, words) in [
            (
                format!("search = {{ {budget}, answers = [\"safe\"] }}"),
                "`safe` is no answer of the search; it answers found, none_within_bound, bound_reached",
            ),
            (
                format!("search = {{ {budget}, answers = [] }}"),
                "list the answers",
            ),
            (
                format!("search = {{ invariant = \"Election Safety\", {budget}, answers = [\"found\"] }}"),
                "unknown invariant \"Election Safety\" in this world",
            ),
            (
                format!("search = {{ {budget}, answers = [\"found\"], colour = 1 }}"),
                "colour",
            ),
            (
                "search = { depth = 1, faults = 1, states = 200000, ahead_s = 0, answers = [\"found\"] }"
                    .to_string(),
                "ahead_s",
            ),
        ] {
            let error = parse_lesson(&lesson_with(&search), "asks.md").unwrap_err();
            assert!(error.to_string().contains(words), "{search}: {error}");
        }
    }

    #[test]
    fn the_search_answering_ticks_only_a_step_that_lists_that_answer() {
        use super::super::LessonDriver;
        use crate::tooling::runner::ScenarioRun;
        let text = lesson_with(
            "search = { depth = 1, faults = 1, states = 200000, ahead_s = 4, answers = [\"found\"] }",
        )
        .replace(
            "[[step]]",
            "[[step]]\ninstruction = \"Pause B.\"\ncheckpoint = \"lost_update\"\n\n[[step]]",
        );
        let lesson = parse_lesson(&text, "asks.md").unwrap();
        assert_eq!(lesson.steps.len(), 2);
        let run = ScenarioRun::new(lesson.scenario.clone()).unwrap();
        let world = run.world();
        let mut driver = LessonDriver::start(lesson, world);
        assert_eq!(
            driver.search_answered(SearchAnswer::Found, "x", world),
            None
        );
        assert_eq!(
            driver.current_step(),
            0,
            "a plain step waits for its checkpoint"
        );
        driver.open_step(1, world);
        for other in [SearchAnswer::NoneWithinBound, SearchAnswer::BoundReached] {
            assert_eq!(driver.search_answered(other, "x", world), None);
        }
        let summary = "Broken: No Lost Updates, with 1 step and 1 fault.";
        assert_eq!(
            driver.search_answered(SearchAnswer::Found, summary, world),
            Some(1)
        );
        assert!(driver.is_complete());
        assert_eq!(
            driver.done(1),
            Some("The search answered: Broken: No Lost Updates, with 1 step and 1 fault.")
        );
    }

    #[test]
    fn a_step_may_choose_the_kinds_of_fault_and_look_ahead_in_ms() {
        let text = lesson_with(
            "search = { depth = 4, faults = 4, states = 300000, ahead_ms = 300, pauses = false, \
             isolate = false, cut_links = true, answers = [\"found\"] }",
        );
        let lesson = parse_lesson(&text, "asks.md").unwrap();
        let search = lesson.steps[0].search.clone().unwrap();
        assert_eq!(search.ahead_ms, 300);
        assert_eq!(
            search.kinds,
            SearchFaultKinds {
                crash: true,
                pauses: false,
                isolate: false,
                cut_links: true,
            }
        );
        let budget = "depth = 1, faults = 1, states = 200000";
        for (search, words) in [
            (
                format!("search = {{ {budget}, ahead_s = 1, ahead_ms = 500, answers = [\"found\"] }}"),
                "not both",
            ),
            (
                format!("search = {{ {budget}, answers = [\"found\"] }}"),
                "how far ahead",
            ),
            (
                format!("search = {{ {budget}, ahead_ms = 20, answers = [\"found\"] }}"),
                "ahead_ms",
            ),
            (
                format!(
                    "search = {{ {budget}, ahead_s = 1, crash = false, pauses = false, isolate = false, \
                     answers = [\"found\"] }}"
                ),
                "at least one kind of fault",
            ),
            (
                format!("search = {{ {budget}, ahead_s = 1, cut_links = 1, answers = [\"found\"] }}"),
                "cut_links",
            ),
        ] {
            let error = parse_lesson(&lesson_with(&search), "asks.md").unwrap_err();
            assert!(error.to_string().contains(words), "{search}: {error}");
        }
    }

    #[test]
    fn every_answer_reads_back_from_its_name() {
        for answer in SearchAnswer::ALL {
            assert_eq!(SearchAnswer::from_name(answer.name()), Some(answer));
        }
        assert_eq!(SearchAnswer::from_name("safe"), None);
    }
}
