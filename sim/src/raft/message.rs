//! Raft's four messages (Figure 2 of the paper), plus the PreVote flag (§9.6 of Ongaro's thesis).

use crate::ids::NodeId;
use crate::protocol::Carries;
use crate::raft::log::Entry;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaftMessage<A> {
    RequestVote {
        term: u64,
        candidate: NodeId,
        last_log_index: u64,
        last_log_term: u64,
        /// A PreVote asks "would you vote for me?" without anyone changing term.
        pre_vote: bool,
    },
    RequestVoteReply {
        term: u64,
        granted: bool,
        pre_vote: bool,
    },
    AppendEntries {
        term: u64,
        leader: NodeId,
        prev_log_index: u64,
        prev_log_term: u64,
        entries: Vec<Entry<A>>,
        leader_commit: u64,
        /// The leader's local clock when it sent this; echoed back so the leader can time its lease.
        sent_at_local_us: u64,
    },
    AppendEntriesReply {
        term: u64,
        success: bool,
        /// On success: the index of the last entry known to match the leader's log.
        match_index: u64,
        /// On rejection: where the leader should retry from (first index of the conflicting term).
        conflict_index: u64,
        echo_sent_at_local_us: u64,
    },
}

/// Raft on its own (its tests, or a world that speaks nothing else): its messages are the whole wire.
impl<A> Carries<RaftMessage<A>> for RaftMessage<A> {
    fn wrap(inner: RaftMessage<A>) -> RaftMessage<A> {
        inner
    }

    fn peel(&self) -> Option<&RaftMessage<A>> {
        Some(self)
    }
}

impl<A> RaftMessage<A> {
    pub fn label(&self) -> &'static str {
        match self {
            RaftMessage::RequestVote { pre_vote: true, .. } => "PreVote",
            RaftMessage::RequestVote { .. } => "RequestVote",
            RaftMessage::RequestVoteReply {
                pre_vote: true,
                granted: true,
                ..
            } => "PreVote granted",
            RaftMessage::RequestVoteReply { pre_vote: true, .. } => "PreVote denied",
            RaftMessage::RequestVoteReply { granted: true, .. } => "Vote granted",
            RaftMessage::RequestVoteReply { .. } => "Vote denied",
            RaftMessage::AppendEntries { entries, .. } if entries.is_empty() => "Heartbeat",
            RaftMessage::AppendEntries { .. } => "AppendEntries",
            RaftMessage::AppendEntriesReply { success: true, .. } => "AppendEntries ok",
            RaftMessage::AppendEntriesReply { .. } => "AppendEntries reject",
        }
    }

    pub fn term(&self) -> u64 {
        match self {
            RaftMessage::RequestVote { term, .. }
            | RaftMessage::RequestVoteReply { term, .. }
            | RaftMessage::AppendEntries { term, .. }
            | RaftMessage::AppendEntriesReply { term, .. } => *term,
        }
    }
}
