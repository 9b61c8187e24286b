//! The price of agreement in the report: how many messages a Raft or PBFT run sent for the requests
//! it committed. The world counts every `Send` effect as a node makes it (before the network loses
//! or duplicates it), so the figure is the protocol's own cost, the same way for every protocol.
//!
//! What counts as committed differs by protocol and is said in [`MessagePrice::committed`]: a Raft
//! write the cluster committed, or a PBFT result a client took on f + 1 matching replies. Other
//! worlds get no price: a lock grant or a chosen Paxos value is not a committed request. Each world's
//! folder says what it commits (`WorldParts::committed_requests`).

use super::World;
use crate::contract::report::MessagePrice;

/// The label a Raft leader's empty `AppendEntries` carries (`RaftMessage::label`).
pub(super) const HEARTBEAT_LABEL: &str = "Heartbeat";

impl World {
    /// Messages sent so far, and of them Raft heartbeats.
    pub fn messages_sent(&self) -> (u64, u64) {
        (self.messages_sent, self.heartbeats_sent)
    }

    /// The price of what the world commits, where its registry entry says what it commits.
    pub(super) fn message_price(&self) -> Option<MessagePrice> {
        let (messages, heartbeats) = self.messages_sent();
        let parts = self.config().protocol.entry().parts;
        let (protocol, committed) = parts.committed_requests(self)?;
        Some(MessagePrice::new(protocol, messages, heartbeats, committed))
    }
}
