//! Checkers watch every step from outside the protocol and report violations as values.
//!
//! They never panic on a protocol violation: a deliberately unsafe configuration must be able to break
//! an invariant visibly. Each violation names the invariant (as the Raft paper's Figure 3 does), the
//! simulated time, the nodes involved and a sentence for people. At most [`VIOLATIONS_PER_INVARIANT`]
//! are listed per invariant; `violation_counts` keeps counting past the cap.

mod configuration;
mod liveness;
pub mod locks;
mod raft;

pub use crate::contract::entry::invariants::{AGREEMENT, HONEST_AGREEMENT, STABILITY, VALIDITY};
pub use configuration::{ConfigurationChecker, CONFIGURATION_AGREEMENT};
pub use liveness::Liveness;
pub use locks::{
    LockChecker, Partitions, EXCLUSIVE_BELIEF, MUTUAL_EXCLUSION, NO_DUPLICATE_INVOICE,
    NO_LOST_UPDATES, PARTITION_OWNERSHIP, RELEASE_BY_OWNER, SINGLE_LEASE_HOLDER,
    TOKEN_MONOTONICITY,
};
pub use raft::{
    RaftChecker, ELECTION_SAFETY, LEADER_APPEND_ONLY, LEADER_COMPLETENESS, LOG_MATCHING,
    STATE_MACHINE_SAFETY,
};

use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::protocol::{Effect, RaftFact};
use crate::contract::report::{LeaderRecord, ViolationRecord};
use crate::engine::trace::TraceEvent;
use crate::worlds::actor::{Actor, ClusterRaft, Message};
use std::collections::BTreeMap;

pub use crate::contract::entry::invariants::LINEARIZABLE_READS;
pub use crate::contract::verdicts::{
    node_label, Finding, Verdicts, Violations, WorldChecker, VIOLATIONS_PER_INVARIANT,
};

/// Leader elections kept for the report.
pub const MAX_LEADER_RECORDS: usize = 10_000;

/// What a checker needs to remember about a node from just before it handles an input.
pub type LeaderMark = Option<raft::LeaderMark>;

#[derive(Clone, Debug)]
pub struct Checkers {
    raft: RaftChecker,
    configuration: ConfigurationChecker,
    liveness: Liveness,
    violations: Violations,
    leaders: Vec<LeaderRecord>,
    locks: LockChecker,
    /// The world's own checker, from its registry entry (Paxos' Agreement, PBFT's Honest Agreement).
    world: Option<Box<dyn WorldChecker>>,
}

impl Checkers {
    pub fn new(node_count: usize) -> Checkers {
        Checkers {
            raft: RaftChecker::new(node_count),
            configuration: ConfigurationChecker::new(node_count),
            liveness: Liveness::new(node_count),
            violations: Violations::default(),
            leaders: Vec::new(),
            locks: LockChecker::default(),
            world: None,
        }
    }

    /// Feeds what can change a later verdict to `out`: each checker's memory and the violation
    /// counts. Liveness (leaderless time) and the report's lists change no verdict, so they are left out.
    pub fn digest(&self, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        self.raft.digest(out);
        self.configuration.hash(&mut out);
        self.locks.digest(out);
        if let Some(world) = &self.world {
            world.digest(out);
        }
        self.violations.counts().hash(&mut out);
    }

    /// [`Checkers::digest`] with the nodes renamed by `renaming` (`base/permutation.rs`). The lock
    /// checker and the world's own checker go in as they are: neither has anything to watch in a
    /// plain Raft cluster, the one world the explorer renames.
    pub fn digest_under(
        &self,
        renaming: &crate::base::permutation::Permutation,
        mut out: &mut dyn std::hash::Hasher,
    ) {
        use std::hash::Hash;
        self.raft.digest_under(renaming, out);
        self.configuration.digest_under(renaming, out);
        self.locks.digest(out);
        if let Some(world) = &self.world {
            world.digest(out);
        }
        self.violations.counts().hash(&mut out);
    }

    /// One more node joined the world (a membership change).
    pub fn grow(&mut self) {
        self.raft.grow();
        self.configuration.grow();
        self.liveness.grow();
    }

    /// The lock and resource checker (and its records for the report).
    pub fn locks(&self) -> &LockChecker {
        &self.locks
    }

    /// The world's own checker, as its type `T` (`PaxosChecker`, for the value chosen); `None` in a
    /// world with no checker of that type.
    pub fn world<T: 'static>(&self) -> Option<&T> {
        self.world_any()?.downcast_ref::<T>()
    }

    /// The world's own checker, for a caller that downcasts it itself.
    pub fn world_any(&self) -> Option<&dyn std::any::Any> {
        Some(self.world.as_ref()?.as_any())
    }

    /// Arms the world's own checker (its registry entry's).
    pub fn arm_world(&mut self, checker: Box<dyn WorldChecker>) {
        self.world = Some(checker);
    }

    /// Names for violation details in coordination worlds (`A`, `store`), indexed by node.
    pub fn set_labels(&mut self, labels: Vec<String>) {
        self.locks.set_labels(labels);
    }

    /// Tokens are unique hold values, not fencing tokens (Redis, Redlock): no Token Monotonicity.
    pub fn tokens_not_fencing(&mut self) {
        self.locks.tokens_not_fencing();
    }

    /// A partitioned work queue: judge Partition Ownership by how `partitions` deals out the accounts.
    pub fn watch_partitions(&mut self, partitions: Partitions) {
        self.locks.watch_partitions(partitions);
    }

    /// Starts the lost-update count of a protected resource at `initial_count`.
    pub fn watch_resource(&mut self, initial_count: u64) {
        self.locks.watch_resource(initial_count);
    }

    pub fn before_dispatch(&self, _node: NodeId, actor: &Actor) -> LeaderMark {
        actor.as_raft().and_then(raft::LeaderMark::of)
    }

    /// Runs after `node` handled one input; returns trace events for any new violations.
    pub fn after_dispatch(
        &mut self,
        now: SimTime,
        node: NodeId,
        actor: &Actor,
        mark: LeaderMark,
        effects: &[Effect<Message>],
    ) -> Vec<TraceEvent> {
        let mut found = Vec::new();
        self.check_facts(now, node, effects, &mut found);
        if let Some(raft_node) = actor.as_raft() {
            self.check_raft(now, node, raft_node, mark, effects, &mut found);
        }
        found.into_iter().map(TraceEvent::from).collect()
    }

    /// Feeds every fact `node` observed to the checkers that judge facts.
    fn check_facts(
        &mut self,
        now: SimTime,
        node: NodeId,
        effects: &[Effect<Message>],
        found: &mut Vec<Finding>,
    ) {
        for effect in effects {
            if let Effect::Observe(fact) = effect {
                self.locks
                    .check(now, node, fact, &mut self.violations, found);
                if let Some(world) = &mut self.world {
                    let mut verdicts = Verdicts {
                        now,
                        violations: &mut self.violations,
                        found,
                    };
                    world.check(node, fact.inner(), &mut verdicts);
                }
            }
        }
    }

    /// Records new leaders and runs Raft's and the configuration's checks on a Raft node's step.
    fn check_raft(
        &mut self,
        now: SimTime,
        node: NodeId,
        raft_node: &ClusterRaft,
        mark: LeaderMark,
        effects: &[Effect<Message>],
        found: &mut Vec<Finding>,
    ) {
        for effect in effects {
            if let Effect::Observe(crate::worlds::actor::Fact::Raft(RaftFact::BecameLeader {
                term,
                ..
            })) = effect
            {
                if self.leaders.len() < MAX_LEADER_RECORDS {
                    let record = LeaderRecord {
                        term: *term,
                        node: node.to_string(),
                        elected_at_ms: now.as_ms(),
                    };
                    self.leaders.push(record);
                }
            }
        }
        let context = raft::CheckContext {
            now,
            node,
            raft: raft_node,
            mark,
            effects,
        };
        self.raft.check(&context, &mut self.violations, found);
        self.configuration
            .check(&context, &mut self.violations, found);
    }

    /// Records a violation found outside the protocol checkers (e.g. by the client history).
    pub fn report_violation(
        &mut self,
        invariant: &'static str,
        now: SimTime,
        nodes: Vec<NodeId>,
        detail: String,
    ) -> TraceEvent {
        self.violations.report(invariant, now, nodes, detail).into()
    }

    pub fn note_leadership(&mut self, now: SimTime, node: NodeId, leads: bool) {
        self.liveness.note(now, node, leads);
    }

    pub fn leaders(&self) -> &[LeaderRecord] {
        &self.leaders
    }

    pub fn violations(&self) -> &[ViolationRecord] {
        self.violations.list()
    }

    pub fn violation_counts(&self) -> &BTreeMap<String, u64> {
        self.violations.counts()
    }

    pub fn total_violations(&self) -> u64 {
        self.violations.counts().values().sum()
    }

    pub fn leaderless_ms(&self, now: SimTime) -> u64 {
        self.liveness.leaderless_us(now) / 1_000
    }
}
