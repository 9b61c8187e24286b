//! The lock service as its clients should see it: one lock per key, handed out with growing tokens.
//!
//! A lease-backed lock is not a plain mutex seen from outside: a lease can run out with no client
//! doing anything, and then the service may hand the lock to someone else. So the model lets a grant
//! happen at any moment, whoever held the lock before, and asks what a client can check: every grant
//! carries a token higher than every grant before it (the token is the lock's revision), in an order
//! that respects real time. The newest grant told again to the client it went to changes nothing.
//!
//! Releases are recorded and drawn but not judged: a client also gives back grants the history never
//! showed it as answers (a grant pushed for a lease whose "queued" answer was lost, or replayed by a
//! new leader), so whether "you held it" was the right answer is not a question the history alone
//! can settle. An acquire of unknown outcome may have been granted with a token nobody saw: placing
//! it changes nothing, since an unseen token cannot conflict with one seen later.

use crate::base::units::FencingToken;
use crate::contract::client_history::{LockCall, OpCall, OpReturn};
use crate::contract::sequential::SequentialModel;

/// The sequential lock service.
#[derive(Clone, Copy, Debug, Hash, Default)]
pub struct LockModel;

/// The one instance the registry hands out.
pub static LOCK_MODEL: LockModel = LockModel;

/// One lock: the highest token granted and the client (a node number) it went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LockState {
    pub highest_token: Option<FencingToken>,
    pub granted_to: Option<u16>,
}

impl SequentialModel for LockModel {
    type State = LockState;

    fn name(&self) -> &'static str {
        "lock"
    }

    fn initial(&self) -> LockState {
        LockState::default()
    }

    /// Releases are recorded and drawn, never judged (see above).
    fn judges(&self, call: &OpCall) -> bool {
        matches!(call, OpCall::Lock(LockCall::Acquire { .. }))
    }

    fn partition(&self, call: &OpCall) -> u64 {
        match call {
            OpCall::Lock(LockCall::Acquire { lock, .. } | LockCall::Release { lock, .. }) => {
                u64::from(*lock)
            }
            _ => 0,
        }
    }

    fn step(
        &self,
        state: &LockState,
        call: &OpCall,
        returned: Option<&OpReturn>,
    ) -> Option<LockState> {
        let OpCall::Lock(call) = *call else {
            return None;
        };
        match (call, returned) {
            (LockCall::Acquire { .. }, None) => Some(*state),
            (LockCall::Acquire { client, .. }, Some(OpReturn::Granted(token))) => {
                let told_again =
                    state.highest_token == Some(*token) && state.granted_to == Some(client);
                let newer = state.highest_token.is_none_or(|highest| *token > highest);
                (told_again || newer).then_some(LockState {
                    highest_token: Some(*token),
                    granted_to: Some(client),
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acquire(client: u16) -> OpCall {
        OpCall::Lock(LockCall::Acquire { lock: 0, client })
    }

    #[test]
    fn grants_carry_growing_tokens() {
        let model = LOCK_MODEL;
        let granted = |token| OpReturn::Granted(FencingToken(token));
        let a = model
            .step(&model.initial(), &acquire(3), Some(&granted(5)))
            .unwrap();
        assert_eq!(
            model.step(&a, &acquire(4), Some(&granted(5))),
            None,
            "same token"
        );
        assert_eq!(
            model.step(&a, &acquire(3), Some(&granted(5))),
            Some(a),
            "told twice"
        );
        assert_eq!(
            model.step(&a, &acquire(4), Some(&granted(4))),
            None,
            "older token"
        );
        let b = model
            .step(&a, &acquire(4), Some(&granted(6)))
            .expect("a lease ran out");
        assert_eq!(b.granted_to, Some(4));
        let release = OpCall::Lock(LockCall::Release { lock: 0, client: 3 });
        assert!(!model.judges(&release));
        assert_eq!(model.partition(&acquire(1)), 0);
    }
}
