//! The Paxos-aimed chaos plan (what `--profile holders` runs for a Paxos world): faults aimed at the
//! acceptors that hold the chosen value, where a forgetful acceptor hurts.
//!
//! The mixed profile's faults mostly land after every proposer has learned the value, when nothing is
//! at stake. This plan orders the danger on purpose: one proposer (the outsider) is cut off from the
//! start, so the others choose a value without it; then a majority or more of the acceptors, drawn at
//! random, crash and restart one after another, their crashes overlapping or not; then the outsider
//! comes back, still cut off from the acceptors that did not restart, and runs its own ballot on the
//! ones that did. Durable acceptors carry the chosen value into that ballot whatever the draw;
//! forgetful ones hand it a majority of empty promises, and it proposes its own value.
//! Everything is drawn from the generator the chaos tooling hands over, so the run reruns exactly.

use super::majority;
use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::action::{Action, NodeTarget};
use crate::contract::entry::parts::{AimedChaos, AimedPlan, ChaosNodes, ChaosParts};

pub const CHAOS: ChaosParts = ChaosParts {
    aimed: Some(AimedChaos {
        salt: 0x9a05_0f0e_1ae7_0013,
        title: "Paxos",
        plan,
    }),
    mixed_opening: None,
};

fn plan(rng: &mut Rng, nodes: &ChaosNodes) -> AimedPlan {
    let mut steps = Vec::new();
    let outsider = nodes.worker(rng.range_inclusive(0, nodes.workers as u64 - 1) as usize);
    let outsider_target = NodeTarget::Node(outsider);
    steps.push((
        1,
        Action::Isolate {
            target: outsider_target,
        },
    ));
    let mut at_ms = rng.range_inclusive(300, 600);
    let acceptors = shuffled(rng, nodes.servers);
    let least = majority(nodes.servers) as u64;
    let forgetting = rng.range_inclusive(least, nodes.servers as u64) as usize;
    let mut last_restart_ms = at_ms;
    for acceptor in &acceptors[..forgetting] {
        let target = NodeTarget::Node(*acceptor);
        let restart_ms = at_ms + rng.range_inclusive(10, 50);
        steps.push((at_ms, Action::Crash { target }));
        steps.push((restart_ms, Action::Restart { target }));
        last_restart_ms = last_restart_ms.max(restart_ms);
        at_ms += rng.range_inclusive(0, 60);
    }
    let return_ms = last_restart_ms + rng.range_inclusive(20, 100);
    steps.push((return_ms, Action::Heal));
    for acceptor in &acceptors[forgetting..] {
        let to = NodeTarget::Node(*acceptor);
        let cut = Action::Cut {
            from: outsider_target,
            to,
            both: true,
        };
        steps.push((return_ms, cut));
    }
    steps.sort_by_key(|(at_ms, _)| *at_ms);
    AimedPlan {
        steps,
        heal_not_before_ms: return_ms + 1,
    }
}

/// The servers in an order drawn from `rng`.
fn shuffled(rng: &mut Rng, servers: usize) -> Vec<NodeId> {
    let mut nodes: Vec<NodeId> = (0..servers as u16).map(NodeId).collect();
    for index in (1..nodes.len()).rev() {
        let other = rng.range_inclusive(0, index as u64) as usize;
        nodes.swap(index, other);
    }
    nodes
}
