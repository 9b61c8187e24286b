//! The pieces of a world that its folder owns beyond the protocol itself, reached through the
//! registry entry: its checker, what its report and price count, its lesson checkpoints. Later steps
//! of issue 31 add the view here, so that nothing outside a protocol's folder has to match on the
//! protocol's name to find them.
//!
//! Every hook has a default meaning "this world has none", so a world states only what it owns.

use crate::base::ids::{NodeId, NodeSet};
use crate::base::rng::Rng;
use crate::contract::action::Action;
use crate::contract::checkpoint::CheckpointSpec;
use crate::contract::config::ProtocolConfig;
use crate::contract::erased_model::DynModel;
use crate::contract::invalid::Invalid;
use crate::contract::verdicts::WorldChecker;
use crate::contract::world_read::WorldRead;
use std::fmt::Debug;

/// What the engine knows about a world's nodes when it arms a checker.
#[derive(Clone, Debug, Hash, Default)]
pub struct Arming {
    /// The servers (acceptors, replicas), numbered first.
    pub servers: usize,
    /// Actors that only learn outcomes (Paxos' `L1`, ...).
    pub learners: NodeSet,
    /// Every node's name (`n1`, `A`, `store`), indexed by node, for the checker's sentences.
    pub labels: Vec<String>,
}

/// The nodes a chaos run's world has, for a world's aimed faults.
#[derive(Clone, Copy, Debug, Hash)]
pub struct ChaosNodes {
    /// Servers, numbered from 0.
    pub servers: usize,
    /// The lettered actors (proposers, clients), numbered after the servers.
    pub workers: usize,
}

impl ChaosNodes {
    /// The `index`th lettered actor.
    pub fn worker(&self, index: usize) -> NodeId {
        NodeId((self.servers + index) as u16)
    }
}

/// Faults a world aims where it is weakest (what `--profile holders` runs in a world with no lock
/// holders to aim at), planned from a seed.
#[derive(Clone, Copy, Debug, Hash)]
pub struct AimedChaos {
    /// Mixed into the seed of the run's generator, which draws the world first and then the plan.
    pub salt: u64,
    /// The world's name in the run's title: "Paxos" gives "Paxos-aimed chaos seed 7".
    pub title: &'static str,
    pub plan: fn(&mut Rng, &ChaosNodes) -> AimedPlan,
}

/// An aimed plan: its steps (time in ms, action), and the earliest the final heal may come.
#[derive(Clone, Debug, Hash, Default)]
pub struct AimedPlan {
    pub steps: Vec<(u64, Action)>,
    pub heal_not_before_ms: u64,
}

/// A world that bills once a minute, as its parts describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Invoicing {
    /// The length of a billing minute.
    pub minute_ms: u64,
    /// The scheduler's mode, as scenario files spell it.
    pub mode: &'static str,
    /// One long-lived leader does the invoicing (the leader modes), so a new lock holder is a failover
    /// whose gap in invoices the report measures.
    pub one_leader: bool,
}

/// One option compare mode can flip in a world (`fencing`, `zk-recipe`), as the world's folder reads
/// and flips it. The name is compare mode's `Variation` name, which lesson and share links carry.
#[derive(Clone, Copy, Debug, Hash)]
pub struct VariationHook {
    pub name: &'static str,
    /// The option's setting in words ("fencing on"); `None` where `protocol` has no such option.
    pub value: fn(&ProtocolConfig) -> Option<String>,
    /// Sets the option the other way (possibly into a sibling world: the fenced lock service and
    /// Redlock).
    pub flip: fn(&mut ProtocolConfig),
}

/// Words for a flag that is on or off: "fencing on".
pub fn on_off(name: &str, on: bool) -> String {
    format!("{name} {}", if on { "on" } else { "off" })
}

/// A fault drawn from a seed for a world of so many servers: (time in ms, action).
pub type OpeningFault = fn(seed: u64, servers: usize) -> (u64, Action);

/// A world's chaos, apart from [`WorldParts`]: only the chaos tooling reads it (through the registry's
/// own table), so a build that never runs chaos, such as the app, leaves the plans out. Reached through
/// the entry's parts, every hook's code stays in every binary that lists the entries.
#[derive(Clone, Copy, Debug, Hash, Default)]
pub struct ChaosParts {
    /// The faults aimed at the world's weak point (see [`AimedChaos`]).
    pub aimed: Option<AimedChaos>,
    /// A fault every mixed chaos run of the world starts with (PBFT's Byzantine replica), drawn from
    /// the seed for a world of so many servers.
    pub mixed_opening: Option<OpeningFault>,
}

/// Who a world has beside its servers, as its layout numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Population {
    /// The lettered actors (`A`, `B`, ...: workers, instances, candidates, proposers, clients).
    pub workers: usize,
    /// Actors that only learn outcomes (Paxos' `L1`, ...).
    pub learners: usize,
}

impl Population {
    /// A world's lettered actors as its lock options count them, and no learners.
    pub fn lettered(protocol: &ProtocolConfig) -> Population {
        Population {
            workers: protocol.lock_options().map_or(0, |options| options.workers),
            learners: 0,
        }
    }
}

/// A world's own parts. A folder declares a unit struct implementing this and puts a reference to it
/// in its registry entry.
pub trait WorldParts: Sync {
    /// The actors the world has beside its servers.
    fn population(&self, protocol: &ProtocolConfig) -> Population {
        Population::lettered(protocol)
    }

    /// The checker judging the world's own invariants, armed for this run's nodes.
    fn checker(&self, _arming: &Arming) -> Option<Box<dyn WorldChecker>> {
        None
    }

    /// The sequential models its clients' histories are judged by (a key-value store), each judging
    /// its own kind of call; none where no client history is recorded.
    fn history_models(&self, _protocol: &ProtocolConfig) -> &'static [&'static dyn DynModel] {
        &[]
    }

    /// The requests the world has committed so far, under the protocol's name for the price of
    /// agreement (`("raft", writes committed)`); `None` where nothing it does is a committed request.
    fn committed_requests(&self, _world: &dyn WorldRead) -> Option<(&'static str, u64)> {
        None
    }

    /// How the world invoices once a minute, where it does (the scheduler): sweeps and lesson checks
    /// count missed minutes, and the report measures failovers.
    fn invoicing(&self, _protocol: &ProtocolConfig) -> Option<Invoicing> {
        None
    }

    /// How a work queue shares out its jobs, as its report names the mode (`partitioned`,
    /// `global-lock`); `None` in a world that is no work queue.
    fn queue_mode(&self, _protocol: &ProtocolConfig) -> Option<&'static str> {
        None
    }

    /// How often the world's clients send a request, where its report sets it beside a plain Raft
    /// cluster doing the same work (PBFT's price against Raft's).
    fn raft_baseline_interval_ms(&self, _protocol: &ProtocolConfig) -> Option<u64> {
        None
    }

    /// The options compare mode can flip in this world.
    fn variations(&self) -> &'static [VariationHook] {
        &[]
    }

    /// Whether a work queue deals its accounts out to the workers (Partition Ownership applies).
    fn partitions_accounts(&self, _protocol: &ProtocolConfig) -> bool {
        false
    }

    /// Whether the world runs on `servers` servers, beyond the node limit every world has (a single
    /// Redis lock has exactly one server; PBFT's quorum cannot exceed its replicas). The error names
    /// the scenario key at fault.
    fn servers_fit(&self, _servers: usize, _protocol: &ProtocolConfig) -> Result<(), Invalid> {
        Ok(())
    }

    /// The world's own example scenarios, `(name, TOML text)`, compiled in from its folder and named
    /// `<world>/<file>.toml` (`two-phase-commit/coordinator-crash.toml`): the gallery, the tests and a
    /// lesson step's `scenario = "…"` find them through the registry, after `sim/scenarios/`.
    fn examples(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// The lesson checkpoints only this world can meet, in the order its folder lists them (the
    /// lesson parser's hints offer them in registry order after the common ones).
    fn checkpoints(&self) -> &'static [CheckpointSpec] {
        &[]
    }
}

// Debug by name only, as for `dyn WorldChecker`: the entry is Debug, and a supertrait would keep every
// world's parts' formatting in every binary.
impl Debug for dyn WorldParts {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("WorldParts")
    }
}

/// The answer of `WorldParts::servers_fit` for a world built around one server (a single Redis, a
/// two-phase-commit coordinator): `one_server` names that server in the error, as "1 (the coordinator)".
pub fn exactly_one_server(servers: usize, one_server: &str) -> Result<(), Invalid> {
    if servers == 1 {
        return Ok(());
    }
    Err(Invalid::OutOfRange {
        field: "nodes".into(),
        value: servers.to_string(),
        expected: format!("1 ({one_server})"),
    })
}

/// The parts of a world that owns nothing beyond its protocol.
#[derive(Debug)]
pub struct NoParts;

impl WorldParts for NoParts {}
