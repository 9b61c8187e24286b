//! What a world's servers do and which invariants it can break, read from its registry entry: the
//! panels decide by these answers, never by a protocol's name, so a new world cannot fall through.

use quorumlab_sim::ProtocolKind;

/// Whether the protocol's servers run Raft (everything but the Redis-style locks).
pub fn runs_raft(protocol: ProtocolKind) -> bool {
    protocol.entry().capabilities.runs_raft
}

/// Whether the numbers a lock holder carries are fencing tokens worth showing (Redis-style hold values
/// are random, not tokens).
pub fn tokens_fence(protocol: ProtocolKind) -> bool {
    protocol.entry().capabilities.tokens_fence
}

/// The invariants a protocol can break, Raft's first where a Raft group exists, as the registry lists
/// them: every world has an entry, so none falls through to an empty list.
pub fn relevant_invariants(protocol: ProtocolKind) -> Vec<&'static str> {
    protocol
        .entry()
        .invariants()
        .map(|invariant| invariant.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raft_invariants_only_where_a_raft_group_exists() {
        use quorumlab_sim::checker::{
            ELECTION_SAFETY, EXCLUSIVE_BELIEF, MUTUAL_EXCLUSION, NO_DUPLICATE_INVOICE,
            TOKEN_MONOTONICITY,
        };
        assert!(relevant_invariants(ProtocolKind::Raft).contains(&ELECTION_SAFETY));
        assert!(!relevant_invariants(ProtocolKind::Raft).contains(&MUTUAL_EXCLUSION));
        assert!(relevant_invariants(ProtocolKind::LockService).contains(&ELECTION_SAFETY));
        assert!(relevant_invariants(ProtocolKind::LockService).contains(&TOKEN_MONOTONICITY));
        assert!(!relevant_invariants(ProtocolKind::Redlock).contains(&ELECTION_SAFETY));
        assert!(relevant_invariants(ProtocolKind::Redlock).contains(&EXCLUSIVE_BELIEF));
        assert!(relevant_invariants(ProtocolKind::Scheduler).contains(&NO_DUPLICATE_INVOICE));
        for entry in quorumlab_sim::registry::ENTRIES {
            for name in relevant_invariants(entry.kind) {
                let promise = quorumlab_sim::registry::promise(name);
                assert!(!promise.is_empty(), "{name} has a promise");
            }
        }
    }

    #[test]
    fn only_raft_backed_locks_carry_fencing_tokens() {
        assert!(tokens_fence(ProtocolKind::LockService));
        assert!(tokens_fence(ProtocolKind::Scheduler));
        assert!(!tokens_fence(ProtocolKind::RedisLock));
        assert!(!tokens_fence(ProtocolKind::Redlock));
        assert!(runs_raft(ProtocolKind::WorkQueue));
        assert!(!runs_raft(ProtocolKind::Redlock));
    }
}
