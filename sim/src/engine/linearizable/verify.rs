//! Checking a claimed order, and finding one the slow way: the checker's own referee.
//!
//! [`replay`] takes an order of ops and checks it from scratch against the definition, without any
//! of the search's machinery: every op that ended well appears exactly once, no failed op appears,
//! an unknown op appears at most once, no op comes after one that began only after it had completed,
//! and the model accepts every answer in that order. A "linearizable" verdict is only worth its order,
//! so tests replay every order the search returns.
//!
//! [`brute_force`] decides small partitions by trying orders one by one, with no memo and no list
//! tricks: it grows an order op by op, keeping only prefixes that respect real time and the model, and
//! succeeds when every required op is in. It is exponential and refuses more than
//! [`BRUTE_FORCE_MAX_OPS`] ops; its worth is being too plain to share the search's mistakes.

use crate::contract::client_history::{Op, OpEnd, OpIndex};
use crate::contract::sequential::SequentialModel;

/// The most ops [`brute_force`] will try orders of (8! orders of 8 ops is 40,320).
pub const BRUTE_FORCE_MAX_OPS: usize = 8;

/// Why an order is no linearization of the given ops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The order names an op that is not among the given ones.
    NotInHistory(OpIndex),
    /// The op appears twice.
    Twice(OpIndex),
    /// The op failed, so it did not happen, yet the order places it.
    FailedPlaced(OpIndex),
    /// The op ended well but the order leaves it out.
    Missing(OpIndex),
    /// `later` completed before `earlier` was invoked, yet the order puts `earlier` first.
    RealTime { earlier: OpIndex, later: OpIndex },
    /// The model cannot give the op's recorded answer after the ops before it.
    Refused { op: OpIndex },
}

/// Checks that `order` is a linearization of `ops`, which are the ops of one partition.
pub fn replay<M: SequentialModel>(
    model: &M,
    ops: &[&Op],
    order: &[OpIndex],
) -> Result<(), ReplayError> {
    let find = |index: OpIndex| ops.iter().copied().find(|op| op.index == index);
    let mut placed: Vec<&Op> = Vec::with_capacity(order.len());
    for &index in order {
        let op = find(index).ok_or(ReplayError::NotInHistory(index))?;
        if placed.iter().any(|earlier| earlier.index == index) {
            return Err(ReplayError::Twice(index));
        }
        if matches!(op.end, OpEnd::Failed(_)) {
            return Err(ReplayError::FailedPlaced(index));
        }
        if let Some(earlier) = placed.iter().find(|earlier| op.precedes(earlier)) {
            return Err(ReplayError::RealTime {
                earlier: earlier.index,
                later: index,
            });
        }
        placed.push(op);
    }
    if let Some(missing) = ops
        .iter()
        .find(|op| op.end.is_required() && !order.contains(&op.index))
    {
        return Err(ReplayError::Missing(missing.index));
    }
    let mut state = model.initial();
    for op in placed {
        state = model
            .step(&state, &op.call, op.end.returned())
            .ok_or(ReplayError::Refused { op: op.index })?;
    }
    Ok(())
}

/// Too many ops for [`brute_force`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyOps(pub usize);

/// An order of `ops` (one partition's) that the model accepts, found by trying orders one by one;
/// `Ok(None)` when there is none. Failed ops are left out, as they did not happen.
pub fn brute_force<M: SequentialModel>(
    model: &M,
    ops: &[&Op],
) -> Result<Option<Vec<OpIndex>>, TooManyOps> {
    let candidates: Vec<&Op> = ops
        .iter()
        .copied()
        .filter(|op| !matches!(op.end, OpEnd::Failed(_)))
        .collect();
    if candidates.len() > BRUTE_FORCE_MAX_OPS {
        return Err(TooManyOps(candidates.len()));
    }
    let mut order = Vec::with_capacity(candidates.len());
    let found = extend(model, &candidates, &model.initial(), &mut order);
    Ok(found.then_some(order))
}

/// Tries every way to extend `order` (already accepted, ending in `state`) to one holding every
/// required op. Depth is at most [`BRUTE_FORCE_MAX_OPS`].
fn extend<M: SequentialModel>(
    model: &M,
    candidates: &[&Op],
    state: &M::State,
    order: &mut Vec<OpIndex>,
) -> bool {
    let all_required_in = candidates
        .iter()
        .all(|op| !op.end.is_required() || order.contains(&op.index));
    if all_required_in {
        return true;
    }
    for op in candidates {
        if order.contains(&op.index) {
            continue;
        }
        let respects_real_time = order.iter().all(|&earlier| {
            let earlier = candidates.iter().find(|c| c.index == earlier);
            earlier.is_none_or(|earlier| !op.precedes(earlier))
        });
        if !respects_real_time {
            continue;
        }
        if let Some(after) = model.step(state, &op.call, op.end.returned()) {
            order.push(op.index);
            if extend(model, candidates, &after, order) {
                return true;
            }
            order.pop();
        }
    }
    false
}
