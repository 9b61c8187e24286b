//! Client ops read off the messages actors send and receive, for worlds whose clients are nodes (the
//! lock service's workers and the store they write): a message that starts an op is its invoke, the
//! answer its client receives is its end. Each message says for itself what it tells
//! (`worlds::history_tap`); an invoke is recorded only when one of the world's models judges the
//! call, so a world with no model for it records nothing.
//!
//! Like every write to the client log, these draw nothing, schedule nothing and record no trace: a
//! run's hash does not know they happen.

use super::World;
use crate::base::ids::NodeId;
use crate::contract::client_history::{Tap, Who};
use crate::worlds::actor::Message;

impl World {
    /// `from` sends `message`.
    pub(super) fn tap_send(&mut self, from: NodeId, message: &Message) {
        let Some(tap) = message.tap_sent(from) else {
            return;
        };
        if matches!(tap, Tap::Invoke { .. }) && self.history_models().is_empty() {
            return;
        }
        let at_us = self.now.as_micros();
        self.client_log.tap(at_us, Who::Node(from), tap, None);
    }

    /// `node` receives `message` from `from`.
    pub(super) fn tap_receive(&mut self, node: NodeId, from: NodeId, message: &Message) {
        let who = Who::Node(node);
        let log = &self.client_log;
        let Some(tap) = message.tap_received(&|local| log.open_call(who, local)) else {
            return;
        };
        let at_us = self.now.as_micros();
        self.client_log.tap(at_us, who, tap, Some(from));
    }
}
