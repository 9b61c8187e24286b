//! Worlds where the servers `n1..nN` run beside other actors: lock clients `A`, `B`, ... and the
//! protected resource `store`. This module lays such a world out (which node id is who) and checks it;
//! `build.rs` holds each world's actor builder, which its registry line names. The scenario parser, the
//! view and the report use the same names.
//!
//! Layout: node ids `0..servers` are the servers (shown `n1..nN`), then one id per worker (`A`, `B`, ...),
//! then Paxos's learner actors (`L1`, `L2`, ...) where the world has them, then the resource (`store`).
//! The world's `node_count` counts them all; a scenario's `nodes` counts the servers only.

pub mod build;

use crate::base::ids::{NodeId, MAX_NODES};
use crate::contract::config::{LockServiceOptions, ProtocolConfig};
use crate::contract::config::{WorldConfig, MAX_DURATION_MS};
use crate::contract::invalid::Invalid;
use crate::protocols::paxos::options::MAX_LEARNERS;

/// Most lock clients a world may have (they are named `A`..`Z`).
pub const MAX_WORKERS: usize = 26;

/// Who is who in a coordination world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub servers: usize,
    pub workers: usize,
    /// Paxos's learner actors (`L1`, ...); 0 in every other world.
    pub learners: usize,
    /// Whether the world has the resource `store` (the election recipes have none).
    pub has_store: bool,
}

impl Layout {
    /// The layout for `servers` servers running `coordination`.
    pub fn new(servers: usize, protocol: &ProtocolConfig) -> Layout {
        Layout {
            servers,
            workers: protocol.lock_options().map_or(0, |options| options.workers),
            learners: match protocol {
                ProtocolConfig::Paxos(_, options) => options.learners,
                _ => 0,
            },
            has_store: !matches!(
                protocol,
                ProtocolConfig::Raft
                    | ProtocolConfig::Zookeeper(..)
                    | ProtocolConfig::Paxos(..)
                    | ProtocolConfig::Pbft(..)
            ),
        }
    }

    /// The layout of a world whose `node_count` counts every actor.
    pub fn of_world(node_count: usize, coordination: &ProtocolConfig) -> Layout {
        let extra = Layout::new(0, coordination).total();
        Layout::new(node_count.saturating_sub(extra), coordination)
    }

    pub fn total(&self) -> usize {
        self.servers + self.workers + self.learners + usize::from(self.has_store)
    }

    pub fn worker(&self, index: usize) -> NodeId {
        assert!(index < self.workers, "worker index outside the layout");
        NodeId((self.servers + index) as u16)
    }

    pub fn learner(&self, index: usize) -> NodeId {
        assert!(index < self.learners, "learner index outside the layout");
        NodeId((self.servers + self.workers + index) as u16)
    }

    /// The resource's node. With no store this is one past the last node: look it up with `get`.
    pub fn store(&self) -> NodeId {
        NodeId((self.servers + self.workers + self.learners) as u16)
    }

    /// The name a node goes by in scenario files, the view and the report.
    pub fn label(&self, node: NodeId) -> String {
        let index = node.index();
        if index < self.servers {
            node.to_string()
        } else if index < self.servers + self.workers {
            char::from(b'A' + (index - self.servers) as u8).to_string()
        } else if index < self.servers + self.workers + self.learners {
            format!("L{}", index - self.servers - self.workers + 1)
        } else {
            "store".to_string()
        }
    }

    /// Every name besides `n1..nN`, with its node.
    pub fn extra_names(&self) -> Vec<(String, NodeId)> {
        (self.servers..self.total())
            .map(|index| NodeId(index as u16))
            .map(|node| (self.label(node), node))
            .collect()
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

/// How many servers a world may have: a single Redis lock has exactly one, and the servers with every
/// other actor must fit in [`MAX_NODES`]. The parser (pointing at `nodes`), world construction and share
/// links all ask this one function.
pub fn servers_fit(servers: usize, protocol: &ProtocolConfig) -> Result<(), Invalid> {
    if matches!(protocol, ProtocolConfig::RedisLock(_)) && servers != 1 {
        return Err(Invalid::OutOfRange {
            field: "nodes".into(),
            value: servers.to_string(),
            expected: "1 (a single Redis server)".into(),
        });
    }
    if let ProtocolConfig::Pbft(_, options) = protocol {
        if options.quorum as usize > servers {
            return Err(Invalid::OutOfRange {
                field: "pbft.quorum".into(),
                value: options.quorum.to_string(),
                expected: format!(
                    "a pbft.quorum of 0 (for 2f + 1) or at most the {servers} replicas"
                ),
            });
        }
    }
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
