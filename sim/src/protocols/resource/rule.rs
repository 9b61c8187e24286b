//! The store's decision on an access, as a replaceable role ([`StoreWriteRule`]): the lab may hand
//! the store a learner's rule, and then this path runs instead of [`Resource::access`]'s own.
//!
//! The rule only decides; the store still keeps its books. It asks the rule with everything the
//! decision may need (the token, the highest token seen, the idempotency key and the key this client
//! last applied), then does what the verdict says and remembers the highest token the rule returns.
//! [`OurStoreRule`] is our own decision written as such a rule: with it in the slot a run is the very
//! run the store makes on its own (a test pins that).

use super::{AccessKind, AccessOutcome, Resource, ResourceError};
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::config::IdempotencyScope;
use crate::contract::roles::{StoreAccess, StoreDecision, StoreVerdict, StoreWriteRule};

/// Our decision as a rule: fencing (when the world fences) and the idempotency key, in the order the
/// world's idempotency scope asks for.
#[derive(Clone, Copy, Debug)]
pub struct OurStoreRule {
    pub fencing: bool,
    pub scope: IdempotencyScope,
}

impl StoreWriteRule for OurStoreRule {
    fn decide(&self, access: &StoreAccess) -> StoreDecision {
        let repeat = access.write && access.idempotent && access.applied_key == Some(access.key);
        let keep = access.highest_seen;
        if self.scope == IdempotencyScope::Batch && repeat {
            return verdict(StoreVerdict::Duplicate, keep);
        }
        if self.fencing && access.token < access.highest_seen {
            return verdict(StoreVerdict::Stale, keep);
        }
        let highest_seen = keep.max(access.token);
        match repeat {
            true => verdict(StoreVerdict::Duplicate, highest_seen),
            false => verdict(StoreVerdict::Accept, highest_seen),
        }
    }
}

fn verdict(verdict: StoreVerdict, highest_seen: u64) -> StoreDecision {
    StoreDecision {
        verdict,
        highest_seen,
    }
}

impl Resource {
    /// One access decided by `rule`: the books kept as [`Resource::access`] keeps them.
    pub(super) fn access_by_rule(
        &mut self,
        rule: &dyn StoreWriteRule,
        client: NodeId,
        (kind, token): (AccessKind, FencingToken),
        (op, intent, idempotent): (u64, u64, bool),
        account: u32,
    ) -> (AccessOutcome, Result<u64, ResourceError>) {
        let write = matches!(kind, AccessKind::Write { .. });
        let key = match self.idempotency_scope {
            IdempotencyScope::Batch => intent,
            IdempotencyScope::Message => op,
        };
        let applied = self.applied.get(&client).copied();
        let access = StoreAccess {
            write,
            token: token.0,
            highest_seen: self.highest_seen.0,
            idempotent,
            key,
            applied_key: applied.map(|(applied_key, _)| applied_key),
        };
        let decision = rule.decide(&access);
        match decision.verdict {
            StoreVerdict::Stale => return self.refuse_stale(token, write),
            StoreVerdict::Duplicate if write => {
                self.highest_seen = FencingToken(decision.highest_seen);
                self.duplicates += 1;
                if applied.is_some_and(|(_, applied_token)| token > applied_token) {
                    self.redos_recognised += 1;
                }
                return (AccessOutcome::Duplicate, Ok(self.balance(account)));
            }
            StoreVerdict::Duplicate | StoreVerdict::Accept => {}
        }
        self.highest_seen = FencingToken(decision.highest_seen);
        self.accepted += 1;
        let AccessKind::Write { value } = kind else {
            return (AccessOutcome::Accepted, Ok(self.balance(account)));
        };
        self.applied.insert(client, (key, token));
        self.set_balance(account, value);
        (AccessOutcome::Accepted, Ok(value))
    }
}
