//! Random-fault scenarios for the coordination worlds, for seed sweeps: every fault the engine has that
//! the configuration's rules allow, aimed at servers, workers and the store alike, then a quiet period in
//! which everything is healed, restarted, resumed and every clock runs at true speed again.
//!
//! The world and its configuration come from the registry: an entry's sweep plan lists its variants,
//! each with the world it builds from the drawn lock options and the faults it is claimed to tolerate.
//! A safe variant (the lock service with fencing) must break no checker on any seed; an unsafe one (fencing
//! off) must break one on some seeds (pauses and clock faults on workers defeat leases).

use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::action::{Action, NodeTarget, PPM_ONE};
use crate::contract::config::{LockServiceOptions, ProtocolConfig, ProtocolKind};
use crate::contract::entry::{FaultRules, ServerQuorum, SweepVariant};
use crate::tooling::scenario::{Scenario, Step};
use crate::worlds::coordination::Layout;
use crate::worlds::registry::{self, Entry};

const SCHEDULE_SALT: u64 = 0x10c5_5e7c_1ce0_0001;

/// Which world and configuration a coordination chaos run builds: a registry entry and one of the
/// variants its sweep plan lists (`contract::entry::sweep`), so a newly registered world is swept with
/// no edit here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockChaosOptions {
    pub protocol: ProtocolKind,
    /// The name of one of the entry's sweep variants.
    pub variant: &'static str,
    /// Lock servers (a world with a single server runs one whatever this says).
    pub servers: usize,
    pub fault_window_ms: u64,
    pub quiet_ms: u64,
}

/// What a coordination sweep throws at its world during the fault window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockProfile {
    /// No faults: the workload alone (the fault window is empty), a baseline.
    Calm,
    /// A random fault every 50-600 ms ([`lock_chaos_scenario`]).
    Mixed,
    /// Faults timed to land while a lock is held (`chaos::holders`).
    Holders,
}

impl LockProfile {
    pub const NAMES: &'static [&'static str] = &["calm", "mixed", "holders"];

    pub fn name(self) -> &'static str {
        match self {
            LockProfile::Calm => "calm",
            LockProfile::Mixed => "mixed",
            LockProfile::Holders => "holders",
        }
    }

    pub fn from_name(name: &str) -> Option<LockProfile> {
        [LockProfile::Calm, LockProfile::Mixed, LockProfile::Holders]
            .into_iter()
            .find(|profile| profile.name() == name)
    }
}

/// The fault window of a coordination chaos run.
pub const FAULT_WINDOW_MS: u64 = 4_000;

impl LockChaosOptions {
    /// The chaos run of `protocol`'s variant `variant` as its sweep plan sets it up; `None` for a world
    /// without actors (plain Raft) or a name the plan does not list.
    pub fn new(protocol: ProtocolKind, variant: &str) -> Option<LockChaosOptions> {
        let entry = registry::entry(protocol);
        if !(entry.defaults)().is_coordination() {
            return None;
        }
        let variant = entry.sweep.variant(variant)?;
        Some(LockChaosOptions {
            protocol,
            variant: variant.name,
            servers: entry.sweep.servers,
            fault_window_ms: FAULT_WINDOW_MS,
            quiet_ms: entry.sweep.quiet_ms,
        })
    }

    /// The world's default sweep variant (see [`LockChaosOptions::new`]).
    pub fn default_for(protocol: ProtocolKind) -> Option<LockChaosOptions> {
        Self::new(
            protocol,
            registry::entry(protocol).sweep.default_variant().name,
        )
    }

    pub fn entry(&self) -> &'static Entry {
        registry::entry(self.protocol)
    }

    pub fn sweep_variant(&self) -> &'static SweepVariant {
        self.entry()
            .sweep
            .variant(self.variant)
            .expect("options are made from the plan's own variant names")
    }

    /// Servers the world really runs: one for a world with a single server.
    pub fn server_count(&self) -> usize {
        match self.entry().capabilities.server_quorum {
            ServerQuorum::Single { .. } => 1,
            ServerQuorum::Majority { .. } => self.servers,
        }
    }
}

/// The chaos scenario for `seed`: worker options, network and faults all drawn from the seed.
pub fn lock_chaos_scenario(seed: u64, options: &LockChaosOptions) -> Scenario {
    let mut rng = Rng::new(seed ^ SCHEDULE_SALT);
    let (mut scenario, layout) = chaos_world(seed, options, &mut rng);
    let faults = options.sweep_variant().faults;
    let mut at_ms = rng.range_inclusive(100, 600);
    while at_ms < options.fault_window_ms {
        let action = random_fault(&mut rng, &layout, faults);
        scenario.steps.push(Step { at_ms, action });
        at_ms += rng.range_inclusive(50, 600);
    }
    push_heal(&mut scenario, options.fault_window_ms, &layout);
    if let Some(opening) = crate::worlds::registry::chaos(options.protocol).mixed_opening {
        if options.fault_window_ms > 1 {
            let (at_ms, action) = opening(seed, layout.servers);
            scenario.steps.insert(0, Step { at_ms, action });
        }
    }
    scenario
}

/// The scenario of `seed` without steps, and its layout: the lock options drawn from `rng` and given to
/// the variant, then PreVote, CheckQuorum, network delay and duplicates.
pub fn chaos_world(seed: u64, options: &LockChaosOptions, rng: &mut Rng) -> (Scenario, Layout) {
    let duration_ms = options.fault_window_ms + options.quiet_ms;
    let title = format!("Lock-service chaos seed {seed}");
    let servers = options.server_count();
    let mut scenario = Scenario::new(&title, servers, duration_ms);
    scenario.seed = seed;
    let ttl_ms = rng.range_inclusive(300, 1_500);
    // A lease granted before the heal can outlive it by a whole TTL: a newly elected leader restarts
    // every lease's countdown, so the next grant waits that long after the election, and the quiet
    // period has to hold the world's work after that wait, not just the election (seed 27199).
    scenario.duration_ms += ttl_ms;
    let locks = LockServiceOptions {
        workers: rng.range_inclusive(2, 4) as usize,
        lease_ttl_ms: ttl_ms,
        renew_ms: (ttl_ms / 3).max(1),
        fencing: true,
        check_lease_before_write: rng.chance_ppm(PPM_ONE / 2),
        idempotency_key: rng.chance_ppm(PPM_ONE / 2),
        think_ms: rng.range_inclusive(0, 200),
        work_ms: rng.range_inclusive(0, 300),
        op_timeout_ms: rng.range_inclusive(100, 500),
        initial_count: 1_000_000,
        ..LockServiceOptions::default()
    };
    let mut coordination = (options.sweep_variant().configure)(locks);
    keep_file_values(&mut coordination, options.entry());
    // A key held back by lock-delay at the heal is granted only when the delay ends: the quiet period
    // holds the work after that too (0, and so no change, for every configuration without one).
    scenario.duration_ms += coordination
        .lock_options()
        .map_or(0, |locks| locks.lock_delay_ms);
    let layout = Layout::new(servers, &coordination);
    scenario.protocol = coordination;
    scenario.raft.pre_vote = rng.chance_ppm(PPM_ONE / 2);
    scenario.raft.check_quorum = rng.chance_ppm(PPM_ONE / 2);
    let delay_min_ms = rng.range_inclusive(1, 5);
    scenario.timing.network_delay_ms = (delay_min_ms, delay_min_ms + rng.range_inclusive(0, 25));
    if rng.chance_ppm(PPM_ONE / 2) {
        scenario.timing.duplicate_ppm = rng.range_inclusive(0, 100_000) as u32;
    }
    (scenario, layout)
}

/// Keys a scenario file cannot set for the world keep the value a file gets, so the scenario exports
/// and reads back unchanged (`Scenario::validate` holds every scenario to that).
fn keep_file_values(coordination: &mut ProtocolConfig, entry: &Entry) {
    let settable = |key: &str| entry.lock_keys.contains(&key);
    let defaults = LockServiceOptions::default();
    let Some(locks) = coordination.lock_options_mut() else {
        return;
    };
    if !settable("fencing") {
        locks.fencing = false;
    }
    if !settable("renew_ms") {
        locks.renew_ms = defaults.renew_ms;
    }
    if !settable("unchecked_release") {
        locks.unchecked_release = false;
    }
    if !settable("drift_allowance_ms") {
        locks.drift_allowance_ms = defaults.drift_allowance_ms;
    }
    if !settable("set_nx_retries") {
        locks.set_nx_retries = defaults.set_nx_retries;
    }
}

/// At `heal_ms` everything is healed, restarted, resumed, and every clock runs at true speed again
/// (so the quiet period measures liveness, not a slow leader clock).
pub fn push_heal(scenario: &mut Scenario, heal_ms: u64, layout: &Layout) {
    let mut push = |action| {
        scenario.steps.push(Step {
            at_ms: heal_ms,
            action,
        })
    };
    push(Action::Heal);
    push(Action::DropRate { ppm: 0 });
    for index in 0..layout.total() {
        let target = NodeTarget::Node(NodeId(index as u16));
        push(Action::Restart { target });
        push(Action::Resume { target });
        push(Action::ClockDrift { target, ppm: 0 });
    }
}

/// A random fault the variant's rules allow (others are drawn again).
fn random_fault(rng: &mut Rng, layout: &Layout, rules: FaultRules) -> Action {
    let on_server = |target: &NodeTarget| match target {
        NodeTarget::Node(node) => node.index() < layout.servers,
        NodeTarget::Leader => true,
    };
    loop {
        let action = any_fault(rng, layout);
        let allowed = match &action {
            Action::ClockJump { target, .. } | Action::ClockDrift { target, .. } => {
                if on_server(target) {
                    rules.server_clocks
                } else {
                    rules.other_clocks
                }
            }
            Action::Crash { target } => rules.server_crashes || !on_server(target),
            _ => true,
        };
        if allowed {
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
