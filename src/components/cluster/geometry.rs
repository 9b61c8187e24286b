//! Where the stage puts things: its size and each node's position and radius for the current node
//! count. Every layer of the drawing (links, messages, nodes, lease rings, watches) reads this one
//! geometry, so it lives apart from the stage component that assembles them.

use crate::layout::{
    circle_positions, node_radius, parked_positions, ring_radius, timer_ring_gap, Point,
    COMPACT_ABOVE_NODES,
};
use quorumlab_sim::ids::NodeId;

pub const STAGE_WIDTH: f64 = 1000.0;
pub const STAGE_HEIGHT: f64 = 800.0;
/// What a line of the node's words reaches below its baseline (descenders, a little air).
const WORDS_DESCENT: f64 = 6.0;

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

    /// The ring for the nodes whose `on_ring` is true, in id order; the others wait off the ring in
    /// the stage's bottom corners (servers outside the configuration). Sizes follow the ring's count.
    pub fn for_seats(on_ring: &[bool]) -> StageGeometry {
        let ring_count = on_ring.iter().filter(|on| **on).count();
        if ring_count == on_ring.len() {
            return StageGeometry::for_nodes(ring_count);
        }
        let mut geometry = StageGeometry::for_nodes(ring_count.max(1));
        let radius = geometry.node_radius;
        let mut ring = geometry.positions.clone().into_iter();
        let off_count = on_ring.len() - ring_count;
        let mut parked =
            parked_positions(off_count, STAGE_WIDTH, STAGE_HEIGHT, radius * 2.4).into_iter();
        geometry.positions = on_ring
            .iter()
            .map(|on| {
                let next = if *on { ring.next() } else { parked.next() };
                next.unwrap_or(Point { x: 0.0, y: 0.0 })
            })
            .collect();
        geometry
    }

    /// Whether a line of words with its baseline `below` units under `node`'s centre stays on the
    /// stage: the drawing clips what falls past its foot, where the caption band begins.
    pub fn fits_below(&self, node: NodeId, below: f64) -> bool {
        self.position(node).y + below + WORDS_DESCENT <= STAGE_HEIGHT
    }

    pub fn position(&self, node: NodeId) -> Point {
        self.positions
            .get(node.index())
            .copied()
            .unwrap_or(Point { x: 0.0, y: 0.0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_under_the_bottom_node_of_four_fall_off_the_stage_and_under_the_top_one_do_not() {
        let four = StageGeometry::for_nodes(4);
        let below = four.node_radius + 52.0;
        assert!(four.fits_below(NodeId(0), below), "n1 at the top");
        assert!(four.fits_below(NodeId(1), below), "n2 on the right");
        assert!(!four.fits_below(NodeId(2), below), "n3 at the foot");
        // Five nodes put none at the very foot: every node's words fit under it.
        let five = StageGeometry::for_nodes(5);
        assert!((0..5).all(|index| five.fits_below(NodeId(index), below)));
    }

    #[test]
    fn servers_off_the_ring_leave_it_and_the_rest_close_ranks() {
        let all = StageGeometry::for_seats(&[true; 5]);
        assert_eq!(all, StageGeometry::for_nodes(5));
        let four = StageGeometry::for_seats(&[true, false, true, true, true]);
        let ring_of_four = StageGeometry::for_nodes(4);
        assert_eq!(four.positions[0], ring_of_four.positions[0]);
        assert_eq!(four.positions[2], ring_of_four.positions[1]);
        assert_eq!(four.positions[4], ring_of_four.positions[3]);
        let center = Point {
            x: STAGE_WIDTH / 2.0,
            y: STAGE_HEIGHT / 2.0,
        };
        let off = four.position(NodeId(1));
        let from_center = ((off.x - center.x).powi(2) + (off.y - center.y).powi(2)).sqrt();
        assert!(from_center > four.ring_radius + four.node_radius, "{off:?}");
    }
}
