//! Why a setting breaks the rules, as a value naming the field (`locks.workers is 30; expected 1..=26`).
//! It sits low so the rule that decides a world's size (`coordination::servers_fit`) and the scenario's
//! full rule set (`Scenario::validate`) speak one language, which share links and trace files show.

use std::fmt;

/// Why a scenario (or one action) breaks the format's rules. `node` numbers are one-based, as shown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Invalid {
    OutOfRange {
        field: String,
        value: String,
        expected: String,
    },
    NodeOutOfRange {
        field: String,
        node: u64,
        node_count: usize,
    },
    TooMany {
        field: String,
        count: u64,
        max: u64,
    },
    InvertedRange {
        field: String,
        min: u64,
        max: u64,
    },
    OutOfOrder {
        field: String,
        previous: u64,
        found: u64,
    },
    DuplicateNode {
        field: String,
        node: u64,
    },
    CutToItself {
        field: String,
        node: u64,
    },
    /// A link (or a message) whose two ends are one node.
    LinkToItself {
        field: String,
        node: u64,
    },
}

impl fmt::Display for Invalid {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::OutOfRange {
                field,
                value,
                expected,
            } => write!(formatter, "{field} is {value}; expected {expected}"),
            Invalid::NodeOutOfRange {
                field,
                node,
                node_count,
            } => write!(
                formatter,
                "{field}: node n{node} does not exist (this cluster has n1..n{node_count})"
            ),
            Invalid::TooMany { field, count, max } => {
                write!(
                    formatter,
                    "{field}: {count} is more than the limit of {max}"
                )
            }
            Invalid::InvertedRange { field, min, max } => {
                write!(formatter, "{field}: min {min} is greater than max {max}")
            }
            Invalid::OutOfOrder {
                field,
                previous,
                found,
            } => write!(
                formatter,
                "{field} goes back in time ({found} after {previous})"
            ),
            Invalid::DuplicateNode { field, node } => {
                write!(formatter, "{field}: node n{node} appears more than once")
            }
            Invalid::CutToItself { field, node } => {
                write!(formatter, "{field}: cannot cut n{node} from itself")
            }
            Invalid::LinkToItself { field, node } => {
                write!(
                    formatter,
                    "{field}: a link joins two different nodes, not n{node} to itself"
                )
            }
        }
    }
}

impl std::error::Error for Invalid {}
