//! The choices offered at one choice point, in a fixed catalogue order: per node (in id order) crash,
//! restart, each timed pause, each clock drift and jump the request offers (within the world's
//! bounds, checked when the request is), each Byzantine mode the request offers (to a node that can
//! lie and does not yet), resume and isolate; then cutting the link of each pair of nodes (lower id
//! first, when the request asks for cuts and the pair can still talk one way or the other); then
//! heal; then dropping each message in flight (in id order), holding each, duplicating each. Each choice has a catalogue key, so the search can
//! offer only later keys at an instant where it already took a step: two faults at one instant are
//! then explored in one order, not both.

use crate::base::ids::NodeId;
use crate::contract::action::{Action, NodeTarget};
use crate::contract::node_status::NodeStatus;
use crate::engine::world::World;
use crate::tooling::explore::request::ExploreRequest;

/// Keys of node faults: `node * NODE_KEY_SPAN + slot`; the slot is the kind (and the pause length).
const NODE_KEY_SPAN: u64 = 128;
/// A node's resume and isolate slots, after its pauses and clock faults.
const RESUME_SLOT: u64 = 62;
const ISOLATE_SLOT: u64 = 63;
/// Cutting one pair's link comes after every node fault: `CUT_KEY_BASE + lower * 2^16 + higher`.
const CUT_KEY_BASE: u64 = 1 << 31;
/// Healing comes after every node fault and cut.
const HEAL_KEY: u64 = 1 << 32;
/// Drops come next, keyed by message id above this.
const DROP_KEY_BASE: u64 = 1 << 33;
/// Holds come next, keyed by message id above this.
const HOLD_KEY_BASE: u64 = 1 << 34;
/// Duplicates come last, keyed by message id above this.
const DUPLICATE_KEY_BASE: u64 = 1 << 35;
/// A node's clock faults take the slots from here (pauses take the 8 before).
const CLOCK_SLOT: u64 = 10;
/// A node's Byzantine modes take the slots from here, after its isolation.
const BYZANTINE_SLOT: u64 = 64;

/// One thing the search can do at a choice point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Its place in the catalogue (see the module notes).
    pub key: u64,
    pub action: Action,
    pub kind: ChoiceKind,
}

/// Which budget a choice spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoiceKind {
    /// A node or network fault.
    Fault,
    /// Losing one message in flight.
    Drop,
    /// Delivering one message as late as its link allows: another order of deliveries, not a fault.
    Hold,
    /// Delivering one message in flight twice.
    Duplicate,
    /// Making a node lie (a Byzantine fault; it has a budget of its own).
    Byzantine,
}

impl ChoiceKind {
    /// Whether a step of this kind is a fault (shrinking removes faults first; reports count them).
    pub fn is_fault(self) -> bool {
        matches!(self, ChoiceKind::Fault | ChoiceKind::Byzantine)
    }
}

/// What is still allowed at this point of a schedule.
#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    pub faults_left: u32,
    pub drops_left: u32,
    pub holds_left: u32,
    pub duplicates_left: u32,
    pub byzantine_left: u32,
    /// Only choices with a key at least this (the canonical order at one instant).
    pub min_key: u64,
}

/// Every choice `world` offers now within `allowance`, in catalogue order.
pub fn choices(world: &World, menu: &ExploreRequest, allowance: Allowance) -> Vec<Choice> {
    let mut offered = Vec::new();
    for (index, slot) in world.nodes().iter().enumerate() {
        if allowance.faults_left > 0 {
            node_faults(index, slot.status, world, menu, &mut offered);
        }
        if allowance.byzantine_left > 0 && slot.actor.lying() == Some(false) {
            byzantine(index, menu, &mut offered);
        }
    }
    if allowance.faults_left > 0 && menu.cut_links {
        cut_links(world, &mut offered);
    }
    let heals = menu.isolate || menu.cut_links;
    if allowance.faults_left > 0 && heals && !world.network().cuts().is_empty() {
        offered.push(fault(HEAL_KEY, Action::Heal));
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
                    kind: ChoiceKind::Drop,
                });
            }
        }
    }
    if allowance.holds_left > 0 {
        holds(world, &mut offered);
    }
    if allowance.duplicates_left > 0 {
        duplicates(world, &mut offered);
    }
    offered.retain(|choice| choice.key >= allowance.min_key);
    offered
}

fn node_faults(
    index: usize,
    status: NodeStatus,
    world: &World,
    menu: &ExploreRequest,
    offered: &mut Vec<Choice>,
) {
    let node = NodeId(index as u16);
    let target = NodeTarget::Node(node);
    let base = index as u64 * NODE_KEY_SPAN;
    match status {
        NodeStatus::Up => {
            if menu.crash {
                offered.push(fault(base, Action::Crash { target }));
            }
            for (slot, &duration_ms) in menu.pause_ms.iter().enumerate() {
                let action = Action::Pause {
                    target,
                    duration_ms: Some(duration_ms),
                };
                offered.push(fault(base + 2 + slot as u64, action));
            }
        }
        NodeStatus::Crashed => offered.push(fault(base + 1, Action::Restart { target })),
        NodeStatus::Paused => offered.push(fault(base + RESUME_SLOT, Action::Resume { target })),
    }
    let clock = world.nodes()[index].clock;
    let offset_us = clock.local_signed_us(world.now()) - world.now().as_micros() as i64;
    clock_faults(base, target, (clock.drift_ppm(), offset_us), menu, offered);
    if menu.isolate {
        isolate(node, base, world, offered);
    }
}

/// A drift is offered only when the clock does not drift so already (a drift replaces the last, so
/// drifts never add up past the bound). A jump is offered only when it leaves the clock no further
/// from true time than the largest jump offered, so jumps do not add up past the bound either. A
/// crashed node's clock runs on too, so these are offered whatever the node's status.
fn clock_faults(
    base: u64,
    target: NodeTarget,
    (drift_now_ppm, offset_us): (i64, i64),
    menu: &ExploreRequest,
    offered: &mut Vec<Choice>,
) {
    let largest_jump_us = menu.jump_ms.iter().map(|ms| ms.abs() * 1_000).max();
    let drifts = menu
        .drift_ppm
        .iter()
        .map(|&ppm| Action::ClockDrift { target, ppm });
    let jumps = menu
        .jump_ms
        .iter()
        .map(|&by_ms| Action::ClockJump { target, by_ms });
    for (slot, action) in drifts.chain(jumps).enumerate() {
        let allowed = match action {
            Action::ClockDrift { ppm, .. } => ppm != drift_now_ppm,
            Action::ClockJump { by_ms, .. } => {
                Some((offset_us + by_ms * 1_000).abs()) <= largest_jump_us
            }
            _ => true,
        };
        if allowed {
            offered.push(fault(base + CLOCK_SLOT + slot as u64, action));
        }
    }
}

/// Each lying mode the request offers, to a node that can lie and does not yet.
fn byzantine(index: usize, menu: &ExploreRequest, offered: &mut Vec<Choice>) {
    let target = NodeTarget::Node(NodeId(index as u16));
    let base = index as u64 * NODE_KEY_SPAN + BYZANTINE_SLOT;
    for (slot, &mode) in menu.byzantine_modes.iter().enumerate() {
        offered.push(Choice {
            key: base + slot as u64,
            action: Action::Byzantine { target, mode },
            kind: ChoiceKind::Byzantine,
        });
    }
}

fn isolate(node: NodeId, base: u64, world: &World, offered: &mut Vec<Choice>) {
    let target = NodeTarget::Node(node);
    let network = world.network();
    let linked = (0..world.node_count())
        .map(|other| NodeId(other as u16))
        .any(|other| {
            other != node && (network.link_up(node, other) || network.link_up(other, node))
        });
    if linked {
        offered.push(fault(base + ISOLATE_SLOT, Action::Isolate { target }));
    }
}

/// Cutting the link between each pair of nodes that can still talk, one way or the other: at most
/// n(n-1)/2 choices, in (lower, higher) id order. Both ways, as the lessons cut a pair ("B and n3");
/// healing is the world's one `Heal`, which restores every cut (there is no one-link heal action).
fn cut_links(world: &World, offered: &mut Vec<Choice>) {
    let network = world.network();
    let count = world.node_count();
    for lower in 0..count {
        for higher in lower + 1..count {
            let (a, b) = (NodeId(lower as u16), NodeId(higher as u16));
            if !network.link_up(a, b) && !network.link_up(b, a) {
                continue;
            }
            let key = CUT_KEY_BASE + ((lower as u64) << 16) + higher as u64;
            let action = Action::Cut {
                from: NodeTarget::Node(a),
                to: NodeTarget::Node(b),
                both: true,
            };
            offered.push(fault(key, action));
        }
    }
}

/// Every message that can still arrive later within its link's delay bound is offered held to that
/// bound: the latest delivery the network allows, so time keeps its meaning. The bound is the link's
/// maximum delay as the link is now (a link changed since the send is judged by its new settings).
fn holds(world: &World, offered: &mut Vec<Choice>) {
    let world_delay_ms = world.config().timing.network_delay_ms;
    for flight in world.network().in_flight.in_id_order() {
        let link = world
            .network()
            .effective(flight.from, flight.to, world_delay_ms);
        let latest_us = flight.sent_at.as_micros() + link.delay_ms.1 * 1_000;
        let room_ms = latest_us.saturating_sub(flight.deliver_at.as_micros()) / 1_000;
        if flight.dropped || room_ms == 0 {
            continue;
        }
        offered.push(Choice {
            key: HOLD_KEY_BASE + flight.id,
            action: Action::HoldMessage {
                message: flight.id,
                from: flight.from,
                to: flight.to,
                by_ms: room_ms,
            },
            kind: ChoiceKind::Hold,
        });
    }
}

/// Which budget a step of a schedule spent (a step the search did not make counts as a fault).
pub fn kind_of(action: &Action) -> ChoiceKind {
    match action {
        Action::DropMessage { .. } => ChoiceKind::Drop,
        Action::HoldMessage { .. } => ChoiceKind::Hold,
        Action::DuplicateMessage { .. } => ChoiceKind::Duplicate,
        Action::Byzantine { .. } => ChoiceKind::Byzantine,
        _ => ChoiceKind::Fault,
    }
}

/// Every message still on its way can arrive twice (see `World`'s `DuplicateMessage`).
fn duplicates(world: &World, offered: &mut Vec<Choice>) {
    for flight in world.network().in_flight.in_id_order() {
        if flight.dropped {
            continue;
        }
        offered.push(Choice {
            key: DUPLICATE_KEY_BASE + flight.id,
            action: Action::DuplicateMessage {
                message: flight.id,
                from: flight.from,
                to: flight.to,
            },
            kind: ChoiceKind::Duplicate,
        });
    }
}

fn fault(key: u64, action: Action) -> Choice {
    Choice {
        key,
        action,
        kind: ChoiceKind::Fault,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::time::SimTime;
    use crate::contract::config::WorldConfig;
    use crate::engine::world::ActionOutcome;

    fn everything() -> Allowance {
        Allowance {
            faults_left: 1,
            drops_left: 1,
            holds_left: 1,
            duplicates_left: 1,
            byzantine_left: 0,
            min_key: 0,
        }
    }

    /// Two pause lengths and one clock fault of each kind, besides crashes and isolation.
    fn menu() -> ExploreRequest {
        ExploreRequest {
            pause_ms: vec![100, 400],
            drift_ppm: vec![500],
            jump_ms: vec![-3],
            ..ExploreRequest::default()
        }
    }

    /// A Raft world at each millisecond of its first second, with every choice it offers there.
    fn offered_over_time() -> Vec<(World, Vec<Choice>)> {
        let mut world = World::new(WorldConfig::raft(3, 5)).unwrap();
        (1..1_000)
            .step_by(37)
            .map(|at_ms| {
                world.run_until(SimTime::from_ms(at_ms));
                (world.clone(), choices(&world, &menu(), everything()))
            })
            .collect()
    }

    #[test]
    fn every_choice_applies_and_holds_stay_within_the_link_bound() {
        let mut holds_seen = 0;
        for (world, offered) in offered_over_time() {
            let max_us = world.config().timing.network_delay_ms.1 * 1_000;
            for choice in offered {
                if let Action::HoldMessage { message, by_ms, .. } = choice.action {
                    let flight = world.network().in_flight.get(&message).unwrap();
                    let held_us = flight.deliver_at.as_micros() + by_ms * 1_000;
                    assert!(held_us <= flight.sent_at.as_micros() + max_us);
                    holds_seen += 1;
                }
                let outcome = world.clone().apply(&choice.action);
                assert_eq!(outcome, ActionOutcome::Applied, "{:?}", choice.action);
            }
        }
        assert!(holds_seen > 0);
    }

    #[test]
    fn a_message_already_held_to_its_bound_is_not_offered_another_hold() {
        let (mut world, offered) = offered_over_time()
            .into_iter()
            .find(|(_, offered)| offered.iter().any(|choice| choice.kind == ChoiceKind::Hold))
            .expect("a hold offered somewhere");
        let hold = offered
            .iter()
            .find(|choice| choice.kind == ChoiceKind::Hold)
            .unwrap();
        let Action::HoldMessage { message, .. } = hold.action else {
            unreachable!("a hold is a HoldMessage");
        };
        assert_eq!(world.apply(&hold.action), ActionOutcome::Applied);
        let again = choices(&world, &ExploreRequest::default(), everything());
        let held_again = again.iter().any(|choice| {
            matches!(choice.action, Action::HoldMessage { message: other, .. } if other == message)
        });
        assert!(!held_again);
        assert!(again
            .iter()
            .any(|choice| choice.key == DROP_KEY_BASE + message));
    }

    #[test]
    fn one_link_cuts_are_offered_per_pair_until_cut_and_heal_follows() {
        let world = World::new(WorldConfig::raft(3, 5)).unwrap();
        let menu = ExploreRequest {
            isolate: false,
            cut_links: true,
            ..ExploreRequest::default()
        };
        let cuts = |world: &World| -> Vec<Choice> {
            choices(world, &menu, everything())
                .into_iter()
                .filter(|choice| matches!(choice.action, Action::Cut { .. } | Action::Heal))
                .collect()
        };
        let offered = cuts(&world);
        assert_eq!(offered.len(), 3, "{offered:?}");
        let mut cut_once = world.clone();
        assert_eq!(cut_once.apply(&offered[0].action), ActionOutcome::Applied);
        let after = cuts(&cut_once);
        assert_eq!(after.len(), 3, "two pairs left and heal: {after:?}");
        assert_eq!(after.last().unwrap().action, Action::Heal);
        assert!(!after.contains(&offered[0]));
        let off = choices(&world, &ExploreRequest::default(), everything());
        assert!(!off
            .iter()
            .any(|choice| matches!(choice.action, Action::Cut { .. })));
    }

    #[test]
    fn the_order_is_fixed_and_min_key_keeps_only_later_choices() {
        let (world, offered) = offered_over_time().pop().unwrap();
        let keys: Vec<u64> = offered.iter().map(|choice| choice.key).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        let again = choices(&world, &menu(), everything());
        assert_eq!(again, offered);
        let later = Allowance {
            min_key: keys[keys.len() / 2],
            ..everything()
        };
        let kept = choices(&world, &menu(), later);
        assert_eq!(kept, offered[keys.len() / 2..].to_vec());
    }
}
