//! The registry entries of the two Redis-style worlds: one server, and Redlock's independent majority.

use crate::contract::config::{LockServiceOptions, ProtocolConfig, ProtocolKind};
use crate::contract::entry::describe::{LockStory, Story};
use crate::contract::entry::invariants::*;
use crate::contract::entry::Vocabulary;
use crate::contract::entry::{
    Capabilities, ClientPath, FaultRules, InvariantInfo, Progress, ProtocolEntry, ServerQuorum,
    SweepPlan, SweepVariant,
};
use crate::protocols::lockservice::entry::HOLDER_READ_REPLY;

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
    lock_keys: &["unchecked_release", "set_nx_retries"],
    tables: &[],
    parts: &super::parts::RedisLockParts,
    sweep: SweepPlan {
        servers: 1,
        quiet_ms: 2_500,
        progress: Progress::SafetyOnly,
        hold_marker: Some(HOLDER_READ_REPLY),
        variants: &[
            SweepVariant {
                name: "honest-servers",
                safe: false,
                summary: "compare-and-delete, the server's clock and keys kept",
                configure: |locks| ProtocolConfig::RedisLock(redis_locks(locks, false)),
                faults: HONEST_SERVERS,
            },
            SweepVariant {
                name: "unchecked-release",
                safe: false,
                summary: "released with a plain DEL",
                configure: |locks| ProtocolConfig::RedisLock(redis_locks(locks, true)),
                faults: HONEST_SERVERS,
            },
            SweepVariant {
                name: "server-time-faults",
                safe: false,
                summary: "the server's clock jumps and drifts, and it crashes",
                configure: |locks| ProtocolConfig::RedisLock(redis_locks(locks, false)),
                faults: FaultRules::ALL,
            },
        ],
    },
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
    parts: &super::parts::RedlockParts,
    sweep: SweepPlan {
        servers: 5,
        quiet_ms: 2_500,
        progress: Progress::SafetyOnly,
        hold_marker: Some(HOLDER_READ_REPLY),
        variants: &[
            SweepVariant {
                name: "honest-servers",
                safe: false,
                summary: "majority of servers, their clocks and keys kept",
                configure: |locks| ProtocolConfig::Redlock(redlock_locks(locks)),
                faults: HONEST_SERVERS,
            },
            SweepVariant {
                name: "server-time-faults",
                safe: false,
                summary: "server clocks jump and drift, servers crash",
                configure: |locks| ProtocolConfig::Redlock(redlock_locks(locks)),
                faults: FaultRules::ALL,
            },
        ],
    },
    build_actors: (),
    story: Story {
        locks: Some(LockStory::Redis),
        invoices: false,
        election_recipe: false,
    },
};

/// Redis and Redlock are claimed safe, in their own terms, only while the servers keep true time and
/// their keys: no clock faults or crashes on the servers.
const HONEST_SERVERS: FaultRules = FaultRules {
    server_clocks: false,
    server_crashes: false,
    other_clocks: true,
};

/// A sweep's single Redis lock: nothing to fence with, no keep-alives, the release as asked.
fn redis_locks(locks: LockServiceOptions, unchecked_release: bool) -> LockServiceOptions {
    LockServiceOptions {
        unchecked_release,
        ..unfenced(locks)
    }
}

/// A sweep's Redlock: a drift allowance of 1% of the TTL plus 2 ms, as Redlock's description asks.
fn redlock_locks(locks: LockServiceOptions) -> LockServiceOptions {
    LockServiceOptions {
        drift_allowance_ms: locks.lease_ttl_ms / 100 + 2,
        ..unfenced(locks)
    }
}

/// Redis-style clients send no keep-alives and their store cannot fence.
fn unfenced(locks: LockServiceOptions) -> LockServiceOptions {
    LockServiceOptions {
        fencing: false,
        renew_ms: LockServiceOptions::default().renew_ms,
        ..locks
    }
}

/// Redis-style locks have no fencing tokens, so their store cannot fence.
pub(super) fn unfenced_locks() -> LockServiceOptions {
    LockServiceOptions {
        fencing: false,
        ..LockServiceOptions::default()
    }
}
