//! The invoice scheduler's registry entry.

use crate::contract::config::ProtocolKind;
use crate::contract::config::{
    LockServiceOptions, ProtocolConfig, SchedulerMode, SchedulerOptions,
};
use crate::contract::entry::describe::{LockStory, Story};
use crate::contract::entry::invariants::*;
use crate::contract::entry::{
    FaultRules, Progress, ProtocolEntry, SweepPlan, SweepVariant, Vocabulary,
};
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
    parts: &super::parts::SchedulerParts,
    sweep: SweepPlan {
        servers: 3,
        quiet_ms: 4_000,
        progress: Progress::Invoicing,
        // The top of a minute: a leader has just checked its lease and starts generating.
        hold_marker: Some("next minute"),
        variants: &[
            SweepVariant {
                name: "leader-fencing",
                safe: true,
                summary: "one leader; the store refuses stale tokens",
                configure: |locks| sweep_world(locks, SchedulerMode::LeaderFencing),
                faults: HONEST_INSTANCES,
            },
            SweepVariant {
                name: "lock-every-run",
                safe: true,
                summary: "a lock per minute; the store writes if absent",
                configure: |locks| sweep_world(locks, SchedulerMode::LockEveryRun),
                faults: HONEST_INSTANCES,
            },
            SweepVariant {
                name: "leader-election",
                safe: false,
                summary: "one leader, no fencing",
                configure: |locks| sweep_world(locks, SchedulerMode::LeaderElection),
                faults: HONEST_INSTANCES,
            },
            SweepVariant {
                name: "none",
                safe: false,
                summary: "every instance invoices every minute",
                configure: |locks| sweep_world(locks, SchedulerMode::None),
                faults: HONEST_INSTANCES,
            },
        ],
    },
    build_actors: (),
    story: Story {
        locks: Some(LockStory::Service),
        invoices: true,
        election_recipe: false,
    },
};

/// Instance clocks stay honest in the mixed profile: an instance whose clock is behind re-runs minutes,
/// which no lock can prevent. The servers' clocks may do anything.
const HONEST_INSTANCES: FaultRules = FaultRules {
    other_clocks: false,
    ..FaultRules::ALL
};

/// A sweep's scheduler: three instances, 500 ms minutes.
fn sweep_world(locks: LockServiceOptions, mode: SchedulerMode) -> ProtocolConfig {
    let locks = LockServiceOptions {
        workers: 3,
        fencing: false,
        ..locks
    };
    ProtocolConfig::Scheduler(
        locks,
        SchedulerOptions {
            mode,
            minute_ms: 500,
        },
    )
}
