//! What can be wrong with a scenario file, with the place it is wrong.
//!
//! Errors are values the CLI prints and the app can explain: the variant says what kind of mistake it is,
//! and its data says exactly which value was wrong and what was expected.

use crate::tooling::scenario::steps::ACTION_NAMES;
use crate::tooling::suggest::did_you_mean;
use crate::worlds::registry;
use std::fmt;

/// Where a reader finds every key and protocol, for an unknown one with no close match.
const KEYS_LISTED_IN: &str = "sim/SCENARIOS.md";
/// Where a reader finds every action a step may name.
const ACTIONS_LISTED_IN: &str = "sim/SCENARIOS.md, \"Steps\"";

/// A scenario file that cannot be run, and where the problem is.
///
/// `line` and `column` are 1-based; the column counts characters, not bytes. `step` is the 1-based index of
/// the `[[step]]` entry involved, when there is one. `key` is the key the problem is about (`timing.` is
/// prefixed for keys of the `[timing]` table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub step: Option<usize>,
    pub key: Option<String>,
    pub kind: ScenarioErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioErrorKind {
    /// The text is not valid TOML at all (the message is the TOML parser's).
    MalformedToml {
        message: String,
    },
    /// A key the format does not know, usually a typo: `key` as written (without its table's
    /// prefix; boxed to keep errors small), `allowed` the keys its table takes.
    UnknownKey {
        key: Box<str>,
        allowed: Vec<&'static str>,
    },
    /// A required key is absent; `needed_by` says what requires it (`the scenario`, `action crash`).
    MissingKey {
        needed_by: String,
    },
    WrongType {
        expected: &'static str,
        found: &'static str,
    },
    UnknownProtocol {
        protocol: String,
    },
    UnknownAction {
        action: String,
    },
    /// A node name that is not of the form `n<number>` (or `leader` where that is allowed).
    BadNodeName {
        text: String,
        node_count: usize,
        leader_allowed: bool,
    },
    NodeOutOfRange {
        node: String,
        node_count: usize,
    },
    /// A server number past the last server of a coordination world, whose other actors have names.
    NodeOutOfWorld {
        node: String,
        /// The accepted names, e.g. "n1..n3, A, B, store".
        expected: Box<str>,
    },
    /// A node name that is neither a server nor one of the other actors of a coordination world.
    UnknownNodeName {
        text: String,
        /// The accepted names, e.g. "n1..n3, A, B, store" (boxed to keep errors small).
        expected: Box<str>,
    },
    /// A table or key that only means something for another protocol.
    NeedsProtocol {
        protocol: &'static str,
    },
    /// A negative number where only zero or more makes sense (a duration, a count, a seed).
    Negative {
        value: i64,
        expected: String,
    },
    /// A number outside the bounds this key accepts.
    OutOfRange {
        value: String,
        expected: String,
    },
    /// `[min, max]` with min greater than max.
    InvertedRange {
        min: u64,
        max: u64,
    },
    /// A step scheduled after the end of the run.
    StepAfterDuration {
        at_ms: u64,
        duration_ms: u64,
    },
    /// A step earlier than the one before it: steps must be written in time order.
    StepOutOfOrder {
        at_ms: u64,
        previous_at_ms: u64,
    },
    /// The same node listed twice in a partition.
    DuplicateNode {
        node: String,
    },
    /// `cut` from a node to itself.
    CutToItself {
        node: String,
    },
    /// A link or a message from a node to itself.
    LinkToItself {
        node: String,
    },
    /// The scenario as a whole breaks a rule of the format (`Scenario::validate`).
    Invalid {
        problem: String,
    },
    /// A list with the wrong number of entries, or too many of something.
    WrongLength {
        expected: String,
        found: usize,
    },
}

impl fmt::Display for ScenarioErrorKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ScenarioErrorKind::*;
        match self {
            MalformedToml { message } => write!(formatter, "malformed TOML: {}", message.trim_end()),
            Invalid { problem } => write!(formatter, "{problem}"),
            UnknownKey { key, allowed } => {
                let hint = did_you_mean(key, allowed.iter().copied(), "key", KEYS_LISTED_IN);
                write!(formatter, "unknown key; {hint}")
            }
            MissingKey { needed_by } => write!(formatter, "missing (required by {needed_by})"),
            WrongType { expected, found } => write!(formatter, "expected {expected}, found {found}"),
            UnknownProtocol { protocol } => write!(
                formatter,
                "unknown protocol `{}`; {}",
                shown(protocol),
                did_you_mean(protocol, registry::names(), "protocol", KEYS_LISTED_IN)
            ),
            UnknownAction { action } => write!(
                formatter,
                "unknown action `{}`; {}",
                shown(action),
                did_you_mean(action, ACTION_NAMES.iter().copied(), "action", ACTIONS_LISTED_IN)
            ),
            BadNodeName { text, node_count, leader_allowed } => {
                let leader = if *leader_allowed { " or `leader`" } else { "" };
                write!(formatter, "`{}` is not a node name: expected n1..n{node_count}{leader}", shown(text))
            }
            UnknownNodeName { text, expected } => {
                write!(formatter, "`{}` is not a node name: expected {expected}", shown(text))
            }
            NeedsProtocol { protocol } => {
                write!(formatter, "only allowed with protocol = \"{protocol}\"")
            }
            NodeOutOfWorld { node, expected } => write!(
                formatter,
                "node `{}` is out of range (this world has {expected})",
                shown(node)
            ),
            NodeOutOfRange { node, node_count } => write!(
                formatter,
                "node `{}` is out of range (this cluster has n1..n{node_count})",
                shown(node)
            ),
            Negative { value, expected } => {
                write!(formatter, "{value} is negative: expected {expected}")
            }
            OutOfRange { value, expected } => {
                write!(formatter, "{} is out of range: expected {expected}", shown(value))
            }
            InvertedRange { min, max } => write!(formatter, "min {min} is greater than max {max}"),
            StepAfterDuration { at_ms, duration_ms } => write!(
                formatter,
                "at_ms {at_ms} is after the end of the run (duration_ms = {duration_ms})"
            ),
            StepOutOfOrder { at_ms, previous_at_ms } => write!(
                formatter,
                "at_ms {at_ms} is earlier than the previous step's at_ms {previous_at_ms}; write steps in time order"
            ),
            DuplicateNode { node } => write!(formatter, "node `{}` appears more than once", shown(node)),
            CutToItself { node } => write!(formatter, "cannot cut `{}` from itself", shown(node)),
            LinkToItself { node } => write!(formatter, "a link joins two different nodes; `{}` is named at both ends", shown(node)),
            WrongLength { expected, found } => write!(formatter, "expected {expected}, found {found}"),
        }
    }
}

/// Most characters of a user's own text an error repeats.
const MAX_SHOWN_CHARS: usize = 60;

/// Text from the input as an error shows it: control characters escaped and anything past
/// [`MAX_SHOWN_CHARS`] cut (saying how long it was), so an error stays one short line whatever it quotes.
pub fn shown(text: &str) -> String {
    let length = text.chars().count();
    let mut out: String = text
        .chars()
        .take(MAX_SHOWN_CHARS)
        .flat_map(|character| -> Box<dyn Iterator<Item = char>> {
            if character.is_control() {
                Box::new(character.escape_default())
            } else {
                Box::new(std::iter::once(character))
            }
        })
        .collect();
    if length > MAX_SHOWN_CHARS {
        out.push_str(&format!("… ({length} characters)"));
    }
    out
}

/// Where an error is, as every file error in Quorum Lab starts: `file:line:column: step N key `k`: `.
pub(crate) fn write_place(
    formatter: &mut fmt::Formatter<'_>,
    (file, line, column): (&str, u32, u32),
    step: Option<usize>,
    key: Option<&str>,
) -> fmt::Result {
    write!(formatter, "{}:{line}:{column}: ", shown(file))?;
    if let Some(step) = step {
        write!(formatter, "step {step} ")?;
    }
    if let Some(key) = key {
        write!(formatter, "key `{}`", shown(key))?;
    }
    if step.is_some() || key.is_some() {
        write!(formatter, ": ")?;
    }
    Ok(())
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = (self.file.as_str(), self.line, self.column);
        write_place(formatter, place, self.step, self.key.as_deref())?;
        write!(formatter, "{}", self.kind)
    }
}

impl std::error::Error for ScenarioError {}

/// The 1-based line and character column of byte `offset` in `text`.
pub(crate) fn line_and_column(text: &str, offset: usize) -> (u32, u32) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let column = before[line_start..].chars().count() + 1;
    (saturating_u32(line), saturating_u32(column))
}

fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_lines_and_characters() {
        let text = "a = 1\ntitle = \"é\" x\n";
        assert_eq!(line_and_column(text, 0), (1, 1));
        assert_eq!(line_and_column(text, 6), (2, 1));
        let after_accent = text.find(" x").unwrap() + 1;
        assert_eq!(line_and_column(text, after_accent), (2, 13));
    }

    #[test]
    fn display_names_file_place_step_and_key() {
        let error = ScenarioError {
            file: "demo.toml".into(),
            line: 12,
            column: 10,
            step: Some(3),
            key: Some("target".into()),
            kind: ScenarioErrorKind::NodeOutOfRange {
                node: "n9".into(),
                node_count: 5,
            },
        };
        assert_eq!(
            error.to_string(),
            "demo.toml:12:10: step 3 key `target`: node `n9` is out of range (this cluster has n1..n5)"
        );
    }
}
