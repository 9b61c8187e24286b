//! An etcd-like lock service on Raft: leases, a lock per key, and fencing tokens.
//!
//! **Leases.** A client that wants a lock first needs a *lease*: a promise from the service that it is
//! alive, good for a time to live (TTL) and renewed by keep-alives. If the client crashes, is paused or is
//! cut off, the keep-alives stop and the lease runs out; the service then ends everything the lease held.
//! Who decides that a lease ran out? Only the current leader, on its own clock: it keeps each lease's
//! deadline in memory (as etcd's lessor does), pushes it forward on every keep-alive, and when a deadline
//! passes it proposes an `Expire` entry. Expiry is thus an ordinary log entry: every replica ends the hold
//! at the same point of the log. A newly elected leader does not know when the old one last heard a
//! keep-alive, so it gives every lease a fresh full TTL from its own election: leases only ever live
//! *longer* than their holders believe, never shorter.
//!
//! **Locks.** `Acquire` creates a lease and queues it on the key; the head of the queue holds the lock.
//! Requests are granted in log order, which is request order as the leader saw it. `Release` ends a hold
//! only if the releasing client owns the lease that holds it; a stranger's release is refused. Keep-alives
//! are answered only by a leader that can still vouch for its leadership (its Raft read lease holds), so a
//! deposed leader cannot stretch a lease the new leader is about to expire.
//!
//! **Fencing tokens.** Every grant gets a token: the state machine's *revision*, bumped on every grant and
//! every release, so tokens strictly increase with every grant. A lease is still only a belief on the
//! client's side: a client paused for longer than its TTL wakes up certain it holds the lock while the
//! service has already given it to someone else. Nothing the client checks before the pause helps. The
//! token is what lets the *resource* tell: a write carrying token 33 after it has seen 34 is stale and is
//! refused (Kleppmann, "How to do distributed locking", 2016; the Chubby paper calls the token a
//! *sequencer*). See [`crate::protocols::worker`] and [`crate::protocols::resource`].
//!
//! The server is sans-IO like every actor: it wraps a [`RaftNode`] (messages, timers and client requests it
//! does not know go straight to Raft) and applies committed `Command::Lock` entries to its [`LockTable`]
//! after each input. A crash loses the table with the rest of the volatile state; the replica rebuilds it
//! by re-applying the committed log. Files: `table.rs` (the pure state machine), `message.rs` (the lock
//! protocol), `znode_message.rs` (sessions, znodes, watches), `delay.rs` (Consul's lock-delay, timed
//! on the leader's clock; off unless `[lock_service] lock_delay_ms` is set, see `options.rs`), `etcd.rs`
//! (etcd's names for every call, which the panels and the narration use).

pub mod build;
pub mod delay;
pub mod describe;
pub mod entry;
pub mod etcd;
pub mod fact;
pub mod history;
pub mod lock_model;
pub mod message;
pub mod options;
pub mod parts;
pub mod store_model;
pub mod table;
pub mod variations;
pub mod znode_message;

pub use fact::LockFact;
pub use message::{AcquireResult, LockServiceMessage};
pub use table::{
    CreatePath, Hold, KeyState, Lease, LockOp, LockTable, TableEvent, ZNode, ZPath, SESSION_KEY,
};
pub use znode_message::ZnodeMessage;

use crate::base::ids::NodeId;
use crate::base::units::LogIndex;
use crate::contract::protocol::{
    ActorSummary, Carries, Effects, Input, Observes, Protocol, RaftFact, TimerDelay, TimerKey,
};
use crate::protocols::lockservice::delay::LockDelays;
use crate::protocols::raft::{Command, RaftMessage, RaftNode};
use std::collections::{BTreeMap, BTreeSet};

/// Timer on which the leader looks for leases past their deadline (Raft uses keys 0 and 1).
pub const LEASE_TIMER: TimerKey = 10;
/// How often the leader looks, in local microseconds.
pub const LEASE_CHECK_US: u64 = 10_000;

/// The Raft group under the lock service: its log carries lock operations.
pub type ServiceRaft<M> = RaftNode<LockOp, M>;

/// What a world's message type must carry for the lock service: Raft's messages between the servers,
/// the lock protocol's with the clients and the ZooKeeper-style requests it also answers; Raft's facts
/// and its own.
pub trait ServiceWire:
    Carries<LockServiceMessage>
    + Carries<ZnodeMessage>
    + Carries<RaftMessage<LockOp>>
    + Observes<RaftFact>
    + Observes<LockFact>
{
}

impl<M> ServiceWire for M where
    M: Carries<LockServiceMessage>
        + Carries<ZnodeMessage>
        + Carries<RaftMessage<LockOp>>
        + Observes<RaftFact>
        + Observes<LockFact>
{
}

#[derive(Clone, Debug, Hash)]
pub struct LockServer<M> {
    pub raft: ServiceRaft<M>,
    pub table: LockTable,
    /// Invariant: applied_index <= raft.volatile.applied_index.
    applied_index: LogIndex,
    /// Leader only: each lease's deadline on this node's clock (local microseconds).
    pub deadlines: BTreeMap<u64, u64>,
    /// Leader only: leases whose `Expire` has been proposed but not applied yet.
    expiring: BTreeSet<u64>,
    was_leader: bool,
    /// Leader only: who asked for the entry at each log index, answered when it is applied.
    pending: BTreeMap<LogIndex, (NodeId, u64)>,
    /// Leader only: one-shot watches on znodes (lost with leadership, as watches are lost with the
    /// server a ZooKeeper client was connected to; clients set them again).
    pub watches: BTreeMap<ZPath, BTreeSet<NodeId>>,
    events: Vec<TableEvent>,
    /// How long an invalidated lease's key is held back (0: not at all). Configuration.
    lock_delay_ms: u64,
    /// Leader only: when each held-back key may be granted again, on this node's clock.
    pub delays: LockDelays,
}

impl<M> LockServer<M> {
    pub fn new(raft: ServiceRaft<M>) -> LockServer<M> {
        LockServer {
            raft,
            table: LockTable::default(),
            applied_index: LogIndex::ZERO,
            deadlines: BTreeMap::new(),
            expiring: BTreeSet::new(),
            was_leader: false,
            pending: BTreeMap::new(),
            watches: BTreeMap::new(),
            events: Vec::new(),
            lock_delay_ms: 0,
            delays: LockDelays::default(),
        }
    }

    /// The same server with Consul's lock-delay: an invalidated lease's key waits `lock_delay_ms`.
    pub fn with_lock_delay_ms(mut self, lock_delay_ms: u64) -> LockServer<M> {
        self.lock_delay_ms = lock_delay_ms;
        self.table = LockTable::with_lock_delay(lock_delay_ms > 0);
        self
    }

    /// The configured lock-delay (0: off).
    pub fn lock_delay_ms(&self) -> u64 {
        self.lock_delay_ms
    }
}

impl<M: ServiceWire> LockServer<M> {
    fn reply<T>(&self, effects: &mut Effects<M>, to: NodeId, message: T)
    where
        M: Carries<T>,
    {
        effects.send(to, message);
    }

    fn not_leader(&self, effects: &mut Effects<M>, to: NodeId, (request, attempt): (u64, u32)) {
        let leader_hint = self
            .raft
            .volatile
            .leader_hint
            .filter(|hint| *hint != self.raft.id);
        self.reply(
            effects,
            to,
            LockServiceMessage::NotLeader {
                request,
                attempt,
                leader_hint,
            },
        );
    }

    fn on_lock_message(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &LockServiceMessage,
        effects: &mut Effects<M>,
    ) {
        match *message {
            LockServiceMessage::Acquire {
                key,
                ttl_ms,
                request,
                attempt,
                idempotent,
            } => {
                let op = LockOp::Acquire {
                    key,
                    owner: from,
                    ttl_ms,
                    request,
                    idempotent,
                };
                self.propose(now_us, from, (request, attempt), op, effects);
            }
            LockServiceMessage::Release {
                key,
                lease,
                request,
            } => {
                let op = LockOp::Release {
                    key,
                    lease,
                    by: from,
                };
                self.propose(now_us, from, (request, 0), op, effects);
            }
            LockServiceMessage::KeepAlive {
                lease,
                sent_at_local_us,
            } => self.on_keep_alive(now_us, from, lease, sent_at_local_us, effects),
            _ => {}
        }
    }

    fn on_znode_message(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &ZnodeMessage,
        effects: &mut Effects<M>,
    ) {
        match *message {
            ZnodeMessage::OpenSession { ttl_ms, request } => {
                let op = LockOp::OpenSession {
                    owner: from,
                    ttl_ms,
                };
                self.propose(now_us, from, (request, 0), op, effects);
            }
            ZnodeMessage::Create {
                session,
                path,
                request,
            } => {
                let op = LockOp::Create {
                    lease: session,
                    path,
                };
                self.propose(now_us, from, (request, 0), op, effects);
            }
            ZnodeMessage::WatchExists { path, request } => {
                if !self.raft.is_leader() || !self.raft.lease_holds(now_us) {
                    self.not_leader(effects, from, (request, 0));
                    return;
                }
                let owner_session = self.table.znodes.get(&path).map(|node| node.session);
                let exists = owner_session.is_some();
                if exists {
                    self.watches.entry(path).or_default().insert(from);
                }
                let reply = ZnodeMessage::WatchExistsReply {
                    request,
                    path,
                    exists,
                    owner_session,
                };
                self.reply(effects, from, reply);
            }
            ZnodeMessage::Children { request } => {
                if !self.raft.is_leader() || !self.raft.lease_holds(now_us) {
                    self.not_leader(effects, from, (request, 0));
                    return;
                }
                let sequences = self
                    .table
                    .znodes
                    .values()
                    .filter_map(|node| match node.path {
                        ZPath::Candidate(sequence) => Some((sequence, node.session)),
                        ZPath::Leader => None,
                    })
                    .collect();
                let reply = ZnodeMessage::ChildrenReply { request, sequences };
                self.reply(effects, from, reply);
            }
            _ => {}
        }
    }

    /// Appends `op` for `from`'s request (with the send's attempt, echoed if refused) and answers
    /// when it is applied.
    fn propose(
        &mut self,
        now_us: u64,
        from: NodeId,
        (request, attempt): (u64, u32),
        op: LockOp,
        effects: &mut Effects<M>,
    ) {
        match self.raft.propose(now_us, Command::App(op), effects) {
            Some(index) => {
                self.pending.insert(index, (from, request));
            }
            None => self.not_leader(effects, from, (request, attempt)),
        }
    }

    fn on_keep_alive(
        &mut self,
        now_us: u64,
        from: NodeId,
        lease: u64,
        sent_at_local_us: u64,
        effects: &mut Effects<M>,
    ) {
        if !self.raft.is_leader() || !self.raft.lease_holds(now_us) {
            self.not_leader(effects, from, (lease, 0));
            return;
        }
        let known = self.table.leases.get(&lease).copied();
        let alive =
            known.is_some_and(|known| known.owner == from) && !self.expiring.contains(&lease);
        if let (true, Some(known)) = (alive, known) {
            self.deadlines
                .insert(lease, now_us.saturating_add(known.ttl_ms * 1_000));
        }
        let reply = LockServiceMessage::KeepAliveReply {
            lease,
            alive,
            token: if alive {
                self.table.token_of(lease)
            } else {
                None
            },
            echo_sent_at_local_us: sent_at_local_us,
        };
        self.reply(effects, from, reply);
    }

    fn on_lease_timer(&mut self, now_us: u64, effects: &mut Effects<M>) {
        effects.set_timer(
            LEASE_TIMER,
            TimerDelay::Exactly {
                local_us: LEASE_CHECK_US,
            },
            "lease check",
        );
        if !self.raft.is_leader() {
            return;
        }
        let due: Vec<u64> = self
            .deadlines
            .iter()
            .filter(|(lease, deadline)| **deadline <= now_us && !self.expiring.contains(lease))
            .map(|(lease, _)| *lease)
            .collect();
        for lease in due {
            if self
                .raft
                .propose(now_us, Command::App(LockOp::Expire { lease }), effects)
                .is_some()
            {
                self.expiring.insert(lease);
            }
        }
        for (key, revision) in self.delays.due(now_us) {
            let end = LockOp::EndDelay { key, revision };
            if self
                .raft
                .propose(now_us, Command::App(end), effects)
                .is_some()
            {
                self.delays.mark_ending((key, revision));
            }
        }
    }

    /// Notices leadership changes and applies newly committed lock entries.
    fn after_raft(&mut self, now_us: u64, effects: &mut Effects<M>) {
        let leads = self.raft.is_leader();
        let gained_leadership = leads && !self.was_leader;
        if gained_leadership {
            self.deadlines.clear();
            self.expiring.clear();
            self.delays.clear();
        }
        if !leads {
            self.deadlines.clear();
            self.expiring.clear();
            self.delays.clear();
            self.pending.clear();
            self.watches.clear();
        }
        self.was_leader = leads;
        let applied_before = self.applied_index;
        while self.applied_index < self.raft.volatile.applied_index {
            let index = self.applied_index.next();
            self.applied_index = index;
            let Some(entry) = self.raft.log().entry(index).copied() else {
                break;
            };
            let Command::App(op) = entry.command else {
                continue;
            };
            let mut events = std::mem::take(&mut self.events);
            events.clear();
            // A lease is named by the log index of the entry that created it: unique and known to every replica.
            self.table.apply(index.0, op, &mut events);
            for event in &events {
                self.on_event(index, *event, effects);
            }
            self.events = events;
        }
        // Only the table's changes and a new leadership can put deadlines out of step with the table
        // (keep-alives and expiry proposals touch leases it holds), and the sync walks every lease:
        // run on every event it made a pile of retried sessions cost time per event (issue 17, bug 7).
        if leads && (gained_leadership || self.applied_index != applied_before) {
            self.sync_deadlines(now_us);
            self.delays.sync(&self.table, now_us, self.lock_delay_ms);
        }
    }

    /// Leader: every lease in the table has a deadline (a full TTL from now when first seen), and no
    /// deadline outlives its lease.
    fn sync_deadlines(&mut self, now_us: u64) {
        let leases = &self.table.leases;
        self.deadlines.retain(|lease, _| leases.contains_key(lease));
        self.expiring.retain(|lease| leases.contains_key(lease));
        for lease in leases.values() {
            self.deadlines
                .entry(lease.id)
                .or_insert(now_us.saturating_add(lease.ttl_ms * 1_000));
        }
    }

    fn on_event(&mut self, index: LogIndex, event: TableEvent, effects: &mut Effects<M>) {
        let leads = self.raft.is_leader();
        let asker = self.pending.get(&index).copied();
        match event {
            TableEvent::Granted {
                key,
                hold,
                revision,
            } => {
                effects.observe(LockFact::LockGranted {
                    key,
                    lease: hold.lease,
                    owner: hold.owner,
                    token: hold.token,
                    revision,
                });
                if !leads {
                    return;
                }
                let result = AcquireResult::Granted {
                    lease: hold.lease,
                    token: hold.token,
                };
                match asker {
                    Some((client, request)) if hold.lease == index.0 => {
                        self.pending.remove(&index);
                        self.reply(
                            effects,
                            client,
                            LockServiceMessage::AcquireReply { request, result },
                        );
                    }
                    _ => {
                        let notice = LockServiceMessage::Granted {
                            key,
                            lease: hold.lease,
                            token: hold.token,
                        };
                        self.reply(effects, hold.owner, notice);
                    }
                }
            }
            TableEvent::Queued { lease, .. } | TableEvent::Existing { lease, token: None } => {
                if let Some((client, request)) = asker.filter(|_| leads) {
                    self.pending.remove(&index);
                    let result = AcquireResult::Queued { lease };
                    self.reply(
                        effects,
                        client,
                        LockServiceMessage::AcquireReply { request, result },
                    );
                }
            }
            TableEvent::Existing {
                lease,
                token: Some(token),
            } => {
                if let Some((client, request)) = asker.filter(|_| leads) {
                    self.pending.remove(&index);
                    let result = AcquireResult::Granted { lease, token };
                    self.reply(
                        effects,
                        client,
                        LockServiceMessage::AcquireReply { request, result },
                    );
                }
            }
            TableEvent::Released {
                key,
                hold,
                by,
                expired,
                revision,
            } => {
                effects.observe(LockFact::LockReleased {
                    key,
                    lease: hold.lease,
                    owner: hold.owner,
                    by,
                    token: hold.token,
                    expired,
                    revision,
                });
                self.answer_release(index, asker, true, effects);
            }
            TableEvent::NotOwner { .. } => self.answer_release(index, asker, false, effects),
            TableEvent::DelayStarted {
                key,
                hold,
                revision,
            } => effects.observe(LockFact::LockDelayStarted {
                key,
                owner: hold.owner,
                delay_ms: self.lock_delay_ms,
                revision,
            }),
            TableEvent::DelayEnded { key, revision } => {
                effects.observe(LockFact::LockDelayEnded { key, revision })
            }
            TableEvent::SessionOpened { lease } => {
                if let Some((client, request)) = asker.filter(|_| leads) {
                    self.pending.remove(&index);
                    let reply = ZnodeMessage::SessionOpened {
                        request,
                        session: lease,
                    };
                    self.reply(effects, client, reply);
                }
            }
            TableEvent::Created { path } => {
                if let Some((client, request)) = asker.filter(|_| leads) {
                    self.pending.remove(&index);
                    self.reply(effects, client, ZnodeMessage::CreateReply { request, path });
                }
            }
            TableEvent::Deleted { node } => {
                let watchers = self.watches.remove(&node.path).unwrap_or_default();
                for watcher in watchers.into_iter().filter(|_| leads) {
                    effects.observe(LockFact::WatchNotified { watcher });
                    let event = ZnodeMessage::WatchEvent { path: node.path };
                    self.reply(effects, watcher, event);
                }
            }
        }
    }

    fn answer_release(
        &mut self,
        index: LogIndex,
        asker: Option<(NodeId, u64)>,
        released: bool,
        effects: &mut Effects<M>,
    ) {
        let Some((client, request)) = asker.filter(|_| self.raft.is_leader()) else {
            return;
        };
        self.pending.remove(&index);
        self.reply(
            effects,
            client,
            LockServiceMessage::ReleaseReply { request, released },
        );
    }
}

impl<M: ServiceWire> Protocol<M> for LockServer<M> {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        let (lock_message, znode_message) = match input {
            Input::Message { from, message } => (
                Carries::<LockServiceMessage>::peel(message).map(|message| (from, message)),
                Carries::<ZnodeMessage>::peel(message).map(|message| (from, message)),
            ),
            _ => (None, None),
        };
        match input {
            Input::Message { .. } if lock_message.is_some() => {
                let (from, message) = lock_message.expect("matched just above");
                self.on_lock_message(local_now_us, from, message, effects);
            }
            Input::Message { .. } if znode_message.is_some() => {
                let (from, message) = znode_message.expect("matched just above");
                self.on_znode_message(local_now_us, from, message, effects);
            }
            Input::Timer { key: LEASE_TIMER } => self.on_lease_timer(local_now_us, effects),
            Input::Start | Input::Recover => {
                self.raft.handle(local_now_us, input, effects);
                let delay = TimerDelay::Exactly {
                    local_us: LEASE_CHECK_US,
                };
                effects.set_timer(LEASE_TIMER, delay, "lease check");
            }
            other => self.raft.handle(local_now_us, other, effects),
        }
        self.after_raft(local_now_us, effects);
    }

    fn crash(&mut self) {
        self.raft.crash();
        let raft = self.raft.clone();
        *self = LockServer::new(raft).with_lock_delay_ms(self.lock_delay_ms);
    }

    fn summary(&self) -> ActorSummary {
        self.raft.summary()
    }
}
