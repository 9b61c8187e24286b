//! The fenced store as the lock service's holders should see it: one register per account, taken in
//! token order (the store is `protocols::resource`; the promise is the lock's, so the model lives here).
//!
//! A lock is there so that one holder at a time works on the store. Seen from the store's clients,
//! that promise is a sequential model: every access the store accepts carries a fencing token no lower
//! than any token of an access it accepted before, so the accepted accesses line up in the order the
//! lock service handed the lock out, and reads return what the last accepted write wrote. A store
//! that checks tokens keeps the promise by refusing the rest (a refusal is known not to have
//! happened, so the checker leaves it out). A store that takes any write breaks it as soon as a
//! holder that lost its lock without knowing it writes after its successor: no order of the
//! accepted accesses both respects real time and keeps the tokens in order.
//!
//! The store's first value is not part of the history, so the model learns it from the first read
//! it places; the checker tries every order, so that is no guess. An access of unknown outcome takes
//! effect only if its token is still current, as it would at a store that fences.

use crate::base::units::FencingToken;
use crate::contract::client_history::{OpCall, OpReturn};
use crate::contract::sequential::{RegisterRole, SequentialModel};

/// The sequential fenced store.
#[derive(Clone, Copy, Debug, Hash, Default)]
pub struct FencedStoreModel;

/// The one instance the registry hands out.
pub static FENCED_STORE_MODEL: FencedStoreModel = FencedStoreModel;

/// One account: its value (`None` until a read or write places one) and the highest token accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Account {
    pub value: Option<u64>,
    pub highest_token: Option<FencingToken>,
}

impl SequentialModel for FencedStoreModel {
    type State = Account;

    fn name(&self) -> &'static str {
        "fenced store"
    }

    fn initial(&self) -> Account {
        Account::default()
    }

    fn judges(&self, call: &OpCall) -> bool {
        matches!(call, OpCall::Access { .. })
    }

    fn partition(&self, call: &OpCall) -> u64 {
        match call {
            OpCall::Access { account, .. } => u64::from(*account),
            _ => 0,
        }
    }

    fn step(&self, state: &Account, call: &OpCall, returned: Option<&OpReturn>) -> Option<Account> {
        let OpCall::Access { token, write, .. } = *call else {
            return None;
        };
        let current = state.highest_token.is_none_or(|highest| token >= highest);
        let accepted = Account {
            value: write.or(state.value),
            highest_token: Some(token),
        };
        match (write, returned) {
            // Nobody saw the answer: a fencing store would have refused a stale token.
            (_, None) => Some(if current { accepted } else { *state }),
            (Some(_), Some(OpReturn::Written)) => current.then_some(accepted),
            (None, Some(OpReturn::Value(seen))) => {
                let agrees = state.value.is_none_or(|value| value == *seen);
                let read = Account {
                    value: Some(*seen),
                    highest_token: Some(token),
                };
                (current && agrees).then_some(read)
            }
            _ => None,
        }
    }

    /// Each account is a register, which lets the checker leave out accesses of unknown outcome
    /// nobody read and shrink a refusal to its witness. Leaving one out chooses "it never took
    /// effect", which only ever makes this model more permissive: an access can raise the token
    /// that later ones must reach, never lower it.
    fn register_role(&self, call: &OpCall, returned: Option<&OpReturn>) -> Option<RegisterRole> {
        match call {
            OpCall::Access {
                write: Some(value), ..
            } => Some(RegisterRole::Write { value: *value }),
            OpCall::Access { write: None, .. } => {
                let saw = match returned {
                    Some(OpReturn::Value(value)) => Some(*value),
                    _ => None,
                };
                Some(RegisterRole::Read { saw })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(token: u64, write: Option<u64>) -> OpCall {
        OpCall::Access {
            account: 0,
            token: FencingToken(token),
            write,
            key: 1,
            idempotent: false,
        }
    }

    #[test]
    fn accepted_accesses_keep_their_tokens_in_order() {
        let model = FENCED_STORE_MODEL;
        let start = model.initial();
        let read = model.step(&start, &access(2, None), Some(&OpReturn::Value(1_000)));
        let read = read.expect("a first read places the value");
        assert_eq!(read.value, Some(1_000));
        let written = model.step(&read, &access(2, Some(999)), Some(&OpReturn::Written));
        let written = written.expect("the holder writes");
        let stale = model.step(&written, &access(1, Some(999)), Some(&OpReturn::Written));
        assert_eq!(stale, None, "an older token's write after a newer one");
        let wrong = model.step(&written, &access(3, None), Some(&OpReturn::Value(1_000)));
        assert_eq!(wrong, None, "a read returns the last write");
        let unknown_stale = model.step(&written, &access(1, Some(5)), None);
        assert_eq!(unknown_stale, Some(written), "would have been refused");
        assert_eq!(
            model
                .step(&written, &access(3, Some(5)), None)
                .unwrap()
                .value,
            Some(5)
        );
        assert!(!model.judges(&OpCall::Job { account: 0 }));
    }
}
