//! Seeded random fault schedules for sweeps: many seeds, each a different storm, each reproducible.
//!
//! A chaos run has two phases, after TigerBeetle's VOPR: a *fault window* in which crashes, restarts,
//! pauses, partitions, one-way cuts, message loss, clock drift and jumps and client requests arrive at
//! random times; then a *quiet period* that starts by healing everything (links, loss, crashed and paused
//! nodes) and keeps a light client load. Safety must hold throughout; after the quiet period the cluster
//! should have a leader again.
//!
//! The schedule is an ordinary [`Scenario`], so a failing seed can be written out with
//! [`crate::tooling::scenario::to_toml_string`] and re-run by anyone with `quorumlab run`.

pub mod aimed;
pub mod holders;
pub mod locks;
pub mod raft_liar;
pub mod stale_reads;

use crate::base::ids::{NodeId, MAX_NODES};
use crate::base::rng::Rng;
use crate::contract::action::{Action, NodeTarget, RequestKind, PPM_ONE};
use crate::contract::config::ReadPath;
use crate::tooling::scenario::{Scenario, Step};

/// Mixed into the seed so the schedule's random stream differs from the world's, which uses the seed as is.
const SCHEDULE_SALT: u64 = 0xC4A0_5C4E_D01E_5EED;

/// What kind of storm the fault window holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChaosProfile {
    /// No faults: elections and client load only (a baseline).
    Calm,
    /// Every kind of fault at random: crashes, restarts, pauses, partitions, cuts, loss, clocks, requests.
    Mixed,
    /// Requests to the leader immediately followed by crashing, isolating or pausing it, over and over:
    /// the pattern behind the Raft paper's Figure 8, where uncommitted entries of old terms pile up.
    LeaderChurn,
    /// The mixed storm with servers added and removed in it (a few of each per seed): membership
    /// changes under crashes, partitions and clock faults. A profile of its own, so the mixed
    /// profile's pinned digests stay as they were.
    Membership,
    /// Cycles aimed at stale reads (`stale_reads.rs`): writes, the leader's clock slowed or set back
    /// and the leader cut off, writes at the new leader, then reads at every server. Clocks go wrong
    /// whatever the read path: the lease path must be caught here, the log and read-index paths must
    /// not be. A profile of its own, so the other profiles' pinned digests stay as they were.
    Reads,
}

impl ChaosProfile {
    pub const NAMES: &'static [&'static str] =
        &["calm", "mixed", "leader-churn", "membership", "reads"];

    pub fn name(self) -> &'static str {
        match self {
            ChaosProfile::Calm => "calm",
            ChaosProfile::Mixed => "mixed",
            ChaosProfile::LeaderChurn => "leader-churn",
            ChaosProfile::Membership => "membership",
            ChaosProfile::Reads => "reads",
        }
    }

    pub fn from_name(name: &str) -> Option<ChaosProfile> {
        match name {
            "calm" => Some(ChaosProfile::Calm),
            "mixed" => Some(ChaosProfile::Mixed),
            "leader-churn" => Some(ChaosProfile::LeaderChurn),
            "membership" => Some(ChaosProfile::Membership),
            "reads" => Some(ChaosProfile::Reads),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaosOptions {
    pub node_count: usize,
    pub profile: ChaosProfile,
    pub fault_window_ms: u64,
    pub quiet_ms: u64,
    /// Longest gap between two consecutive chaos steps.
    pub max_gap_ms: u64,
    /// Every seed's read path, instead of the one it draws (`None`: the draw, the log or a lease).
    /// The schedule stays the seed's own: a seed that drew the lease keeps honest clocks, any other
    /// seed may drift and jump them, which is what catches a lease read forced onto it.
    pub read_path: Option<ReadPath>,
}

impl Default for ChaosOptions {
    fn default() -> Self {
        ChaosOptions {
            node_count: 5,
            profile: ChaosProfile::Mixed,
            fault_window_ms: 10_000,
            quiet_ms: 5_000,
            max_gap_ms: 400,
            read_path: None,
        }
    }
}

/// How often the quiet period submits a request to the leader.
const QUIET_REQUEST_EVERY_MS: u64 = 500;

/// The chaos scenario for `seed`. Same seed and options, same scenario: nothing else is consulted.
pub fn chaos_scenario(seed: u64, options: &ChaosOptions) -> Scenario {
    assert!(options.node_count >= 1, "a cluster needs at least one node");
    let mut rng = Rng::new(seed ^ SCHEDULE_SALT);
    let title = format!("Chaos seed {seed} ({} nodes)", options.node_count);
    let mut scenario = Scenario::new(
        &title,
        options.node_count,
        options.fault_window_ms + options.quiet_ms,
    );
    scenario.seed = seed;
    randomize_settings(&mut scenario, &mut rng);
    // A lease is only as good as the clock that measures it: with lease reads on, drifting or jumping
    // clocks would make stale reads the expected outcome rather than a bug, so those seeds keep clocks
    // honest.
    let clock_faults = !scenario.raft.lease_reads();
    let mut generator = FaultGenerator::new(&mut rng, options.node_count, clock_faults);
    scenario.steps = match options.profile {
        ChaosProfile::Calm => generator.random_steps(options, FaultGenerator::request),
        ChaosProfile::Mixed => generator.random_steps(options, FaultGenerator::fault),
        ChaosProfile::LeaderChurn => generator.leader_churn(options),
        ChaosProfile::Membership => generator.random_steps(options, FaultGenerator::membership),
        ChaosProfile::Reads => stale_reads::stale_read_cycles(generator.rng, options),
    };
    // Servers the schedule added are revived with the rest (those the world refused to add are
    // skipped by it, with the reason).
    let node_count = generator.node_count;
    push_quiet_period(&mut scenario, options, node_count);
    if let Some(read_path) = options.read_path {
        scenario.raft.read_path = read_path;
    }
    scenario
}

/// Servers one membership seed may add, and remove: enough to move the configuration several times,
/// few enough that the cluster stays near its size.
const MAX_CHAOS_ADDS: u32 = 3;
const MAX_CHAOS_REMOVES: u32 = 2;

/// Protocol options and network quality differ per seed, so a sweep covers them all.
fn randomize_settings(scenario: &mut Scenario, rng: &mut Rng) {
    scenario.raft.pre_vote = rng.chance_ppm(PPM_ONE / 2);
    scenario.raft.check_quorum = rng.chance_ppm(PPM_ONE / 2);
    let delay_min_ms = rng.range_inclusive(1, 5);
    scenario.timing.network_delay_ms = (delay_min_ms, delay_min_ms + rng.range_inclusive(0, 35));
    if rng.chance_ppm(PPM_ONE / 2) {
        scenario.timing.duplicate_ppm = rng.range_inclusive(0, 100_000) as u32;
    }
    if rng.chance_ppm(PPM_ONE / 4) {
        scenario.raft.read_path = ReadPath::Lease;
    }
}

/// Heal everything at the end of the fault window, then a light, steady client load.
fn push_quiet_period(scenario: &mut Scenario, options: &ChaosOptions, node_count: usize) {
    let heal_at_ms = options.fault_window_ms;
    let mut push = |at_ms: u64, action: Action| scenario.steps.push(Step { at_ms, action });
    push(heal_at_ms, Action::Heal);
    push(heal_at_ms, Action::DropRate { ppm: 0 });
    for index in 0..node_count {
        // The schedule does not know which node "leader" hit, so it revives every node; the world skips
        // (and reports) a restart of a node that is up or a resume of one that is not paused.
        let target = NodeTarget::Node(NodeId(index as u16));
        push(heal_at_ms, Action::Restart { target });
        push(heal_at_ms, Action::Resume { target });
    }
    let end_ms = heal_at_ms + options.quiet_ms;
    let mut at_ms = heal_at_ms + QUIET_REQUEST_EVERY_MS;
    while at_ms < end_ms {
        push(
            at_ms,
            Action::Request {
                count: 1,
                target: NodeTarget::Leader,
                kind: RequestKind::Put,
            },
        );
        at_ms += QUIET_REQUEST_EVERY_MS;
    }
}

struct FaultGenerator<'a> {
    rng: &'a mut Rng,
    node_count: usize,
    /// Nodes this schedule crashed or paused by name. A fault aimed at "leader" is not tracked: which
    /// node it hits is only known at run time.
    crashed: Vec<bool>,
    paused: Vec<bool>,
    /// Whether clock drift and jumps may be drawn (otherwise their share goes to requests).
    clock_faults: bool,
    /// Servers added and removed so far (membership profile).
    added: u32,
    removed: u32,
}

impl<'a> FaultGenerator<'a> {
    fn new(rng: &'a mut Rng, node_count: usize, clock_faults: bool) -> FaultGenerator<'a> {
        FaultGenerator {
            rng,
            node_count,
            clock_faults,
            crashed: vec![false; node_count],
            paused: vec![false; node_count],
            added: 0,
            removed: 0,
        }
    }

    /// One membership change now and then, otherwise what [`Self::fault`] draws. An added server is a
    /// target for later faults like any other.
    fn membership(&mut self) -> Action {
        match self.rng.range_inclusive(0, 99) {
            0..=3 if self.added < MAX_CHAOS_ADDS && self.node_count < MAX_NODES => {
                self.added += 1;
                self.node_count += 1;
                self.crashed.push(false);
                self.paused.push(false);
                Action::AddServer { id: None }
            }
            4..=6 if self.removed < MAX_CHAOS_REMOVES => {
                self.removed += 1;
                Action::RemoveServer {
                    target: self.target(),
                }
            }
            _ => self.fault(),
        }
    }

    /// Steps at random gaps through the fault window, each made by `make`.
    fn random_steps(&mut self, options: &ChaosOptions, make: fn(&mut Self) -> Action) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut at_ms = 0;
        loop {
            at_ms += self.rng.range_inclusive(1, options.max_gap_ms.max(1));
            if at_ms >= options.fault_window_ms {
                return steps;
            }
            steps.push(Step {
                at_ms,
                action: make(self),
            });
        }
    }

    /// Cycles of: a request to the leader, a fault on the leader a few ms later, then a heal and a
    /// restart once another leader has had time to emerge.
    fn leader_churn(&mut self, options: &ChaosOptions) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut at_ms = self.rng.range_inclusive(200, 400);
        loop {
            let fault_at_ms = at_ms + self.rng.range_inclusive(0, 15);
            let heal_at_ms = fault_at_ms + self.rng.range_inclusive(100, 500);
            if heal_at_ms >= options.fault_window_ms {
                return steps;
            }
            let count = self.rng.range_inclusive(1, 3) as u32;
            let request = Action::Request {
                count,
                target: NodeTarget::Leader,
                kind: RequestKind::Put,
            };
            steps.push(Step {
                at_ms,
                action: request,
            });
            steps.push(Step {
                at_ms: fault_at_ms,
                action: self.leader_fault(),
            });
            steps.push(Step {
                at_ms: heal_at_ms,
                action: Action::Heal,
            });
            steps.push(Step {
                at_ms: heal_at_ms,
                action: Action::Restart {
                    target: self.node(),
                },
            });
            at_ms = heal_at_ms + self.rng.range_inclusive(0, 300);
        }
    }

    fn leader_fault(&mut self) -> Action {
        let target = NodeTarget::Leader;
        match self.rng.range_inclusive(0, 2) {
            0 => Action::Crash { target },
            1 => Action::Isolate { target },
            _ => Action::Pause {
                target,
                duration_ms: Some(self.rng.range_inclusive(100, 600)),
            },
        }
    }

    /// One random fault or request. Weights (out of 100) favour the faults that move leadership.
    fn fault(&mut self) -> Action {
        match self.rng.range_inclusive(0, 99) {
            0..=9 => self.crash(),
            10..=19 => Action::Restart {
                target: self.revive(true),
            },
            20..=27 => self.pause(),
            28..=32 => Action::Resume {
                target: self.revive(false),
            },
            33..=42 => Action::Partition {
                groups: self.groups(),
            },
            43..=48 => Action::Isolate {
                target: self.target(),
            },
            49..=56 => self.cut(),
            57..=62 => Action::Heal,
            63..=67 => Action::DropRate {
                ppm: self.rng.range_inclusive(0, 300_000) as u32,
            },
            68..=76 if !self.clock_faults => self.request(),
            68..=72 => Action::ClockDrift {
                target: self.node(),
                ppm: self.signed(200_000),
            },
            73..=76 => Action::ClockJump {
                target: self.node(),
                by_ms: self.signed(2_000),
            },
            _ => self.request(),
        }
    }

    fn crash(&mut self) -> Action {
        let target = self.target();
        if let NodeTarget::Node(node) = target {
            self.crashed[node.index()] = true;
        }
        Action::Crash { target }
    }

    fn pause(&mut self) -> Action {
        let target = self.target();
        let duration_ms = self.pause_duration_ms();
        if let (NodeTarget::Node(node), None) = (target, duration_ms) {
            self.paused[node.index()] = true;
        }
        Action::Pause {
            target,
            duration_ms,
        }
    }

    /// Usually a node this schedule crashed (or paused) by name, so the restart (or resume) does
    /// something; otherwise any node, which also revives nodes hit through "leader".
    fn revive(&mut self, crashed: bool) -> NodeTarget {
        let down = if crashed { &self.crashed } else { &self.paused };
        let candidates: Vec<usize> = (0..self.node_count).filter(|index| down[*index]).collect();
        let index = if !candidates.is_empty() && self.rng.chance_ppm(800_000) {
            candidates[self.rng.range_inclusive(0, candidates.len() as u64 - 1) as usize]
        } else {
            self.node_id().index()
        };
        let down = if crashed {
            &mut self.crashed
        } else {
            &mut self.paused
        };
        down[index] = false;
        NodeTarget::Node(NodeId(index as u16))
    }

    fn request(&mut self) -> Action {
        let count = self.rng.range_inclusive(1, 5) as u32;
        let target = if self.rng.chance_ppm(800_000) {
            NodeTarget::Leader
        } else {
            self.node()
        };
        let kind = if self.rng.chance_ppm(800_000) {
            RequestKind::Put
        } else {
            RequestKind::Get
        };
        Action::Request {
            count,
            target,
            kind,
        }
    }

    /// The leader (resolved at run time) three times in ten, otherwise a random node.
    fn target(&mut self) -> NodeTarget {
        if self.rng.chance_ppm(300_000) {
            NodeTarget::Leader
        } else {
            self.node()
        }
    }

    fn node(&mut self) -> NodeTarget {
        NodeTarget::Node(self.node_id())
    }

    fn node_id(&mut self) -> NodeId {
        NodeId(self.rng.range_inclusive(0, self.node_count as u64 - 1) as u16)
    }

    fn signed(&mut self, magnitude: u64) -> i64 {
        self.rng.range_inclusive(0, 2 * magnitude) as i64 - magnitude as i64
    }

    fn pause_duration_ms(&mut self) -> Option<u64> {
        self.rng
            .chance_ppm(PPM_ONE / 2)
            .then(|| self.rng.range_inclusive(50, 3_000))
    }

    fn cut(&mut self) -> Action {
        let from = self.node_id();
        let mut to = self.node_id();
        if to == from {
            to = NodeId(((from.index() + 1) % self.node_count) as u16);
        }
        if to == from {
            return Action::Heal; // a one-node cluster has no link to cut
        }
        let both = self.rng.chance_ppm(300_000);
        Action::Cut {
            from: NodeTarget::Node(from),
            to: NodeTarget::Node(to),
            both,
        }
    }

    /// All nodes shuffled and split into two or three non-empty groups.
    fn groups(&mut self) -> Vec<Vec<NodeId>> {
        let mut nodes: Vec<NodeId> = (0..self.node_count)
            .map(|index| NodeId(index as u16))
            .collect();
        for index in (1..nodes.len()).rev() {
            let other = self.rng.range_inclusive(0, index as u64) as usize;
            nodes.swap(index, other);
        }
        let group_count = self.rng.range_inclusive(2, 3).min(self.node_count as u64) as usize;
        let mut cuts: Vec<usize> = (0..group_count - 1)
            .map(|_| self.rng.range_inclusive(1, self.node_count as u64 - 1) as usize)
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut groups = Vec::new();
        let mut start = 0;
        for cut in cuts.into_iter().chain([self.node_count]) {
            groups.push(nodes[start..cut].to_vec());
            start = cut;
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_schedule_and_other_seeds_differ() {
        let options = ChaosOptions::default();
        assert_eq!(chaos_scenario(7, &options), chaos_scenario(7, &options));
        assert_ne!(
            chaos_scenario(7, &options).steps,
            chaos_scenario(8, &options).steps
        );
    }

    #[test]
    fn steps_are_ordered_and_inside_the_run() {
        for seed in 0..50 {
            let scenario = chaos_scenario(seed, &ChaosOptions::default());
            let times: Vec<u64> = scenario.steps.iter().map(|step| step.at_ms).collect();
            assert!(
                times.windows(2).all(|pair| pair[0] <= pair[1]),
                "seed {seed}"
            );
            assert!(
                times.iter().all(|at_ms| *at_ms <= scenario.duration_ms),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn partitions_cover_every_node_once_in_non_empty_groups() {
        let mut rng = Rng::new(3);
        for node_count in 1..=9 {
            let mut generator = FaultGenerator::new(&mut rng, node_count, true);
            for _ in 0..20 {
                let groups = generator.groups();
                let mut members: Vec<usize> =
                    groups.iter().flatten().map(|node| node.index()).collect();
                members.sort_unstable();
                assert_eq!(members, (0..node_count).collect::<Vec<_>>());
                assert!(groups.iter().all(|group| !group.is_empty()));
            }
        }
    }

    #[test]
    fn the_membership_profile_adds_and_removes_a_few_servers_and_revives_them_all() {
        let options = ChaosOptions {
            profile: ChaosProfile::Membership,
            ..ChaosOptions::default()
        };
        let mut changed_seeds = 0;
        for seed in 0..40 {
            let scenario = chaos_scenario(seed, &options);
            let adds = scenario
                .steps
                .iter()
                .filter(|step| matches!(step.action, Action::AddServer { .. }))
                .count();
            let removes = scenario
                .steps
                .iter()
                .filter(|step| matches!(step.action, Action::RemoveServer { .. }))
                .count();
            assert!(adds <= MAX_CHAOS_ADDS as usize && removes <= MAX_CHAOS_REMOVES as usize);
            changed_seeds += usize::from(adds > 0 && removes > 0);
            let restarted = |index: usize| {
                scenario.steps.iter().any(|step| {
                    step.action
                        == Action::Restart {
                            target: NodeTarget::Node(NodeId(index as u16)),
                        }
                })
            };
            assert!((0..options.node_count + adds).all(restarted), "seed {seed}");
            assert!(scenario.validate().is_ok(), "seed {seed}");
        }
        assert!(
            changed_seeds > 20,
            "{changed_seeds} of 40 seeds both add and remove"
        );
        let mixed = chaos_scenario(5, &ChaosOptions::default());
        assert!(mixed.steps.iter().all(|step| !matches!(
            step.action,
            Action::AddServer { .. } | Action::RemoveServer { .. }
        )));
    }

    #[test]
    fn without_faults_only_requests_come_before_the_heal() {
        let options = ChaosOptions {
            profile: ChaosProfile::Calm,
            ..ChaosOptions::default()
        };
        let scenario = chaos_scenario(11, &options);
        let mut window_steps = scenario
            .steps
            .iter()
            .filter(|step| step.at_ms < options.fault_window_ms);
        assert!(window_steps.clone().count() > 0);
        assert!(window_steps.all(|step| matches!(step.action, Action::Request { .. })));
    }
}
