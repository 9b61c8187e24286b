//! Random-fault scenarios for the lock-service world, for seed sweeps: every fault the engine has, aimed at
//! servers, workers and the store alike, then a quiet period in which everything is healed, restarted,
//! resumed and every clock runs at true speed again.
//!
//! With fencing on, no seed may break any checker (the service's own invariants and mutual exclusion at
//! the resource); with fencing off, some seeds must (pauses and clock faults on workers defeat leases).

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::action::{Action, NodeTarget, PPM_ONE};
use crate::contract::config::{
    LockServiceOptions, ProtocolConfig, SchedulerMode, SchedulerOptions,
};
use crate::tooling::scenario::{Scenario, Step};
use crate::worlds::coordination::Layout;

const SCHEDULE_SALT: u64 = 0x10c5_5e7c_1ce0_0001;

/// Which lock the chaos world runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockKind {
    Service,
    Redis,
    Redlock,
    /// The invoice scheduler in `leader-fencing` mode (minutes of 500 ms). Instance clocks stay honest:
    /// an instance whose clock is behind re-runs minutes, which no lock can prevent.
    Scheduler,
    /// ZooKeeper-style election with five candidates. No clock faults anywhere: session timeouts, like
    /// leases, assume clocks that tick at the same rate.
    Zookeeper(crate::contract::config::ZkRecipe),
    /// The work queue: partitioned by account without a lock, or under one global lock (fenced).
    WorkQueue {
        partitioned: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockChaosOptions {
    pub kind: LockKind,
    pub servers: usize,
    pub fencing: bool,
    /// Clock jumps and drift on the lock servers, and crashes of Redis-style servers (which forget
    /// their keys). Redis and Redlock are only claimed safe without them.
    pub server_time_faults: bool,
    pub fault_window_ms: u64,
    pub quiet_ms: u64,
}

impl Default for LockChaosOptions {
    fn default() -> Self {
        LockChaosOptions {
            kind: LockKind::Service,
            servers: 3,
            fencing: true,
            server_time_faults: true,
            fault_window_ms: 4_000,
            quiet_ms: 2_500,
        }
    }
}

/// The chaos scenario for `seed`: worker options, network and faults all drawn from the seed.
pub fn lock_chaos_scenario(seed: u64, options: &LockChaosOptions) -> Scenario {
    let mut rng = Rng::new(seed ^ SCHEDULE_SALT);
    let duration_ms = options.fault_window_ms + options.quiet_ms;
    let title = format!("Lock-service chaos seed {seed}");
    // A single Redis lock has one server, whatever `servers` says.
    let servers = match options.kind {
        LockKind::Redis => 1,
        _ => options.servers,
    };
    let mut scenario = Scenario::new(&title, servers, duration_ms);
    scenario.seed = seed;
    let ttl_ms = rng.range_inclusive(300, 1_500);
    let locks = LockServiceOptions {
        workers: rng.range_inclusive(2, 4) as usize,
        lease_ttl_ms: ttl_ms,
        renew_ms: (ttl_ms / 3).max(1),
        fencing: options.fencing,
        check_lease_before_write: rng.chance_ppm(PPM_ONE / 2),
        idempotency_key: rng.chance_ppm(PPM_ONE / 2),
        think_ms: rng.range_inclusive(0, 200),
        work_ms: rng.range_inclusive(0, 300),
        op_timeout_ms: rng.range_inclusive(100, 500),
        initial_count: 1_000_000,
        ..LockServiceOptions::default()
    };
    // Keys a scenario file cannot set for a protocol keep the value a file gets, so the scenario
    // exports and reads back unchanged (`Scenario::validate` holds every scenario to that).
    let default_renew_ms = LockServiceOptions::default().renew_ms;
    let coordination = match options.kind {
        LockKind::Service => ProtocolConfig::LockService(locks),
        LockKind::Redis => ProtocolConfig::RedisLock(LockServiceOptions {
            fencing: false,
            renew_ms: default_renew_ms,
            ..locks
        }),
        LockKind::Redlock => ProtocolConfig::Redlock(LockServiceOptions {
            fencing: false,
            renew_ms: default_renew_ms,
            drift_allowance_ms: ttl_ms / 100 + 2,
            ..locks
        }),
        LockKind::Zookeeper(recipe) => ProtocolConfig::Zookeeper(
            LockServiceOptions {
                workers: 5,
                fencing: false,
                ..locks
            },
            recipe,
        ),
        LockKind::WorkQueue { partitioned } => ProtocolConfig::WorkQueue(
            LockServiceOptions {
                workers: 4,
                fencing: true,
                ..locks
            },
            crate::contract::config::QueueOptions {
                partitioned,
                accounts: 32,
            },
        ),
        LockKind::Scheduler => ProtocolConfig::Scheduler(
            LockServiceOptions {
                workers: 3,
                fencing: false,
                ..locks
            },
            SchedulerOptions {
                mode: SchedulerMode::LeaderFencing,
                minute_ms: 500,
            },
        ),
    };
    let layout = Layout::new(servers, &coordination);
    scenario.protocol = coordination;
    scenario.raft.pre_vote = rng.chance_ppm(PPM_ONE / 2);
    scenario.raft.check_quorum = rng.chance_ppm(PPM_ONE / 2);
    let delay_min_ms = rng.range_inclusive(1, 5);
    scenario.timing.network_delay_ms = (delay_min_ms, delay_min_ms + rng.range_inclusive(0, 25));
    if rng.chance_ppm(PPM_ONE / 2) {
        scenario.timing.duplicate_ppm = rng.range_inclusive(0, 100_000) as u32;
    }
    let mut at_ms = rng.range_inclusive(100, 600);
    while at_ms < options.fault_window_ms {
        let action = random_fault(&mut rng, &layout, options);
        scenario.steps.push(Step { at_ms, action });
        at_ms += rng.range_inclusive(50, 600);
    }
    let heal_at_ms = options.fault_window_ms;
    let mut push = |action| {
        scenario.steps.push(Step {
            at_ms: heal_at_ms,
            action,
        })
    };
    push(Action::Heal);
    push(Action::DropRate { ppm: 0 });
    for index in 0..layout.total() {
        let target = NodeTarget::Node(NodeId(index as u16));
        push(Action::Restart { target });
        push(Action::Resume { target });
        // Clocks run true again, so the quiet period measures liveness, not a slow leader clock.
        push(Action::ClockDrift { target, ppm: 0 });
    }
    scenario
}

fn random_fault(rng: &mut Rng, layout: &Layout, options: &LockChaosOptions) -> Action {
    loop {
        let action = any_fault(rng, layout);
        if let LockKind::Zookeeper(_) = options.kind {
            if !matches!(action, Action::ClockJump { .. } | Action::ClockDrift { .. }) {
                return action;
            }
            continue;
        }
        if options.kind == LockKind::Scheduler {
            let instance_clock = match &action {
                Action::ClockJump { target, .. } | Action::ClockDrift { target, .. } => {
                    !matches!(target, NodeTarget::Node(node) if node.index() < layout.servers)
                }
                _ => false,
            };
            if !instance_clock {
                return action;
            }
            continue;
        }
        if options.server_time_faults || options.kind == LockKind::Service {
            return action;
        }
        // Redis-style servers keep time and keys only as well as their process does.
        let hits_server = |target: &NodeTarget| match target {
            NodeTarget::Node(node) => node.index() < layout.servers,
            NodeTarget::Leader => true,
        };
        let forbidden = match &action {
            Action::ClockJump { target, .. } | Action::ClockDrift { target, .. } => {
                hits_server(target)
            }
            Action::Crash { target } => hits_server(target),
            _ => false,
        };
        if !forbidden {
            return action;
        }
    }
}

fn any_fault(rng: &mut Rng, layout: &Layout) -> Action {
    let total = layout.total() as u64;
    let node = |rng: &mut Rng| NodeTarget::Node(NodeId(rng.range_inclusive(0, total - 1) as u16));
    let server = |rng: &mut Rng| {
        NodeTarget::Node(NodeId(
            rng.range_inclusive(0, layout.servers as u64 - 1) as u16
        ))
    };
    match rng.range_inclusive(0, 11) {
        0 => Action::Crash { target: node(rng) },
        1 => Action::Restart { target: node(rng) },
        2 => Action::Crash {
            target: NodeTarget::Leader,
        },
        3 | 4 => Action::Pause {
            target: node(rng),
            duration_ms: Some(rng.range_inclusive(50, 3_000)),
        },
        5 => Action::Isolate {
            target: server(rng),
        },
        6 => cut(rng, total),
        7 => Action::Heal,
        8 => Action::DropRate {
            ppm: rng.range_inclusive(0, 200_000) as u32,
        },
        9 => Action::ClockJump {
            target: node(rng),
            by_ms: rng.range_inclusive(0, 4_000) as i64 - 2_000,
        },
        10 => Action::ClockDrift {
            target: node(rng),
            ppm: rng.range_inclusive(0, 400_000) as i64 - 200_000,
        },
        _ => {
            let mut members: Vec<NodeId> = (0..layout.total() as u16).map(NodeId).collect();
            let split = rng.range_inclusive(1, total - 1) as usize;
            // A cheap shuffle from the seeded generator.
            for index in (1..members.len()).rev() {
                let other = rng.range_inclusive(0, index as u64) as usize;
                members.swap(index, other);
            }
            let rest = members.split_off(split);
            Action::Partition {
                groups: vec![members, rest],
            }
        }
    }
}

/// A one-way or two-way cut between two different nodes: the second end is drawn from the other
/// `total - 1` nodes, so a node is never cut from itself (that would cut nothing, and a scenario file
/// cannot say it).
fn cut(rng: &mut Rng, total: u64) -> Action {
    if total < 2 {
        return Action::Heal;
    }
    let from = rng.range_inclusive(0, total - 1);
    let mut to = rng.range_inclusive(0, total - 2);
    if to >= from {
        to += 1;
    }
    Action::Cut {
        from: NodeTarget::Node(NodeId(from as u16)),
        to: NodeTarget::Node(NodeId(to as u16)),
        both: rng.chance_ppm(PPM_ONE / 2),
    }
}
