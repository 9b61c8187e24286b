//! The price of agreement in the report: how many messages a Raft or PBFT run sent for the requests
//! it committed. The world counts every `Send` effect as a node makes it (before the network loses
//! or duplicates it), so the figure is the protocol's own cost, the same way for every protocol.
//!
//! What counts as committed differs by protocol and is said in [`MessagePrice::committed`]: a Raft
//! write the cluster committed, or a PBFT result a client took on f + 1 matching replies. Other
//! worlds get no price: a lock grant or a chosen Paxos value is not a committed request.

use super::World;
use crate::contract::config::ProtocolConfig;
use crate::contract::report::MessagePrice;
use crate::protocols::pbft::PbftClient;

/// The label a Raft leader's empty `AppendEntries` carries (`RaftMessage::label`).
pub(super) const HEARTBEAT_LABEL: &str = "Heartbeat";

impl World {
    /// Messages sent so far, and of them Raft heartbeats.
    pub fn messages_sent(&self) -> (u64, u64) {
        (self.messages_sent, self.heartbeats_sent)
    }

    pub(super) fn message_price(&self) -> Option<MessagePrice> {
        let (messages, heartbeats) = self.messages_sent();
        match self.config().protocol {
            ProtocolConfig::Raft => {
                let committed = self.clients().counts.committed;
                Some(MessagePrice::new("raft", messages, heartbeats, committed))
            }
            ProtocolConfig::Pbft(..) => {
                let results_taken = self
                    .nodes()
                    .iter()
                    .filter_map(|slot| slot.actor.as_pbft_client())
                    .map(|client: &PbftClient| client.accepted)
                    .sum();
                Some(MessagePrice::new(
                    "pbft",
                    messages,
                    heartbeats,
                    results_taken,
                ))
            }
            _ => None,
        }
    }
}
