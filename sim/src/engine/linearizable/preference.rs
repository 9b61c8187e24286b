//! Which ops the search tries first when several could come next, for register models.
//!
//! The walk of Wing and Gong tries the ops at its front in list order, and any order of trying is
//! correct as long as a choice made out of list order sends the walk back to the front when it is
//! undone. The order matters for speed alone, and for a register it matters a great deal: when many
//! writes are open at once, list order places them oldest first, while the reads that follow usually
//! need some other write to have been last. Undoing the wrong guesses one subset at a time is
//! exponential in the open writes, memo or not.
//!
//! Two preferences, both only for models that say which calls read and which write what
//! (`SequentialModel::register_role`):
//!
//! - a **read** the current state explains goes first: it changes nothing, and nothing unplaced has to
//!   precede an op at the front, so if the rest has an order, it has one with this read next;
//! - then a **write no unplaced read returns** (a dead write): its value is never needed again, so it
//!   is best out of the way before the writes whose values the remaining reads wait for.

use crate::contract::client_history::Op;
use crate::contract::sequential::{RegisterRole, SequentialModel};
use rustc_hash::FxHashMap;

/// What each op of a search is to a register, and how many unplaced required reads still wait for
/// each written value.
pub struct Preference {
    roles: Vec<Option<RegisterRole>>,
    required: Vec<bool>,
    readers_left: FxHashMap<u64, u32>,
}

impl Preference {
    /// For the search's ops, in its order.
    pub fn new<M: SequentialModel>(model: &M, ops: &[&Op]) -> Preference {
        let roles: Vec<Option<RegisterRole>> = ops
            .iter()
            .map(|op| model.register_role(&op.call, op.end.returned()))
            .collect();
        let required: Vec<bool> = ops.iter().map(|op| op.end.is_required()).collect();
        let mut readers_left: FxHashMap<u64, u32> = FxHashMap::default();
        for (role, required) in roles.iter().zip(&required) {
            if let (Some(RegisterRole::Read { saw: Some(value) }), true) = (role, required) {
                *readers_left.entry(*value).or_default() += 1;
            }
        }
        Preference {
            roles,
            required,
            readers_left,
        }
    }

    pub fn is_read(&self, place: usize) -> bool {
        matches!(self.roles[place], Some(RegisterRole::Read { .. }))
    }

    /// A write whose value no unplaced required read returns.
    pub fn is_dead_write(&self, place: usize) -> bool {
        match self.roles[place] {
            Some(RegisterRole::Write { value }) => {
                self.readers_left.get(&value).copied().unwrap_or(0) == 0
            }
            _ => false,
        }
    }

    /// Notes that op `place` was placed (`true`) or taken back (`false`).
    pub fn set_placed(&mut self, place: usize, placed: bool) {
        let Some(RegisterRole::Read { saw: Some(value) }) = self.roles[place] else {
            return;
        };
        if !self.required[place] {
            return;
        }
        let waiting = self.readers_left.entry(value).or_default();
        if placed {
            *waiting -= 1;
        } else {
            *waiting += 1;
        }
    }
}
