//! The world: virtual time, the event queue, the network, the nodes' clocks and faults, the clients and
//! the checkers, behind one facade. Everything random comes from the world's one [`Rng`].
//!
//! Determinism contract: the same [`WorldConfig`] and the same sequence of `apply` calls (at the same
//! simulated times) produce the same trace, hence the same [`World::trace_hash`], on every platform.
//! `World` is `Clone`; a clone is an exact snapshot that continues identically (time travel).

mod actions;
mod clients;
mod coordination_report;
mod digest;
mod disk;
mod dispatch;
mod events;
mod history_taps;
mod linearizability;
mod malformed_write;
mod membership;
mod network_actions;
mod price_report;
mod read;
mod renamed_digest;
mod roles;

pub use clients::{ClientRecord, Clients, RECENT_REQUESTS};
pub use disk::Disk;
pub use events::{EventKind, EventQueue};

use crate::base::clock::LocalClock;
use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::contract::entry::describe::LockStory;
use crate::contract::entry::parts::Arming;
use crate::contract::protocol::{ClientCommand, Effects, Input, Protocol, RequestId, TimerKey};
use crate::contract::report::{NodeFinal, NodeKey, Report};
use crate::engine::checker::{Checkers, Partitions};
use crate::engine::client_log::ClientLog;
use crate::engine::fingerprint::FingerprintKind;
use crate::engine::network::{MessageId, Network};
use crate::engine::trace::{TraceEvent, TraceLog};
use crate::worlds::actor::{Actor, Message};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// Messages and client requests that wait at a paused node, at most this many (older ones are kept,
/// newer ones dropped with a trace note).
pub const MAX_BACKLOG: usize = 10_000;

pub use crate::contract::config::{WorldConfig, MAX_DURATION_MS};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionOutcome {
    Applied,
    Skipped { reason: String },
}

pub use crate::contract::node_status::NodeStatus;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingTimer {
    pub label: &'static str,
    pub generation: u64,
    pub set_at: SimTime,
    pub due_local_us: i64,
    pub due_at: SimTime,
}

#[derive(Clone, Debug)]
enum BacklogItem {
    Message {
        id: MessageId,
        from: NodeId,
        message: Message,
    },
    Client {
        request_id: RequestId,
        command: ClientCommand,
    },
}

#[derive(Clone, Debug)]
pub struct NodeSlot {
    pub actor: Actor,
    pub status: NodeStatus,
    pub clock: LocalClock,
    pub timers: BTreeMap<TimerKey, PendingTimer>,
    backlog: VecDeque<BacklogItem>,
    pause_generation: u64,
    pub persist_count: u64,
    pub disk: Disk,
}

impl NodeSlot {
    /// A node as it is when the world begins or when it joins later: up, its clock true, nothing pending.
    fn fresh(actor: Actor) -> NodeSlot {
        NodeSlot {
            actor,
            status: NodeStatus::Up,
            clock: LocalClock::default(),
            timers: BTreeMap::new(),
            backlog: VecDeque::new(),
            pause_generation: 0,
            persist_count: 0,
            disk: Disk::default(),
        }
    }

    pub fn backlog_len(&self) -> usize {
        self.backlog.len()
    }
}

#[derive(Clone, Debug)]
pub struct World {
    config: WorldConfig,
    now: SimTime,
    rng: Rng,
    queue: EventQueue,
    nodes: Vec<NodeSlot>,
    network: Network,
    clients: Clients,
    /// What the clients asked and were told; never hashed (see `engine::client_log`).
    client_log: ClientLog,
    trace: TraceLog,
    checkers: Checkers,
    action_log: Vec<(SimTime, Action)>,
    /// For each logged action aimed at "the leader" that found one: its place in `action_log` and the
    /// node that led then. Observation only, like the client log: never hashed, never replayed.
    leader_aims: Vec<(usize, NodeId)>,
    events_processed: u64,
    next_timer_generation: u64,
    effects: Effects<Message>,
    /// The unsafe direct membership mode: the configuration the hand edits last handed out.
    direct_voters: Option<crate::base::ids::NodeSet>,
    /// Send effects the nodes made, and of them Raft heartbeats: the report's price counts these.
    messages_sent: u64,
    heartbeats_sent: u64,
}

impl World {
    pub fn new(config: WorldConfig) -> Result<World, String> {
        World::with_fingerprint(config, FingerprintKind::Compact)
    }

    /// A world whose run fingerprint uses `fingerprint` (old trace files carry the JSON FNV-1a one).
    pub fn with_fingerprint(
        config: WorldConfig,
        fingerprint: FingerprintKind,
    ) -> Result<World, String> {
        config.validate()?;
        let layout = crate::worlds::coordination::check_world(&config)?;
        let actors = (config.protocol.entry().build_actors)(&config, &layout);
        World::build(config, actors, fingerprint)
    }

    /// A world of any mix of actors (actor `i` is node `n{i+1}`); `config.node_count` must match. This is
    /// the seam for worlds where Raft servers, clients and other services run side by side.
    pub fn from_actors(config: WorldConfig, actors: Vec<Actor>) -> Result<World, String> {
        config.validate()?;
        World::build(config, actors, FingerprintKind::Compact)
    }

    fn build(
        config: WorldConfig,
        actors: Vec<Actor>,
        fingerprint: FingerprintKind,
    ) -> Result<World, String> {
        let count = config.node_count;
        if actors.len() != count {
            return Err(format!("{} actors for a {count}-node world", actors.len()));
        }
        let nodes = actors.into_iter().map(NodeSlot::fresh).collect();
        let mut world = World {
            rng: Rng::new(config.seed),
            now: SimTime::ZERO,
            queue: EventQueue::default(),
            nodes,
            network: Network::new(count, config.timing.drop_ppm, config.timing.duplicate_ppm),
            clients: Clients::default(),
            client_log: ClientLog::default(),
            trace: TraceLog::new(fingerprint),
            checkers: Checkers::new(count),
            action_log: Vec::new(),
            leader_aims: Vec::new(),
            events_processed: 0,
            next_timer_generation: 1,
            effects: Effects::new(),
            direct_voters: None,
            messages_sent: 0,
            heartbeats_sent: 0,
            config,
        };
        world.arm_checkers();
        for index in 0..count {
            world.dispatch(NodeId(index as u16), Input::Start);
        }
        Ok(world)
    }

    /// Tells the checkers what the configuration decides: the resource's starting count, the names of
    /// the nodes, whether tokens fence, and a work queue's partitions.
    fn arm_checkers(&mut self) {
        let resource = self.nodes.iter().find_map(|slot| slot.actor.as_resource());
        if let Some(initial_count) = resource.map(|resource| resource.value) {
            self.checkers.watch_resource(initial_count);
        }
        if let Some(layout) = self.layout() {
            let labels = (0..self.nodes.len())
                .map(|index| self.node_label(NodeId(index as u16)))
                .collect();
            let arming = Arming {
                servers: layout.servers,
                learners: (0..layout.learners)
                    .map(|index| layout.learner(index))
                    .collect(),
                labels,
            };
            if let Some(checker) = self.config.protocol.entry().parts.checker(&arming) {
                self.checkers.arm_world(checker);
            }
            self.checkers.set_labels(arming.labels);
            let parts = self.config.protocol.entry().parts;
            if parts.partitions_accounts(&self.config.protocol) && layout.workers > 0 {
                self.checkers.watch_partitions(Partitions {
                    first_worker: layout.worker(0),
                    workers: layout.workers as u64,
                });
            }
        }
        if self.speaks_redis() {
            self.checkers.tokens_not_fencing();
        }
    }

    /// Whether the lock servers are Redis-style: no leader, and tokens that are unique values rather
    /// than fencing tokens.
    pub(super) fn speaks_redis(&self) -> bool {
        self.config.protocol.entry().story.locks == Some(LockStory::Redis)
    }

    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    pub fn nodes(&self) -> &[NodeSlot] {
        &self.nodes
    }

    pub fn network(&self) -> &Network {
        &self.network
    }

    pub fn clients(&self) -> &Clients {
        &self.clients
    }

    /// Every client operation so far, with its outcome, for a linearizability check.
    pub fn client_log(&self) -> &ClientLog {
        &self.client_log
    }

    /// Caps the client log at `max_events` (it reports the cut; see `ClientLog::truncated_at_us`).
    pub fn limit_client_log(&mut self, max_events: usize) {
        self.client_log.set_cap(max_events);
    }

    pub fn checkers(&self) -> &Checkers {
        &self.checkers
    }

    pub fn trace(&self) -> &TraceLog {
        &self.trace
    }

    /// Every applied action with the time it was applied, in order.
    pub fn action_log(&self) -> &[(SimTime, Action)] {
        &self.action_log
    }

    /// Which node each action aimed at "the leader" reached: (its place in [`World::action_log`],
    /// the node that led when it was applied). An aim that found no leader is not listed.
    pub fn leader_aims(&self) -> &[(usize, NodeId)] {
        &self.leader_aims
    }

    pub fn events_processed(&self) -> u64 {
        self.events_processed
    }

    /// Forgets every kept trace record (a time-travel snapshot needs none; see
    /// [`TraceLog::forget_records`]). The hash and counts still cover them.
    pub fn forget_trace_records(&mut self) {
        self.trace.forget_records();
    }

    /// Stops recording the trace ([`TraceLog::mute`]): for a bounded search's runs, which only the
    /// checkers and the state digest look at. The trace hash then no longer identifies the run.
    pub fn mute_trace(&mut self) {
        self.trace.mute();
    }

    pub fn trace_hash(&self) -> u64 {
        self.trace.hash()
    }

    /// Time of the next queued event, if any.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.queue.peek_time()
    }

    /// Processes the next event. Returns false if the queue is empty.
    pub fn step(&mut self) -> bool {
        let Some(event) = self.queue.pop() else {
            return false;
        };
        assert!(event.at >= self.now, "event queue went back in time");
        self.now = event.at;
        self.events_processed += 1;
        self.handle_event(event.kind);
        true
    }

    /// Processes every event due at or before `until`, then sets the clock to `until`.
    pub fn run_until(&mut self, until: SimTime) {
        while self.queue.peek_time().is_some_and(|at| at <= until) {
            self.step();
        }
        if until > self.now {
            self.now = until;
        }
    }

    /// Replay helper: processes events until `events_processed` reaches `events_processed`, then moves the
    /// clock to `at`. Used to re-apply a recorded action at exactly the point it was first applied.
    /// Never runs past `at`: in an honest log those events all happen by then, and a log that claims
    /// more (a tampered link or file) must not make the replay run on forever.
    pub fn fast_forward_to(&mut self, events_processed: u64, at: SimTime) {
        while self.events_processed < events_processed
            && self.queue.peek_time().is_some_and(|time| time <= at)
            && self.step()
        {}
        // In a faithful replay nothing is left before `at`; this keeps the clock monotonic regardless.
        while self.queue.peek_time().is_some_and(|time| time < at) {
            self.step();
        }
        if at > self.now {
            self.now = at;
        }
    }

    pub fn run_for_ms(&mut self, ms: u64) {
        self.run_until(self.now.plus_ms(ms));
    }

    pub fn write_trace_jsonl(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.trace.write_jsonl(out)
    }

    /// The up node that believes it leads with the highest term (ties: lowest id).
    pub fn current_leader(&self) -> Option<NodeId> {
        let mut best: Option<(crate::base::units::Term, NodeId)> = None;
        for (index, slot) in self.nodes.iter().enumerate() {
            let summary = slot.actor.summary();
            let leads = slot.status == NodeStatus::Up
                && summary.role == crate::contract::protocol::RoleLabel::Leader;
            if leads && best.is_none_or(|(term, _)| summary.term > term) {
                best = Some((summary.term, NodeId(index as u16)));
            }
        }
        best.map(|(_, node)| node)
    }

    pub fn report(&self) -> Report {
        let final_state = self
            .nodes
            .iter()
            .enumerate()
            .map(|(index, slot)| {
                let summary = slot.actor.summary();
                let record = NodeFinal {
                    status: slot.status.as_str().to_string(),
                    role: summary.role.as_str().to_string(),
                    term: summary.term,
                    commit_index: summary.commit_index,
                    log_len: summary.log_len,
                };
                (NodeKey(NodeId(index as u16)), record)
            })
            .collect();
        Report {
            end_ms: self.now.as_ms(),
            events_processed: self.events_processed,
            leaders: self.checkers.leaders().to_vec(),
            final_state,
            requests: self.clients.counts.clone(),
            violations: self.checkers.violations().to_vec(),
            violation_counts: self.checkers.violation_counts().clone(),
            leaderless_ms: self.checkers.leaderless_ms(self.now),
            trace_hash: format!("{:016x}", self.trace_hash()),
            labels: BTreeMap::new(),
            locks: None,
            resource: None,
            invoices: None,
            throughput: None,
            notifications: None,
            contention: None,
            price: self.message_price(),
        }
        .with_coordination(self)
    }

    /// The layout of a coordination world (`None` for a plain Raft cluster).
    pub fn layout(&self) -> Option<crate::worlds::coordination::Layout> {
        let protocol = &self.config.protocol;
        protocol
            .is_coordination()
            .then(|| crate::worlds::coordination::Layout::of_world(self.nodes.len(), protocol))
    }

    /// The name a node goes by: `n1`.. for servers, `A`.. for workers, `store` for the resource.
    pub fn node_label(&self, node: NodeId) -> String {
        match self.layout() {
            Some(layout) => layout.label(node),
            None => node.to_string(),
        }
    }

    fn record(&mut self, event: TraceEvent) {
        self.trace.record(self.now.as_micros(), event);
    }
}
