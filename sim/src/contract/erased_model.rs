//! A sequential model behind a plain reference, so a world's folder can hand its models to the engine.
//!
//! [`SequentialModel`] names its state as an associated type, which is what keeps a model's steps
//! cheap and its states comparable without boxing. It also means a model cannot sit behind `dyn`: the
//! registry's parts hook, which must return the models of whatever world it is asked about, has no
//! single type to name. [`DynModel`] is the same model with the state's type hidden in an
//! [`ErasedState`], and every `SequentialModel` is a `DynModel` through a blanket impl. [`Erased`]
//! turns a `&dyn DynModel` back into a `SequentialModel` the checker can search with.
//!
//! The price is one small allocation per model step, paid only on the path through the hook; a
//! caller holding the concrete model (tests, benchmarks) still searches without it. Equality and
//! hashing go through the concrete state, so the checker's memo of seen (ops placed, state) pairs
//! behaves exactly as it does on the concrete model.

use crate::contract::client_history::{OpCall, OpReturn};
use crate::contract::sequential::{RegisterRole, SequentialModel};
use std::any::Any;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// What a hidden state must still do: be compared, hashed and shown.
trait AnyState: Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn equals(&self, other: &dyn AnyState) -> bool;
    fn hash_into(&self, hasher: &mut dyn Hasher);
}

impl<S: Eq + Hash + Debug + Send + Sync + 'static> AnyState for S {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn equals(&self, other: &dyn AnyState) -> bool {
        other.as_any().downcast_ref::<S>() == Some(self)
    }

    fn hash_into(&self, mut hasher: &mut dyn Hasher) {
        self.hash(&mut hasher);
    }
}

/// A model state whose type is known only to the model that made it.
#[derive(Clone, Debug)]
pub struct ErasedState(Arc<dyn AnyState>);

impl PartialEq for ErasedState {
    fn eq(&self, other: &ErasedState) -> bool {
        self.0.equals(&*other.0)
    }
}

impl Eq for ErasedState {}

impl Hash for ErasedState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash_into(state);
    }
}

/// A [`SequentialModel`] with its state type hidden, so it can be named as `&dyn DynModel`.
pub trait DynModel: Sync {
    fn name(&self) -> &'static str;
    fn judges(&self, call: &OpCall) -> bool;
    fn partition(&self, call: &OpCall) -> u64;
    fn initial_erased(&self) -> ErasedState;
    /// `None` as for [`SequentialModel::step`]; a state made by another model is refused too.
    fn step_erased(
        &self,
        state: &ErasedState,
        call: &OpCall,
        returned: Option<&OpReturn>,
    ) -> Option<ErasedState>;
    fn register_role(&self, call: &OpCall, returned: Option<&OpReturn>) -> Option<RegisterRole>;
}

impl<M> DynModel for M
where
    M: SequentialModel + Sync,
    M::State: Send + Sync + 'static,
{
    fn name(&self) -> &'static str {
        SequentialModel::name(self)
    }

    fn judges(&self, call: &OpCall) -> bool {
        SequentialModel::judges(self, call)
    }

    fn partition(&self, call: &OpCall) -> u64 {
        SequentialModel::partition(self, call)
    }

    fn initial_erased(&self) -> ErasedState {
        ErasedState(Arc::new(self.initial()))
    }

    fn step_erased(
        &self,
        state: &ErasedState,
        call: &OpCall,
        returned: Option<&OpReturn>,
    ) -> Option<ErasedState> {
        // Only this model's own states reach it through `Erased`; anything else has no meaning here.
        let state = state.0.as_any().downcast_ref::<M::State>()?;
        let after = self.step(state, call, returned)?;
        Some(ErasedState(Arc::new(after)))
    }

    fn register_role(&self, call: &OpCall, returned: Option<&OpReturn>) -> Option<RegisterRole> {
        SequentialModel::register_role(self, call, returned)
    }
}

/// A `&dyn DynModel` as a [`SequentialModel`] the checker can search with.
#[derive(Clone, Copy)]
pub struct Erased<'a>(pub &'a dyn DynModel);

impl SequentialModel for Erased<'_> {
    type State = ErasedState;

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn initial(&self) -> ErasedState {
        self.0.initial_erased()
    }

    fn judges(&self, call: &OpCall) -> bool {
        self.0.judges(call)
    }

    fn partition(&self, call: &OpCall) -> u64 {
        self.0.partition(call)
    }

    fn step(
        &self,
        state: &ErasedState,
        call: &OpCall,
        returned: Option<&OpReturn>,
    ) -> Option<ErasedState> {
        self.0.step_erased(state, call, returned)
    }

    fn register_role(&self, call: &OpCall, returned: Option<&OpReturn>) -> Option<RegisterRole> {
        self.0.register_role(call, returned)
    }
}
