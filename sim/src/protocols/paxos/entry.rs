//! The single-decree Paxos world's registry entry.

use crate::contract::config::ProtocolKind;
use crate::contract::config::{LockServiceOptions, PaxosOptions, PaxosRemedy, ProtocolConfig};
use crate::contract::entry::describe::Story;
use crate::contract::entry::invariants::*;
use crate::contract::entry::{
    Capabilities, ClientPath, FaultRules, Progress, ProtocolEntry, ServerQuorum, SweepPlan,
    SweepVariant, Vocabulary,
};

pub const PAXOS: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::Paxos,
    name: "paxos",
    title: "Paxos (one value)",
    summary:
        "Proposers agree on one value through a majority of acceptors: ballots, promises, accepts.",
    capabilities: Capabilities {
        runs_raft: false,
        elects_leader: false,
        client_path: ClientPath::None,
        has_store: false,
        tokens_fence: false,
        server_quorum: ServerQuorum::Majority {
            able: "can gather a majority",
        },
    },
    vocabulary: Vocabulary {
        actor: "proposer",
        server: "acceptor",
        // Said of each proposer, so it reads right for one proposer (A) or several (A, B).
        load:
            "No client box here: each proposer ({actors}) wants its own value chosen, and also \
               learns what the acceptors accepted. Crash, pause or cut one off to stress it.",
    },
    own_invariants: &[AGREEMENT_INFO, VALIDITY_INFO, STABILITY_INFO],
    defaults: super::options::defaults,
    lock_keys: &[],
    tables: &[super::options::TABLE],
    parts: &super::parts::PaxosParts,
    sweep: SweepPlan {
        servers: 5,
        quiet_ms: 2_000,
        progress: Progress::ValueChosen,
        hold_marker: None,
        variants: &[
            SweepVariant {
                name: "durable",
                safe: true,
                summary: "acceptors keep promise and value across crashes, proposers back off",
                configure: |locks| sweep_world(locks, true),
                faults: FaultRules::ALL,
            },
            SweepVariant {
                name: "forgetful-acceptors",
                safe: false,
                summary: "a restarted acceptor forgets its promise and accepted value",
                configure: |locks| sweep_world(locks, false),
                faults: FaultRules::ALL,
            },
            SweepVariant {
                name: "durable-learners",
                safe: true,
                summary: "durable, with two learner actors that ask the acceptors, then a proposer, when cut off",
                configure: |locks| with_learners(sweep_world(locks, true)),
                faults: FaultRules::ALL,
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

/// The same world with two learner actors, which the faults reach like any other node.
fn with_learners(config: ProtocolConfig) -> ProtocolConfig {
    match config {
        ProtocolConfig::Paxos(locks, options) => ProtocolConfig::Paxos(
            locks,
            PaxosOptions {
                learners: 2,
                ..options
            },
        ),
        other => other,
    }
}

/// A sweep's Paxos: three proposers backing off, so rivals meet often and a value is still chosen.
fn sweep_world(locks: LockServiceOptions, durable_acceptors: bool) -> ProtocolConfig {
    let locks = LockServiceOptions {
        workers: 3,
        fencing: false,
        ..locks
    };
    let options = PaxosOptions {
        remedy: PaxosRemedy::Backoff,
        durable_acceptors,
        ..PaxosOptions::default()
    };
    ProtocolConfig::Paxos(locks, options)
}
