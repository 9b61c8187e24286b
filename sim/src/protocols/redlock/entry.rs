//! The registry entries of the two Redis-style worlds: one server, and Redlock's independent majority.

use crate::contract::config::{LockServiceOptions, ProtocolConfig, ProtocolKind};
use crate::contract::entry::describe::{LockStory, Story};
use crate::contract::entry::invariants::*;
use crate::contract::entry::Vocabulary;
use crate::contract::entry::{
    Capabilities, ClientPath, InvariantInfo, ProtocolEntry, ServerQuorum,
};

const KV_INVARIANTS: &[InvariantInfo] = &[
    MUTUAL_EXCLUSION_INFO,
    NO_LOST_UPDATES_INFO,
    RELEASE_BY_OWNER_INFO,
    EXCLUSIVE_BELIEF_INFO,
];

const KV_VOCABULARY: Vocabulary = Vocabulary {
    actor: "worker",
    server: "Redis server",
    load: "No client box here: {actors} make the load themselves, each looping take the lock, \
           write to the store, let go. Pause or crash one of them to stress the lock.",
};

/// Redis-style servers elect no leader and keep no log; their lock values are random, not tokens.
const fn kv_capabilities(server_quorum: ServerQuorum) -> Capabilities {
    Capabilities {
        runs_raft: false,
        elects_leader: false,
        client_path: ClientPath::None,
        has_store: true,
        tokens_fence: false,
        server_quorum,
    }
}

pub const REDIS_LOCK: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::RedisLock,
    name: "redis-lock",
    title: "Redis lock",
    summary: "One Redis-style server with SET NX PX locks: no fencing, one point of failure.",
    capabilities: kv_capabilities(ServerQuorum::Single { able: "can lock" }),
    vocabulary: KV_VOCABULARY,
    own_invariants: KV_INVARIANTS,
    defaults: || ProtocolConfig::RedisLock(unfenced_locks()),
    lock_keys: &["unchecked_release"],
    tables: &[],
    build_actors: (),
    story: Story {
        locks: Some(LockStory::Redis),
        invoices: false,
        election_recipe: false,
    },
};

pub const REDLOCK: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::Redlock,
    name: "redlock",
    title: "Redlock",
    summary: "Independent Redis-style servers; a client holds the lock once a majority granted it.",
    capabilities: kv_capabilities(ServerQuorum::Majority {
        able: "can gather a majority",
    }),
    vocabulary: KV_VOCABULARY,
    own_invariants: KV_INVARIANTS,
    defaults: || ProtocolConfig::Redlock(unfenced_locks()),
    lock_keys: &["drift_allowance_ms"],
    tables: &[],
    build_actors: (),
    story: Story {
        locks: Some(LockStory::Redis),
        invoices: false,
        election_recipe: false,
    },
};

/// Redis-style locks have no fencing tokens, so their store cannot fence.
fn unfenced_locks() -> LockServiceOptions {
    LockServiceOptions {
        fencing: false,
        ..LockServiceOptions::default()
    }
}
