//! Raft's four messages (Figure 2 of the paper), plus the PreVote flag (§9.6 of Ongaro's thesis).

use crate::base::ids::NodeId;
use crate::base::units::{LogIndex, Term};
use crate::contract::protocol::{Carries, Observes, RaftFact, Wire};
use crate::protocols::raft::log::Entry;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RaftMessage<A> {
    RequestVote {
        term: Term,
        candidate: NodeId,
        last_log_index: LogIndex,
        last_log_term: Term,
        /// A PreVote asks "would you vote for me?" without anyone changing term.
        pre_vote: bool,
    },
    RequestVoteReply {
        term: Term,
        granted: bool,
        pre_vote: bool,
    },
    AppendEntries {
        term: Term,
        leader: NodeId,
        prev_log_index: LogIndex,
        prev_log_term: Term,
        entries: Vec<Entry<A>>,
        leader_commit: LogIndex,
        /// The leader's local clock when it sent this; echoed back so the leader can time its lease.
        sent_at_local_us: u64,
    },
    AppendEntriesReply {
        term: Term,
        success: bool,
        /// On success: the index of the last entry known to match the leader's log.
        match_index: LogIndex,
        /// On rejection: where the leader should retry from (first index of the conflicting term).
        conflict_index: LogIndex,
        echo_sent_at_local_us: u64,
    },
}

/// Raft on its own (its tests, or a world that speaks nothing else): its messages are the whole wire,
/// and its facts all there is to observe.
impl<A> Wire for RaftMessage<A> {
    type Fact = RaftFact;
}

impl<A> Observes<RaftFact> for RaftMessage<A> {
    fn observed(inner: RaftFact) -> RaftFact {
        inner
    }
}

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

    pub fn term(&self) -> Term {
        match self {
            RaftMessage::RequestVote { term, .. }
            | RaftMessage::RequestVoteReply { term, .. }
            | RaftMessage::AppendEntries { term, .. }
            | RaftMessage::AppendEntriesReply { term, .. } => *term,
        }
    }
}
