//! The PBFT world's registry entry.

use crate::contract::config::{LockServiceOptions, PbftOptions, ProtocolConfig, ProtocolKind};
use crate::contract::entry::describe::Story;
use crate::contract::entry::invariants::*;
use crate::contract::entry::{
    Capabilities, ClientPath, FaultRules, Progress, ProtocolEntry, ServerQuorum, SweepPlan,
    SweepVariant, Vocabulary,
};

/// PBFT's timing is its own: clock faults only move timeouts, so sweeps leave clocks alone.
const NO_CLOCK_FAULTS: FaultRules = FaultRules {
    server_clocks: false,
    server_crashes: true,
    other_clocks: false,
};

pub const PBFT: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::Pbft,
    name: "pbft",
    title: "PBFT (nodes that lie)",
    summary:
        "Replicas order client requests through three phases of 2f + 1 matching votes, even with f liars.",
    capabilities: Capabilities {
        runs_raft: false,
        elects_leader: false,
        client_path: ClientPath::None,
        has_store: false,
        tokens_fence: false,
        server_quorum: ServerQuorum::Majority {
            able: "can gather a quorum of replicas",
        },
    },
    vocabulary: Vocabulary {
        actor: "client",
        server: "replica",
        // Said of each client, so it reads right for one client (A) or several (A, B).
        load: "No client box here: each client ({actors}) sends one request at a time to every \
               replica and takes a result once f + 1 agree. Make a replica Byzantine to stress it.",
    },
    own_invariants: &[HONEST_AGREEMENT_INFO],
    defaults: super::options::defaults,
    lock_keys: &[],
    tables: &[super::options::TABLE],
    parts: &super::parts::PbftParts,
    sweep: SweepPlan {
        servers: 4,
        quiet_ms: 5_000,
        progress: Progress::ResultsTaken,
        hold_marker: None,
        variants: &[
            SweepVariant {
                name: "three-f-plus-one",
                safe: true,
                summary: "4 replicas, quorum 2f + 1 = 3, one of them Byzantine",
                configure: |locks| sweep_world(locks, 0),
                faults: NO_CLOCK_FAULTS,
            },
            SweepVariant {
                name: "misconfigured-quorum",
                safe: false,
                summary: "quorum 2 (as if 3 replicas tolerated a liar), one Byzantine",
                configure: |locks| sweep_world(locks, 2),
                faults: NO_CLOCK_FAULTS,
            },
        ],
    },
    build_actors: (),
    story: Story {
        locks: None,
        invoices: false,
        election_recipe: false,
    },
};

/// A sweep's PBFT: two clients, so requests interleave, and the given quorum (0 for 2f + 1).
fn sweep_world(locks: LockServiceOptions, quorum: u32) -> ProtocolConfig {
    let locks = LockServiceOptions {
        workers: 2,
        fencing: false,
        ..locks
    };
    let options = PbftOptions {
        quorum,
        ..PbftOptions::default()
    };
    ProtocolConfig::Pbft(locks, options)
}
