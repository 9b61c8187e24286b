//! The two-phase-commit world's registry entry.

use super::checker::ATOMICITY_INFO;
use crate::contract::config::{LockServiceOptions, ProtocolConfig, ProtocolKind, TwoPhaseOptions};
use crate::contract::entry::describe::Story;
use crate::contract::entry::{
    Capabilities, ClientPath, FaultRules, Progress, ProtocolEntry, ServerQuorum, SweepPlan,
    SweepVariant, Vocabulary,
};

pub const TWO_PHASE_COMMIT: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::TwoPhaseCommit,
    name: "two-phase-commit",
    title: "Two-phase commit",
    summary: "A coordinator asks participants to vote, then tells all to commit or all to abort; if it crashes in between, they wait.",
    capabilities: Capabilities {
        runs_raft: false,
        elects_leader: false,
        client_path: ClientPath::None,
        has_store: false,
        tokens_fence: false,
        server_quorum: ServerQuorum::Single {
            able: "can decide",
        },
    },
    vocabulary: Vocabulary {
        actor: "participant",
        server: "coordinator",
        load: "No client box here: the coordinator n1 runs the transactions, and each participant \
               ({actors}) votes on each and applies the decision. Crash the coordinator after the \
               votes to leave them in doubt.",
    },
    own_invariants: &[ATOMICITY_INFO],
    defaults: super::options::defaults,
    lock_keys: &[],
    tables: &[super::options::TABLE],
    parts: &super::parts::TwoPhaseParts,
    sweep: SweepPlan {
        servers: 1,
        quiet_ms: 2_000,
        // Blocking is the lesson, not a bug: a sweep judges safety alone.
        progress: Progress::SafetyOnly,
        hold_marker: None,
        variants: &[SweepVariant {
            name: "safe",
            safe: true,
            summary: "durable votes and decisions, one participant in five votes no",
            configure: sweep_world,
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

/// A sweep's two-phase commit: the drawn participants, some no votes, and many short transactions so
/// that faults land in every phase.
fn sweep_world(locks: LockServiceOptions) -> ProtocolConfig {
    let locks = LockServiceOptions {
        fencing: false,
        ..locks
    };
    let options = TwoPhaseOptions {
        vote_no_ppm: 200_000,
        ask_ms: 100,
        transactions: 50,
        ..TwoPhaseOptions::default()
    };
    ProtocolConfig::TwoPhaseCommit(locks, options)
}
