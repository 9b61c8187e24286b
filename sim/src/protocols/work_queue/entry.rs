//! The work queue's registry entry.

use crate::contract::config::ProtocolKind;
use crate::contract::entry::describe::{LockStory, Story};
use crate::contract::entry::invariants::*;
use crate::contract::entry::ProtocolEntry;
use crate::protocols::lockservice::entry::{SERVICE_CAPABILITIES, WORKER_VOCABULARY};

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
    build_actors: (),
    story: Story {
        locks: Some(LockStory::Service),
        invoices: false,
        election_recipe: false,
    },
};
