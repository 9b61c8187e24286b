//! Where the stage puts things: its size and each node's position and radius for the current node
//! count. Every layer of the drawing (links, messages, nodes, lease rings, watches) reads this one
//! geometry, so it lives apart from the stage component that assembles them.

use crate::layout::{
    circle_positions, node_radius, ring_radius, timer_ring_gap, Point, COMPACT_ABOVE_NODES,
};
use quorumlab_sim::ids::NodeId;

pub const STAGE_WIDTH: f64 = 1000.0;
pub const STAGE_HEIGHT: f64 = 800.0;

/// Node positions and size for the current cluster; recomputed only when the node count changes.
#[derive(Clone, Debug, PartialEq)]
pub struct StageGeometry {
    pub positions: Vec<Point>,
    pub node_radius: f64,
    pub ring_radius: f64,
    /// Gap between a node and its timer ring.
    pub timer_gap: f64,
    /// Small nodes, no captions: used above `COMPACT_ABOVE_NODES`.
    pub compact: bool,
}

impl StageGeometry {
    /// The ring for `count` nodes, centred on the stage.
    pub fn for_nodes(count: usize) -> StageGeometry {
        let center = Point {
            x: STAGE_WIDTH / 2.0,
            y: STAGE_HEIGHT / 2.0,
        };
        StageGeometry {
            positions: circle_positions(count, center, ring_radius(count)),
            node_radius: node_radius(count),
            ring_radius: ring_radius(count),
            timer_gap: timer_ring_gap(count),
            compact: count > COMPACT_ABOVE_NODES,
        }
    }

    pub fn position(&self, node: NodeId) -> Point {
        self.positions
            .get(node.index())
            .copied()
            .unwrap_or(Point { x: 0.0, y: 0.0 })
    }
}
