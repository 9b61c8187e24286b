//! Client requests, the read paths that skip the log (lease and follower reads here, read-index reads
//! in `read_index.rs`) and applying committed entries to the key/value map.

use super::quorum::quorum_commit_index;
use super::{Command, Entry, Payload, RaftNode, RaftWire};
use crate::base::units::LogIndex;
use crate::contract::config::ReadPath;
use crate::contract::protocol::{
    ClientCommand, ClientError, ClientOutcome, Effects, RaftFact, RequestId, RoleLabel,
};

impl<A: Payload, M: RaftWire<A>> RaftNode<A, M> {
    pub(super) fn on_client(
        &mut self,
        now_us: u64,
        request_id: RequestId,
        command: ClientCommand,
        effects: &mut Effects<M>,
    ) {
        if let (ClientCommand::Get { key }, ReadPath::Follower) = (command, self.options.read_path)
        {
            let applied = self.volatile.applied_index;
            let value = self.volatile.kv.get(&key).copied();
            effects.observe(RaftFact::FollowerRead { applied });
            let outcome = ClientOutcome::Read {
                index: applied,
                value,
            };
            effects.reply(request_id, outcome);
            return;
        }
        if self.volatile.role != RoleLabel::Leader {
            let error = ClientError::NotLeader {
                leader_hint: self.volatile.leader_hint,
            };
            effects.reply(request_id, ClientOutcome::Rejected(error));
            return;
        }
        if let (ClientCommand::Get { key }, ReadPath::ReadIndex) = (command, self.options.read_path)
        {
            self.start_read_index_read(now_us, request_id, key, effects);
            return;
        }
        if let ClientCommand::Get { key } = command {
            if self.options.lease_reads() && self.lease_holds(now_us) {
                let value = self.volatile.kv.get(&key).copied();
                let index = self.volatile.commit_index;
                effects.observe(RaftFact::LeaseRead {
                    term: self.durable.term,
                });
                effects.reply(request_id, ClientOutcome::Read { index, value });
                return;
            }
        }
        let command = match command {
            ClientCommand::Put { key, value } => Command::Put {
                key,
                value,
                request: request_id,
            },
            ClientCommand::Get { key } => Command::Get {
                key,
                request: request_id,
            },
        };
        let index = self.append_as_leader(
            Entry {
                term: self.durable.term,
                command,
            },
            effects,
        );
        self.volatile.pending_requests.insert(index, request_id);
        self.broadcast_append(now_us, effects);
        self.advance_commit(effects);
    }

    /// Appends `command` as leader and starts replicating it; returns its log index, or `None` when this
    /// node does not lead. Used by services built on top of Raft (the lock service).
    pub fn propose(
        &mut self,
        now_us: u64,
        command: Command<A>,
        effects: &mut Effects<M>,
    ) -> Option<LogIndex> {
        if self.volatile.role != RoleLabel::Leader {
            return None;
        }
        let term = self.durable.term;
        let index = self.append_as_leader(Entry { term, command }, effects);
        self.broadcast_append(now_us, effects);
        self.advance_commit(effects);
        Some(index)
    }

    /// The lease runs from the send time of the newest heartbeat a majority acknowledged, for the minimum
    /// election timeout, all on this node's own clock. It also needs an entry of this term committed, so
    /// the map reflects every earlier commit.
    pub fn lease_holds(&self, now_us: u64) -> bool {
        let Some(leader) = self.volatile.leader.as_ref() else {
            return false;
        };
        let committed_in_term =
            self.durable.log.term_at(self.volatile.commit_index) == Some(self.durable.term);
        let acked: Vec<u64> = self
            .voters()
            .iter()
            .map(|voter| leader.acked_sent_at_local_us[voter.index()])
            .collect();
        let mut scratch = Vec::with_capacity(acked.len());
        let lease_start_us = quorum_commit_index(&acked, &mut scratch);
        committed_in_term && now_us < lease_start_us.saturating_add(self.timing.election_min_us)
    }

    pub(super) fn apply_committed(&mut self, effects: &mut Effects<M>) {
        while self.volatile.applied_index < self.volatile.commit_index {
            let index = self.volatile.applied_index.next();
            let Some(entry) = self.durable.log.entry(index).copied() else {
                return;
            };
            self.volatile.applied_index = index;
            let outcome = match entry.command {
                Command::Noop | Command::App(_) | Command::Config { .. } => None,
                Command::Put {
                    key,
                    value,
                    request,
                } => {
                    self.volatile.kv.insert(key, value);
                    Some((
                        request,
                        ClientOutcome::Committed {
                            index,
                            term: entry.term,
                        },
                    ))
                }
                Command::Get { key, request } => {
                    let value = self.volatile.kv.get(&key).copied();
                    Some((request, ClientOutcome::Read { index, value }))
                }
            };
            let Some((request, outcome)) = outcome else {
                continue;
            };
            if self.volatile.pending_requests.get(&index) == Some(&request) {
                self.volatile.pending_requests.remove(&index);
                effects.reply(request, outcome);
            }
        }
        self.serve_read_index_reads(effects);
    }
}
