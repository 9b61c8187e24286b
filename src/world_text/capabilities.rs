//! What a world's servers do and which invariants it can break, read from its registry entry: the
//! panels decide by these answers, never by a protocol's name, so a new world cannot fall through.

use quorumlab_sim::ProtocolKind;

/// Whether the protocol's servers run Raft (everything but the Redis-style locks).
pub fn runs_raft(protocol: ProtocolKind) -> bool {
    protocol.entry().capabilities.runs_raft
}

/// Whether the world's clients read through one of Raft's read paths, so that the run settings'
/// "Reads are answered" choice changes anything: plain Raft's, not a lock world's, whose workers take
/// locks and write to a store even though its servers run Raft.
pub fn reads_through_read_path(protocol: ProtocolKind) -> bool {
    protocol.entry().capabilities.reads_through_read_path()
}

/// Why a world has no "Leader and term" chart, or `None` where some server can lead: a world whose
/// servers elect no leader (Paxos, PBFT, Redis-style locks) has no leader and no Raft term to chart.
pub fn no_leader_chart(protocol: ProtocolKind) -> Option<String> {
    let entry = protocol.entry();
    (!entry.capabilities.elects_leader).then(|| {
        format!(
            "Leader and term: nothing to chart. In {} no {} is elected to lead, and there are no \
             terms.",
            entry.title, entry.vocabulary.server
        )
    })
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
    fn paxos_has_no_leader_chart_and_raft_and_the_lock_service_have_one() {
        let paxos = no_leader_chart(ProtocolKind::Paxos).expect("Paxos elects no leader");
        assert!(paxos.contains("no acceptor is elected to lead"), "{paxos}");
        assert!(no_leader_chart(ProtocolKind::Pbft).is_some());
        assert_eq!(no_leader_chart(ProtocolKind::Raft), None);
        assert_eq!(no_leader_chart(ProtocolKind::LockService), None);
    }

    #[test]
    fn only_raft_clients_read_through_a_read_path() {
        assert!(reads_through_read_path(ProtocolKind::Raft));
        assert!(runs_raft(ProtocolKind::LockService));
        assert!(!reads_through_read_path(ProtocolKind::LockService));
        assert!(!reads_through_read_path(ProtocolKind::Paxos));
    }

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
