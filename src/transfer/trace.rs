//! Trace files in the app: export the run shown as a trace file (`quorumlab_sim::trace_file`, JSON
//! lines), and open one as a run.
//!
//! Opening a file goes through the same gates as opening a share link — the format's own checks (line
//! and field named), then the link limits on settings, node names, times and how much replaying the
//! browser may be asked to do — and ends with one more: the replayed run must have the fingerprint the
//! file recorded. Only then does the caller swap the run in, so a file that fails any check changes
//! nothing.

use crate::session::Session;
use crate::share::replay::{capture, open};
use crate::share::{validate, ShareError, SharedRun};
use quorumlab_sim::fingerprint::FingerprintKind;
use quorumlab_sim::trace_file::{parse_trace_file, replay, write_trace_file, TraceFileError};
use std::fmt;

/// The trace file for the run `session` shows, at the instant it shows. The title is shortened as in
/// a share link, so every exported file can be opened again.
pub fn trace_file_text(session: &Session) -> String {
    let run = capture(session);
    write_trace_file(&run.scenario, &run.actions, session.world())
}

/// Whether pasted or chosen text looks like a trace file rather than a scenario: a TOML file cannot
/// start with `{`, every trace file does.
pub fn looks_like_trace_file(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceImportError {
    /// The file breaks the trace file format.
    Invalid(TraceFileError),
    /// The run in it is beyond what a share link may carry, or cannot be replayed.
    Limits(ShareError),
    /// The replay did not reach the fingerprint the file recorded (the file was edited, or made by a
    /// different engine version).
    Diverged { recorded: u64, replayed: u64 },
}

impl fmt::Display for TraceImportError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceImportError::Invalid(error) => write!(formatter, "{error}"),
            TraceImportError::Limits(error) => write!(
                formatter,
                "{error} (action N is on line N + 1, after the header)"
            ),
            TraceImportError::Diverged { recorded, replayed } => write!(
                formatter,
                "replaying it gives run {replayed:016x}, but the file recorded run {recorded:016x}: \
                 it was changed, or made by another version of Quorum Lab"
            ),
        }
    }
}

/// Reads, checks and replays a trace file into a session paused where it was exported.
pub fn import_trace(text: &str) -> Result<Session, TraceImportError> {
    let file = parse_trace_file(text).map_err(TraceImportError::Invalid)?;
    let run = SharedRun {
        scenario: file.scenario.clone(),
        actions: file.actions.clone(),
        position: file.position,
        lesson: None,
    };
    validate::run(&run).map_err(TraceImportError::Limits)?;
    let session = open(run).map_err(TraceImportError::Limits)?;
    let replayed = match file.fingerprint {
        FingerprintKind::Compact => session.world().trace_hash(),
        // An older file's print needs the older function: one more replay, within the same limits
        // (the run fitted them a moment ago).
        FingerprintKind::JsonFnv => replay(&file)
            .map(|world| world.trace_hash())
            .map_err(|reason| TraceImportError::Limits(ShareError::Refused { reason }))?,
    };
    if replayed != file.trace_hash {
        return Err(TraceImportError::Diverged {
            recorded: file.trace_hash,
            replayed,
        });
    }
    Ok(session)
}

#[cfg(test)]
mod tests;
