//! The world seen through the contract's read-only window, for the parts a protocol's folder owns.

use super::World;
use crate::base::clock::LocalClock;
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::config::ProtocolConfig;
use crate::contract::node_status::NodeStatus;
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

    fn servers(&self) -> usize {
        self.layout()
            .map_or(self.nodes.len(), |layout| layout.servers)
    }

    fn status(&self, node: NodeId) -> Option<NodeStatus> {
        self.nodes.get(node.index()).map(|slot| slot.status)
    }

    fn clock(&self, node: NodeId) -> Option<&LocalClock> {
        self.nodes.get(node.index()).map(|slot| &slot.clock)
    }

    fn world_checker(&self) -> Option<&dyn Any> {
        self.checkers().world_any()
    }

    fn requests_committed(&self) -> u64 {
        self.clients.counts.committed
    }
}
