//! Why a share link could not be made or opened. Each variant names the field involved, so the notice
//! the learner sees says what was wrong ("action 12 target: node n9 does not exist …"), not just "invalid".

use super::registered::WorldError;
use quorumlab_sim::scenario::{shown, Invalid};
use quorumlab_sim::time::SimTime;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The address has no `#/run/` fragment: not a share link at all.
    NotAShareLink,
    /// A link from a newer (or unknown) format version.
    UnsupportedVersion {
        found: String,
    },
    TooLong {
        length: usize,
        max: usize,
    },
    BadCharacter {
        character: char,
        position: usize,
    },
    BadLength {
        length: usize,
    },
    /// The checksum does not match: the link was cut short or changed.
    Damaged,
    Truncated {
        field: String,
    },
    /// An overlong or overflowing number encoding.
    BadNumber {
        field: String,
    },
    BadText {
        field: String,
    },
    /// A code (protocol, action kind, yes/no) outside the known set.
    UnknownCode {
        field: String,
        code: u64,
    },
    TrailingBytes {
        count: usize,
    },
    /// A v4 body that postcard cannot read as a run (what kind of value was wrong, not where: the
    /// format does not say).
    Undecodable {
        problem: &'static str,
    },
    /// A setting the link format deliberately cannot carry.
    NotShareable {
        setting: &'static str,
    },
    /// A recorded action claims a point the run never reaches in that order: more events before it
    /// than the run has processed by its time.
    DoesNotFit {
        action: usize,
        at: SimTime,
        after_events: u64,
        events_by_then: u64,
    },
    /// Replaying the run would keep the page busy far too long (a rough estimate, see `replay`).
    TooLongToReplay {
        estimated_events: u64,
    },
    /// The replay used up its budget of `limit` events with the run at `stopped_at`.
    ReplayStopped {
        limit: u64,
        stopped_at: SimTime,
    },
    /// The run breaks a rule of the scenario format (the engine's own `Scenario::validate` words).
    Invalid(Invalid),
    /// The engine refused the settings.
    Refused {
        reason: String,
    },
    /// A world the link names (`LinkProtocol::Registered`) that cannot be read as written.
    World(WorldError),
    /// The view query after the payload (`?speed=…`, see `view_options`) cannot be read.
    BadViewOption {
        problem: String,
    },
}

impl fmt::Display for ShareError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ShareError::*;
        match self {
            NotAShareLink => write!(formatter, "the address holds no #/run/ share link"),
            Invalid(invalid) => write!(formatter, "{invalid}"),
            UnsupportedVersion { found } => write!(
                formatter,
                "link format `{}` is not supported (this version of Quorum Lab reads v1 to v4)",
                shown(found)
            ),
            TooLong { length, max } => write!(
                formatter,
                "the link is {length} characters long; at most {max} are accepted"
            ),
            BadCharacter {
                character,
                position,
            } => write!(
                formatter,
                "character `{}` at position {position} cannot appear in a link payload",
                shown(&character.to_string())
            ),
            BadLength { length } => write!(
                formatter,
                "a payload of {length} characters is impossible: the link was cut short"
            ),
            Damaged => write!(
                formatter,
                "the link is damaged or incomplete (its checksum does not match)"
            ),
            Truncated { field } => write!(formatter, "the link ends before {field}"),
            BadNumber { field } => write!(formatter, "{field} is not a well-formed number"),
            BadText { field } => write!(formatter, "{field} is not valid UTF-8 text"),
            UnknownCode { field, code } => write!(formatter, "{field} has unknown code {code}"),
            TrailingBytes { count } => write!(
                formatter,
                "{count} unexpected bytes follow the end of the run"
            ),
            Undecodable { problem } => {
                write!(formatter, "the link's run cannot be read: {problem}")
            }
            NotShareable { setting } => {
                write!(
                    formatter,
                    "the setting `{setting}` cannot be shared in a link"
                )
            }
            DoesNotFit {
                action,
                at,
                after_events,
                events_by_then,
            } => write!(
                formatter,
                "recorded action {action} at {at} expects {after_events} events before it, \
                 but this run has only {events_by_then} by then"
            ),
            TooLongToReplay { estimated_events } => write!(
                formatter,
                "replaying this run would take about {} million events, more than a browser tab \
                 should run before showing anything",
                estimated_events / 1_000_000
            ),
            ReplayStopped { limit, stopped_at } => write!(
                formatter,
                "replaying it was stopped after {limit} events, at {stopped_at} of the run: more \
                 than a browser tab should run before showing anything"
            ),
            Refused { reason } => {
                write!(formatter, "the simulation refused the settings: {reason}")
            }
            World(world) => write!(formatter, "{world}"),
            BadViewOption { problem } => write!(formatter, "its view options: {problem}"),
        }
    }
}

impl std::error::Error for ShareError {}

/// The engine's rule violations are the link's own errors, in the same words.
impl From<Invalid> for ShareError {
    fn from(invalid: Invalid) -> ShareError {
        ShareError::Invalid(invalid)
    }
}

impl From<WorldError> for ShareError {
    fn from(world: WorldError) -> ShareError {
        ShareError::World(world)
    }
}

/// The setting `linkable` refuses for the unsafe hand-edited membership mode.
pub const DIRECT_MEMBERSHIP_SETTING: &str = "membership = \"direct\"";

impl ShareError {
    /// Why a refusal happens and what to do instead, for the refusals a learner meets by doing what a
    /// lesson asks (the unsafe direct membership switch); `None` where the error says enough.
    pub fn advice(&self) -> Option<&'static str> {
        match self {
            ShareError::NotShareable { setting } if *setting == DIRECT_MEMBERSHIP_SETTING => Some(
                "servers here take their configuration from hand-edited files, not the log, and a \
                 link has no room to say so: it would reopen the safe mode and show another run. \
                 Export the trace or the scenario (Import / export) instead; both keep the mode",
            ),
            _ => None,
        }
    }

    /// The whole sentence the page shows when a run cannot be shared.
    pub fn refusal_text(&self) -> String {
        match self.advice() {
            Some(advice) => format!("This run cannot be shared as a link: {advice}."),
            None => format!("This run cannot be shared: {self}"),
        }
    }
}

#[cfg(test)]
mod advice_tests {
    use super::*;

    #[test]
    fn the_direct_membership_refusal_says_why_and_what_to_do() {
        let refused = ShareError::NotShareable {
            setting: DIRECT_MEMBERSHIP_SETTING,
        };
        let text = refused.refusal_text();
        assert!(text.contains("hand-edited files"), "{text}");
        assert!(text.contains("Export the trace"), "{text}");
        let other = ShareError::NotShareable {
            setting: "unsafe_commit_previous_term",
        };
        assert_eq!(other.advice(), None);
        assert!(other
            .refusal_text()
            .starts_with("This run cannot be shared: the setting `unsafe_commit_previous_term`"));
    }
}
