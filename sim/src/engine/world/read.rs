//! The world seen through the contract's read-only window, for the parts a protocol's folder owns.

use super::World;
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::config::ProtocolConfig;
use crate::contract::world_read::WorldRead;
use std::any::Any;

impl WorldRead for World {
    fn now(&self) -> SimTime {
        self.now
    }

    fn node_count(&self) -> usize {
        self.nodes.len()
    }

    fn actor(&self, node: NodeId) -> Option<&dyn Any> {
        self.nodes.get(node.index()).map(|slot| slot.actor.as_any())
    }

    fn protocol(&self) -> &ProtocolConfig {
        &self.config.protocol
    }

    fn requests_committed(&self) -> u64 {
        self.clients.counts.committed
    }
}
