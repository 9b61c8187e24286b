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
//! the trace and the UI, and lets the world charge the node's disk time: a send pushed with
//! [`Effects::send_after_persist`] leaves when that write is done.

use crate::base::ids::{NodeId, NodeSet};
use crate::base::units::{LogIndex, Term};
use crate::contract::action::ByzantineMode;
use serde::{Deserialize, Serialize};

/// A node's name for one of its timers. Setting a key that is already pending replaces that timer.
pub type TimerKey = u16;

/// Identifies one client request for its whole life (submit, reply or timeout).
pub type RequestId = u64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClientCommand {
    Put { key: u32, value: u64 },
    Get { key: u32 },
}

/// Why a node refused a client request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClientError {
    /// The node does not lead; the request is not forwarded. `leader_hint` is who it believes leads.
    NotLeader { leader_hint: Option<NodeId> },
    /// The target node was crashed when the request arrived.
    NodeDown,
}

/// How a client request ended, as the client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

/// Something an actor tells the outside world (UI, trace, checkers) about itself: Raft's role changes and
/// log repairs here, since every world runs Raft; each other protocol declares its own fact type in its
/// folder. The world's fact type (`actor::Fact`) has one variant per protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RaftFact {
    BecameFollower {
        term: Term,
    },
    BecamePreCandidate {
        term: Term,
    },
    BecameCandidate {
        term: Term,
    },
    /// Won the election for `term` with `votes` of the `cluster` servers' votes (its own included).
    BecameLeader {
        term: Term,
        votes: u32,
        cluster: u32,
    },
    /// A server answered a candidate's (pre-)vote request for `term`, and why.
    VoteCast {
        candidate: NodeId,
        term: Term,
        pre_vote: bool,
        verdict: VoteVerdict,
    },
    /// The leader counted entry `index` (of `term`) as committed: `replicas` hold it, a majority.
    Committed {
        index: LogIndex,
        term: Term,
        replicas: NodeSet,
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
    // Membership changes (added later: new variants go at the end).
    /// The leader began replicating to `learner`, which does not vote yet.
    LearnerAdded {
        learner: NodeId,
    },
    /// The learner caught up in `rounds` catch-up rounds; the leader adds it.
    LearnerCaughtUp {
        learner: NodeId,
        rounds: u32,
    },
    /// The learner never caught up within `rounds` rounds; the leader gave it up.
    LearnerGivenUp {
        learner: NodeId,
        rounds: u32,
    },
    /// The leader appended a configuration entry at `index`: from now on `voters` vote.
    ConfigurationAppended {
        index: LogIndex,
        voters: NodeSet,
    },
    /// A leader outside its own configuration stepped down (its removal committed, or its file said so).
    RemovedSelf {
        term: Term,
    },
    /// The unsafe direct mode: this server's configuration was rewritten by hand to `voters`.
    ConfigurationEdited {
        voters: NodeSet,
    },
    // Read paths (added later: new variants go at the end).
    /// A read answered on the read-index path: a majority confirmed this leader of `term` after the
    /// read arrived, and the map had applied `read_index`.
    ReadIndexRead {
        term: Term,
        read_index: LogIndex,
    },
    /// A read answered by a server from its own copy, which had applied entries up to `applied`.
    FollowerRead {
        applied: LogIndex,
    },
}

/// How a server answered a vote request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VoteVerdict {
    Granted,
    /// The candidate's term is not above (pre-vote) or below (vote) the voter's.
    StaleTerm {
        voter_term: Term,
    },
    /// The voter already gave its vote in this term to someone else.
    AlreadyVoted {
        for_candidate: NodeId,
    },
    /// The voter's log is more up to date than the candidate's (§5.4.1).
    LogBehind,
    /// The voter still hears a live leader, so it ignores candidates (PreVote / CheckQuorum).
    HearsLeader,
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
pub trait Carries<T>: Wire {
    fn wrap(inner: T) -> Self;
    /// The carried message, if this one is a `T`.
    fn peel(&self) -> Option<&T>;
}

/// What a world's message type brings besides messages: the world's fact type, one variant per protocol.
///
/// Why the message type carries it: `Effects<M>` is the one buffer a protocol writes into, and the
/// contract layer cannot name the protocols' fact types (they live in the protocol folders, above it).
/// Hanging the fact type on `M` keeps every protocol generic over one parameter, as with messages:
/// a protocol observes its own facts through [`Observes`], never the world's whole enum.
pub trait Wire {
    type Fact: Clone + std::fmt::Debug + PartialEq + Eq;
}

/// A world whose fact type can hold a protocol's facts of type `F`.
pub trait Observes<F>: Wire {
    fn observed(inner: F) -> Self::Fact;
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect<M: Wire> {
    Send {
        to: NodeId,
        message: M,
        /// A message that depends on what this input persisted (a vote, an AppendEntries
        /// acknowledgement, a candidate's RequestVote): it leaves only when the node's disk write
        /// is done.
        after_persist: bool,
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
    Observe(M::Fact),
    ClientReply {
        request_id: RequestId,
        outcome: ClientOutcome,
    },
}

/// The output buffer of one `handle` call. The world reuses one buffer, so pushing is allocation-free
/// in steady state.
#[derive(Clone, Debug)]
pub struct Effects<M: Wire> {
    list: Vec<Effect<M>>,
}

// By hand: a derive would ask `M: Default`.
impl<M: Wire> Default for Effects<M> {
    fn default() -> Self {
        Effects { list: Vec::new() }
    }
}

impl<M: Wire> Effects<M> {
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
            after_persist: false,
        });
    }

    /// Sends a message that must not leave before this input's writes are on disk ("persist before
    /// you reply"): the world holds it for the node's disk write time, if any.
    pub fn send_after_persist<T>(&mut self, to: NodeId, message: T)
    where
        M: Carries<T>,
    {
        self.list.push(Effect::Send {
            to,
            message: M::wrap(message),
            after_persist: true,
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

    /// Records one of the protocol's own facts, wrapped in the world's fact type.
    pub fn observe<F>(&mut self, fact: F)
    where
        M: Observes<F>,
    {
        self.list.push(Effect::Observe(M::observed(fact)));
    }

    pub fn reply(&mut self, request_id: RequestId, outcome: ClientOutcome) {
        self.list.push(Effect::ClientReply {
            request_id,
            outcome,
        });
    }

    /// How many effects are buffered (a mark for [`Effects::drop_sends_since`]).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Forgets the sends pushed since `mark`, keeping every other effect: a silent Byzantine node
    /// runs its protocol but says nothing.
    pub fn drop_sends_since(&mut self, mark: usize) {
        self.drop_sends_to_since(mark, |_| true);
    }

    /// Forgets the sends pushed since `mark` to a node `ignored` names, keeping every other effect: a
    /// selectively silent node talks to some peers and not to others.
    pub fn drop_sends_to_since(&mut self, mark: usize, ignored: impl Fn(NodeId) -> bool) {
        let mut index = 0;
        self.list.retain(|effect| {
            index += 1;
            index <= mark || !matches!(effect, Effect::Send { to, .. } if ignored(*to))
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
pub trait Protocol<M: Wire> {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>);
    /// Drop volatile state, keep what was persisted. The next input will be `Input::Recover`.
    fn crash(&mut self);
    fn summary(&self) -> ActorSummary;
    /// Make the node lie in `mode` (or be honest again). A protocol whose nodes have no way to lie in
    /// this simulation keeps the default, and the world skips the action with the reason.
    fn turn_byzantine(&mut self, mode: ByzantineMode) -> Result<(), &'static str> {
        let _ = mode;
        Err("this world's nodes cannot be made to lie (only Raft and PBFT nodes can)")
    }
}
