//! The choices offered at one choice point, in a fixed catalogue order: per node (in id order) crash,
//! restart, each timed pause, resume and isolate; then heal; then dropping each message in flight (in
//! id order). Each choice has a catalogue key, so the search can offer only later keys at an instant
//! where it already took a step: two faults at one instant are then explored in one order, not both.

use crate::base::ids::NodeId;
use crate::contract::action::{Action, NodeTarget};
use crate::contract::node_status::NodeStatus;
use crate::engine::world::World;

/// Keys of node faults: `node * NODE_KEY_SPAN + slot`; the slot is the kind (and the pause length).
const NODE_KEY_SPAN: u64 = 64;
/// Healing comes after every node fault.
const HEAL_KEY: u64 = 1 << 32;
/// Drops come last, keyed by message id above this.
const DROP_KEY_BASE: u64 = 1 << 33;

/// One thing the search can do at a choice point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Its place in the catalogue (see the module notes).
    pub key: u64,
    pub action: Action,
    /// A single-message drop (counted against the drop budget, not the fault budget).
    pub is_drop: bool,
}

/// What is still allowed at this point of a schedule.
#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    pub faults_left: u32,
    pub drops_left: u32,
    /// Only choices with a key at least this (the canonical order at one instant).
    pub min_key: u64,
}

/// Every choice `world` offers now within `allowance`, in catalogue order.
pub fn choices(world: &World, pause_ms: &[u64], allowance: Allowance) -> Vec<Choice> {
    let mut offered = Vec::new();
    if allowance.faults_left > 0 {
        for (index, slot) in world.nodes().iter().enumerate() {
            node_faults(index, slot.status, world, pause_ms, &mut offered);
        }
        if !world.network().cuts().is_empty() {
            offered.push(fault(HEAL_KEY, Action::Heal));
        }
    }
    if allowance.drops_left > 0 {
        for flight in world.network().in_flight.in_id_order() {
            if !flight.dropped {
                offered.push(Choice {
                    key: DROP_KEY_BASE + flight.id,
                    action: Action::DropMessage {
                        message: flight.id,
                        from: flight.from,
                        to: flight.to,
                    },
                    is_drop: true,
                });
            }
        }
    }
    offered.retain(|choice| choice.key >= allowance.min_key);
    offered
}

fn node_faults(
    index: usize,
    status: NodeStatus,
    world: &World,
    pause_ms: &[u64],
    offered: &mut Vec<Choice>,
) {
    let node = NodeId(index as u16);
    let target = NodeTarget::Node(node);
    let base = index as u64 * NODE_KEY_SPAN;
    match status {
        NodeStatus::Up => {
            offered.push(fault(base, Action::Crash { target }));
            for (slot, &duration_ms) in pause_ms.iter().enumerate() {
                let action = Action::Pause {
                    target,
                    duration_ms: Some(duration_ms),
                };
                offered.push(fault(base + 2 + slot as u64, action));
            }
        }
        NodeStatus::Crashed => offered.push(fault(base + 1, Action::Restart { target })),
        NodeStatus::Paused => {
            offered.push(fault(base + NODE_KEY_SPAN - 2, Action::Resume { target }))
        }
    }
    let network = world.network();
    let linked = (0..world.node_count())
        .map(|other| NodeId(other as u16))
        .any(|other| {
            other != node && (network.link_up(node, other) || network.link_up(other, node))
        });
    if linked {
        offered.push(fault(base + NODE_KEY_SPAN - 1, Action::Isolate { target }));
    }
}

fn fault(key: u64, action: Action) -> Choice {
    Choice {
        key,
        action,
        is_drop: false,
    }
}
