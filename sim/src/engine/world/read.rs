//! The world seen through the contract's read-only window, for the parts a protocol's folder owns.

use super::World;
use crate::base::clock::LocalClock;
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::config::ProtocolConfig;
use crate::contract::node_status::NodeStatus;
use crate::contract::world_read::{StoreTally, WorldRead};
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

    fn label(&self, node: NodeId) -> String {
        self.node_label(node)
    }

    fn is_up(&self, node: NodeId) -> bool {
        self.nodes
            .get(node.index())
            .is_some_and(|slot| slot.status == NodeStatus::Up)
    }

    fn is_paused(&self, node: NodeId) -> bool {
        self.nodes
            .get(node.index())
            .is_some_and(|slot| slot.status == NodeStatus::Paused)
    }

    fn local_us(&self, node: NodeId) -> u64 {
        self.nodes
            .get(node.index())
            .map_or(0, |slot| slot.clock.local_us(self.now))
    }

    fn violation_count(&self, invariant: &str) -> u64 {
        let counts = self.checkers.violation_counts();
        counts.get(invariant).copied().unwrap_or(0)
    }

    fn store_tally(&self) -> Option<StoreTally> {
        let store = self.layout()?.store();
        let resource = self.nodes.get(store.index())?.actor.as_resource()?;
        Some(StoreTally {
            refused_invoices: resource.refused_invoices,
            highest_seen: resource.highest_seen,
        })
    }

    fn latest_violation(&self, invariant: &str) -> Option<String> {
        let records = self.checkers.violations().iter().rev();
        records
            .filter(|record| record.invariant == invariant)
            .map(|record| record.detail.clone())
            .next()
    }
}
