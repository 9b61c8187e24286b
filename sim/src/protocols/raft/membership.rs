//! Changing who votes, one server at a time (Ongaro's dissertation, section 4.1).
//!
//! Any majority of a configuration and any majority of that configuration plus or minus one server
//! share a server, so going one server at a time never lets two disjoint majorities exist. A change is
//! a configuration entry in the log, and a server uses the newest configuration entry in its log the
//! moment it holds it, committed or not (a truncation that removes it brings the older one back).
//!
//! A new server first joins as a *learner*: the leader replicates the log to it but does not count it.
//! Catching up goes in rounds: each round replicates up to the leader's last index at the round's
//! start; a round that ends within the minimum election timeout means the learner is close enough, and
//! the leader appends the configuration that adds it. A learner that never catches up (too slow, or
//! cut off) is given up after [`MAX_CATCH_UP_ROUNDS`]. The leader starts a change only once its log's
//! latest configuration entry is committed and it has committed an entry of its own term (the fix for
//! the single-server bug the dissertation's errata describe), so changes never overlap: later
//! requests wait in a short queue.
//!
//! A leader removing itself keeps leading (without counting itself) until the entry that removes it is
//! committed, then steps down; a server outside its configuration never starts an election, so the
//! rest elect the next leader. The unsafe `direct` mode (`edit_config_file`) skips all of this.

use super::{Command, Entry, Payload, RaftNode, RaftWire};
use crate::base::ids::{NodeId, NodeSet};
use crate::base::units::LogIndex;
use crate::contract::protocol::{Effects, RaftFact};
use std::collections::VecDeque;

/// Catch-up rounds a learner gets before the leader gives it up.
pub const MAX_CATCH_UP_ROUNDS: u32 = 10;

/// Membership requests one leader keeps waiting behind the change in progress.
pub const MAX_QUEUED_CHANGES: usize = 8;

/// What a server believes about who votes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Membership {
    /// The cluster every server started as (no configuration entry says so).
    pub bootstrap: NodeSet,
    /// The newest configuration entry in the log, or `bootstrap` when there is none.
    pub logged: NodeSet,
    /// Where `logged` comes from (0: the bootstrap cluster).
    pub logged_index: LogIndex,
    /// The unsafe `direct` mode's hand-edited configuration, which wins over the log. Survives a crash,
    /// like a file on disk.
    pub config_file: Option<NodeSet>,
}

impl Membership {
    pub fn new(bootstrap: NodeSet) -> Membership {
        Membership {
            bootstrap,
            logged: bootstrap,
            logged_index: LogIndex::ZERO,
            config_file: None,
        }
    }
}

/// A membership change a leader was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeRequest {
    Add(NodeId),
    Remove(NodeId),
}

/// The change a leader is making.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeInProgress {
    CatchingUp {
        learner: NodeId,
        round_target: LogIndex,
        round_started_us: u64,
        rounds: u32,
    },
    /// The configuration entry is in the log at `index`, waiting to commit.
    Appended { index: LogIndex },
}

/// A leader's membership work: lost with leadership, like the rest of [`super::LeaderState`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LeaderMembership {
    pub change: Option<ChangeInProgress>,
    pub queued: VecDeque<ChangeRequest>,
    /// Servers it replicates to beyond the voters: the learner, and servers removed this term (so they
    /// hear of their removal instead of timing out and campaigning).
    pub extra_peers: NodeSet,
}

impl<A, M> RaftNode<A, M> {
    /// Who this server counts as voters right now.
    pub fn voters(&self) -> NodeSet {
        self.membership
            .config_file
            .unwrap_or(self.membership.logged)
    }

    pub fn is_voter(&self) -> bool {
        self.voters().contains(self.id)
    }

    /// The configuration in force at `index` by this server's log (its hand-edited file, if it has
    /// one, in the unsafe mode). Cheap unless a configuration entry past `index` is still uncommitted.
    pub fn configuration_at(&self, index: LogIndex) -> NodeSet {
        if let Some(file) = self.membership.config_file {
            return file;
        }
        if self.membership.logged_index <= index {
            return self.membership.logged;
        }
        self.newest_configuration(index).0
    }

    /// The newest configuration entry at or below `index`, scanning back (bounded by the log).
    fn newest_configuration(&self, index: LogIndex) -> (NodeSet, LogIndex) {
        let mut at = index.min(self.durable.log.last_index());
        while at > LogIndex::ZERO {
            if let Some(Entry {
                command: Command::Config { voters },
                ..
            }) = self.durable.log.entry(at)
            {
                return (*voters, at);
            }
            at = at.previous();
        }
        (self.membership.bootstrap, LogIndex::ZERO)
    }

    /// Reads the configuration again from the log after a truncation or a new configuration entry.
    pub(super) fn refresh_configuration(&mut self) {
        let (voters, index) = self.newest_configuration(self.durable.log.last_index());
        self.membership.logged = voters;
        self.membership.logged_index = index;
    }

    /// The world grew to `node_count` servers: every vector indexed by node grows with it.
    pub fn grow_cluster(&mut self, node_count: usize) {
        if node_count <= self.node_count {
            return;
        }
        self.node_count = node_count;
        self.volatile.votes_granted.resize(node_count, false);
        let next = self.durable.log.last_index().next();
        if let Some(leader) = self.volatile.leader.as_mut() {
            leader.next_index.resize(node_count, next);
            leader.match_index.resize(node_count, LogIndex::ZERO);
            leader.heard_since_check.resize(node_count, false);
            leader.acked_sent_at_local_us.resize(node_count, 0);
        }
    }
}

impl<A: Payload, M: RaftWire<A>> RaftNode<A, M> {
    /// Asks this leader for a change; it starts now or waits behind the one in progress.
    pub fn request_change(
        &mut self,
        now_us: u64,
        request: ChangeRequest,
        effects: &mut Effects<M>,
    ) -> Result<(), String> {
        let Some(leader) = self.volatile.leader.as_mut() else {
            return Err(format!("{} does not lead", self.id));
        };
        if leader.membership.queued.len() >= MAX_QUEUED_CHANGES {
            return Err(format!(
                "{} already has {MAX_QUEUED_CHANGES} membership changes waiting",
                self.id
            ));
        }
        leader.membership.queued.push_back(request);
        self.advance_membership(now_us, effects);
        Ok(())
    }

    /// Finishes a committed change (stepping down if it removed this leader) and starts the next
    /// waiting one once the log allows it. Bounded by the queue's length.
    pub(super) fn advance_membership(&mut self, now_us: u64, effects: &mut Effects<M>) {
        for _ in 0..=MAX_QUEUED_CHANGES + 1 {
            let commit_index = self.volatile.commit_index;
            let term_committed = self.durable.log.term_at(commit_index) == Some(self.durable.term);
            let config_committed = self.membership.logged_index <= commit_index;
            let Some(leader) = self.volatile.leader.as_mut() else {
                return;
            };
            let membership = &mut leader.membership;
            match membership.change {
                Some(ChangeInProgress::Appended { index }) if index <= commit_index => {
                    membership.change = None;
                    if !self.is_voter() {
                        effects.observe(RaftFact::RemovedSelf {
                            term: self.durable.term,
                        });
                        self.become_follower(self.durable.term, None, effects);
                        return;
                    }
                }
                Some(_) => return,
                None if !(term_committed && config_committed) => return,
                None => match membership.queued.pop_front() {
                    Some(request) => self.start_change(now_us, request, effects),
                    None => return,
                },
            }
        }
    }

    fn start_change(&mut self, now_us: u64, request: ChangeRequest, effects: &mut Effects<M>) {
        let voters = self.voters();
        match request {
            ChangeRequest::Add(learner) if !voters.contains(learner) => {
                let last_index = self.durable.log.last_index();
                let Some(leader) = self.volatile.leader.as_mut() else {
                    return;
                };
                leader.membership.extra_peers.insert(learner);
                leader.membership.change = Some(ChangeInProgress::CatchingUp {
                    learner,
                    round_target: last_index,
                    round_started_us: now_us,
                    rounds: 1,
                });
                effects.observe(RaftFact::LearnerAdded { learner });
                self.send_append(now_us, learner, effects);
            }
            ChangeRequest::Remove(server) if voters.contains(server) && voters.len() > 1 => {
                let mut remaining = voters;
                remaining.remove(server);
                if let Some(leader) = self.volatile.leader.as_mut() {
                    leader.membership.extra_peers.insert(server);
                }
                self.append_configuration(now_us, remaining, effects);
            }
            // Already so (an earlier change did it): nothing to do.
            ChangeRequest::Add(_) | ChangeRequest::Remove(_) => {}
        }
    }

    fn append_configuration(&mut self, now_us: u64, voters: NodeSet, effects: &mut Effects<M>) {
        let entry = Entry {
            term: self.durable.term,
            command: Command::Config { voters },
        };
        let index = self.append_as_leader(entry, effects);
        self.membership.logged = voters;
        self.membership.logged_index = index;
        if let Some(leader) = self.volatile.leader.as_mut() {
            leader.membership.change = Some(ChangeInProgress::Appended { index });
        }
        effects.observe(RaftFact::ConfigurationAppended { index, voters });
        self.broadcast_append(now_us, effects);
        self.advance_commit(effects);
    }

    /// A successful AppendEntries reply from `peer`: is the learner caught up?
    pub(super) fn note_learner_progress(
        &mut self,
        now_us: u64,
        peer: NodeId,
        effects: &mut Effects<M>,
    ) {
        let last_index = self.durable.log.last_index();
        let min_round_us = self.timing.election_min_us;
        let Some(leader) = self.volatile.leader.as_mut() else {
            return;
        };
        let Some(ChangeInProgress::CatchingUp {
            learner,
            round_target,
            round_started_us,
            rounds,
        }) = leader.membership.change
        else {
            return;
        };
        if learner != peer || leader.match_index[peer.index()] < round_target {
            return;
        }
        if now_us.saturating_sub(round_started_us) < min_round_us {
            let mut voters = self.voters();
            voters.insert(learner);
            effects.observe(RaftFact::LearnerCaughtUp { learner, rounds });
            self.append_configuration(now_us, voters, effects);
        } else if rounds >= MAX_CATCH_UP_ROUNDS {
            leader.membership.change = None;
            leader.membership.extra_peers.remove(learner);
            effects.observe(RaftFact::LearnerGivenUp { learner, rounds });
            self.advance_membership(now_us, effects);
        } else {
            leader.membership.change = Some(ChangeInProgress::CatchingUp {
                learner,
                round_target: last_index,
                round_started_us: now_us,
                rounds: rounds + 1,
            });
        }
    }

    /// The unsafe `direct` mode: someone rewrote this server's configuration by hand. A leader left
    /// out steps down at once; nothing goes through the log.
    pub fn edit_config_file(&mut self, voters: NodeSet, effects: &mut Effects<M>) {
        self.membership.config_file = Some(voters);
        effects.persist("config file");
        effects.observe(RaftFact::ConfigurationEdited { voters });
        if !self.is_leader() {
            return;
        }
        if !self.is_voter() {
            effects.observe(RaftFact::RemovedSelf {
                term: self.durable.term,
            });
            self.become_follower(self.durable.term, None, effects);
            return;
        }
        self.advance_commit(effects);
    }
}
