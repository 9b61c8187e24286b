//! The fenced lock service's registry entry.

use crate::contract::config::{LockServiceOptions, ProtocolConfig, ProtocolKind};
use crate::contract::entry::describe::{LockStory, Story};
use crate::contract::entry::invariants::*;
use crate::contract::entry::{Capabilities, ClientPath, ProtocolEntry, ServerQuorum, Vocabulary};

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
    lock_keys: &["renew_ms", "fencing"],
    tables: &[],
    build_actors: (),
    story: Story {
        locks: Some(LockStory::Service),
        invoices: false,
        election_recipe: false,
    },
};

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
