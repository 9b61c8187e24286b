//! The invoice scheduler's registry entry.

use crate::contract::config::ProtocolKind;
use crate::contract::entry::describe::{LockStory, Story};
use crate::contract::entry::invariants::*;
use crate::contract::entry::{ProtocolEntry, Vocabulary};
use crate::protocols::lockservice::entry::SERVICE_CAPABILITIES;

pub const SCHEDULER: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::Scheduler,
    name: "scheduler",
    title: "Invoice scheduler",
    summary: "Scheduler instances that must invoice each minute exactly once.",
    capabilities: SERVICE_CAPABILITIES,
    vocabulary: Vocabulary {
        actor: "instance",
        server: "server",
        load:
            "The instances {actors} make the load: every simulated minute each decides whether to \
               invoice. Extra writes below only add entries to the service's log.",
    },
    own_invariants: &[
        SINGLE_LEASE_HOLDER_INFO,
        RELEASE_BY_OWNER_INFO,
        NO_DUPLICATE_INVOICE_INFO,
    ],
    defaults: super::options::defaults,
    lock_keys: &["renew_ms"],
    tables: &[super::options::TABLE],
    build_actors: (),
    story: Story {
        locks: Some(LockStory::Service),
        invoices: true,
        election_recipe: false,
    },
};
