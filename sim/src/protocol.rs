//! The sans-IO contract between the world and every protocol actor.
//!
//! An actor never touches a clock, a network, a disk or a random generator. The world hands it one
//! [`Input`] at a time together with the node's *local* clock reading, and the actor pushes [`Effect`]s
//! into an [`Effects`] buffer: messages to send, timers to set or cancel, facts to observe and replies for
//! clients. The world applies the effects in order, after the call returns.
//!
//! Randomness stays with the world: a timer whose length must be random (a Raft election timeout) asks for
//! [`TimerDelay::Between`] and the world draws the length from its seeded generator.
//!
//! Ordering rule (as in etcd's `Ready`): an actor mutates its durable state *before* it pushes the sends
//! that depend on it, and the world treats the durable part of an actor as written when `handle` returns,
//! so "persist before you reply" holds by construction. `Effect::Persist` marks that a write happened, for
//! the trace and the UI.

use crate::ids::NodeId;
use crate::units::{FencingToken, LogIndex, Term};
use serde::{Deserialize, Serialize};

/// A node's name for one of its timers. Setting a key that is already pending replaces that timer.
pub type TimerKey = u16;

/// Identifies one client request for its whole life (submit, reply or timeout).
pub type RequestId = u64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerDelay {
    /// Exactly this many local microseconds.
    Exactly { local_us: u64 },
    /// Uniform in `min_local_us..=max_local_us`, drawn by the world from its PRNG.
    Between {
        min_local_us: u64,
        max_local_us: u64,
    },
}

/// What a client asks the replicated state machine to do. Keys and values are small integers the world
/// generates deterministically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientCommand {
    Put { key: u32, value: u64 },
    Get { key: u32 },
}

/// Why a node refused a client request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientError {
    /// The node does not lead; the request is not forwarded. `leader_hint` is who it believes leads.
    NotLeader { leader_hint: Option<NodeId> },
    /// The target node was crashed when the request arrived.
    NodeDown,
}

/// How a client request ended, as the client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientOutcome {
    /// Not answered yet.
    Pending,
    /// A write committed at this log position.
    Committed {
        index: LogIndex,
        term: Term,
    },
    /// A read answered; `index` is the commit index it reflects.
    Read {
        index: LogIndex,
        value: Option<u64>,
    },
    Rejected(ClientError),
    /// The client gave up after `client_timeout_ms`: it may or may not have taken effect.
    Unknown,
}

/// Something an actor tells the outside world (UI, trace, checkers) about itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    BecameFollower {
        term: Term,
    },
    BecamePreCandidate {
        term: Term,
    },
    BecameCandidate {
        term: Term,
    },
    BecameLeader {
        term: Term,
    },
    /// Entries from `from_index` on were removed to repair the log.
    LogTruncated {
        from_index: LogIndex,
    },
    /// The leader gave up leadership because it has not heard from a majority (CheckQuorum).
    LostQuorum {
        term: Term,
    },
    /// A read served on the leader's lease without going through the log.
    LeaseRead {
        term: Term,
    },
    /// A lock-service replica applied a grant: `owner` now holds `key` under `lease`, with fencing token
    /// `token`. Every replica reports each applied change; `revision` (strictly increasing along the
    /// replicated state) lets a checker count each change once.
    LockGranted {
        key: u32,
        lease: u64,
        owner: NodeId,
        token: FencingToken,
        revision: u64,
    },
    /// A replica applied the end of a hold: released by `by`, or `expired` (lease not kept alive).
    LockReleased {
        key: u32,
        lease: u64,
        owner: NodeId,
        by: NodeId,
        token: FencingToken,
        expired: bool,
        revision: u64,
    },
    /// A Redis or Redlock client now believes it holds the lock (`hold` names the acquisition) for
    /// `valid_for_local_us` more on its own clock.
    LockBelief {
        hold: u64,
        valid_for_local_us: u64,
    },
    /// The client stopped believing it holds `hold` (released, gave up, or saw it run out).
    LockBeliefEnded {
        hold: u64,
    },
    /// The invoice store recorded (or, fenced, refused) invoices for `minute` from `client`.
    InvoiceWritten {
        client: NodeId,
        minute: u64,
        token: FencingToken,
        /// Invoices for this minute already existed: a duplicate.
        duplicate: bool,
        /// Refused: token below the highest seen.
        refused: bool,
    },
    /// A scheduler instance now believes it is the leader (`leads`) or stopped believing it.
    SchedulerLeader {
        leads: bool,
    },
    /// A ZooKeeper-style watch fired: the leader notified `watcher` that a znode went away.
    WatchNotified {
        watcher: NodeId,
    },
    /// A lock client asked for a lock (counted for the contention report).
    LockRequested {
        key: u32,
    },
    /// The protected resource handled one access (a read or a write carrying a fencing token).
    ResourceAccess {
        client: NodeId,
        token: FencingToken,
        write: bool,
        outcome: AccessOutcome,
        /// The count after the access.
        value: u64,
        highest_seen: FencingToken,
        /// The job this access belongs to (the same across retries), for the lost-update checker.
        intent: u64,
        /// The record accessed (0: the inventory count; the work queue's accounts from 1).
        account: u32,
    },
}

/// What the protected resource did with one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessOutcome {
    Accepted,
    /// A retried write whose idempotency key was already applied: acknowledged, not applied again.
    Duplicate,
    /// Fencing: the token is lower than the highest the resource has seen.
    StaleToken,
}

/// One input for a node. `M` is the world's message type: a protocol names the messages it reads and
/// writes through [`Carries`], never the world's whole message enum, so it cannot depend on the
/// protocols it is mixed with.
#[derive(Debug, PartialEq, Eq)]
pub enum Input<'a, M> {
    /// First call of the run.
    Start,
    /// Restart after a crash: volatile state is gone, the durable part is what was persisted.
    Recover,
    Message {
        from: NodeId,
        message: &'a M,
    },
    Timer {
        key: TimerKey,
    },
    Client {
        request_id: RequestId,
        command: ClientCommand,
    },
}

impl<'a, M> Input<'a, M> {
    /// The same input with its message narrowed to the protocol's own type `T`; `None` for a message
    /// of another protocol.
    pub fn narrow<T>(self) -> Option<Input<'a, T>>
    where
        M: Carries<T>,
    {
        Some(match self {
            Input::Message { from, message } => Input::Message {
                from,
                message: message.peel()?,
            },
            Input::Start => Input::Start,
            Input::Recover => Input::Recover,
            Input::Timer { key } => Input::Timer { key },
            Input::Client {
                request_id,
                command,
            } => Input::Client {
                request_id,
                command,
            },
        })
    }
}

// By hand: a derive would ask `M: Copy`, but an input only holds a reference to the message.
impl<M> Clone for Input<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for Input<'_, M> {}

/// A world's message type that can carry a protocol's messages of type `T` (the world's enum has one
/// variant per protocol). Protocols send with `M::wrap` and read their own with `peel`, so each stays
/// generic over the world it runs in.
pub trait Carries<T> {
    fn wrap(inner: T) -> Self;
    /// The carried message, if this one is a `T`.
    fn peel(&self) -> Option<&T>;
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect<M> {
    Send {
        to: NodeId,
        message: M,
    },
    SetTimer {
        key: TimerKey,
        delay: TimerDelay,
        label: &'static str,
    },
    CancelTimer {
        key: TimerKey,
    },
    Persist {
        what: &'static str,
    },
    Observe(Fact),
    ClientReply {
        request_id: RequestId,
        outcome: ClientOutcome,
    },
}

/// The output buffer of one `handle` call. The world reuses one buffer, so pushing is allocation-free
/// in steady state.
#[derive(Clone, Debug)]
pub struct Effects<M> {
    list: Vec<Effect<M>>,
}

// By hand: a derive would ask `M: Default`.
impl<M> Default for Effects<M> {
    fn default() -> Self {
        Effects { list: Vec::new() }
    }
}

impl<M> Effects<M> {
    pub fn new() -> Effects<M> {
        Effects::default()
    }

    /// Sends one of the protocol's own messages, wrapped in the world's message type.
    pub fn send<T>(&mut self, to: NodeId, message: T)
    where
        M: Carries<T>,
    {
        self.list.push(Effect::Send {
            to,
            message: M::wrap(message),
        });
    }

    pub fn set_timer(&mut self, key: TimerKey, delay: TimerDelay, label: &'static str) {
        self.list.push(Effect::SetTimer { key, delay, label });
    }

    pub fn cancel_timer(&mut self, key: TimerKey) {
        self.list.push(Effect::CancelTimer { key });
    }

    pub fn persist(&mut self, what: &'static str) {
        self.list.push(Effect::Persist { what });
    }

    pub fn observe(&mut self, fact: Fact) {
        self.list.push(Effect::Observe(fact));
    }

    pub fn reply(&mut self, request_id: RequestId, outcome: ClientOutcome) {
        self.list.push(Effect::ClientReply {
            request_id,
            outcome,
        });
    }

    pub fn drain(&mut self) -> std::vec::Drain<'_, Effect<M>> {
        self.list.drain(..)
    }

    pub fn as_slice(&self) -> &[Effect<M>] {
        &self.list
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// A role label every protocol can map onto for reports and the "leader" target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoleLabel {
    Follower,
    PreCandidate,
    Candidate,
    Leader,
}

impl RoleLabel {
    pub fn as_str(self) -> &'static str {
        match self {
            RoleLabel::Follower | RoleLabel::PreCandidate => "follower",
            RoleLabel::Candidate => "candidate",
            RoleLabel::Leader => "leader",
        }
    }
}

/// The few numbers every actor reports about itself (for reports and target resolution).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActorSummary {
    pub role: RoleLabel,
    pub term: Term,
    pub commit_index: LogIndex,
    pub log_len: u64,
}

impl ActorSummary {
    /// What an actor without a replicated log reports: never a leader, no term, nothing committed.
    pub const WITHOUT_LOG: ActorSummary = ActorSummary {
        role: RoleLabel::Follower,
        term: Term::ZERO,
        commit_index: LogIndex::ZERO,
        log_len: 0,
    };
}

/// One protocol's node. The world calls `handle` for every input and applies the pushed effects.
pub trait Protocol<M> {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>);
    /// Drop volatile state, keep what was persisted. The next input will be `Input::Recover`.
    fn crash(&mut self);
    fn summary(&self) -> ActorSummary;
}
