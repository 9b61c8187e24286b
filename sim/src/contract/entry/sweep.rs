//! How seed sweeps exercise a world, declared in the world's own entry so that `quorumlab sweep` (and
//! `./x sweep`) reaches a newly registered protocol with no edit to the sweep code: how many servers a
//! sweep runs, how long its quiet period lasts, which faults its safety claim tolerates, what counts as
//! work done after the heal, which trace label marks a holder about to act on its hold (where the
//! holder-aimed profile strikes), and the configurations to sweep, each marked safe or unsafe.

use crate::contract::config::{LockServiceOptions, ProtocolConfig};

/// Which faults the mixed chaos profile may throw at a world, beyond the ones every world takes
/// (pauses, cuts, partitions, isolation, loss, crashes of the lettered actors and the store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FaultRules {
    /// Clock jumps and drift on the servers (a target "leader" counts as a server).
    pub server_clocks: bool,
    /// Crashes of the servers (a Redis-style server forgets its keys when it crashes).
    pub server_crashes: bool,
    /// Clock jumps and drift on everything else: workers, instances, candidates, the store.
    pub other_clocks: bool,
}

impl FaultRules {
    /// Every fault the engine has.
    pub const ALL: FaultRules = FaultRules {
        server_clocks: true,
        server_crashes: true,
        other_clocks: true,
    };
}

/// What a sweep asks of a world after the final heal (its liveness phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Progress {
    /// An up Raft node leads in the highest term any up node reached.
    RaftLeader,
    /// The store accepted a write after the heal.
    StoreWrite,
    /// Some minute after the heal's minute was invoiced.
    Invoicing,
    /// Exactly one candidate leads at the end.
    OneLeader,
    /// Some learner knows a value is chosen at the end.
    ValueChosen,
    /// Every PBFT client took a result after the heal.
    ResultsTaken,
    /// Judged on safety alone (Redis-style locks promise no liveness a sweep could check).
    SafetyOnly,
}

/// One configuration a sweep runs.
#[derive(Clone, Copy, Debug, Hash)]
pub struct SweepVariant {
    /// Its name on the command line (`--variant no-fencing`); the first variant of a plan is the one the
    /// world is claimed safe in, or its usual configuration where no configuration is safe.
    pub name: &'static str,
    /// Whether no checker may ever fire, under any chaos profile. An unsafe variant is one some seeds
    /// must catch: the holder-aimed profile is built to catch each in nearly every seed.
    pub safe: bool,
    /// One phrase on the configuration, for the sweep's table.
    pub summary: &'static str,
    /// The world, from the lock options a seed drew (workers, TTL, timings, lease check, idempotency).
    pub configure: fn(LockServiceOptions) -> ProtocolConfig,
    /// Faults the mixed profile may throw at this configuration.
    pub faults: FaultRules,
}

/// How sweeps run a world. Plain Raft's plan has one variant and no lock options (its chaos schedules
/// are `chaos::chaos_scenario`'s); every other world's runs through `chaos::locks`.
#[derive(Clone, Copy, Debug, Hash)]
pub struct SweepPlan {
    /// Servers a sweep runs unless told otherwise (a world with a single server runs one whatever this
    /// says).
    pub servers: usize,
    /// The quiet period after the heal, long enough for the world's work to resume.
    pub quiet_ms: u64,
    pub progress: Progress,
    /// The label of the message delivered to (or the timer fired at) a holder when it is about to act on
    /// its hold: the holder-aimed profile pauses it right then. `None`: strike as the hold begins.
    pub hold_marker: Option<&'static str>,
    pub variants: &'static [SweepVariant],
}

impl SweepPlan {
    /// The variant named `name`.
    pub fn variant(&self, name: &str) -> Option<&'static SweepVariant> {
        self.variants.iter().find(|variant| variant.name == name)
    }

    /// The configuration a sweep runs by default.
    pub fn default_variant(&self) -> &'static SweepVariant {
        &self.variants[0]
    }
}
