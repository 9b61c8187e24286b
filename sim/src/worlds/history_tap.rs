//! Which messages are client ops: the world asks a message, as an actor sends or receives it, what it
//! tells the client history, and each protocol's folder answers for its own messages (the store's
//! accesses, the lock service's acquires and releases). Messages between servers tell nothing.

use crate::base::ids::NodeId;
use crate::contract::client_history::{OpCall, Tap};
use crate::worlds::actor::Message;

impl Message {
    /// The op a client starts by sending this message, if it starts one.
    pub fn tap_sent(&self, client: NodeId) -> Option<Tap> {
        match self {
            Message::Resource(message) => message.tap_sent(),
            Message::LockService(message) => message.tap_sent(client.0),
            _ => None,
        }
    }

    /// What a client learns from receiving this message. `open` finds the call still open under
    /// one of the client's own op ids.
    pub fn tap_received(&self, open: &dyn Fn(u64) -> Option<OpCall>) -> Option<Tap> {
        match self {
            Message::Resource(message) => message.tap_received(open),
            Message::LockService(message) => message.tap_received(),
            _ => None,
        }
    }
}
