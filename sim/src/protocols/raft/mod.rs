//! Raft, as in Ongaro & Ousterhout, "In Search of an Understandable Consensus Algorithm" (2014).
//!
//! A cluster keeps one replicated log. Time is cut into *terms*; each term starts with an election and
//! has at most one leader. A follower that hears nothing from a leader for a randomized *election
//! timeout* becomes a candidate: it increments its term, votes for itself and asks every other node for a
//! vote. A node grants at most one vote per term, first come first served, and only to a candidate whose
//! log is at least as up-to-date as its own (higher last term, or same last term and at least as long).
//! A candidate with votes from a majority becomes leader. Randomized timeouts make split votes rare.
//!
//! The leader appends client commands to its log and replicates them with AppendEntries, which also
//! serve as heartbeats. Each AppendEntries names the entry just before the new ones (`prev_log_index`,
//! `prev_log_term`); a follower whose log does not hold that entry rejects, and the leader backs off
//! (here with a conflict hint that skips a whole term) until the logs agree, then overwrites the
//! follower's conflicting suffix. This keeps the *Log Matching* property: two logs holding an entry with
//! the same index and term are identical up to it.
//!
//! An entry is *committed* once it is stored on a majority **and** the leader has stored an entry of its
//! own term there. Counting replicas of an older-term entry is not enough (§5.4.2, Figure 8): such an
//! entry can still be overwritten by a leader of a later term. So a new leader appends a no-op entry at
//! the start of its term (§8) and older entries commit together with it. Committed entries are applied
//! in order to a small key/value map.
//!
//! Term, vote and log are durable: they are changed before any message that depends on them is sent,
//! and survive a crash. Everything else (role, commit index, the map) is rebuilt after a restart.
//!
//! Options: *PreVote* (a would-be candidate first asks whether it could win, without bumping anyone's
//! term, so a node returning from a partition does not depose a healthy leader); *CheckQuorum* (a leader
//! that has not heard from a majority within an election timeout steps down, and followers ignore vote
//! requests while they still hear a leader); the *read path* (`contract::read_path`): reads through the
//! log, by read index (`read_index.rs`: the leader confirms with a heartbeat round that it still leads),
//! on the leader's lease (measured on its own clock from the last majority acknowledgement — correct
//! only if clocks behave), or by any server from its own copy (stale by design).
//!
//! The node is sans-IO: see [`crate::contract::protocol`]. Files: `election.rs` (timeouts, votes, roles),
//! `replication.rs` (AppendEntries and commit), `client.rs` (requests, reads, applying), `log.rs`,
//! `quorum.rs` (pure majority math), `message.rs`.

pub mod build;
mod byzantine;
mod client;
pub mod describe;
mod describe_membership;
mod election;
pub mod entry;
pub mod kv_model;
pub mod log;
pub mod membership;
pub mod message;
pub mod parts;
pub mod quorum;
pub mod read_index;
mod renamed_digest;
mod replication;

pub use log::{Command, Entry, Log, Payload};
pub use message::RaftMessage;

use crate::base::ids::{NodeId, NodeSet};
use crate::base::units::{LogIndex, Term};
use crate::contract::action::{ByzantineMode, SelectiveSilence};
use crate::contract::config::{RaftOptions, Timing};
use crate::contract::protocol::{
    ActorSummary, Carries, Effects, Input, Observes, Protocol, RaftFact, RequestId, RoleLabel,
    TimerKey,
};
use std::collections::BTreeMap;
use std::marker::PhantomData;

pub const ELECTION_TIMER: TimerKey = 0;
pub const HEARTBEAT_TIMER: TimerKey = 1;

/// Largest number of entries in one AppendEntries, so one message never carries a whole long log.
pub const MAX_ENTRIES_PER_APPEND: usize = 64;

/// What a world's message type must carry for Raft: its messages, and its facts.
pub trait RaftWire<A>: Carries<RaftMessage<A>> + Observes<RaftFact> {}

impl<A, M: Carries<RaftMessage<A>> + Observes<RaftFact>> RaftWire<A> for M {}

/// What survives a crash: written before any message that depends on it is sent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Durable<A> {
    pub term: Term,
    pub voted_for: Option<NodeId>,
    pub log: Log<A>,
}

// By hand: a derive would ask `A: Default`.
impl<A> Default for Durable<A> {
    fn default() -> Self {
        Durable {
            term: Term::ZERO,
            voted_for: None,
            log: Log::default(),
        }
    }
}

/// The leader's view of each follower. Vectors are indexed by node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LeaderState {
    /// Invariant: 1 <= next_index[peer] <= last_index + 1.
    pub next_index: Vec<LogIndex>,
    /// Invariant: match_index[peer] < next_index[peer].
    pub match_index: Vec<LogIndex>,
    /// Heard from this peer since the last CheckQuorum round.
    pub heard_since_check: Vec<bool>,
    /// Latest of our send times (local clock) that the peer acknowledged; feeds the read lease.
    pub acked_sent_at_local_us: Vec<u64>,
    pub membership: membership::LeaderMembership,
    /// Reads on the read-index path waiting to be answered (`read_index.rs`).
    pub reads: read_index::ReadIndexReads,
}

/// Lost on a crash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Volatile {
    pub role: RoleLabel,
    pub leader_hint: Option<NodeId>,
    /// Invariant: applied_index <= commit_index <= log.last_index().
    pub commit_index: LogIndex,
    pub applied_index: LogIndex,
    pub kv: BTreeMap<u32, u64>,
    pub votes_granted: Vec<bool>,
    pub leader: Option<LeaderState>,
    /// Requests this node accepted as leader, by log index, answered when applied.
    pub pending_requests: BTreeMap<LogIndex, RequestId>,
    pub last_leader_contact_local_us: Option<u64>,
}

impl Volatile {
    fn fresh(node_count: usize) -> Volatile {
        Volatile {
            role: RoleLabel::Follower,
            leader_hint: None,
            commit_index: LogIndex::ZERO,
            applied_index: LogIndex::ZERO,
            kv: BTreeMap::new(),
            votes_granted: vec![false; node_count],
            leader: None,
            pending_requests: BTreeMap::new(),
            last_leader_contact_local_us: None,
        }
    }
}

/// Timing a Raft node works with, in local microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RaftTiming {
    pub election_min_us: u64,
    pub election_max_us: u64,
    pub heartbeat_us: u64,
}

impl RaftTiming {
    pub fn from_timing(timing: &Timing) -> RaftTiming {
        RaftTiming {
            election_min_us: timing.election_timeout_ms.0 * 1_000,
            election_max_us: timing.election_timeout_ms.1 * 1_000,
            heartbeat_us: timing.heartbeat_ms * 1_000,
        }
    }
}

/// One Raft server. `A` is what the log carries for the application beside Raft's own no-ops and the
/// key/value client's reads and writes (Raft stores and orders it, never reads it); `M` is the world's
/// message type, which carries [`RaftMessage`]s.
#[derive(Debug)]
pub struct RaftNode<A, M> {
    pub id: NodeId,
    pub node_count: usize,
    pub options: RaftOptions,
    pub timing: RaftTiming,
    pub durable: Durable<A>,
    pub volatile: Volatile,
    /// Who votes, as this server believes (`membership.rs`).
    pub membership: membership::Membership,
    scratch: Vec<LogIndex>,
    /// The voters' match indexes, gathered for the commit rule.
    voter_matches: Vec<LogIndex>,
    /// How it lies, if it does (`byzantine.rs`).
    pub liar: Option<byzantine::Liar>,
    /// Some server of the world has been made Byzantine (see [`RaftNode::hear_of_a_liar`]).
    liar_in_world: bool,
    world_message: PhantomData<fn() -> M>,
}

// By hand: a derive would ask `M: Clone`, but no message is stored here.
impl<A: Clone, M> Clone for RaftNode<A, M> {
    fn clone(&self) -> Self {
        RaftNode {
            id: self.id,
            node_count: self.node_count,
            options: self.options.clone(),
            timing: self.timing,
            durable: self.durable.clone(),
            volatile: self.volatile.clone(),
            membership: self.membership,
            scratch: self.scratch.clone(),
            voter_matches: self.voter_matches.clone(),
            liar: self.liar,
            liar_in_world: self.liar_in_world,
            world_message: PhantomData,
        }
    }
}

// By hand, for the explorer's state digest: a derive would ask `M: Hash`, and the two scratch
// buffers are refilled before every use, so they are not state.
impl<A: std::hash::Hash, M> std::hash::Hash for RaftNode<A, M> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
        self.node_count.hash(state);
        self.options.hash(state);
        self.timing.hash(state);
        self.durable.hash(state);
        self.volatile.hash(state);
        self.membership.hash(state);
        self.liar.hash(state);
        self.liar_in_world.hash(state);
    }
}

impl<A, M> RaftNode<A, M> {
    pub fn new(
        id: NodeId,
        node_count: usize,
        options: RaftOptions,
        timing: RaftTiming,
    ) -> RaftNode<A, M> {
        assert!(id.index() < node_count, "node id outside the cluster");
        RaftNode {
            id,
            node_count,
            options,
            timing,
            durable: Durable::default(),
            volatile: Volatile::fresh(node_count),
            membership: membership::Membership::new(NodeSet::first(node_count)),
            scratch: Vec::with_capacity(node_count),
            voter_matches: Vec::with_capacity(node_count),
            liar: None,
            liar_in_world: false,
            world_message: PhantomData,
        }
    }

    pub fn term(&self) -> Term {
        self.durable.term
    }

    pub fn role(&self) -> RoleLabel {
        self.volatile.role
    }

    pub fn log(&self) -> &Log<A> {
        &self.durable.log
    }

    pub fn commit_index(&self) -> LogIndex {
        self.volatile.commit_index
    }

    pub fn is_leader(&self) -> bool {
        self.volatile.role == RoleLabel::Leader
    }
}

impl<A: Payload, M: RaftWire<A>> RaftNode<A, M> {
    /// The voters and, on a leader, the learner and servers it removed: everyone it talks to.
    fn peers(&self) -> impl Iterator<Item = NodeId> + 'static {
        let me = self.id;
        let extra = self
            .volatile
            .leader
            .as_ref()
            .map_or(NodeSet::default(), |leader| leader.membership.extra_peers);
        self.voters()
            .union(extra)
            .iter()
            .filter(move |peer| *peer != me)
    }

    /// Answers go out after this input's writes (term, vote, entries) are on disk, and so does a
    /// candidate's RequestVote: a simple implementation writes its new term and its vote for itself
    /// before it asks (Figure 2 only requires them durable before it answers or counts). A leader's
    /// AppendEntries leaves at once: its own write may run in parallel (dissertation, section
    /// 10.2.1). Pre-votes change nothing durable.
    fn send(&self, effects: &mut Effects<M>, to: NodeId, message: RaftMessage<A>) {
        match message {
            RaftMessage::RequestVoteReply { .. }
            | RaftMessage::AppendEntriesReply { .. }
            | RaftMessage::RequestVote {
                pre_vote: false, ..
            } => effects.send_after_persist(to, message),
            _ => effects.send(to, message),
        }
    }

    fn on_message(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &RaftMessage<A>,
        effects: &mut Effects<M>,
    ) {
        if self.lies_about(now_us, from, message, effects) {
            return;
        }
        match message {
            RaftMessage::RequestVote { .. } => self.on_request_vote(now_us, from, message, effects),
            RaftMessage::RequestVoteReply {
                term,
                granted,
                pre_vote,
            } => self.on_vote_reply(now_us, from, *term, *granted, *pre_vote, effects),
            RaftMessage::AppendEntries { .. } => {
                self.on_append_entries(now_us, from, message, effects)
            }
            RaftMessage::AppendEntriesReply { .. } => {
                self.on_append_reply(now_us, from, message, effects)
            }
        }
    }
}

impl<A, M> RaftNode<A, M> {
    /// Tells this server that some server of its world lies from now on. It changes nothing it does
    /// (an honest server cannot know): only its debug checks stand down, as they do for the unsafe modes.
    pub fn hear_of_a_liar(&mut self) {
        self.liar_in_world = true;
    }

    /// Whether this server has heard that its world holds a liar.
    pub fn knows_of_a_liar(&self) -> bool {
        self.liar_in_world
    }

    /// The `Invariant:` lines on [`LeaderState`] and [`Volatile`], asserted after every input in debug
    /// builds (the test suites and sweeps run with them on). A broken one is a bug in this module, not
    /// a protocol outcome, so it panics. The unsafe modes are exempt: the test-only commit rule and a
    /// hand-edited configuration (`direct` membership) both let a later leader overwrite a committed
    /// entry, which is exactly the outcome their checkers must see, not a crash. So is a world with a
    /// liar in it: a forged leadership or a doubled vote lets a leader overwrite what an honest server
    /// committed.
    fn debug_check_invariants(&self) {
        let unsafe_on_purpose = self.options.unsafe_commit_previous_term
            || self.membership.config_file.is_some()
            || self.liar_in_world;
        if !cfg!(debug_assertions) || unsafe_on_purpose {
            return;
        }
        let last_index = self.durable.log.last_index();
        let volatile = &self.volatile;
        debug_assert!(
            volatile.applied_index <= volatile.commit_index && volatile.commit_index <= last_index,
            "{}: applied {} <= commit {} <= last index {} broken",
            self.id,
            volatile.applied_index,
            volatile.commit_index,
            last_index
        );
        let Some(leader) = &volatile.leader else {
            return;
        };
        for (peer, (next, matched)) in leader
            .next_index
            .iter()
            .zip(&leader.match_index)
            .enumerate()
        {
            debug_assert!(
                (LogIndex(1)..=last_index.next()).contains(next) && matched < next,
                "{}: peer n{} has next_index {next}, match_index {matched}, last index {last_index}",
                self.id,
                peer + 1
            );
        }
    }
}

impl<A: Payload, M: RaftWire<A>> Protocol<M> for RaftNode<A, M> {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        let mark = effects.len();
        match input {
            Input::Start => {
                self.volatile = Volatile::fresh(self.node_count);
                self.reset_election_timer(effects);
            }
            Input::Recover => {
                self.volatile = Volatile::fresh(self.node_count);
                // It may have promised a leader its support just before crashing: keep that promise for
                // one more election timeout, or a leader's read lease could be cut short.
                self.volatile.last_leader_contact_local_us = Some(local_now_us);
                self.reset_election_timer(effects);
            }
            // Messages of other protocols are not for Raft (a lock server handles its own first).
            Input::Message { from, message } => {
                if let Some(message) = message.peel() {
                    self.on_message(local_now_us, from, message, effects);
                }
            }
            Input::Timer {
                key: ELECTION_TIMER,
            } => self.on_election_timer(local_now_us, effects),
            Input::Timer {
                key: HEARTBEAT_TIMER,
            } => self.on_heartbeat_timer(local_now_us, effects),
            Input::Timer { .. } => {}
            Input::Client {
                request_id,
                command,
            } => self.on_client(local_now_us, request_id, command, effects),
        }
        match self.lying_mode() {
            Some(ByzantineMode::Silent) => effects.drop_sends_since(mark),
            Some(ByzantineMode::Selective) => {
                let (me, servers) = (self.id, self.node_count);
                effects.drop_sends_to_since(mark, |to| SelectiveSilence::ignores(me, to, servers));
            }
            _ => {}
        }
        self.debug_check_invariants();
    }

    fn crash(&mut self) {
        self.volatile = Volatile::fresh(self.node_count);
    }

    fn turn_byzantine(&mut self, mode: ByzantineMode) -> Result<(), &'static str> {
        self.turn_liar(mode);
        Ok(())
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary {
            role: self.volatile.role,
            term: self.durable.term,
            commit_index: self.volatile.commit_index,
            log_len: self.durable.log.last_index().0,
        }
    }
}
