//! Raft's safety properties (Figure 3 of the paper), checked incrementally.
//!
//! Each node's log is summarized by a *prefix hash chain*: `prefix[i]` hashes entries 1..=i, so two logs
//! agree up to `i` exactly when their `prefix[i]` agree. The checker extends a node's chain when its log
//! grows and cuts it on a `LogTruncated` fact, so each step costs only the entries that changed.
//!
//! - Election Safety: at most one leader per term.
//! - Leader Append-Only: a leader never overwrites or deletes entries in its log.
//! - Log Matching: same index and term means the same prefix (a global map of (index, term) -> prefix).
//! - Leader Completeness: a new leader holds every entry committed so far.
//! - State Machine Safety: no node commits (and so applies) a different entry at a committed index.

use super::{Finding, Violations};
use crate::base::hash::Fnv;
use crate::base::ids::NodeId;
use crate::base::permutation::Permutation;
use crate::base::time::SimTime;
use crate::base::units::{LogIndex, Term};
pub use crate::contract::entry::invariants::{
    ELECTION_SAFETY, LEADER_APPEND_ONLY, LEADER_COMPLETENESS, LOG_MATCHING, STATE_MACHINE_SAFETY,
};
use crate::contract::protocol::{Effect, RaftFact};
use crate::worlds::actor::Fact;
use crate::worlds::actor::{ClusterRaft, Message};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// A leader's log as it was before one step: its term, length and last entry's term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderMark {
    term: Term,
    log_len: LogIndex,
    last_term: Term,
}

impl LeaderMark {
    pub fn of(node: &ClusterRaft) -> Option<LeaderMark> {
        node.is_leader().then(|| LeaderMark {
            term: node.term(),
            log_len: node.log().last_index(),
            last_term: node.log().last_term(),
        })
    }
}

pub struct CheckContext<'a> {
    pub now: SimTime,
    pub node: NodeId,
    pub raft: &'a ClusterRaft,
    pub mark: Option<LeaderMark>,
    pub effects: &'a [Effect<Message>],
}

/// Election Safety's words for `node` saying it leads `term`, which `previous` led first. A node that
/// says so while it is not leader (a Byzantine server in `lie` mode) won no election: its claim is
/// forged, and the words say that rather than "elected", so they agree with the ring, where it is
/// still a follower. Only such runs read differently; an honest double election keeps its words.
fn second_leader_detail(previous: NodeId, node: NodeId, term: Term, node_leads: bool) -> String {
    if node_leads {
        format!("{previous} and {node} were both elected leader of term {term}")
    } else {
        format!(
            "{node} forged a claim to lead term {term}, which {previous} won: {node} won no election \
             and is still a follower, yet the others take its orders"
        )
    }
}

fn chain(previous: u64, digest: u64) -> u64 {
    let mut hash = Fnv::new();
    hash.write_u64(previous);
    hash.write_u64(digest);
    hash.finish()
}

#[derive(Clone, Debug)]
pub struct RaftChecker {
    /// Per node: prefix hash chain, `prefix[0] = 0` for the empty log.
    prefix: Vec<Vec<u64>>,
    /// (index, term) -> prefix hash, first seen. A hash map: every new entry on every node looks itself
    /// up here, and in an ordered map of a long run's entries that lookup was the checker's largest cost.
    known: FxHashMap<(LogIndex, Term), u64>,
    /// The cluster's committed prefix, as a chain: `committed[i]` for i <= highest commit seen.
    committed: Vec<u64>,
    /// `committed_in_term[i]`: the term of the node that first reported index `i` committed. Leader
    /// Completeness only binds leaders of *later* terms (§5.4): a stale candidate can still win an older
    /// term after newer entries committed.
    committed_in_term: Vec<Term>,
    leader_of_term: BTreeMap<Term, NodeId>,
    /// Per node: the commit index at its last check (commit checks run only when it moves).
    checked_commit: Vec<LogIndex>,
}

impl RaftChecker {
    /// The memory later verdicts depend on, for the explorer's state digest. `known` is a hash map,
    /// so its entries are combined by a wrapping sum, which does not depend on their order.
    pub fn digest(&self, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        (&self.prefix, &self.committed, &self.committed_in_term).hash(&mut out);
        (&self.leader_of_term, &self.checked_commit).hash(&mut out);
        let known = self.known.iter().fold(0u64, |sum, entry| {
            sum.wrapping_add(crate::base::state_hash::digest_of(&entry))
        });
        (self.known.len(), known).hash(&mut out);
    }

    /// [`RaftChecker::digest`] with the nodes renamed by `renaming`: the per-node chains and checked
    /// commits read in the renamed order, each term's leader renamed. The committed chain and the
    /// `known` map hold log contents only.
    pub fn digest_under(&self, renaming: &Permutation, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        renaming.hash_positional(&self.prefix, out);
        (&self.committed, &self.committed_in_term).hash(&mut out);
        let leaders: BTreeMap<Term, NodeId> = self
            .leader_of_term
            .iter()
            .map(|(&term, &node)| (term, renaming.node(node)))
            .collect();
        leaders.hash(&mut out);
        renaming.hash_positional(&self.checked_commit, out);
        let known = self.known.iter().fold(0u64, |sum, entry| {
            sum.wrapping_add(crate::base::state_hash::digest_of(&entry))
        });
        (self.known.len(), known).hash(&mut out);
    }

    pub fn new(node_count: usize) -> RaftChecker {
        RaftChecker {
            prefix: vec![vec![0]; node_count],
            known: FxHashMap::default(),
            committed: vec![0],
            committed_in_term: vec![Term::ZERO],
            leader_of_term: BTreeMap::new(),
            checked_commit: vec![LogIndex::ZERO; node_count],
        }
    }

    /// One more node joined the world, with an empty log.
    pub fn grow(&mut self) {
        self.prefix.push(vec![0]);
        self.checked_commit.push(LogIndex::ZERO);
    }

    pub fn check(
        &mut self,
        context: &CheckContext<'_>,
        violations: &mut Violations,
        found: &mut Vec<Finding>,
    ) {
        let node = context.node;
        for effect in context.effects {
            if let Effect::Observe(Fact::Raft(RaftFact::LogTruncated { from_index })) = effect {
                self.prefix[node.index()].truncate(from_index.0.max(1) as usize);
            }
        }
        self.extend_prefix(context, violations, found);
        self.check_append_only(context, violations, found);
        for effect in context.effects {
            if let Effect::Observe(Fact::Raft(RaftFact::BecameLeader { term, .. })) = effect {
                self.check_new_leader(context, *term, violations, found);
            }
        }
        self.check_commit(context, violations, found);
    }

    fn extend_prefix(
        &mut self,
        context: &CheckContext<'_>,
        violations: &mut Violations,
        found: &mut Vec<Finding>,
    ) {
        let log = context.raft.log();
        let prefix = &mut self.prefix[context.node.index()];
        let last_index = log.last_index().0;
        if prefix.len() as u64 > last_index + 1 {
            prefix.truncate(last_index as usize + 1);
        }
        while (prefix.len() as u64) <= last_index {
            let index = LogIndex(prefix.len() as u64);
            let entry = log.entry(index).expect("index within the log");
            let hash = chain(
                *prefix.last().expect("prefix starts non-empty"),
                entry.digest(),
            );
            prefix.push(hash);
            let first_seen = *self.known.entry((index, entry.term)).or_insert(hash);
            if first_seen != hash {
                let detail = format!(
                    "{} holds entry {index} of term {} but its log before it differs from another node's",
                    context.node, entry.term
                );
                found.push(violations.report(
                    LOG_MATCHING,
                    context.now,
                    vec![context.node],
                    detail,
                ));
            }
        }
    }

    fn check_append_only(
        &self,
        context: &CheckContext<'_>,
        violations: &mut Violations,
        found: &mut Vec<Finding>,
    ) {
        let Some(mark) = context.mark else {
            return;
        };
        let raft = context.raft;
        if !raft.is_leader() || raft.term() != mark.term {
            return;
        }
        let log = raft.log();
        if log.last_index() < mark.log_len || log.term_at(mark.log_len) != Some(mark.last_term) {
            let detail = format!(
                "leader {} of term {} changed its log below index {} (now {} entries)",
                context.node,
                mark.term,
                mark.log_len,
                log.last_index()
            );
            found.push(violations.report(
                LEADER_APPEND_ONLY,
                context.now,
                vec![context.node],
                detail,
            ));
        }
    }

    fn check_new_leader(
        &mut self,
        context: &CheckContext<'_>,
        term: Term,
        violations: &mut Violations,
        found: &mut Vec<Finding>,
    ) {
        let node = context.node;
        let previous = *self.leader_of_term.entry(term).or_insert(node);
        if previous != node {
            let detail = second_leader_detail(previous, node, term, context.raft.is_leader());
            found.push(violations.report(
                ELECTION_SAFETY,
                context.now,
                vec![previous, node],
                detail,
            ));
        }
        let committed_len = self
            .committed_in_term
            .iter()
            .rposition(|committed_term| *committed_term < term)
            .unwrap_or(0);
        let prefix = &self.prefix[node.index()];
        if prefix.get(committed_len) != Some(&self.committed[committed_len]) {
            let detail = format!(
                "{node} became leader of term {term} without every committed entry (committed up to index {committed_len})"
            );
            found.push(violations.report(LEADER_COMPLETENESS, context.now, vec![node], detail));
        }
    }

    fn check_commit(
        &mut self,
        context: &CheckContext<'_>,
        violations: &mut Violations,
        found: &mut Vec<Finding>,
    ) {
        let node = context.node;
        let commit = context.raft.commit_index();
        if std::mem::replace(&mut self.checked_commit[node.index()], commit) == commit {
            return;
        }
        let prefix = &self.prefix[node.index()];
        let Some(&node_hash) = prefix.get(commit.0 as usize) else {
            return;
        };
        let shared = (commit.0 as usize).min(self.committed.len() - 1);
        if commit == LogIndex::ZERO {
            return;
        }
        if prefix[shared] != self.committed[shared] {
            let term = context
                .raft
                .log()
                .term_at(LogIndex(shared as u64))
                .unwrap_or(Term::ZERO);
            let detail = format!(
                "{node} committed entry {shared} (term {term}) but a different entry was committed there before"
            );
            found.push(violations.report(STATE_MACHINE_SAFETY, context.now, vec![node], detail));
            return;
        }
        let commit_position = commit.0 as usize;
        if commit_position >= self.committed.len() {
            let newly_committed = commit_position + 1 - self.committed.len();
            self.committed
                .extend_from_slice(&prefix[self.committed.len()..commit_position]);
            self.committed.push(node_hash);
            let term = context.raft.term();
            self.committed_in_term
                .extend(std::iter::repeat_n(term, newly_committed));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_leader_that_leads_was_elected_and_one_that_follows_forged_its_claim() {
        let elected = second_leader_detail(NodeId(1), NodeId(2), Term(1), true);
        assert_eq!(elected, "n2 and n3 were both elected leader of term 1");
        let forged = second_leader_detail(NodeId(1), NodeId(2), Term(1), false);
        assert!(
            forged.starts_with("n3 forged a claim to lead term 1, which n2 won"),
            "{forged}"
        );
        assert!(!forged.contains("elected"), "{forged}");
    }
}
