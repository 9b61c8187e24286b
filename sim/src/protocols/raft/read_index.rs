//! Read-index reads (Ongaro's dissertation, §6.4): linearizable reads without appending to the log.
//!
//! A leader that receives a read notes its *read index*, the commit index at that moment (or, before
//! an entry of its own term has committed, its last index, so that the read waits for the start-of-term
//! no-op and with it every entry an earlier leader committed). It must then make sure it still leads:
//! a newer leader may have been elected behind its back and acknowledged writes this one never saw. So
//! it sends a heartbeat round and waits until a majority (itself included) has answered a heartbeat
//! sent *after* the read arrived; a server that answers in this leader's term has not voted for anyone
//! newer. Once, in addition, its state machine has applied the read index, it answers from the map.
//!
//! "Sent after the read arrived" is judged by the send time each AppendEntries carries and each reply
//! echoes, on the leader's own clock. A clock that jumps backwards would make an older heartbeat look
//! newer (a reads sweep without this guard refused nine seeds in ten), so the leader also remembers
//! the latest stamp it sent this term and, when that is not below the read's arrival time, trusts only
//! echoes above it: a backward jump delays the answer, never makes it stale. No clock *rate* enters,
//! which is why, unlike a lease read, a read-index read stays linearizable however clocks drift.
//!
//! A leader that steps down drops its waiting reads; their clients time out and report the outcome as
//! unknown, which a read's history can always absorb.

use super::quorum::majority;
use super::{Payload, RaftNode, RaftWire};
use crate::base::units::LogIndex;
use crate::contract::protocol::{ClientOutcome, Effects, RaftFact, RequestId};

/// A leader's read-index bookkeeping for its term.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadIndexReads {
    /// The latest send time (local clock) this leader stamped on an AppendEntries; kept only while
    /// the read-index path is chosen, so other runs' state stays as it was.
    pub highest_sent_local_us: u64,
    /// Reads waiting for their confirmation round or for the state machine to catch up.
    pub waiting: Vec<WaitingRead>,
}

/// One read the leader has not answered yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WaitingRead {
    pub request: RequestId,
    pub key: u32,
    pub read_index: LogIndex,
    /// A reply counts toward this read's confirmation if it echoes a send time at or after this.
    pub confirm_from_local_us: u64,
}

// By hand: a run that never chose read-index reads hashes as it did before they existed.
impl std::hash::Hash for ReadIndexReads {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if *self != ReadIndexReads::default() {
            self.highest_sent_local_us.hash(state);
            self.waiting.hash(state);
        }
    }
}

impl<A: Payload, M: RaftWire<A>> RaftNode<A, M> {
    /// The leader takes a read on the read-index path: notes it, starts a confirmation round, and
    /// answers at once if it needs no one else (a one-server cluster with the index applied).
    pub(super) fn start_read_index_read(
        &mut self,
        now_us: u64,
        request: RequestId,
        key: u32,
        effects: &mut Effects<M>,
    ) {
        let log = &self.durable.log;
        let committed_in_term = log.term_at(self.volatile.commit_index) == Some(self.durable.term);
        let read_index = if committed_in_term {
            self.volatile.commit_index
        } else {
            log.last_index()
        };
        let Some(leader) = self.volatile.leader.as_mut() else {
            return;
        };
        let highest = leader.reads.highest_sent_local_us;
        // A stamp equal to now may be this instant's (harmless) or an older one the clock came back
        // to after a jump; they cannot be told apart, so only later stamps count then.
        let confirm_from_local_us = if highest >= now_us {
            highest + 1
        } else {
            now_us
        };
        leader.reads.waiting.push(WaitingRead {
            request,
            key,
            read_index,
            confirm_from_local_us,
        });
        self.broadcast_append(now_us, effects);
        self.serve_read_index_reads(effects);
    }

    /// Notes a send time stamped on an AppendEntries, on the read-index path only.
    pub(super) fn note_append_sent(&mut self, now_us: u64) {
        if self.options.read_path != crate::contract::config::ReadPath::ReadIndex {
            return;
        }
        if let Some(leader) = self.volatile.leader.as_mut() {
            let highest = &mut leader.reads.highest_sent_local_us;
            *highest = (*highest).max(now_us);
        }
    }

    /// Answers every waiting read whose leadership a majority confirmed and whose index is applied.
    pub(super) fn serve_read_index_reads(&mut self, effects: &mut Effects<M>) {
        let voters = self.voters();
        let me = self.id;
        let applied = self.volatile.applied_index;
        let Some(leader) = self.volatile.leader.as_mut() else {
            return;
        };
        if leader.reads.waiting.is_empty() {
            return;
        }
        let acked = &leader.acked_sent_at_local_us;
        let needed = majority(voters.len());
        let mut ready = Vec::new();
        leader.reads.waiting.retain(|read| {
            let confirmations = voters
                .iter()
                .filter(|voter| *voter == me || acked[voter.index()] >= read.confirm_from_local_us)
                .count();
            let answer = confirmations >= needed && applied >= read.read_index;
            if answer {
                ready.push(*read);
            }
            !answer
        });
        for read in ready {
            let value = self.volatile.kv.get(&read.key).copied();
            effects.observe(RaftFact::ReadIndexRead {
                term: self.durable.term,
                read_index: read.read_index,
            });
            let outcome = ClientOutcome::Read {
                index: applied,
                value,
            };
            effects.reply(read.request, outcome);
        }
    }
}
