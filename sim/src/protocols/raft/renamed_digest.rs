//! A Raft server's state digest under a renaming of the nodes, for the explorer's node-symmetry
//! reduction (`tooling/explore/symmetry.rs`; see `base/permutation.rs` for what renaming means).
//!
//! It feeds the same fields as the server's own `Hash` (in `mod.rs`), with every node reference
//! renamed: the server's id, its vote, its leader hint, the configuration entries in its log, its
//! memberships, a leader's learner and queued changes; and every vector kept by node read in the
//! renamed order: the votes granted, and a leader's `next_index`, `match_index`,
//! `heard_since_check` and `acked_sent_at_local_us`. Everything else (terms, indexes, the key/value
//! map, request ids, local times, options, a liar's mode) names no node and goes in as it is. The
//! application's payload `A` goes in as it is too: a plain Raft cluster never proposes one, and it
//! is the only world the reduction is offered in.

use super::membership::{ChangeInProgress, ChangeRequest, LeaderMembership, Membership};
use super::{Command, Entry, LeaderState, Log, RaftMessage, RaftNode, Volatile};
use crate::base::permutation::Permutation;
use crate::base::units::LogIndex;
use std::hash::{Hash, Hasher};

impl<A: Copy + Hash, M> RaftNode<A, M> {
    /// Feeds `out` this server's state as it would be with every node renamed by `renaming`.
    pub fn digest_under(&self, renaming: &Permutation, mut out: &mut dyn Hasher) {
        renaming.node(self.id).hash(&mut out);
        (self.node_count, &self.options, self.timing).hash(&mut out);
        let voted_for = self.durable.voted_for.map(|node| renaming.node(node));
        (self.durable.term, voted_for).hash(&mut out);
        log_under(&self.durable.log, renaming, out);
        volatile_under(&self.volatile, renaming, out);
        membership_under(self.membership, renaming).hash(&mut out);
        (self.liar, self.liar_in_world).hash(&mut out);
    }
}

/// `entry` with the voters of a configuration entry renamed.
pub fn entry_under<A: Copy>(entry: &Entry<A>, renaming: &Permutation) -> Entry<A> {
    match entry.command {
        Command::Config { voters } => Entry {
            term: entry.term,
            command: Command::Config {
                voters: renaming.set(voters),
            },
        },
        _ => *entry,
    }
}

fn log_under<A: Copy + Hash>(log: &Log<A>, renaming: &Permutation, mut out: &mut dyn Hasher) {
    let entries = log.slice_from(LogIndex(1), usize::MAX);
    entries.len().hash(&mut out);
    for entry in entries {
        entry_under(entry, renaming).hash(&mut out);
    }
}

fn volatile_under(volatile: &Volatile, renaming: &Permutation, mut out: &mut dyn Hasher) {
    let leader_hint = volatile.leader_hint.map(|node| renaming.node(node));
    (volatile.role, leader_hint).hash(&mut out);
    (volatile.commit_index, volatile.applied_index, &volatile.kv).hash(&mut out);
    renaming.hash_positional(&volatile.votes_granted, out);
    volatile.leader.is_some().hash(&mut out);
    if let Some(leader) = &volatile.leader {
        leader_under(leader, renaming, out);
    }
    let pending = &volatile.pending_requests;
    (pending, volatile.last_leader_contact_local_us).hash(&mut out);
}

fn leader_under(leader: &LeaderState, renaming: &Permutation, mut out: &mut dyn Hasher) {
    renaming.hash_positional(&leader.next_index, out);
    renaming.hash_positional(&leader.match_index, out);
    renaming.hash_positional(&leader.heard_since_check, out);
    renaming.hash_positional(&leader.acked_sent_at_local_us, out);
    leader_membership_under(&leader.membership, renaming).hash(&mut out);
    leader.reads.hash(&mut out);
}

fn membership_under(membership: Membership, renaming: &Permutation) -> Membership {
    Membership {
        bootstrap: renaming.set(membership.bootstrap),
        logged: renaming.set(membership.logged),
        logged_index: membership.logged_index,
        config_file: membership.config_file.map(|voters| renaming.set(voters)),
    }
}

fn leader_membership_under(
    membership: &LeaderMembership,
    renaming: &Permutation,
) -> LeaderMembership {
    let change = membership.change.map(|change| match change {
        ChangeInProgress::CatchingUp {
            learner,
            round_target,
            round_started_us,
            rounds,
        } => ChangeInProgress::CatchingUp {
            learner: renaming.node(learner),
            round_target,
            round_started_us,
            rounds,
        },
        appended => appended,
    });
    let queued = membership
        .queued
        .iter()
        .map(|request| match *request {
            ChangeRequest::Add(node) => ChangeRequest::Add(renaming.node(node)),
            ChangeRequest::Remove(node) => ChangeRequest::Remove(renaming.node(node)),
        })
        .collect();
    LeaderMembership {
        change,
        queued,
        extra_peers: renaming.set(membership.extra_peers),
    }
}

impl<A: Copy> RaftMessage<A> {
    /// This message with every node it names renamed: a candidate, a leader, the voters of a
    /// configuration entry it carries.
    pub fn renamed(&self, renaming: &Permutation) -> RaftMessage<A> {
        match self {
            RaftMessage::RequestVote {
                term,
                candidate,
                last_log_index,
                last_log_term,
                pre_vote,
            } => RaftMessage::RequestVote {
                term: *term,
                candidate: renaming.node(*candidate),
                last_log_index: *last_log_index,
                last_log_term: *last_log_term,
                pre_vote: *pre_vote,
            },
            RaftMessage::AppendEntries {
                term,
                leader,
                prev_log_index,
                prev_log_term,
                entries,
                leader_commit,
                sent_at_local_us,
            } => RaftMessage::AppendEntries {
                term: *term,
                leader: renaming.node(*leader),
                prev_log_index: *prev_log_index,
                prev_log_term: *prev_log_term,
                entries: entries
                    .iter()
                    .map(|entry| entry_under(entry, renaming))
                    .collect(),
                leader_commit: *leader_commit,
                sent_at_local_us: *sent_at_local_us,
            },
            RaftMessage::RequestVoteReply { .. } | RaftMessage::AppendEntriesReply { .. } => {
                self.clone()
            }
        }
    }
}
