//! How a plain Raft cluster's actors are built, and the Raft server every world whose servers run
//! Raft starts from. Generic over the world's actor type `A`, its log's payload `P` and its message
//! type `M`, which this folder never names: the registry line picks them
//! (`actors::<Actor, LockOp, Message>`), and `A: From<…>` wraps each server in its `Actor` variant.
//! Servers are built in node order and draw nothing from the world's generator.

use super::{RaftNode, RaftTiming};
use crate::base::ids::NodeId;
use crate::contract::config::WorldConfig;
use crate::contract::layout::Layout;

/// A plain Raft cluster: every node is a Raft server.
pub fn actors<A: From<RaftNode<P, M>>, P, M>(config: &WorldConfig, layout: &Layout) -> Vec<A> {
    (0..layout.servers)
        .map(|index| A::from(server(config, layout, index)))
        .collect()
}

/// Server `n{index + 1}` of a world whose servers run Raft (a plain cluster, a lock service).
pub fn server<P, M>(config: &WorldConfig, layout: &Layout, index: usize) -> RaftNode<P, M> {
    let timing = RaftTiming::from_timing(&config.timing);
    RaftNode::new(
        NodeId(index as u16),
        layout.servers,
        config.raft.clone(),
        timing,
    )
}
