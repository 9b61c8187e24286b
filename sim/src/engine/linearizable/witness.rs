//! The smallest part of a refused history that is refused on its own: what a person needs to see.
//!
//! A refusal of a part with hundreds of ops is a fact nobody can check by eye. For a register model
//! ([`SequentialModel::register_role`]) the part can be shrunk by removals that cannot turn a
//! linearizable history into a refused one, so whatever is left and still refused is a witness for the
//! whole. Two kinds of removal are safe:
//!
//! - any **read** (a linearization of the rest is the old one with the read left out);
//! - any **write whose value no remaining read returned** (as in `prune`: no op can sit between it and
//!   the next write, so leaving it out changes no answer).
//!
//! [`shrink`] removes greedily, reads first and then writes, newest first, keeping each removal after
//! which the search still refuses. The result is minimal for single removals: taking out any one more
//! op (safely) gives a history with an order. The usual anomalies come out as two or three ops, which
//! [`Pattern`] names: a value nobody wrote, a read of the future, a stale read, a new value seen then
//! an old one.

use super::budget::Budget;
use super::search::{Outcome, Search};
use crate::contract::client_history::{Op, OpEnd, OpIndex};
use crate::contract::sequential::{RegisterRole, SequentialModel};

/// Largest part [`shrink`] works on: each removal tried is one search.
pub const MAX_SHRINK_OPS: usize = 400;

/// The shape of a witness, with its ops in the order the sentence names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// `read` returned a value no remaining write wrote (maybe only a failed one did).
    NeverWritten { read: OpIndex },
    /// `read` returned `write`'s value but completed before `write` began.
    Future { read: OpIndex, write: OpIndex },
    /// `read` began after `newer` returned, yet returned `older`'s value (`older` returned before
    /// `newer` began), or nothing at all (`older` is `None`).
    Stale {
        read: OpIndex,
        newer: OpIndex,
        older: Option<OpIndex>,
    },
    /// `second` began after `first` returned `newer`'s value, yet returned `older`'s value (or nothing).
    NewThenOld {
        first: OpIndex,
        second: OpIndex,
        newer: OpIndex,
        older: Option<OpIndex>,
    },
    /// None of the above: the ops, in history order.
    Other { ops: Vec<OpIndex> },
}

/// A minimal refused sub-history of `part` (one refused partition's ops, pruned or not), in history
/// order; `None` when the model is no register, the part is larger than [`MAX_SHRINK_OPS`], or the
/// part is not refused within `budget`.
pub fn shrink<M: SequentialModel>(model: &M, part: &[&Op], budget: Budget) -> Option<Vec<OpIndex>> {
    let is_register = part
        .iter()
        .all(|op| model.register_role(&op.call, None).is_some());
    if !is_register || part.len() > MAX_SHRINK_OPS || !refused(model, part, budget) {
        return None;
    }
    let mut kept: Vec<&Op> = part.to_vec();
    let is_read = |op: &Op| {
        matches!(
            model.register_role(&op.call, None),
            Some(RegisterRole::Read { .. })
        )
    };
    for reads_pass in [true, false] {
        let mut place = kept.len();
        while place > 0 {
            place -= 1;
            let op = kept[place];
            if is_read(op) != reads_pass || (!reads_pass && is_read_by(model, &kept, op)) {
                continue;
            }
            let mut trial = kept.clone();
            trial.remove(place);
            if refused(model, &trial, budget) {
                kept = trial;
            }
        }
    }
    Some(kept.iter().map(|op| op.index).collect())
}

fn refused<M: SequentialModel>(model: &M, ops: &[&Op], budget: Budget) -> bool {
    matches!(
        Search::new(model, ops, budget).run(),
        Outcome::Refused { .. }
    )
}

/// Whether some finished read among `ops` returned the value `write` wrote.
fn is_read_by<M: SequentialModel>(model: &M, ops: &[&Op], write: &Op) -> bool {
    let Some(RegisterRole::Write { value }) = model.register_role(&write.call, None) else {
        return false;
    };
    ops.iter().any(|op| {
        op.end.is_required()
            && model.register_role(&op.call, op.end.returned())
                == Some(RegisterRole::Read { saw: Some(value) })
    })
}

/// Names the shape of `witness` (ops of `ops`, the whole history, by index).
pub fn pattern<M: SequentialModel>(model: &M, ops: &[Op], witness: &[OpIndex]) -> Pattern {
    let members: Vec<&Op> = witness.iter().map(|index| &ops[*index as usize]).collect();
    let role = |op: &Op| model.register_role(&op.call, op.end.returned());
    let mut reads: Vec<(&Op, Option<u64>)> = Vec::new();
    let mut writes: Vec<(&Op, u64)> = Vec::new();
    for op in &members {
        match role(op) {
            Some(RegisterRole::Read { saw }) if op.end.is_required() => reads.push((op, saw)),
            Some(RegisterRole::Write { value }) => writes.push((op, value)),
            _ => {}
        }
    }
    let writer = |value: Option<u64>| {
        value.and_then(|value| {
            writes
                .iter()
                .find(|(_, wrote)| *wrote == value)
                .map(|(op, _)| *op)
        })
    };
    let other = Pattern::Other {
        ops: witness.to_vec(),
    };
    match (reads.as_slice(), writes.as_slice()) {
        ([(read, Some(_))], []) => Pattern::NeverWritten { read: read.index },
        ([(read, saw)], [(write, _)]) if writer(*saw).is_some() && read.precedes(write) => {
            Pattern::Future {
                read: read.index,
                write: write.index,
            }
        }
        ([(read, None)], [(newer, _)]) if newer.precedes(read) => Pattern::Stale {
            read: read.index,
            newer: newer.index,
            older: None,
        },
        ([(read, saw)], [_, _]) => stale(read, writer(*saw), &writes).unwrap_or(other),
        ([(first, seen_first), (second, seen_second)], _) => {
            let (first, second, newer, older) = if first.precedes(second) {
                (first, second, seen_first, seen_second)
            } else {
                (second, first, seen_second, seen_first)
            };
            match (writer(*newer), writer(*older)) {
                (Some(newer), older) if first.precedes(second) && writes.len() <= 2 => {
                    Pattern::NewThenOld {
                        first: first.index,
                        second: second.index,
                        newer: newer.index,
                        older: older.map(|op| op.index),
                    }
                }
                _ => other,
            }
        }
        _ => other,
    }
}

/// A stale read among exactly two writes: the one it read returned before the other began, which
/// returned before the read began.
fn stale(read: &Op, older: Option<&Op>, writes: &[(&Op, u64)]) -> Option<Pattern> {
    let older = older?;
    let (newer, _) = writes.iter().find(|(op, _)| op.index != older.index)?;
    let ordered = older.precedes(newer) && newer.precedes(read);
    let known = !matches!(newer.end, OpEnd::Unknown(_));
    (ordered && known).then_some(Pattern::Stale {
        read: read.index,
        newer: newer.index,
        older: Some(older.index),
    })
}
