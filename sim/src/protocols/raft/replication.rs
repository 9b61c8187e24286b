//! Log replication and commitment (§5.3, §5.4.2).

use super::quorum::{majority, quorum_commit_index};
use super::{Command, Entry, Payload, RaftMessage, RaftNode, RaftWire, MAX_ENTRIES_PER_APPEND};
use crate::base::ids::NodeId;
use crate::base::units::{LogIndex, Term};
use crate::contract::protocol::{Effects, RaftFact, RoleLabel};

impl<A: Payload, M: RaftWire<A>> RaftNode<A, M> {
    pub(super) fn append_as_leader(
        &mut self,
        entry: Entry<A>,
        effects: &mut Effects<M>,
    ) -> LogIndex {
        let index = self.durable.log.append(entry);
        effects.persist("log");
        let me = self.id.index();
        if let Some(leader) = self.volatile.leader.as_mut() {
            leader.match_index[me] = index;
            leader.next_index[me] = index.next();
        }
        index
    }

    pub(super) fn mark_self_acked(&mut self, now_us: u64) {
        let me = self.id.index();
        if let Some(leader) = self.volatile.leader.as_mut() {
            leader.acked_sent_at_local_us[me] = now_us;
        }
    }

    pub(super) fn on_heartbeat_timer(&mut self, now_us: u64, effects: &mut Effects<M>) {
        if self.volatile.role != RoleLabel::Leader {
            return;
        }
        self.mark_self_acked(now_us);
        self.broadcast_append(now_us, effects);
        self.arm_heartbeat(effects);
    }

    pub(super) fn broadcast_append(&mut self, now_us: u64, effects: &mut Effects<M>) {
        for peer in self.peers() {
            self.send_append(now_us, peer, effects);
        }
    }

    /// Sends the peer everything from its next index (at most `MAX_ENTRIES_PER_APPEND` entries) and
    /// advances `next_index` past them optimistically (pipelining, like etcd's replicate state). A lost
    /// message shows up as a rejection of a later one, which moves `next_index` back.
    pub(super) fn send_append(&mut self, now_us: u64, peer: NodeId, effects: &mut Effects<M>) {
        let Some(leader) = self.volatile.leader.as_mut() else {
            return;
        };
        let log = &self.durable.log;
        let next = leader.next_index[peer.index()].clamp(LogIndex(1), log.last_index().next());
        let prev_log_index = next.previous();
        let entries = log.slice_from(next, MAX_ENTRIES_PER_APPEND).to_vec();
        leader.next_index[peer.index()] = next.advanced_by(entries.len());
        let message = RaftMessage::AppendEntries {
            term: self.durable.term,
            leader: self.id,
            prev_log_index,
            prev_log_term: log.term_at(prev_log_index).unwrap_or(Term::ZERO),
            entries,
            leader_commit: self.volatile.commit_index,
            sent_at_local_us: now_us,
        };
        effects.send(peer, message);
        self.note_append_sent(now_us);
    }

    pub(super) fn on_append_entries(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &RaftMessage<A>,
        effects: &mut Effects<M>,
    ) {
        let RaftMessage::AppendEntries {
            term,
            leader,
            prev_log_index,
            prev_log_term,
            ref entries,
            leader_commit,
            sent_at_local_us,
        } = *message
        else {
            return;
        };
        let reply = |success, match_index, conflict_index, node: &RaftNode<A, M>| {
            RaftMessage::AppendEntriesReply {
                term: node.durable.term,
                success,
                match_index,
                conflict_index,
                echo_sent_at_local_us: sent_at_local_us,
            }
        };
        if term < self.durable.term {
            self.send(
                effects,
                from,
                reply(false, LogIndex::ZERO, LogIndex::ZERO, self),
            );
            return;
        }
        if term > self.durable.term || self.volatile.role != RoleLabel::Follower {
            self.become_follower(term, Some(leader), effects);
        }
        self.volatile.leader_hint = Some(leader);
        self.volatile.last_leader_contact_local_us = Some(now_us);
        self.reset_election_timer(effects);

        let log = &self.durable.log;
        if prev_log_index > log.last_index() {
            let conflict = log.last_index().next();
            self.send(effects, from, reply(false, LogIndex::ZERO, conflict, self));
            return;
        }
        if log.term_at(prev_log_index) != Some(prev_log_term) {
            let conflict = log.first_index_of_term_at(prev_log_index);
            self.send(effects, from, reply(false, LogIndex::ZERO, conflict, self));
            return;
        }
        self.merge_entries(prev_log_index, entries, effects);
        let match_index = prev_log_index.advanced_by(entries.len());
        let new_commit = leader_commit.min(match_index);
        if new_commit > self.volatile.commit_index {
            self.volatile.commit_index = new_commit;
            self.apply_committed(effects);
        }
        self.send(
            effects,
            from,
            reply(true, match_index, LogIndex::ZERO, self),
        );
    }

    /// Appends entries after `prev_log_index`, truncating the first conflicting suffix (§5.3 step 3-4).
    fn merge_entries(
        &mut self,
        prev_log_index: LogIndex,
        entries: &[Entry<A>],
        effects: &mut Effects<M>,
    ) {
        let mut changed = false;
        let mut configuration_moved = false;
        for (offset, entry) in entries.iter().enumerate() {
            let index = prev_log_index.advanced_by(1 + offset);
            match self.durable.log.term_at(index) {
                Some(existing) if existing == entry.term => continue,
                Some(_) => {
                    self.durable.log.truncate_from(index);
                    effects.observe(RaftFact::LogTruncated { from_index: index });
                    configuration_moved |= index <= self.membership.logged_index;
                    self.durable.log.append(*entry);
                }
                None => {
                    self.durable.log.append(*entry);
                }
            }
            configuration_moved |= matches!(entry.command, Command::Config { .. });
            changed = true;
        }
        if changed {
            effects.persist("log");
        }
        if configuration_moved {
            self.refresh_configuration();
        }
    }

    pub(super) fn on_append_reply(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &RaftMessage<A>,
        effects: &mut Effects<M>,
    ) {
        let RaftMessage::AppendEntriesReply {
            term,
            success,
            match_index,
            conflict_index,
            echo_sent_at_local_us,
        } = *message
        else {
            return;
        };
        if term > self.durable.term {
            self.become_follower(term, None, effects);
            return;
        }
        if term < self.durable.term || self.volatile.role != RoleLabel::Leader {
            return;
        }
        let last_index = self.durable.log.last_index();
        let Some(leader) = self.volatile.leader.as_mut() else {
            return;
        };
        let peer = from.index();
        leader.heard_since_check[peer] = true;
        leader.acked_sent_at_local_us[peer] =
            leader.acked_sent_at_local_us[peer].max(echo_sent_at_local_us);
        if success {
            leader.match_index[peer] = leader.match_index[peer].max(match_index);
            leader.next_index[peer] = leader.next_index[peer].max(leader.match_index[peer].next());
            let behind = leader.next_index[peer] <= last_index;
            self.note_learner_progress(now_us, from, effects);
            self.advance_commit(effects);
            self.advance_membership(now_us, effects);
            if behind {
                self.send_append(now_us, from, effects);
            }
            self.serve_read_index_reads(effects);
            return;
        }
        // Back off: jump to the follower's hint, never below 1 and never past what it may already match.
        let floor = leader.match_index[peer].next();
        let backed_off = conflict_index.min(LogIndex(leader.next_index[peer].0.saturating_sub(1)));
        leader.next_index[peer] = backed_off.max(floor).max(LogIndex(1));
        self.send_append(now_us, from, effects);
        // A refusal in this term still says the peer follows this leader.
        self.serve_read_index_reads(effects);
    }

    /// Commit the highest index stored on a majority, but only if it holds an entry of the current term
    /// (§5.4.2). The test-only unsafe switch skips the term check: the Figure 8 bug.
    pub(super) fn advance_commit(&mut self, effects: &mut Effects<M>) {
        let voters = self.voters();
        let Some(leader) = self.volatile.leader.as_ref() else {
            return;
        };
        let commit_index = self.volatile.commit_index;
        self.voter_matches.clear();
        let voter_matches = voters.iter().map(|voter| leader.match_index[voter.index()]);
        self.voter_matches.extend(voter_matches);
        // The majority-th largest match passes the commit index exactly when a majority's matches do.
        // Most acknowledgements move nothing (a majority has not caught up yet, or already had), and
        // counting says so without the selection below: the 51-node profile put 16% of the engine's
        // time in it.
        let ahead = self
            .voter_matches
            .iter()
            .filter(|matched| **matched > commit_index);
        if ahead.count() < majority(self.voter_matches.len()) {
            return;
        }
        let candidate = quorum_commit_index(&self.voter_matches, &mut self.scratch);
        if candidate <= self.volatile.commit_index {
            return;
        }
        let current_term = self.durable.log.term_at(candidate) == Some(self.durable.term);
        if !current_term && !self.options.unsafe_commit_previous_term {
            return;
        }
        self.volatile.commit_index = candidate;
        let replicas = leader
            .match_index
            .iter()
            .enumerate()
            .map(|(peer, matched)| (NodeId(peer as u16), matched))
            .filter(|(peer, matched)| **matched >= candidate && voters.contains(*peer))
            .map(|(peer, _)| peer)
            .collect();
        effects.observe(RaftFact::Committed {
            index: candidate,
            term: self.durable.term,
            replicas,
        });
        self.apply_committed(effects);
    }
}
