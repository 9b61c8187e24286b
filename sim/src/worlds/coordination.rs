//! Worlds where the servers `n1..nN` run beside other actors: lock clients `A`, `B`, ... and the
//! protected resource `store`. The [`Layout`] (which node id is who, `contract/layout.rs`) is worked
//! out here from the world's registry entry — its parts count the actors beside the servers, its
//! capabilities say whether it has a store — and checked. `build.rs` holds the lock-family worlds'
//! actor builders that cannot live in their folders; every other world's builder is its folder's
//! `build.rs`, named by its registry line. The scenario parser, the view and the report use the same
//! names.
//!
//! Layout: node ids `0..servers` are the servers (shown `n1..nN`), then one id per worker (`A`, `B`, ...),
//! then Paxos's learner actors (`L1`, `L2`, ...) where the world has them, then the resource (`store`).
//! The world's `node_count` counts them all; a scenario's `nodes` counts the servers only.

pub mod build;

use crate::base::ids::MAX_NODES;
use crate::contract::config::{LockServiceOptions, ProtocolConfig, MAX_LEARNERS};
use crate::contract::config::{WorldConfig, MAX_DURATION_MS};
use crate::contract::invalid::Invalid;
pub use crate::contract::layout::Layout;

/// Most lock clients a world may have (they are named `A`..`Z`).
pub const MAX_WORKERS: usize = 26;

impl Layout {
    /// The layout for `servers` servers running `protocol`, as its registry entry counts the rest.
    pub fn new(servers: usize, protocol: &ProtocolConfig) -> Layout {
        let entry = protocol.entry();
        let population = entry.parts.population(protocol);
        Layout {
            servers,
            workers: population.workers,
            learners: population.learners,
            has_store: entry.capabilities.has_store,
        }
    }

    /// The layout of a world whose `node_count` counts every actor.
    pub fn of_world(node_count: usize, coordination: &ProtocolConfig) -> Layout {
        let extra = Layout::new(0, coordination).total();
        Layout::new(node_count.saturating_sub(extra), coordination)
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.servers == 0 {
            return Err("a coordination world needs at least one server".to_string());
        }
        if self.workers == 0 || self.workers > MAX_WORKERS {
            return Err(format!(
                "{} workers is outside 1..={MAX_WORKERS}",
                self.workers
            ));
        }
        if self.learners as u64 > MAX_LEARNERS {
            return Err(format!(
                "{} learners is outside 0..={MAX_LEARNERS}",
                self.learners
            ));
        }
        if self.total() > MAX_NODES {
            return Err(format!(
                "{} servers, {} workers and the other actors make {} nodes, more than {MAX_NODES}",
                self.servers,
                self.workers,
                self.total()
            ));
        }
        Ok(())
    }
}

/// How many servers a world may have: its parts' own rule first (a single Redis lock has exactly one),
/// then the servers with every other actor must fit in [`MAX_NODES`]. The parser (pointing at `nodes`), world construction and share
/// links all ask this one function.
pub fn servers_fit(servers: usize, protocol: &ProtocolConfig) -> Result<(), Invalid> {
    protocol.entry().parts.servers_fit(servers, protocol)?;
    let layout = Layout::new(servers, protocol);
    if layout.total() > MAX_NODES {
        let others = layout.total() - servers;
        return Err(Invalid::OutOfRange {
            field: "nodes".into(),
            value: servers.to_string(),
            expected: format!(
                "at most {} servers beside {others} other actors",
                MAX_NODES - others
            ),
        });
    }
    Ok(())
}

/// Checks the options of a coordination workload (scenario files check them key by key first).
pub fn validate_options(protocol: &ProtocolConfig) -> Result<(), String> {
    match protocol.lock_options() {
        Some(options) => validate_lock_options(options),
        None => Ok(()),
    }
}

fn validate_lock_options(options: &LockServiceOptions) -> Result<(), String> {
    let times = [
        ("lease_ttl_ms", options.lease_ttl_ms),
        ("renew_ms", options.renew_ms),
        ("op_timeout_ms", options.op_timeout_ms),
    ];
    for (name, value) in times {
        if value == 0 || value > MAX_DURATION_MS {
            return Err(format!("{name} {value} is outside 1..={}", MAX_DURATION_MS));
        }
    }
    if options.think_ms > MAX_DURATION_MS || options.work_ms > MAX_DURATION_MS {
        return Err("think_ms and work_ms must be at most one hour".to_string());
    }
    Ok(())
}

/// Checks a world's layout and options before its registry entry builds the actors, and gives the
/// layout they are built on. Plain Raft has nothing beside its servers to check.
pub fn check_world(config: &WorldConfig) -> Result<Layout, String> {
    let layout = Layout::of_world(config.node_count, &config.protocol);
    if !config.protocol.is_coordination() {
        return Ok(layout);
    }
    layout.validate()?;
    validate_options(&config.protocol)?;
    servers_fit(layout.servers, &config.protocol).map_err(|invalid| invalid.to_string())?;
    Ok(layout)
}
