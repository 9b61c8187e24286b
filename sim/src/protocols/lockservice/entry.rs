//! The fenced lock service's registry entry.

use crate::contract::config::{LockServiceOptions, ProtocolConfig, ProtocolKind};
use crate::contract::entry::describe::{LockStory, Story};
use crate::contract::entry::invariants::*;
use crate::contract::entry::{
    Capabilities, ClientPath, FaultRules, Progress, ProtocolEntry, ServerQuorum, SweepPlan,
    SweepVariant, Vocabulary,
};

/// Raft servers with a lock state machine, lock-holding workers and a store that fences.
pub const LOCK_SERVICE: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::LockService,
    name: "lock-service",
    title: "Lock service",
    summary:
        "An etcd-like lock service on Raft: leases, fencing tokens and a store that checks them.",
    capabilities: SERVICE_CAPABILITIES,
    vocabulary: WORKER_VOCABULARY,
    own_invariants: &[
        MUTUAL_EXCLUSION_INFO,
        TOKEN_MONOTONICITY_INFO,
        NO_LOST_UPDATES_INFO,
        SINGLE_LEASE_HOLDER_INFO,
        RELEASE_BY_OWNER_INFO,
    ],
    defaults: || ProtocolConfig::LockService(LockServiceOptions::default()),
    lock_keys: &["renew_ms", "fencing", "idempotency_scope"],
    tables: &[super::options::TABLE],
    parts: &super::parts::LockServiceParts,
    sweep: SweepPlan {
        servers: 3,
        quiet_ms: 2_500,
        progress: Progress::StoreWrite,
        hold_marker: Some(HOLDER_READ_REPLY),
        variants: &[
            SweepVariant {
                name: "fencing",
                safe: true,
                summary: "the store checks fencing tokens",
                configure: |locks| ProtocolConfig::LockService(fenced(locks, true)),
                faults: FaultRules::ALL,
            },
            SweepVariant {
                name: "no-fencing",
                safe: false,
                summary: "the store takes any write",
                configure: |locks| ProtocolConfig::LockService(fenced(locks, false)),
                faults: FaultRules::ALL,
            },
            // Lock-delay without fencing claims only this: a holder that wakes before the delay ends
            // never overlaps the next one (Mutual Exclusion, No Lost Updates and Token Monotonicity
            // stay quiet then). The delay counts from the expiry the leader saw, and the lease runs
            // from the last keep-alive it received, up to two renewal intervals before the pause (a
            // worker granted from the queue renews a full interval after its grant): only a pause
            // under TTL + lock-delay - 2 x renew_ms is sure to be covered, and some just under TTL +
            // lock-delay overlap (tests/lock_delay_bound.rs). A longer pause, a clock jump on a worker
            // or a write delayed in the network still overlaps, so it is no safe configuration.
            SweepVariant {
                name: "lock-delay",
                safe: false,
                summary: "lock-delay of one TTL, the store takes any write",
                configure: |locks| ProtocolConfig::LockService(delayed(fenced(locks, false))),
                faults: FaultRules::ALL,
            },
            SweepVariant {
                name: "lock-delay-fencing",
                safe: true,
                summary: "lock-delay of one TTL, the store checks fencing tokens",
                configure: |locks| ProtocolConfig::LockService(delayed(fenced(locks, true))),
                faults: FaultRules::ALL,
            },
        ],
    },
    build_actors: (),
    story: Story {
        locks: Some(LockStory::Service),
        invoices: false,
        election_recipe: false,
    },
};

/// The store's answer a worker gets to its read, the first access of a hold: from here until its write
/// it computes, the moment a pause hurts (the label of `ResourceMessage::AccessReply`).
pub const HOLDER_READ_REPLY: &str = "Access ok";

/// `locks` with the store's fencing switched as asked.
pub fn fenced(locks: LockServiceOptions, fencing: bool) -> LockServiceOptions {
    LockServiceOptions { fencing, ..locks }
}

/// `locks` with a lock-delay of one lease TTL (within the option's limit).
pub fn delayed(locks: LockServiceOptions) -> LockServiceOptions {
    let lock_delay_ms = locks.lease_ttl_ms.min(super::options::MAX_LOCK_DELAY_MS);
    LockServiceOptions {
        lock_delay_ms,
        ..locks
    }
}

/// The words for a world whose lettered actors are lock-taking workers (the work queue's too).
pub const WORKER_VOCABULARY: Vocabulary = Vocabulary {
    actor: "worker",
    server: "server",
    load: "The workers {actors} make the load with their lock loops. Extra writes below only add \
           entries to the service's log.",
};

/// What every world built on the lock service can do (the scheduler, ZooKeeper and work-queue worlds
/// start from this too).
pub const SERVICE_CAPABILITIES: Capabilities = Capabilities {
    runs_raft: true,
    elects_leader: true,
    client_path: ClientPath::ServiceLog,
    has_store: true,
    tokens_fence: true,
    server_quorum: ServerQuorum::Majority {
        able: "service can work",
    },
};
