//! PBFT chaos: every PBFT chaos run has one Byzantine replica, since tolerating one is the whole
//! point, and the aimed profile (what `--profile holders` runs for PBFT) makes it the primary.
//!
//! The mixed profile keeps its random crashes, pauses, partitions and loss and adds, at 1 ms, one
//! replica drawn from the seed turning Byzantine in a drawn mode. The aimed profile strikes where a
//! small quorum hurts: the primary of view 0 equivocates from the start, and a backup drawn from the
//! seed is cut off from one other backup for a while, so the two halves it shows different requests
//! compare notes late. Everything is drawn from the seed and planned as scenario steps, so the
//! scenario reruns exactly.

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::action::{Action, ByzantineMode, NodeTarget};
use crate::tooling::chaos::locks::{chaos_world, push_heal, LockChaosOptions};
use crate::tooling::scenario::{parse_scenario, to_toml_string, Scenario, Step};

const PBFT_SALT: u64 = 0x9bf7_0b12_a471_0013;

const LYING_MODES: [ByzantineMode; 3] = [
    ByzantineMode::Equivocate,
    ByzantineMode::Lie,
    ByzantineMode::Silent,
];

/// The mixed profile's liar: one replica of `servers`, in one of the three lying modes, from 1 ms.
pub fn add_liar(scenario: &mut Scenario, seed: u64, servers: usize) {
    let mut rng = Rng::new(seed ^ PBFT_SALT);
    let replica = NodeId(rng.range_inclusive(0, servers as u64 - 1) as u16);
    let mode = LYING_MODES[rng.range_inclusive(0, 2) as usize];
    let action = Action::Byzantine {
        target: NodeTarget::Node(replica),
        mode,
    };
    scenario.steps.insert(0, Step { at_ms: 1, action });
}

/// The aimed scenario for `seed` on the PBFT variant `options` names.
pub fn pbft_aimed_scenario(seed: u64, options: &LockChaosOptions) -> Result<Scenario, String> {
    let mut rng = Rng::new(seed ^ PBFT_SALT);
    let (mut scenario, layout) = chaos_world(seed, options, &mut rng);
    scenario.title = format!("PBFT-aimed chaos seed {seed}");
    let primary = NodeTarget::Node(NodeId(0));
    let mut steps = vec![Step {
        at_ms: 1,
        action: Action::Byzantine {
            target: primary,
            mode: ByzantineMode::Equivocate,
        },
    }];
    if layout.servers >= 3 {
        let backups = layout.servers as u64 - 1;
        let one = rng.range_inclusive(1, backups);
        let other = 1 + (one + rng.range_inclusive(0, backups - 2)) % backups;
        let cut_ms = rng.range_inclusive(1, 300);
        let cut = Action::Cut {
            from: NodeTarget::Node(NodeId(one as u16)),
            to: NodeTarget::Node(NodeId(other as u16)),
            both: true,
        };
        steps.push(Step {
            at_ms: cut_ms,
            action: cut,
        });
    }
    scenario.steps = steps;
    push_heal(&mut scenario, options.fault_window_ms.max(2), &layout);
    // As a file carries it: the recorded scenario must read back to the very run.
    parse_scenario(&to_toml_string(&scenario), &format!("pbft seed {seed}"))
        .map_err(|error| error.to_string())
}
