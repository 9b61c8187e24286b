//! The Paxos-aimed chaos profile (what `--profile holders` runs for a Paxos world): faults aimed at the
//! acceptors that hold the chosen value, where a forgetful acceptor hurts.
//!
//! The mixed profile's faults mostly land after every proposer has learned the value, when nothing is
//! at stake. This one plans the dangerous order on purpose: one proposer (the outsider) is cut off from
//! the start, so the others choose a value without it; then a majority or more of the acceptors, drawn
//! at random, crash and restart one after another, their crashes overlapping or not; then the outsider
//! comes back, still cut off from the acceptors that did not restart, and runs its own ballot on the
//! ones that did. Durable acceptors carry the chosen value into that ballot whatever the draw;
//! forgetful ones hand it a majority of empty promises, and it proposes its own value.
//! Everything is drawn from the seed and planned as scenario steps, so the scenario reruns exactly.

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::action::{Action, NodeTarget};
use crate::protocols::paxos::majority;
use crate::tooling::chaos::locks::{chaos_world, push_heal, LockChaosOptions};
use crate::tooling::scenario::{parse_scenario, to_toml_string, Scenario, Step};

const PAXOS_SALT: u64 = 0x9a05_0f0e_1ae7_0013;

/// The aimed scenario for `seed` on the Paxos variant `options` names.
pub fn paxos_aimed_scenario(seed: u64, options: &LockChaosOptions) -> Result<Scenario, String> {
    let mut rng = Rng::new(seed ^ PAXOS_SALT);
    let (mut scenario, layout) = chaos_world(seed, options, &mut rng);
    scenario.title = format!("Paxos-aimed chaos seed {seed}");
    let mut steps = Vec::new();
    let outsider = layout.worker(rng.range_inclusive(0, layout.workers as u64 - 1) as usize);
    let outsider_target = NodeTarget::Node(outsider);
    steps.push(step(
        1,
        Action::Isolate {
            target: outsider_target,
        },
    ));
    let mut at_ms = rng.range_inclusive(300, 600);
    let acceptors = shuffled(&mut rng, layout.servers);
    let least = majority(layout.servers) as u64;
    let forgetting = rng.range_inclusive(least, layout.servers as u64) as usize;
    let mut last_restart_ms = at_ms;
    for acceptor in &acceptors[..forgetting] {
        let target = NodeTarget::Node(*acceptor);
        let restart_ms = at_ms + rng.range_inclusive(10, 50);
        steps.push(step(at_ms, Action::Crash { target }));
        steps.push(step(restart_ms, Action::Restart { target }));
        last_restart_ms = last_restart_ms.max(restart_ms);
        at_ms += rng.range_inclusive(0, 60);
    }
    let return_ms = last_restart_ms + rng.range_inclusive(20, 100);
    steps.push(step(return_ms, Action::Heal));
    for acceptor in &acceptors[forgetting..] {
        let to = NodeTarget::Node(*acceptor);
        let cut = Action::Cut {
            from: outsider_target,
            to,
            both: true,
        };
        steps.push(step(return_ms, cut));
    }
    steps.sort_by_key(|step| step.at_ms);
    scenario.steps = steps;
    push_heal(
        &mut scenario,
        options.fault_window_ms.max(return_ms + 1),
        &layout,
    );
    // As a file carries it: the recorded scenario must read back to the very run.
    parse_scenario(&to_toml_string(&scenario), &format!("paxos seed {seed}"))
        .map_err(|error| error.to_string())
}

fn step(at_ms: u64, action: Action) -> Step {
    Step { at_ms, action }
}

/// The servers of `layout` in an order drawn from `rng`.
fn shuffled(rng: &mut Rng, servers: usize) -> Vec<NodeId> {
    let mut nodes: Vec<NodeId> = (0..servers as u16).map(NodeId).collect();
    for index in (1..nodes.len()).rev() {
        let other = rng.range_inclusive(0, index as u64) as usize;
        nodes.swap(index, other);
    }
    nodes
}
