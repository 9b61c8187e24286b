//! A sequential model: what a service would answer if it handled one operation at a time.
//!
//! Linearizability asks whether the concurrent history the clients saw could have come from such a
//! one-at-a-time service: whether some order of the ops, consistent with real time, makes every
//! answer the one the model gives. The checker (`engine::linearizable`) searches for that order; the
//! model only has to say, for one op in one state, whether the op's recorded answer is possible and
//! what state follows.
//!
//! Three things make a model:
//!
//! - a `State`, small and cheap to compare, because the checker remembers every (set of placed ops,
//!   state) pair it has already tried and never tries it twice;
//! - [`SequentialModel::step`], which gets the answer the client saw (`Some`) or nothing when the
//!   outcome is unknown: then the op's effect is applied and no answer is checked, since nobody saw one;
//! - [`SequentialModel::partition`], which splits a history into independent parts. Linearizability is
//!   local: a history is linearizable when each key's ops are, on their own. Checking keys apart keeps
//!   the search small; a model whose ops interact across keys returns one partition for all of them.
//!
//! `step` must be a pure function of its arguments. The checker counts its own work and stops at its
//! budget; a model must never refuse a step to cut a search short, because a refusal is read as "this
//! answer is impossible" and would turn a bound into a false verdict.

use crate::contract::client_history::{OpCall, OpReturn};
use std::fmt::Debug;
use std::hash::Hash;

/// A one-at-a-time specification of a service, judged against client histories.
pub trait SequentialModel {
    /// Everything the next answer can depend on.
    type State: Clone + Eq + Hash + Debug;

    /// The model's name, for people ("key-value store").
    fn name(&self) -> &'static str;

    /// The state before any op.
    fn initial(&self) -> Self::State;

    /// Whether the model has anything to say about this call; other calls are left out of its check.
    fn judges(&self, call: &OpCall) -> bool;

    /// Which independent part of the history the call belongs to (a key); 0 for a model of one part.
    fn partition(&self, call: &OpCall) -> u64;

    /// The state after `call` in `state`, or `None` when the recorded answer `returned` cannot be
    /// given in that state. `returned` is `None` for an op whose outcome is unknown: apply its effect
    /// and check nothing.
    fn step(
        &self,
        state: &Self::State,
        call: &OpCall,
        returned: Option<&OpReturn>,
    ) -> Option<Self::State>;

    /// For a model where each partition is one register: whether `call` writes a value or reads one,
    /// and the value a finished read saw. The checker uses it to leave out ops of unknown outcome that
    /// cannot matter (see `engine::linearizable::prune`). `None`, the default, leaves every op in.
    fn register_role(&self, _call: &OpCall, _returned: Option<&OpReturn>) -> Option<RegisterRole> {
        None
    }
}

/// What an op does to a register, for a model that is one register per partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterRole {
    /// Sets the register to `value`.
    Write { value: u64 },
    /// Reads it; `saw` is the value returned, `None` for "nothing written" or an unknown answer.
    Read { saw: Option<u64> },
}
