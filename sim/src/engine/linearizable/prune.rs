//! Leaving out the ops of unknown outcome that cannot change a register's verdict, before searching.
//!
//! An op whose client never learned how it ended may have taken effect at any moment after it was
//! invoked, or never, so the search has to try it everywhere. Each such op is concurrent with every op
//! that follows it, and the search space doubles with every one of them. For a model that is one
//! register per partition ([`SequentialModel::register_role`]), two kinds can go without a search:
//!
//! - an unknown **read** changes nothing and nobody saw its answer: no order needs it;
//! - an unknown **write** whose value no finished read returned. Take any order that places it: no op
//!   between it and the next write can be a read (that read would have returned its value), so the
//!   order without it is still accepted. And an order without it is allowed, since "never" is one of
//!   the things an unknown write may have done. So the history is linearizable with it exactly when it
//!   is without it.
//!
//! Every other unknown op stays, optional, for the search to place or leave out. Models that give no
//! register role keep all their ops.

use crate::contract::client_history::{Op, OpEnd};
use crate::contract::sequential::{RegisterRole, SequentialModel};
use std::collections::BTreeSet;

/// `part` without the unknown ops that cannot matter, in the same order.
pub fn prune<'a, M: SequentialModel>(model: &M, part: Vec<&'a Op>) -> Vec<&'a Op> {
    let seen: BTreeSet<u64> = part
        .iter()
        .filter(|op| op.end.is_required())
        .filter_map(
            |op| match model.register_role(&op.call, op.end.returned()) {
                Some(RegisterRole::Read { saw: Some(value) }) => Some(value),
                _ => None,
            },
        )
        .collect();
    part.into_iter()
        .filter(|op| {
            if !matches!(op.end, OpEnd::Unknown(_)) {
                return true;
            }
            match model.register_role(&op.call, None) {
                Some(RegisterRole::Read { .. }) => false,
                Some(RegisterRole::Write { value }) => seen.contains(&value),
                None => true,
            }
        })
        .collect()
}
