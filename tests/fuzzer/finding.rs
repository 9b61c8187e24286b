//! Findings and their minimal reproductions. A panic or a wrong answer is shrunk — lines, then
//! characters, dropped while the same kind of failure remains — within a bounded number of tries; a
//! slow input is measured once more (the machine is shared) and kept as it is.

use super::budget::{caught, Clock};
use super::targets::{self, Target, Verdict};
use std::time::Duration;

/// Most re-runs one shrink may spend.
const MAX_SHRINK_TRIES: usize = 400;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    Panic(String),
    /// A path answered wrongly (see `targets`).
    Wrong(String),
    /// A path took longer than the limit: its name and the two measurements of CPU time.
    Slow {
        path: &'static str,
        first: Duration,
        again: Duration,
    },
}

impl Failure {
    fn same_kind(&self, other: &Failure) -> bool {
        matches!(
            (self, other),
            (Failure::Panic(_), Failure::Panic(_)) | (Failure::Wrong(_), Failure::Wrong(_))
        )
    }
}

pub struct Finding {
    pub target: Target,
    pub source: &'static str,
    /// `None` for a seed input.
    pub index: Option<u64>,
    pub failure: Failure,
    pub input: String,
}

/// One run of one input through its target.
pub struct Attempt {
    /// A panic or a wrong answer, if either came.
    pub failure: Option<Failure>,
    pub accepted: bool,
    pub clock: Clock,
}

pub fn attempt(target: Target, text: &str) -> Attempt {
    let mut clock = Clock::default();
    let (failure, accepted) = match caught(|| targets::run(target, text, &mut clock)) {
        Ok(Ok(verdict)) => (None, verdict == Verdict::Accepted),
        Ok(Err(wrong)) => (Some(Failure::Wrong(wrong)), false),
        Err(panic) => (Some(Failure::Panic(panic)), false),
    };
    Attempt {
        failure,
        accepted,
        clock,
    }
}

/// The shortest input found that fails as `failure` does.
pub fn shrink(target: Target, input: &str, failure: &Failure) -> String {
    let mut best = input.to_string();
    let tries = std::cell::Cell::new(0);
    let still_fails = |candidate: &str| {
        tries.set(tries.get() + 1);
        matches!(attempt(target, candidate).failure, Some(found) if found.same_kind(failure))
    };
    for unit in [Unit::Line, Unit::Char] {
        let mut chunk = pieces(&best, unit).len() / 2;
        while chunk >= 1 && tries.get() < MAX_SHRINK_TRIES {
            let parts = pieces(&best, unit);
            let mut start = 0;
            let mut shrunk = false;
            while start < parts.len() && tries.get() < MAX_SHRINK_TRIES {
                let end = (start + chunk).min(parts.len());
                let candidate: String = parts[..start].concat() + parts[end..].concat().as_str();
                if candidate.len() < best.len() && still_fails(&candidate) {
                    best = candidate;
                    shrunk = true;
                    break;
                }
                start = end;
            }
            if !shrunk {
                chunk /= 2;
            }
        }
    }
    best
}

#[derive(Clone, Copy)]
enum Unit {
    Line,
    Char,
}

fn pieces(text: &str, unit: Unit) -> Vec<&str> {
    match unit {
        Unit::Line => text.split_inclusive('\n').collect(),
        Unit::Char => text
            .char_indices()
            .map(|(at, character)| &text[at..at + character.len_utf8()])
            .collect(),
    }
}

/// The report of one finding: what failed, how to get it again, the input escaped.
pub fn describe(finding: &Finding, seed: u64) -> String {
    let what = match &finding.failure {
        Failure::Panic(message) => format!("panic: {message}"),
        Failure::Wrong(message) => format!("wrong answer: {message}"),
        Failure::Slow { path, first, again } => format!(
            "over budget: `{path}` took {} ms, then {} ms of CPU time",
            first.as_millis(),
            again.as_millis()
        ),
    };
    let again = match finding.index {
        Some(index) => format!(
            "QUORUMLAB_FUZZ_SEED={seed} QUORUMLAB_FUZZ_ONLY={index} cargo test --profile fuzz -p quorumlab --test fuzz -- --nocapture"
        ),
        None => "any run (it is a seed input: an example, a lesson or an export made at start)".to_string(),
    };
    let shown: String = format!("{:?}", finding.input);
    let shown = match shown.chars().count() > 20_000 {
        true => format!(
            "{}… (cut; {} characters in all)",
            shown.chars().take(20_000).collect::<String>(),
            finding.input.chars().count()
        ),
        false => shown,
    };
    format!(
        "FUZZ FINDING in the {} parser ({} input): {what}\n  again: {again}\n  minimal input ({} characters, escaped): {shown}\n",
        finding.target.name(),
        finding.source,
        finding.input.chars().count(),
    )
}
