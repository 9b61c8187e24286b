//! A step's pacing: how the page plays the run while the step is open, so that what the learner must
//! do can be done by hand and what they must see can be seen.
//!
//! Three optional keys of a `[[step]]`, none of which changes what the simulation does or how the step
//! is judged (a headless run ignores them):
//!
//! ```text
//! playback_percent = 50                 # the step plays at 50% of real time (the speed label's 0.5×)
//! moves_while_paused = 2                # the paused run waits for two of the learner's moves, not one
//! look = { after_move_ms = 5, say = "...", view = "log strips" }  # stop there, say why, show that part
//! ```
//!
//! A lesson opens paused and its first move starts the run; a step whose effect needs two moves at one
//! instant (two servers added together) says `moves_while_paused = 2`. A step whose moment lasts a few
//! simulated milliseconds names it with `look`: the page stops the run there and shows the sentence.
//! A step that makes the learner wait for seconds of simulated time names a faster speed.

use super::errors::{LessonError, LessonErrorKind};
use super::parse::lesson_error;
use crate::tooling::scenario::fields::{Field, TableReader};

/// Fastest a step may ask to play, in percent of real time (the app's top speed, 2×).
pub const MAX_PLAYBACK_PERCENT: u64 = 200;
/// Most moves a step may ask the paused run to wait for.
pub const MAX_MOVES_WHILE_PAUSED: u64 = 5;
/// Latest a `look` moment may fall after the learner's move.
pub const MAX_LOOK_AFTER_MOVE_MS: u64 = 60_000;

const LOOK_KEYS: &[&str] = &["after_move_ms", "say", "view"];
/// The parts of the page a `look` may bring into view (the app knows where each one is).
pub const LOOK_VIEWS: &[&str] = &["cluster", "log strips"];

/// How the page plays a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepPacing {
    /// The speed the step plays at, in percent of real time; `None` keeps the lesson's speed.
    pub playback_percent: Option<u64>,
    /// How many of the learner's moves the paused run waits for before it starts by itself (1 or more).
    pub moves_while_paused: u64,
    pub look: Option<LookMoment>,
}

impl Default for StepPacing {
    fn default() -> StepPacing {
        StepPacing {
            playback_percent: None,
            moves_while_paused: 1,
            look: None,
        }
    }
}

/// A moment to stop the run at and point out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookMoment {
    /// Simulated milliseconds after the learner's first move in the step.
    pub after_move_ms: u64,
    /// What to look at (markdown).
    pub say: String,
    /// One of [`LOOK_VIEWS`], brought into view at the moment; `None` leaves the page where it is.
    pub view: Option<String>,
}

/// Reads the pacing keys of a step's table (the caller checks the table's keys as a whole).
pub(super) fn read_pacing(table: &TableReader<'_>) -> Result<StepPacing, LessonError> {
    let playback_percent = match table.optional("playback_percent") {
        Some(field) => Some(field.unsigned_in(1, MAX_PLAYBACK_PERCENT)?),
        None => None,
    };
    let moves_while_paused = match table.optional("moves_while_paused") {
        Some(field) => field.unsigned_in(1, MAX_MOVES_WHILE_PAUSED)?,
        None => 1,
    };
    let look = match table.optional("look") {
        Some(field) => {
            let look = super::parse::table_of(field, "a step's look")?;
            look.check_keys(LOOK_KEYS)?;
            Some(LookMoment {
                after_move_ms: look
                    .required("after_move_ms")?
                    .unsigned_in(0, MAX_LOOK_AFTER_MOVE_MS)?,
                say: look.required("say")?.string()?.to_string(),
                view: match look.optional("view") {
                    Some(field) => Some(read_view(&field)?),
                    None => None,
                },
            })
        }
        None => None,
    };
    Ok(StepPacing {
        playback_percent,
        moves_while_paused,
        look,
    })
}

fn read_view(field: &Field<'_>) -> Result<String, LessonError> {
    let view = field.string()?;
    if LOOK_VIEWS.contains(&view) {
        return Ok(view.to_string());
    }
    let known = LOOK_VIEWS.iter().map(|known| known.to_string()).collect();
    Err(lesson_error(
        field,
        LessonErrorKind::UnknownView {
            view: view.to_string(),
            known,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{parse_lesson, LessonErrorKind};
    use super::*;

    fn lesson_with(step_keys: &str) -> String {
        format!(
            "+++\nid = \"paced\"\ntitle = \"Paced\"\norder = 1\noutcomes = [\"o\"]\n\
             scenario = \"lessons/scenarios/calm-five.toml\"\n\n[[step]]\n\
             instruction = \"Crash the leader.\"\ncheckpoint = \"leader_changed\"\n{step_keys}\n+++\nbody\n"
        )
    }

    fn pacing_of(step_keys: &str) -> StepPacing {
        let lesson = parse_lesson(&lesson_with(step_keys), "paced.md").unwrap();
        lesson.steps[0].pacing.clone()
    }

    #[test]
    fn a_step_without_pacing_keys_plays_as_the_lesson_does() {
        assert_eq!(pacing_of(""), StepPacing::default());
        assert_eq!(StepPacing::default().moves_while_paused, 1);
    }

    #[test]
    fn each_pacing_key_is_read() {
        let pacing = pacing_of(
            "playback_percent = 50\nmoves_while_paused = 2\n\
             look = { after_move_ms = 3, say = \"See n4.\", view = \"log strips\" }",
        );
        assert_eq!(pacing.playback_percent, Some(50));
        assert_eq!(pacing.moves_while_paused, 2);
        assert_eq!(
            pacing.look,
            Some(LookMoment {
                after_move_ms: 3,
                say: "See n4.".into(),
                view: Some("log strips".into()),
            })
        );
    }

    #[test]
    fn bad_pacing_is_refused_with_the_key_named() {
        for (keys, key) in [
            ("playback_percent = 0", "playback_percent"),
            ("playback_percent = 201", "playback_percent"),
            ("moves_while_paused = 0", "moves_while_paused"),
            ("moves_while_paused = 6", "moves_while_paused"),
            ("look = { say = \"x\" }", "look"),
            ("look = { after_move_ms = 3 }", "look"),
            (
                "look = { after_move_ms = 3, say = \"x\", when = 1 }",
                "when",
            ),
        ] {
            let error = parse_lesson(&lesson_with(keys), "paced.md").unwrap_err();
            let shown = error.to_string();
            assert!(shown.contains(key), "{keys}: {shown}");
        }
    }

    #[test]
    fn a_view_the_page_does_not_have_is_refused_with_the_choices() {
        let text = lesson_with("look = { after_move_ms = 3, say = \"x\", view = \"sidebar\" }");
        let error = parse_lesson(&text, "paced.md").unwrap_err();
        assert!(matches!(*error.kind, LessonErrorKind::UnknownView { .. }));
        assert!(error.to_string().contains("log strips"), "{error}");
    }
}
