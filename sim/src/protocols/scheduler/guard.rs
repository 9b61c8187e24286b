//! The leader's guard at the top of a minute as a replaceable role ([`JobGuardRule`]).
//!
//! Ours is written inline in the instance: it runs the minute when it believes it leads, carries its
//! lease's token and writes "if absent" in the fencing mode. A learner's guard is asked instead when
//! the lab put one in, and its answer (run or not, the token to carry, if absent or not) waits in a
//! [`PendingGuard`] until the run's write leaves, `work_ms` later: a pause in between is exactly what
//! the guard has to survive.

use super::SchedulerInstance;
use crate::contract::roles::{GuardDecision, GuardInput};
use std::hash::{Hash, Hasher};

/// A learner's guard decision waiting for its run to end. Empty, it hashes to nothing, so an
/// instance without a learner's guard hashes exactly as it always did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PendingGuard(pub Option<GuardDecision>);

impl Hash for PendingGuard {
    fn hash<H: Hasher>(&self, state: &mut H) {
        if let Some(decision) = &self.0 {
            decision.hash(state);
        }
    }
}

impl SchedulerInstance {
    /// What a guard is told at the top of `minute`, read at `now_us` on this instance's clock.
    pub(super) fn guard_input(&self, minute: u64, now_us: u64) -> GuardInput {
        GuardInput {
            minute,
            now_us,
            lease_until_us: self.client.lease_until_local_us,
            holds_lease: self.lock == super::LockState::Held,
            term: self.token.0,
        }
    }
}
