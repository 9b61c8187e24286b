//! The work queue's registry entry.

use crate::contract::config::ProtocolKind;
use crate::contract::config::{LockServiceOptions, ProtocolConfig, QueueOptions};
use crate::contract::entry::describe::{LockStory, Story};
use crate::contract::entry::invariants::*;
use crate::contract::entry::{FaultRules, Progress, ProtocolEntry, SweepPlan, SweepVariant};
use crate::protocols::lockservice::entry::{
    fenced, HOLDER_READ_REPLY, SERVICE_CAPABILITIES, WORKER_VOCABULARY,
};

pub const WORK_QUEUE: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::WorkQueue,
    name: "work-queue",
    title: "Work queue",
    summary: "Jobs keyed by account: partitions that need no lock, or one global lock for all.",
    capabilities: SERVICE_CAPABILITIES,
    vocabulary: WORKER_VOCABULARY,
    own_invariants: &[
        MUTUAL_EXCLUSION_INFO,
        NO_LOST_UPDATES_INFO,
        SINGLE_LEASE_HOLDER_INFO,
        PARTITION_OWNERSHIP_INFO,
    ],
    defaults: super::options::defaults,
    lock_keys: &["renew_ms", "fencing"],
    tables: &[super::options::TABLE],
    parts: &super::parts::WorkQueueParts,
    sweep: SweepPlan {
        servers: 3,
        quiet_ms: 2_500,
        progress: Progress::StoreWrite,
        hold_marker: Some(HOLDER_READ_REPLY),
        variants: &[
            SweepVariant {
                name: "partitioned",
                safe: true,
                summary: "each worker owns its accounts; no lock",
                configure: |locks| sweep_world(locks, true, true),
                faults: FaultRules::ALL,
            },
            SweepVariant {
                name: "global-lock",
                safe: true,
                summary: "one fenced lock for every job",
                configure: |locks| sweep_world(locks, false, true),
                faults: FaultRules::ALL,
            },
            SweepVariant {
                name: "global-lock-no-fencing",
                safe: false,
                summary: "one lock, the store takes any write",
                configure: |locks| sweep_world(locks, false, false),
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

/// A sweep's work queue: four workers over 32 accounts.
fn sweep_world(locks: LockServiceOptions, partitioned: bool, fencing: bool) -> ProtocolConfig {
    let locks = LockServiceOptions {
        workers: 4,
        ..fenced(locks, fencing)
    };
    ProtocolConfig::WorkQueue(
        locks,
        QueueOptions {
            partitioned,
            accounts: 32,
        },
    )
}
