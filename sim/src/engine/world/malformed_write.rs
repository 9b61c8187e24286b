//! Making a worker send the store a write it cannot read (`Action::MalformedWrite`).
//!
//! The learner plays a client with a bug: the worker goes on with its job, and beside it sends one
//! spoiled write through the network like any other message, so it can be lost, held or cut off on
//! the way. What the store does with it is the store's business (`protocols/resource/boundary.rs`).
//! Only a worker writes to the store, and only an up one sends anything, so any other target is
//! skipped with the reason, in the learner's names.

use super::{NodeStatus, World};
use crate::contract::action::{MalformedFault, NodeTarget};

impl World {
    pub(super) fn send_malformed_write(
        &mut self,
        target: NodeTarget,
        fault: MalformedFault,
    ) -> Result<(), String> {
        let node = self.resolve(target)?;
        let name = self.node_label(node);
        let slot = &self.nodes[node.index()];
        if slot.actor.as_worker().is_none() {
            return Err(format!(
                "{name} is not a worker: only a worker writes to the store, so only a worker can \
                 send it a malformed write"
            ));
        }
        if slot.status != NodeStatus::Up {
            let status = slot.status.as_str();
            return Err(format!("{name} is {status}, not up: it sends nothing"));
        }
        self.run_actor(node, |actor, _, effects| {
            if let Some(worker) = actor.as_worker_mut() {
                worker.send_malformed_write(fault, effects);
            }
        });
        Ok(())
    }
}
