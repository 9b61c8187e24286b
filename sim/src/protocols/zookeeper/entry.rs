//! The ZooKeeper-style election's registry entry.

use crate::contract::config::ProtocolKind;
use crate::contract::config::{LockServiceOptions, ProtocolConfig, ZkRecipe};
use crate::contract::entry::describe::Story;
use crate::contract::entry::invariants::*;
use crate::contract::entry::{
    Capabilities, FaultRules, Progress, ProtocolEntry, SweepPlan, SweepVariant, Vocabulary,
};
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
    parts: &super::parts::ZookeeperParts,
    sweep: SweepPlan {
        servers: 3,
        quiet_ms: 3_000,
        progress: Progress::OneLeader,
        hold_marker: None,
        variants: &[
            SweepVariant {
                name: "sequential",
                safe: true,
                summary: "each candidate watches its predecessor",
                configure: |locks| sweep_world(locks, ZkRecipe::Sequential),
                faults: NO_CLOCK_FAULTS,
            },
            SweepVariant {
                name: "herd",
                safe: true,
                summary: "everyone races for one znode",
                configure: |locks| sweep_world(locks, ZkRecipe::Herd),
                faults: NO_CLOCK_FAULTS,
            },
        ],
    },
    build_actors: (),
    story: Story {
        locks: None,
        invoices: false,
        election_recipe: true,
    },
};

/// Session timeouts, like leases, assume clocks that tick at the same rate: no clock faults anywhere.
const NO_CLOCK_FAULTS: FaultRules = FaultRules {
    server_clocks: false,
    server_crashes: true,
    other_clocks: false,
};

/// A sweep's election: five candidates.
fn sweep_world(locks: LockServiceOptions, recipe: ZkRecipe) -> ProtocolConfig {
    let locks = LockServiceOptions {
        workers: 5,
        fencing: false,
        ..locks
    };
    ProtocolConfig::Zookeeper(locks, recipe)
}
