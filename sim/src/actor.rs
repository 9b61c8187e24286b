//! The closed set of actors and messages a world can hold.
//!
//! Worlds are heterogeneous: a later lesson runs Raft servers, lock clients and a protected resource side
//! by side. Each protocol contributes one variant to [`Actor`] and one to [`Message`]; the world only sees
//! these two enums and the [`Protocol`] trait, so adding a protocol touches no engine code.

use crate::protocol::{ActorSummary, Effects, Input, Protocol};
use crate::raft::{RaftMessage, RaftNode};

#[derive(Clone, Debug)]
pub enum Actor {
    Raft(RaftNode),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Raft(RaftMessage),
}

impl Message {
    /// Short human label for the UI and the trace ("RequestVote", "Heartbeat", "Vote granted", ...).
    pub fn label(&self) -> &'static str {
        match self {
            Message::Raft(message) => message.label(),
        }
    }
}

impl Message {
    /// The term the message carries (0 for protocols without terms).
    pub fn term(&self) -> u64 {
        match self {
            Message::Raft(message) => message.term(),
        }
    }

    /// How many log entries the message carries (for drawing fat AppendEntries).
    pub fn entry_count(&self) -> u32 {
        match self {
            Message::Raft(RaftMessage::AppendEntries { entries, .. }) => entries.len() as u32,
            Message::Raft(_) => 0,
        }
    }
}

impl Actor {
    pub fn as_raft(&self) -> Option<&RaftNode> {
        match self {
            Actor::Raft(node) => Some(node),
        }
    }
}

impl Protocol for Actor {
    fn handle(&mut self, local_now_us: u64, input: Input<'_>, effects: &mut Effects) {
        match self {
            Actor::Raft(node) => node.handle(local_now_us, input, effects),
        }
    }

    fn crash(&mut self) {
        match self {
            Actor::Raft(node) => node.crash(),
        }
    }

    fn summary(&self) -> ActorSummary {
        match self {
            Actor::Raft(node) => node.summary(),
        }
    }
}
