//! Plain Raft's registry entry.

use crate::contract::config::{ProtocolConfig, ProtocolKind};
use crate::contract::entry::describe::Story;
use crate::contract::entry::invariants::*;
use crate::contract::entry::{
    Capabilities, ClientPath, FaultRules, Progress, ProtocolEntry, ServerQuorum, SweepPlan,
    SweepVariant, Vocabulary,
};

pub const RAFT: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::Raft,
    name: "raft",
    title: "Raft",
    summary: "A Raft cluster electing a leader and replicating a key/value log.",
    capabilities: Capabilities {
        runs_raft: true,
        elects_leader: true,
        client_path: ClientPath::Raft,
        has_store: false,
        tokens_fence: false,
        server_quorum: ServerQuorum::Majority {
            able: "can elect and commit",
        },
    },
    vocabulary: Vocabulary {
        actor: "client",
        server: "node",
        load: "",
    },
    own_invariants: &[LINEARIZABLE_READS_INFO, CONFIGURATION_AGREEMENT_INFO],
    defaults: ProtocolConfig::default,
    lock_keys: &[],
    tables: &[],
    parts: &super::parts::RaftParts,
    sweep: SweepPlan {
        servers: 5,
        quiet_ms: 5_000,
        progress: Progress::RaftLeader,
        hold_marker: None,
        variants: &[SweepVariant {
            name: "default",
            safe: true,
            summary: "PreVote, CheckQuorum and lease reads drawn per seed",
            configure: |_| ProtocolConfig::Raft,
            faults: FaultRules::ALL,
        }],
    },
    build_actors: (),
    story: Story {
        locks: None,
        invoices: false,
        election_recipe: false,
    },
};
