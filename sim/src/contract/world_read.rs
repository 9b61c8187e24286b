//! A read-only window on a running world, for the parts a protocol's folder owns (its price, its
//! report, later its view and lesson checks). The folder sits below the engine and cannot name
//! `World`; the engine implements this trait, and the folder reads its own actors through it by
//! downcasting to the types it declared.

use crate::base::clock::LocalClock;
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::base::units::FencingToken;
use crate::contract::config::ProtocolConfig;
use crate::contract::node_status::NodeStatus;
use std::any::Any;

pub trait WorldRead {
    fn now(&self) -> SimTime;
    fn node_count(&self) -> usize;
    /// The node's actor as its protocol's own type (a `PbftClient`, say), for the folder to downcast;
    /// `None` past the last node.
    fn actor(&self, node: NodeId) -> Option<&dyn Any>;
    fn protocol(&self) -> &ProtocolConfig;
    /// How many nodes are servers (numbered first); every node in a plain Raft cluster.
    fn servers(&self) -> usize;
    /// Whether the node is up, crashed or paused; `None` past the last node.
    fn status(&self, node: NodeId) -> Option<NodeStatus>;
    /// The node's own clock; `None` past the last node.
    fn clock(&self, node: NodeId) -> Option<&LocalClock>;
    /// The world's own checker (its registry entry's), for the folder to downcast to its type.
    fn world_checker(&self) -> Option<&dyn Any>;
    /// Client requests the cluster has committed so far (Raft's client box).
    fn requests_committed(&self) -> u64;
    /// The node's name as scenario files, the view and the report write it (`n2`, `A`, `store`).
    fn label(&self, node: NodeId) -> String;
    /// Whether the node runs (neither crashed nor paused).
    fn is_up(&self, node: NodeId) -> bool;
    /// Whether the node is paused (frozen, its state kept).
    fn is_paused(&self, node: NodeId) -> bool;
    /// The node's own clock reading, in microseconds (it may drift from `now`).
    fn local_us(&self, node: NodeId) -> u64;
    /// Violations of `invariant` found so far, counted past the list's cap.
    fn violation_count(&self, invariant: &str) -> u64;
    /// The newest listed violation of `invariant`, in words.
    fn latest_violation(&self, invariant: &str) -> Option<String>;
    /// What the protected store has counted so far, in a world that has one.
    fn store_tally(&self) -> Option<StoreTally>;
}

/// What the protected store (`store`) has counted, for a world's parts that cannot name the store's
/// type (the invoice scheduler's: the store itself speaks the scheduler's invoices, so the scheduler's
/// folder importing it would make a cycle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StoreTally {
    /// Invoice runs refused for carrying a token below the highest seen.
    pub refused_invoices: u64,
    /// The highest fencing token the store has seen.
    pub highest_seen: FencingToken,
}

/// Every actor of type `T` in `world`, in node order.
pub fn actors_of<'world, T: 'static>(
    world: &'world dyn WorldRead,
) -> impl Iterator<Item = (NodeId, &'world T)> + 'world {
    (0..world.node_count()).filter_map(move |index| {
        let node = NodeId(index as u16);
        let actor = world.actor(node)?.downcast_ref::<T>()?;
        Some((node, actor))
    })
}
