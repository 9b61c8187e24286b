//! A read-only window on a running world, for the parts a protocol's folder owns (its price, its
//! report, later its view and lesson checks). The folder sits below the engine and cannot name
//! `World`; the engine implements this trait, and the folder reads its own actors through it by
//! downcasting to the types it declared.

use crate::base::clock::LocalClock;
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
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
