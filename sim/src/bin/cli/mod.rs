//! The subcommands of `quorumlab`, one per file, and the argument parser they share.

pub mod args;
pub mod bench;
pub mod check;
pub mod experiment;
pub mod explore;
pub mod grade;
pub mod history;
pub mod parallel;
pub mod replay;
pub mod run;
pub mod sweep;
pub mod sweep_coordination;
pub mod sweep_history_rows;
pub mod sweep_table;
pub mod verify;

use std::process::ExitCode;

/// How a subcommand ends, mapped to the documented exit codes.
pub enum Outcome {
    /// 0: done (a run with violations still counts as done).
    Success,
    /// 1: a sweep found violations (or liveness failures), or a completion code is malformed.
    Failures,
    /// 2: bad input: usage, flags, unreadable or invalid scenario file. The message goes to stderr.
    BadInput(String),
}

impl Outcome {
    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Success => ExitCode::SUCCESS,
            Outcome::Failures => ExitCode::from(1),
            Outcome::BadInput(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        }
    }
}

impl From<String> for Outcome {
    fn from(message: String) -> Outcome {
        Outcome::BadInput(message)
    }
}
