//! PBFT chaos: every PBFT chaos run has one Byzantine replica, since tolerating one is the whole
//! point, and the aimed plan (what `--profile holders` runs for PBFT) makes it the primary.
//!
//! The mixed profile keeps its random crashes, pauses, partitions and loss and opens, at 1 ms, with
//! one replica drawn from the seed turning Byzantine in a drawn mode. The aimed plan strikes where a
//! small quorum hurts: the primary of view 0 equivocates from the start, and a backup drawn from the
//! seed is cut off from one other backup for a while, so the two halves it shows different requests
//! compare notes late. Everything is drawn from the seed, so the run reruns exactly.

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::action::{Action, ByzantineMode, NodeTarget};
use crate::contract::entry::parts::{AimedChaos, AimedPlan, ChaosNodes, ChaosParts};

const PBFT_SALT: u64 = 0x9bf7_0b12_a471_0013;

pub const CHAOS: ChaosParts = ChaosParts {
    aimed: Some(AimedChaos {
        salt: PBFT_SALT,
        title: "PBFT",
        plan,
    }),
    mixed_opening: Some(liar),
};

const LYING_MODES: [ByzantineMode; 3] = [
    ByzantineMode::Equivocate,
    ByzantineMode::Lie,
    ByzantineMode::Silent,
];

/// The mixed profile's liar: one replica of `servers`, in one of the three lying modes, from 1 ms.
pub fn liar(seed: u64, servers: usize) -> (u64, Action) {
    let mut rng = Rng::new(seed ^ PBFT_SALT);
    let replica = NodeId(rng.range_inclusive(0, servers as u64 - 1) as u16);
    let mode = LYING_MODES[rng.range_inclusive(0, 2) as usize];
    let action = Action::Byzantine {
        target: NodeTarget::Node(replica),
        mode,
    };
    (1, action)
}

fn plan(rng: &mut Rng, nodes: &ChaosNodes) -> AimedPlan {
    let primary = NodeTarget::Node(NodeId(0));
    let mut steps = vec![(
        1,
        Action::Byzantine {
            target: primary,
            mode: ByzantineMode::Equivocate,
        },
    )];
    if nodes.servers >= 3 {
        let backups = nodes.servers as u64 - 1;
        let one = rng.range_inclusive(1, backups);
        let other = 1 + (one + rng.range_inclusive(0, backups - 2)) % backups;
        let cut_ms = rng.range_inclusive(1, 300);
        let cut = Action::Cut {
            from: NodeTarget::Node(NodeId(one as u16)),
            to: NodeTarget::Node(NodeId(other as u16)),
            both: true,
        };
        steps.push((cut_ms, cut));
    }
    AimedPlan {
        steps,
        heal_not_before_ms: 2,
    }
}
