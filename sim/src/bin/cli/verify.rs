//! `quorumlab verify CODE...`: checks learners' completion codes, as the app's "Check completion codes"
//! page does, for a whole class at once. Codes come from the arguments, from `--file F`, or from
//! standard input when neither gives any (one or many per line, separated by whitespace). Each is
//! replayed against the lessons compiled into this build (the repository's `lessons/`), and the result
//! is one JSON document on stdout: `{"codes": [...], "codes_not_read": N}`, one object per code with
//! the same facts the page lists (format: docs/completion-codes.md).
//!
//! Exit: 0 every code was read (whatever it met); 1 some code is malformed (its object says why; the
//! others are still checked); 2 bad usage or an unreadable file.

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::completion::{verify_text, MAX_CODES_PER_CHECK, MAX_CODE_CHARS};
use quorumlab_sim::lesson::parse_lessons;
use std::io::Read;

const FLAGS: FlagSpec = FlagSpec {
    with_value: &["file"],
    switches: &[],
};

/// Most bytes read from a file or standard input: every code at its longest, with room between.
const MAX_INPUT_BYTES: u64 = ((MAX_CODE_CHARS + 2) * MAX_CODES_PER_CHECK) as u64;

pub fn verify_command(args: &[String]) -> Outcome {
    let parsed = match FLAGS.parse(args) {
        Ok(parsed) => parsed,
        Err(message) => return Outcome::BadInput(message),
    };
    let mut text = parsed.positionals.join("\n");
    if let Some(file) = parsed.text("file") {
        match std::fs::File::open(file).and_then(read_bounded) {
            Ok(read) => text = format!("{text}\n{read}"),
            Err(error) => return Outcome::BadInput(format!("{file}: cannot read: {error}")),
        }
    } else if parsed.positionals.is_empty() {
        match read_bounded(std::io::stdin()) {
            Ok(read) => text = read,
            Err(error) => return Outcome::BadInput(format!("standard input: {error}")),
        }
    }
    if text.split_whitespace().next().is_none() {
        return Outcome::BadInput(
            "no codes: give them as arguments, with --file F, or on standard input".into(),
        );
    }
    let course = match parse_lessons() {
        Ok(course) => course,
        Err(error) => return Outcome::BadInput(format!("the lessons cannot be read: {error}")),
    };
    let verification = verify_text(&text, &course);
    match serde_json::to_string_pretty(&verification) {
        Ok(json) => println!("{json}"),
        Err(error) => return Outcome::BadInput(format!("cannot write the report: {error}")),
    }
    if verification.codes_not_read > 0 {
        eprintln!(
            "note: only the first {MAX_CODES_PER_CHECK} codes were checked; {} more were not read",
            verification.codes_not_read
        );
    }
    if verification.codes.iter().any(|code| code.malformed) {
        Outcome::Failures
    } else {
        Outcome::Success
    }
}

/// Reads at most [`MAX_INPUT_BYTES`] of UTF-8 text; more is an error that says so.
fn read_bounded(source: impl Read) -> std::io::Result<String> {
    let mut text = String::new();
    source.take(MAX_INPUT_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!(
            "more than {MAX_INPUT_BYTES} bytes; check at most {MAX_CODES_PER_CHECK} codes at a time"
        )));
    }
    Ok(text)
}
