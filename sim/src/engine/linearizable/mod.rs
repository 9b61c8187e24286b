//! Is what the clients saw linearizable? A check of a client history against a sequential model.
//!
//! A history is linearizable when its ops can be put in one order that respects real time (an op that
//! completed before another began comes first) and in which the model gives every answer the clients
//! received. It is the promise a replicated store makes when it says it behaves like one copy: no
//! client ever sees it go back in time, whatever crashed, paused or drifted inside.
//!
//! [`check`] does it in four moves:
//!
//! 1. **Validate.** A malformed history (ops out of number, a completion before its invocation, two
//!    events at one log position) gets a [`HistoryError`] and no verdict.
//! 2. **Partition.** The ops the model judges are grouped by the model's partition key (a key of a
//!    key-value store). Linearizability is local, so each part is checked on its own and the history
//!    is linearizable exactly when every part is. Failed ops are dropped here: the service refused
//!    them before doing anything, so they did not happen.
//! 3. **Search** each part ([`search`]), within a [`Budget`], after leaving out the unknown ops that
//!    cannot change its verdict ([`prune`]).
//! 4. **Verdict.** A refused part makes the history not linearizable, whatever the others say (the
//!    parts are independent, so one refusal is a fact on its own); otherwise a part that reached a
//!    bound makes it undecided; otherwise it is linearizable, with one order per part.
//!
//! [`verify`] holds the plain referee the tests hold the search to; [`witness`] shrinks a refusal to
//! the few ops that show it.

pub mod budget;
pub mod edn_lines;
pub mod export;
pub mod import;
pub mod models;
pub mod preference;
pub mod prune;
pub mod search;
pub mod verify;
pub mod witness;

use crate::contract::client_history::{Op, OpEnd, OpIndex};
use crate::contract::sequential::SequentialModel;
pub use budget::{Bound, Budget};
pub use search::{Outcome, Progress, Search};
use std::collections::{BTreeMap, BTreeSet};

/// What the search found for one part of a history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionCheck {
    /// The model's partition key.
    pub partition: u64,
    /// Ops searched (failed ones, and unknown ones that cannot matter, left out).
    pub ops: usize,
    /// Model steps tried.
    pub explored: u64,
    pub outcome: Outcome,
}

/// The verdict over a whole history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Linearizable,
    /// The first refused part, by partition key.
    Refused {
        partition: u64,
    },
    /// No part refused, and this one (the first, by key) reached a bound.
    Undecided {
        partition: u64,
        bound: Bound,
    },
}

/// A whole check: one entry per part, in partition-key order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub model: &'static str,
    pub partitions: Vec<PartitionCheck>,
}

impl Check {
    pub fn verdict(&self) -> Verdict {
        let refused = self
            .partitions
            .iter()
            .find(|part| matches!(part.outcome, Outcome::Refused { .. }));
        if let Some(part) = refused {
            return Verdict::Refused {
                partition: part.partition,
            };
        }
        let undecided = self.partitions.iter().find_map(|part| match part.outcome {
            Outcome::Undecided { bound } => Some(Verdict::Undecided {
                partition: part.partition,
                bound,
            }),
            _ => None,
        });
        undecided.unwrap_or(Verdict::Linearizable)
    }

    /// The first refused part, with the op that could not be placed and the longest partial order
    /// found before it.
    pub fn refusal(&self) -> Option<(&PartitionCheck, OpIndex, &[OpIndex])> {
        self.partitions.iter().find_map(|part| match &part.outcome {
            Outcome::Refused { stuck, longest } => Some((part, *stuck, longest.as_slice())),
            _ => None,
        })
    }

    /// Model steps tried over all parts.
    pub fn explored(&self) -> u64 {
        self.partitions.iter().map(|part| part.explored).sum()
    }
}

/// Why a history cannot be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryError {
    /// Op `found` sits at place `place` of the list; ops must be numbered by their place.
    Numbering { place: usize, found: OpIndex },
    /// An op that ended well or failed has no completion.
    NoCompletion(OpIndex),
    /// An op completed at a log position not after its invocation.
    CompletedBeforeInvoked(OpIndex),
    /// Two events share a log position (or one uses the reserved last position).
    Position { position: u64, op: OpIndex },
}

impl std::fmt::Display for HistoryError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HistoryError::Numbering { place, found } => {
                write!(
                    formatter,
                    "op {found} sits at place {place}; number ops by their place"
                )
            }
            HistoryError::NoCompletion(op) => {
                write!(formatter, "op {op} ended but has no completion instant")
            }
            HistoryError::CompletedBeforeInvoked(op) => {
                write!(formatter, "op {op} completes at or before its invocation")
            }
            HistoryError::Position { position, op } => {
                write!(formatter, "op {op} reuses log position {position}")
            }
        }
    }
}

/// Checks that the ops are numbered by place, that ended ops have a completion after their
/// invocation, and that no two events share a log position.
pub fn validate(ops: &[Op]) -> Result<(), HistoryError> {
    let mut positions = BTreeSet::new();
    for (place, op) in ops.iter().enumerate() {
        if op.index as usize != place {
            return Err(HistoryError::Numbering {
                place,
                found: op.index,
            });
        }
        let unknown = matches!(op.end, OpEnd::Unknown(_));
        if op.completed.is_none() && !unknown {
            return Err(HistoryError::NoCompletion(op.index));
        }
        let events = [Some(op.invoked), op.completed];
        for instant in events.into_iter().flatten() {
            if instant.position == u64::MAX || !positions.insert(instant.position) {
                return Err(HistoryError::Position {
                    position: instant.position,
                    op: op.index,
                });
            }
        }
        if op
            .completed
            .is_some_and(|completed| completed.position <= op.invoked.position)
        {
            return Err(HistoryError::CompletedBeforeInvoked(op.index));
        }
    }
    Ok(())
}

/// The ops the model judges, failed ones left out, grouped by partition key.
pub fn partitions<'a, M: SequentialModel>(model: &M, ops: &'a [Op]) -> BTreeMap<u64, Vec<&'a Op>> {
    let mut parts: BTreeMap<u64, Vec<&Op>> = BTreeMap::new();
    let judged = ops
        .iter()
        .filter(|op| model.judges(&op.call) && !matches!(op.end, OpEnd::Failed(_)));
    for op in judged {
        parts.entry(model.partition(&op.call)).or_default().push(op);
    }
    parts
}

/// Checks a whole history against `model`, each part within `budget`, after leaving out the unknown
/// ops that cannot change the verdict ([`prune`]).
pub fn check<M: SequentialModel>(
    model: &M,
    ops: &[Op],
    budget: Budget,
) -> Result<Check, HistoryError> {
    check_parts(model, ops, budget, true)
}

/// [`check`] with every unknown op left in: the same verdict, by a longer search (for tests that
/// hold the pruning to that).
pub fn check_unpruned<M: SequentialModel>(
    model: &M,
    ops: &[Op],
    budget: Budget,
) -> Result<Check, HistoryError> {
    check_parts(model, ops, budget, false)
}

fn check_parts<M: SequentialModel>(
    model: &M,
    ops: &[Op],
    budget: Budget,
    pruned: bool,
) -> Result<Check, HistoryError> {
    validate(ops)?;
    let partitions = partitions(model, ops)
        .into_iter()
        .map(|(partition, part)| {
            let part = if pruned {
                prune::prune(model, part)
            } else {
                part
            };
            let mut search = Search::new(model, &part, budget);
            let outcome = search.run();
            PartitionCheck {
                partition,
                ops: part.len(),
                explored: search.explored(),
                outcome,
            }
        })
        .collect();
    Ok(Check {
        model: model.name(),
        partitions,
    })
}
