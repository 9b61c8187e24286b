//! The ZooKeeper-style election's registry entry.

use crate::contract::config::ProtocolKind;
use crate::contract::entry::describe::Story;
use crate::contract::entry::invariants::*;
use crate::contract::entry::{Capabilities, ProtocolEntry, Vocabulary};
use crate::protocols::lockservice::entry::SERVICE_CAPABILITIES;

pub const ZOOKEEPER: ProtocolEntry = ProtocolEntry {
    kind: ProtocolKind::Zookeeper,
    name: "zookeeper",
    title: "ZooKeeper election",
    summary: "Candidates electing a leader through znodes and watches: the herd or the chain.",
    capabilities: Capabilities {
        has_store: false,
        ..SERVICE_CAPABILITIES
    },
    vocabulary: Vocabulary {
        actor: "candidate",
        server: "server",
        load:
            "The candidates {actors} make the load (sessions, znodes, watches). Extra writes below \
               only add entries to the service's log.",
    },
    own_invariants: &[SINGLE_LEASE_HOLDER_INFO, RELEASE_BY_OWNER_INFO],
    defaults: super::options::defaults,
    lock_keys: &["renew_ms"],
    tables: &[super::options::TABLE],
    build_actors: (),
    story: Story {
        locks: None,
        invoices: false,
        election_recipe: true,
    },
};
