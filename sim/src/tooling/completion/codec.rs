//! Reading and writing a completion code: `QLC1.` + base64url (no padding) of the postcard body and a
//! 4-byte checksum (the low bytes of the body's XXH64, little-endian).
//!
//! The checksum is not a seal (anyone can recompute it); it tells a code cut short or mistyped apart
//! from one that was altered on purpose, which only the replay can catch. Reading checks, in order:
//! length, prefix and version, the alphabet, the checksum, the body, then the counts and ranges in it,
//! and names the first problem it finds in a short sentence. Nothing in a code is used before it passes.

use super::record::{recorded_actions, CompletionCode};
use super::{
    MAX_ACTIONS_PER_RUN, MAX_CODE_CHARS, MAX_LESSON_ID_BYTES, MAX_RUNS, MAX_RUN_US,
    MAX_SETTINGS_BYTES, MAX_STEPS,
};
use crate::tooling::scenario::shown;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::fmt;

/// What every code of this format begins with.
pub const CODE_PREFIX: &str = "QLC1.";

/// Why a text is not a completion code this build can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeError {
    Empty,
    TooLong {
        chars: usize,
        max: usize,
    },
    /// It does not begin with `QLC`.
    NotACode,
    /// `QLC<n>.` with a version this build does not know.
    UnknownVersion {
        found: String,
    },
    /// A character outside base64url at this position (1-based, counted in the whole code).
    BadCharacter {
        position: usize,
    },
    /// The checksum does not match: the code was cut short, mistyped or altered.
    Damaged,
    Undecodable {
        problem: &'static str,
    },
    TrailingBytes {
        count: usize,
    },
    TooMany {
        what: &'static str,
        count: usize,
        max: usize,
    },
    Invalid {
        problem: String,
    },
}

impl fmt::Display for CodeError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodeError::Empty => write!(formatter, "the code is empty"),
            CodeError::TooLong { chars, max } => write!(
                formatter,
                "the code is {chars} characters long; at most {max} are read"
            ),
            CodeError::NotACode => write!(
                formatter,
                "this is not a completion code (a code begins with {CODE_PREFIX})"
            ),
            CodeError::UnknownVersion { found } => write!(
                formatter,
                "this code begins with {found}, a format this version does not read (it reads {CODE_PREFIX})"
            ),
            CodeError::BadCharacter { position } => write!(
                formatter,
                "character {position} cannot be part of a code (was it copied with something else?)"
            ),
            CodeError::Damaged => write!(
                formatter,
                "the code is damaged: cut short, mistyped or altered (its checksum does not match)"
            ),
            CodeError::Undecodable { problem } => {
                write!(formatter, "the code cannot be read: {problem}")
            }
            CodeError::TrailingBytes { count } => {
                write!(formatter, "the code has {count} bytes too many at its end")
            }
            CodeError::TooMany { what, count, max } => {
                write!(formatter, "the code holds {count} {what}; at most {max} are allowed")
            }
            CodeError::Invalid { problem } => write!(formatter, "the code is invalid: {problem}"),
        }
    }
}

impl std::error::Error for CodeError {}

fn checksum(bytes: &[u8]) -> [u8; 4] {
    let hash = xxhash_rust::xxh64::xxh64(bytes, 0).to_le_bytes();
    [hash[0], hash[1], hash[2], hash[3]]
}

/// The code's one line.
pub fn encode(code: &CompletionCode) -> String {
    // Serializing plain structs into a growable buffer cannot fail; an empty body is refused on reading.
    let mut bytes = postcard::to_allocvec(code).unwrap_or_default();
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum);
    format!("{CODE_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// Reads one code (surrounding whitespace ignored) and checks its counts and ranges.
pub fn decode(text: &str) -> Result<CompletionCode, CodeError> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 {
        return Err(CodeError::Empty);
    }
    if chars > MAX_CODE_CHARS {
        return Err(CodeError::TooLong {
            chars,
            max: MAX_CODE_CHARS,
        });
    }
    let body = strip_prefix(text)?;
    if let Some(index) = body
        .bytes()
        .position(|byte| !(byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_'))
    {
        let position = text.len() - body.len() + index + 1;
        return Err(CodeError::BadCharacter { position });
    }
    let sealed = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|_| CodeError::Damaged)?;
    let Some(body_length) = sealed.len().checked_sub(4) else {
        return Err(CodeError::Damaged);
    };
    let (bytes, sum) = sealed.split_at(body_length);
    if checksum(bytes) != sum {
        return Err(CodeError::Damaged);
    }
    let (code, rest) = postcard::take_from_bytes::<CompletionCode>(bytes).map_err(undecodable)?;
    if !rest.is_empty() {
        return Err(CodeError::TrailingBytes { count: rest.len() });
    }
    check(&code)?;
    Ok(code)
}

fn strip_prefix(text: &str) -> Result<&str, CodeError> {
    if let Some(body) = text.strip_prefix(CODE_PREFIX) {
        return Ok(body);
    }
    let head: String = text.chars().take(3).collect();
    if !head.eq_ignore_ascii_case("QLC") {
        return Err(CodeError::NotACode);
    }
    let found: String = text
        .chars()
        .take_while(|c| *c != '.' && !c.is_whitespace())
        .take(12)
        .collect();
    Err(CodeError::UnknownVersion {
        found: shown(&format!("{found}.")),
    })
}

fn undecodable(error: postcard::Error) -> CodeError {
    use postcard::Error::*;
    let problem = match error {
        DeserializeUnexpectedEnd => "it ends in the middle of a value",
        DeserializeBadVarint => "a number is too large or malformed",
        DeserializeBadBool | DeserializeBadOption => "a yes/no value is neither 0 nor 1",
        DeserializeBadUtf8 | DeserializeBadChar => "a text is not valid UTF-8",
        DeserializeBadEnum | SerdeDeCustom => "an unknown action or target",
        _ => "it is not a completion code of this version",
    };
    CodeError::Undecodable { problem }
}

fn at_most(what: &'static str, count: usize, max: usize) -> Result<(), CodeError> {
    if count > max {
        return Err(CodeError::TooMany { what, count, max });
    }
    Ok(())
}

fn invalid(problem: String) -> CodeError {
    CodeError::Invalid { problem }
}

/// The counts and ranges a code must keep, whichever lesson it names.
fn check(code: &CompletionCode) -> Result<(), CodeError> {
    let id_shape = !code.lesson_id.is_empty()
        && code.lesson_id.len() <= MAX_LESSON_ID_BYTES
        && code
            .lesson_id
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-');
    if !id_shape {
        return Err(invalid("the lesson id is not a lesson id".to_string()));
    }
    at_most("steps", code.steps.len(), MAX_STEPS)?;
    at_most("runs", code.runs.len(), MAX_RUNS)?;
    if code.runs.is_empty() {
        return Err(invalid("it holds no run".to_string()));
    }
    if code
        .steps
        .iter()
        .any(|step| step.ticked_us.is_some_and(|at| at > MAX_RUN_US))
    {
        return Err(invalid("a step ticks past one simulated hour".to_string()));
    }
    let mut previous_first: Option<u16> = None;
    for (index, run) in code.runs.iter().enumerate() {
        let number = index + 1;
        if previous_first.is_some_and(|previous| run.first_step <= previous) {
            return Err(invalid(format!(
                "run {number} does not begin at a later step"
            )));
        }
        previous_first = Some(run.first_step);
        if usize::from(run.first_step) >= code.steps.len() {
            return Err(invalid(format!(
                "run {number} begins at a step the code does not list"
            )));
        }
        at_most("actions in one run", run.actions.len(), MAX_ACTIONS_PER_RUN)?;
        let settings = run.settings_toml.as_ref().map_or(0, String::len);
        at_most("bytes of run settings", settings, MAX_SETTINGS_BYTES)?;
        let actions = recorded_actions(&run.actions)
            .ok_or_else(|| invalid(format!("run {number}: an action's time overflows")))?;
        let last_us = actions.last().map_or(0, |last| last.at.as_micros());
        let furthest = last_us.max(run.played_to_us).max(run.began_us);
        if furthest > MAX_RUN_US {
            return Err(invalid(format!(
                "run {number} goes past one simulated hour"
            )));
        }
        if run.began_us > run.played_to_us {
            return Err(invalid(format!("run {number} ends before it begins")));
        }
    }
    Ok(())
}
