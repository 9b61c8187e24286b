//! The protocol registry: one entry per world, declared in the world's own folder and listed here once.
//!
//! Everything that used to decide by a protocol-name string — the scenario parser, the app's badges,
//! menus and panels, the tooling — asks the registry instead: `entry(kind)` for a world's name, its
//! invariants and what it can do, `by_name("redlock")` to read a scenario file's choice, its options'
//! defaults and tables, and the function that builds its actors. A new world adds its folder and one
//! line to [`ENTRIES`]; a test checks that every [`ProtocolKind`] has exactly
//! one entry, so forgetting the line fails at once rather than falling through somewhere quietly.

pub mod describe;

pub use crate::contract::entry::{
    invariants, Capabilities, ClientPath, InvariantInfo, ProtocolEntry, ServerQuorum, Vocabulary,
};

use crate::contract::config::{ProtocolConfig, ProtocolKind, WorldConfig};
use crate::contract::entry::parts::{ChaosParts, Invoicing};
use crate::contract::layout::Layout;
use crate::contract::world_read::{actors_of, WorldRead};
use crate::protocols::lockservice::LockOp;
use crate::protocols::resource::Resource;
use crate::protocols::{paxos, pbft, redlock, scheduler, zookeeper};
use crate::worlds::actor::{Actor, Message, WorldView};
use crate::worlds::coordination::build;

/// How a registry entry builds its world's actors from the run's configuration and layout.
pub type BuildActors = fn(&WorldConfig, &Layout) -> Vec<Actor>;

/// A registry entry with its world's actor builder.
pub type Entry = ProtocolEntry<BuildActors>;

/// Every world, in teaching order (plain Raft first): its folder's entry and the builder of its actors
/// (the folder's own, made for this crate's `Actor` and `Message`, where the folder can hold it).
pub const ENTRIES: &[Entry] = &[
    crate::protocols::raft::entry::RAFT
        .built_by(crate::protocols::raft::build::actors::<Actor, LockOp, Message>),
    crate::protocols::lockservice::entry::LOCK_SERVICE.built_by(build::lock_service),
    crate::protocols::redlock::entry::REDIS_LOCK.built_by(build::redis_lock),
    crate::protocols::redlock::entry::REDLOCK.built_by(build::redlock),
    crate::protocols::scheduler::entry::SCHEDULER.built_by(build::scheduler),
    crate::protocols::zookeeper::entry::ZOOKEEPER.built_by(build::zookeeper),
    crate::protocols::work_queue::entry::WORK_QUEUE.built_by(build::work_queue),
    crate::protocols::paxos::entry::PAXOS.built_by(crate::protocols::paxos::build::actors::<Actor>),
    crate::protocols::pbft::entry::PBFT.built_by(crate::protocols::pbft::build::actors::<Actor>),
    crate::protocols::two_phase_commit::entry::TWO_PHASE_COMMIT
        .built_by(crate::protocols::two_phase_commit::build::actors::<Actor>),
];

/// The worlds with chaos of their own, apart from [`ENTRIES`] so that only the chaos tooling keeps
/// their plans in its binary (`contract::entry::parts::ChaosParts`). Every other world gets none.
const CHAOS: &[(ProtocolKind, ChaosParts)] = &[
    (ProtocolKind::Paxos, crate::protocols::paxos::chaos::CHAOS),
    (ProtocolKind::Pbft, crate::protocols::pbft::chaos::CHAOS),
    (
        ProtocolKind::TwoPhaseCommit,
        crate::protocols::two_phase_commit::chaos::CHAOS,
    ),
];

/// The chaos of `kind`'s world (none for most).
pub fn chaos(kind: ProtocolKind) -> ChaosParts {
    CHAOS
        .iter()
        .find(|(world, _)| *world == kind)
        .map(|(_, chaos)| *chaos)
        .unwrap_or_default()
}

/// Builds a world's own part of a frame from its folder's `view.rs`.
type ViewWorld = fn(&dyn WorldRead) -> Option<WorldView>;

/// The worlds with a part of their own in every frame (see [`WorldView`]).
const VIEWS: &[(ProtocolKind, ViewWorld)] = &[
    (ProtocolKind::RedisLock, |world| {
        Some(WorldView::KvServers(redlock::view::view(world)))
    }),
    (ProtocolKind::Redlock, |world| {
        Some(WorldView::KvServers(redlock::view::view(world)))
    }),
    (ProtocolKind::Scheduler, |world| {
        let store = actors_of::<Resource>(world).next();
        let invoices = store.map(|(_, store)| &store.invoices);
        scheduler::view::view(world, invoices).map(WorldView::Scheduler)
    }),
    (ProtocolKind::Zookeeper, |world| {
        Some(WorldView::Zookeeper(zookeeper::view::view(world)))
    }),
    (ProtocolKind::Paxos, |world| {
        paxos::view::view(world).map(WorldView::Paxos)
    }),
    (ProtocolKind::Pbft, |world| {
        pbft::view::view(world).map(WorldView::Pbft)
    }),
    (ProtocolKind::TwoPhaseCommit, |world| {
        let view = crate::protocols::two_phase_commit::view::TwoPhaseView::read(world);
        Some(WorldView::TwoPhaseCommit(view))
    }),
];

/// The running world's own part of a frame, if its world has one.
pub fn world_view(world: &dyn WorldRead) -> Option<WorldView> {
    let kind = world.protocol().kind();
    let (_, view) = VIEWS.iter().find(|(world_kind, _)| *world_kind == kind)?;
    view(world)
}

/// The entry for `kind`.
pub fn entry(kind: ProtocolKind) -> &'static Entry {
    ENTRIES
        .iter()
        .find(|entry| entry.kind == kind)
        .expect("every protocol kind has a registry entry (checked by a test)")
}

/// The entry a scenario's `protocol = "…"` names.
pub fn by_name(name: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|entry| entry.name == name)
}

/// Every protocol name a scenario file accepts, in registry order.
pub fn names() -> impl Iterator<Item = &'static str> {
    ENTRIES.iter().map(|entry| entry.name)
}

impl ProtocolKind {
    pub fn entry(self) -> &'static Entry {
        entry(self)
    }

    pub fn name(self) -> &'static str {
        entry(self).name
    }
}

impl ProtocolConfig {
    pub fn entry(&self) -> &'static Entry {
        entry(self.kind())
    }

    /// The scenario `protocol` name this world is written as.
    pub fn name(&self) -> &'static str {
        self.entry().name
    }

    /// How this world bills once a minute, where it does (its entry's parts).
    pub fn invoicing(&self) -> Option<Invoicing> {
        self.entry().parts.invoicing(self)
    }
}

/// The sequential model a history read from a file is judged by (`views::history_summary`): the
/// replicated key-value store's, the one store whose histories the app and the CLI export.
pub fn key_value_model() -> &'static dyn crate::contract::erased_model::DynModel {
    &crate::protocols::raft::kv_model::KV_MODEL
}

/// Whether `kind`'s lock service is the etcd-like one, whose messages the views call by etcd's names
/// (LeaseGrant, LeaseKeepAlive, LeaseRevoke, ...: `protocols::lockservice::etcd`).
pub fn speaks_etcd(kind: ProtocolKind) -> bool {
    entry(kind).story.locks == Some(crate::contract::entry::describe::LockStory::Service)
}

/// What each invariant promises (empty for a name no entry lists).
pub fn promise(invariant: &str) -> &'static str {
    ENTRIES
        .iter()
        .flat_map(|entry| entry.invariants())
        .find(|info| info.name == invariant)
        .map_or("", |info| info.promise)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVERY_KIND: [ProtocolKind; 10] = [
        ProtocolKind::Raft,
        ProtocolKind::LockService,
        ProtocolKind::RedisLock,
        ProtocolKind::Redlock,
        ProtocolKind::Scheduler,
        ProtocolKind::Zookeeper,
        ProtocolKind::WorkQueue,
        ProtocolKind::Paxos,
        ProtocolKind::Pbft,
        ProtocolKind::TwoPhaseCommit,
    ];

    #[test]
    fn every_kind_has_exactly_one_entry_and_names_are_unique() {
        for kind in EVERY_KIND {
            let count = ENTRIES.iter().filter(|entry| entry.kind == kind).count();
            assert_eq!(count, 1, "{kind:?} has {count} registry entries");
        }
        assert_eq!(ENTRIES.len(), EVERY_KIND.len());
        let mut names: Vec<&str> = names().collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ENTRIES.len(), "two entries share a name");
    }

    #[test]
    fn names_read_back_to_their_kind() {
        for entry in ENTRIES {
            assert_eq!(
                by_name(entry.name).map(|found| found.kind),
                Some(entry.kind)
            );
        }
        assert!(by_name("multi-paxos").is_none());
    }

    #[test]
    fn every_listed_invariant_has_a_promise_and_raft_worlds_list_raft_first() {
        for entry in ENTRIES {
            assert!(
                entry.invariants().next().is_some(),
                "{} lists no invariant",
                entry.name
            );
            for info in entry.invariants() {
                assert!(!info.promise.is_empty(), "{} has no promise", info.name);
            }
            let lists_election_safety = entry
                .invariants()
                .any(|info| info.name == crate::engine::checker::ELECTION_SAFETY);
            let mut names: Vec<&str> = entry.invariants().map(|info| info.name).collect();
            let count = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(
                names.len(),
                count,
                "{} lists an invariant twice",
                entry.name
            );
            assert_eq!(
                lists_election_safety, entry.capabilities.runs_raft,
                "{}",
                entry.name
            );
        }
        assert_eq!(
            promise(crate::engine::checker::MUTUAL_EXCLUSION),
            "the store sees one holder at a time"
        );
        assert_eq!(promise("no such invariant"), "");
    }
}
