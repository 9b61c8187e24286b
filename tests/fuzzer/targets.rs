//! Every way text from a user reaches a parser, each a path the fuzzer times on its own:
//!
//! - a scenario file: `parse_scenario` (the CLI's `run`/`check` and the app's import), then the
//!   export written from it must read back to the same scenario, and a run must start;
//! - a lesson file: `parse_lesson`, its markdown, and opening it as the app does;
//! - a trace file, twice: as `quorumlab replay` reads it (`trace_file::replay_checked`) and as the app
//!   imports it (`transfer::trace::import_trace`), and the two must agree;
//! - a share link (or a lesson address): decoded, opened (replayed) and, when it opens, written again
//!   as a link that decodes to the same run;
//! - a completion code: read and checked by replay against the course (`completion::check_one`, the
//!   page's and `quorumlab verify`'s path); a code that reads is written again and must read the same;
//! - a file given to the app's Import: a trace file or a scenario file by its first character, a
//!   scenario then played for 100 ms (one wall second at 1×);
//! - a client history given to the history panel's Import history (`fuzzer::history`).
//!
//! A path returns `Err` for a finding that is not a panic: two paths disagreeing, a round trip that
//! changes the run, an error message that echoes its input at length.

use super::budget::Clock;
use quorumlab::lesson::headless::{lesson_session, resume_at};
use quorumlab::lesson::markdown::{parse_blocks, parse_inlines};
use quorumlab::lesson::route::parse_route;
use quorumlab::session::Session;
use quorumlab::share::replay::{capture, open};
use quorumlab::share::{decode_fragment, encode_fragment, ShareError};
use quorumlab::transfer::import_scenario;
use quorumlab::transfer::trace::{import_trace, looks_like_trace_file, TraceImportError};
use quorumlab_sim::completion::{check_one, decode, encode};
use quorumlab_sim::lesson::parse_lesson;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{parse_scenario, to_toml_string};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace_file::{parse_trace_file, replay_checked, ReplayCheck};

/// Longest error a user may be shown (a few lines of text; the format quotes at most 60 characters
/// of the input).
const MAX_ERROR_CHARS: usize = 1_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    Scenario,
    Lesson,
    TraceFile,
    ShareLink,
    Import,
    CompletionCode,
    History,
}

impl Target {
    pub const ALL: [Target; 7] = [
        Target::Scenario,
        Target::Lesson,
        Target::TraceFile,
        Target::ShareLink,
        Target::Import,
        Target::CompletionCode,
        Target::History,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::Scenario => "scenario file",
            Target::Lesson => "lesson file",
            Target::TraceFile => "trace file",
            Target::ShareLink => "share link",
            Target::Import => "imported file",
            Target::CompletionCode => "completion code",
            Target::History => "history file",
        }
    }
}

/// What a path made of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    Refused,
}

/// Runs `text` through every path of `target`, each timed on `clock` under its own name.
pub fn run(target: Target, text: &str, clock: &mut Clock) -> Result<Verdict, String> {
    match target {
        Target::Scenario => clock.time("parse_scenario", || scenario(text)),
        Target::Lesson => clock.time("parse_lesson", || lesson(text)),
        Target::TraceFile => trace_file(text, clock),
        Target::ShareLink => share_link(text, clock),
        Target::Import => clock.time("the app's Import", || import(text)),
        Target::CompletionCode => clock.time("check_one", || completion_code(text)),
        Target::History => clock.time("import_history + check", || super::history::history(text)),
    }
}

/// A refusal the user reads: short, one line of printable text.
pub fn readable(error: impl std::fmt::Display) -> Result<Verdict, String> {
    let text = error.to_string();
    if std::env::var_os("QUORUMLAB_FUZZ_VERBOSE").is_some() {
        eprintln!("refused: {}", text.chars().take(300).collect::<String>());
    }
    let length = text.chars().count();
    if length > MAX_ERROR_CHARS {
        let head: String = text.chars().take(200).collect();
        return Err(format!(
            "an error of {length} characters (at most {MAX_ERROR_CHARS}): {head:?}…"
        ));
    }
    if text.chars().any(|character| character.is_control()) {
        return Err(format!("an error with a control character in it: {text:?}"));
    }
    Ok(Verdict::Refused)
}

fn scenario(text: &str) -> Result<Verdict, String> {
    let parsed = match parse_scenario(text, "fuzz.toml") {
        Ok(parsed) => parsed,
        Err(error) => return readable(error),
    };
    let exported = to_toml_string(&parsed);
    match parse_scenario(&exported, "exported.toml") {
        Ok(again) if again == parsed => {}
        Ok(_) => {
            return Err(format!(
                "the export reads back as another scenario: {exported:?}"
            ))
        }
        Err(error) => return Err(format!("the export does not read back: {error}")),
    }
    ScenarioRun::new(parsed).map_err(|reason| format!("a parsed scenario cannot run: {reason}"))?;
    Ok(Verdict::Accepted)
}

fn lesson(text: &str) -> Result<Verdict, String> {
    let lesson = match parse_lesson(text, "lessons/fuzz.md") {
        Ok(lesson) => lesson,
        Err(error) => return readable(error),
    };
    parse_blocks(&lesson.body);
    for step in &lesson.steps {
        parse_inlines(&step.instruction);
    }
    lesson_session(&lesson).map_err(|reason| format!("a parsed lesson cannot open: {reason}"))?;
    Ok(Verdict::Accepted)
}

/// The command and the app read the same file: they must come to the same answer, apart from the
/// link limits only the app applies (an over-long title, the replay estimate).
fn trace_file(text: &str, clock: &mut Clock) -> Result<Verdict, String> {
    let command = clock.time("quorumlab replay", || match parse_trace_file(text) {
        Ok(file) => Ok(Some(replay_checked(&file))),
        Err(error) => readable(&error).map(|_| None),
    })?;
    let app = clock.time("the app's trace import", || import_trace(text));
    match (&command, &app) {
        (None, Err(TraceImportError::Invalid(_))) => Ok(Verdict::Refused),
        (Some(ReplayCheck::Reproduced(world)), Ok(session)) => {
            if world.trace_hash() != session.world().trace_hash() || world.now() != session.now() {
                return Err("the command and the app replayed to different runs".to_string());
            }
            Ok(Verdict::Accepted)
        }
        (Some(ReplayCheck::Reproduced(_)), Err(TraceImportError::Limits(limit)))
            if !matches!(
                limit,
                ShareError::DoesNotFit { .. } | ShareError::ReplayStopped { .. }
            ) =>
        {
            readable(limit)
        }
        (Some(ReplayCheck::Diverged { .. }), Err(TraceImportError::Diverged { .. }))
        | (Some(ReplayCheck::Diverged { .. }), Err(TraceImportError::Limits(_))) => {
            Ok(Verdict::Refused)
        }
        (Some(ReplayCheck::Failed(_)), Err(TraceImportError::Limits(limit))) => readable(limit),
        (command, app) => Err(format!(
            "`quorumlab replay` says {} but the app says {}",
            command_says(command.as_ref()),
            match app {
                Ok(_) => "it opened".to_string(),
                Err(error) => format!("\"{error}\""),
            }
        )),
    }
}

fn command_says(command: Option<&ReplayCheck>) -> String {
    match command {
        None => "the file does not parse".to_string(),
        Some(ReplayCheck::Reproduced(_)) => "it reproduced the run".to_string(),
        Some(ReplayCheck::Diverged { replayed, .. }) => {
            format!("it replayed to another run ({replayed:016x})")
        }
        Some(ReplayCheck::Failed(reason)) => format!("\"{reason}\""),
    }
}

/// A link opens, and the link its opened run writes opens again to the same run. (Not necessarily
/// the same log: the replay puts in scripted steps a link lacks.)
fn share_link(text: &str, clock: &mut Clock) -> Result<Verdict, String> {
    if text.starts_with("#/lesson/") {
        return clock.time("parse_route", || match parse_route(text) {
            Ok(_) => Ok(Verdict::Accepted),
            Err(error) => readable(error),
        });
    }
    let opened = clock.time("decode_fragment + open", || {
        let run = decode_fragment(text)?;
        let lesson = run.lesson.clone();
        open(run).map(|session| (session, lesson))
    });
    let (mut session, lesson) = match opened {
        Ok(opened) => opened,
        Err(error) => return readable(error),
    };
    if let Some(shared) = &lesson {
        let course = quorumlab::lesson::course()?;
        if let Some(found) = course.iter().find(|lesson| lesson.id == shared.id) {
            resume_at(&mut session, found, shared.step, shared.step_began);
        }
    }
    let mut again = capture(&session);
    again.lesson = lesson;
    let link = encode_fragment(&again)
        .map_err(|error| format!("an opened link cannot be shared again: {error}"))?;
    let reopened = clock.time("the link written again", || {
        decode_fragment(&link).map(|decoded| (decoded.clone(), open(decoded)))
    });
    match reopened {
        Ok((decoded, _)) if decoded != again => {
            Err("the link written again decodes to another run".to_string())
        }
        Ok((_, Ok(reopened))) if reopened.world().trace_hash() == session.world().trace_hash() => {
            Ok(Verdict::Accepted)
        }
        Ok((_, Ok(_))) => Err("the link written again opens to another run".to_string()),
        Ok((_, Err(error))) => Err(format!("the link written again does not open: {error}")),
        Err(error) => Err(format!("the link written again does not decode: {error}")),
    }
}

fn import(text: &str) -> Result<Verdict, String> {
    if looks_like_trace_file(text) {
        return match import_trace(text) {
            Ok(_) => Ok(Verdict::Accepted),
            Err(error) => readable(error),
        };
    }
    let scenario = match import_scenario(text, "imported.toml") {
        Ok(scenario) => scenario,
        Err(error) => return readable(error),
    };
    let mut session = Session::new(scenario)
        .map_err(|reason| format!("an imported scenario cannot start: {reason}"))?;
    session.advance_to(SimTime::from_ms(100));
    Ok(Verdict::Accepted)
}

/// A code is read and checked; one that reads writes again to itself, and one that is refused says
/// why in a short line.
fn completion_code(text: &str) -> Result<Verdict, String> {
    let course = quorumlab::lesson::course()?;
    let report = check_one(1, text, &course);
    if let Ok(code) = decode(text) {
        if decode(&encode(&code)).as_ref() != Ok(&code) {
            return Err("a code that reads is written again as another".to_string());
        }
    }
    for step in &report.steps {
        if step.detail.chars().count() > MAX_ERROR_CHARS {
            return Err(format!(
                "a step's detail of {} characters",
                step.detail.chars().count()
            ));
        }
    }
    match report.error {
        Some(error) => readable(error),
        None if report.steps.len() == report.total => Ok(Verdict::Accepted),
        None => {
            Err("a checked code reports another number of steps than its lesson has".to_string())
        }
    }
}
