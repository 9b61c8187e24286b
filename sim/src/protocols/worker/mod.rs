//! A lock client ("worker"): acquire the lock, read-modify-write the protected resource carrying the
//! fencing token, release, think, repeat.
//!
//! The worker's picture of the world is a *belief*: "I hold the lock with token 34, and my lease lasts
//! until local time t". It computes t conservatively, from the moment it *sent* the request or keep-alive
//! that the service answered, plus the TTL, so with honest clocks the service's own deadline is always
//! later. Keep-alives go out every `renew_ms` in the background, also while the worker waits in the queue
//! (a keep-alive answer tells a waiting worker that it has reached the head of the queue).
//!
//! What can go wrong is exactly what the lesson is about. The worker reads the count, spends `work_ms`
//! computing, and writes `count - 1`. With `check_lease_before_write` it looks at its lease, on its own
//! clock, when it starts that write step (right after the read), and gives up if the lease has run out.
//! But a stop-the-world pause *after* that check, while it computes (or a clock that runs slow), means the
//! write leaves long after the lease is gone; only a resource that checks the fencing token can refuse it.
//!
//! Every operation has a timeout (`op_timeout_ms`); a timed-out operation has an *unknown* outcome: the
//! request may have been applied. On a retry, `idempotency_key` decides whether the retry carries the same
//! key (the service and the resource recognise it and apply it once) or looks like a new request (a
//! retried `Acquire` creates a second lease that nobody keeps alive; a retried write is applied twice).
//! With `idempotency_scope = "batch"` the key names the batch rather than the message, and a batch
//! the worker gives up on (three unanswered tries, a stale token, a lease gone) is not dropped: the
//! next job is the same batch again, from a fresh lock and a fresh read, under the same key. If the
//! first write had landed after all, the store recognises the redo's write by that key. The default
//! (`"message"`) keeps the older behaviour, where a given-up batch is simply dropped.
//!
//! A refused acquire ("not leader") is different: it was not applied, so it goes again with the same id,
//! no sooner than the lock client's back-off window allows, and only a refusal of the one outstanding
//! send counts (see [`crate::protocols::lock_client`]).
//!
//! With a Redis-style backend the worker takes its lock with `SET NX PX` instead; that client side lives
//! in `redis.rs`, speaking the servers' [`KvMessage`]s, including what it does when a `SET NX` goes
//! unanswered (give up at once, or ask again with `SET NX GET` and find out).
//!
//! Files: `access.rs` (reads and writes at the protected resource), `redis.rs` (the Redis-style lock).

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::config::{IdempotencyScope, LockServiceOptions};
use crate::contract::protocol::{
    ActorSummary, Carries, ClientError, ClientOutcome, Effects, Input, Observes, Protocol,
    TimerDelay, TimerKey,
};
use crate::protocols::lock_client::{LockClient, LockReply};
use crate::protocols::lockservice::{LockFact, LockServiceMessage};
use crate::protocols::redlock::{BeliefFact, KvMessage};
use crate::protocols::resource::{AccessKind, ResourceMessage};
use serde::Serialize;

mod access;
pub mod build;
mod redis;

/// What a world's message type must carry for a worker: the lock service's replies, the store's, and
/// (with a Redis-style backend) the key-value servers'; the lock clients' facts and the believers'.
pub trait WorkerWire:
    Carries<LockServiceMessage>
    + Carries<ResourceMessage>
    + Carries<KvMessage>
    + Observes<LockFact>
    + Observes<BeliefFact>
{
}

impl<M> WorkerWire for M where
    M: Carries<LockServiceMessage>
        + Carries<ResourceMessage>
        + Carries<KvMessage>
        + Observes<LockFact>
        + Observes<BeliefFact>
{
}

fn queue_workers(workers: usize) -> u64 {
    workers.max(1) as u64
}

/// The one lock key the workers contend for (the inventory record).
pub const LOCK_KEY: u32 = 0;
const JOB_TIMER: TimerKey = 0;
pub(crate) const OP_TIMER: TimerKey = 1;
const RENEW_TIMER: TimerKey = 2;
const WORK_TIMER: TimerKey = 3;
/// A refused acquire goes again when this fires (`lock_client`'s back-off).
const RESEND_TIMER: TimerKey = 4;
/// Attempts at one resource access before the worker gives the job up.
pub const MAX_ACCESS_ATTEMPTS: u32 = 3;

/// Which kind of lock the worker takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    /// The lock service on Raft: leases, keep-alives, fencing tokens.
    Service,
    /// One Redis-style server: `SET NX PX`, released by compare-and-delete (or a plain `DEL`).
    Redis { unchecked_release: bool },
    /// Redlock over all servers: majority, validity = TTL - elapsed - drift allowance.
    Redlock,
}

/// Where the worker is in its loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Between jobs.
    Idle,
    Acquiring,
    /// The lease exists and waits in the key's queue.
    Waiting,
    Reading,
    /// Holding the value read, computing the new one (`work_ms`).
    Modifying,
    Writing,
    Releasing,
}

/// "I hold the lock, token 34, lease until t (local)".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Belief {
    pub lease: u64,
    pub token: FencingToken,
    pub lease_until_local_us: u64,
}

#[derive(Clone, Debug, Hash)]
pub struct Worker {
    pub id: NodeId,
    pub backend: Backend,
    pub servers: usize,
    pub store: NodeId,
    pub options: LockServiceOptions,
    pub phase: Phase,
    /// Leader guess, current acquire attempt (kept on retries with an idempotency key) and lease.
    pub client: LockClient,
    pub belief: Option<Belief>,
    /// Next id for a request or an access; durable so a restarted worker never reuses one.
    next_id: u64,
    /// The job (intent) in progress and the access message id.
    pub job: u64,
    /// The job started and not yet written (by batch, the next job redoes it).
    unfinished_job: Option<u64>,
    /// Jobs started again after an attempt was given up (by batch only).
    pub jobs_redone: u64,
    op: u64,
    attempts: u32,
    read_value: u64,
    pub jobs_done: u64,
    pub jobs_abandoned: u64,
    pub fenced_off: u64,
    /// Malformed writes the worker was made to send (`Action::MalformedWrite`).
    pub malformed_sent: u64,
    pub lock_requests: u64,
    pub unknown_outcomes: u64,
    /// Work queue: partitions and accounts (`None`: the inventory lesson, one record).
    pub queue: Option<crate::contract::config::QueueOptions>,
    /// Work queue: the account of the job in progress (0 for the inventory).
    pub account: u32,
    /// Redis/Redlock: which servers answered the current `SET NX` and which granted it.
    pub(crate) answered: Vec<bool>,
    pub(crate) granted: Vec<bool>,
    /// Redis/Redlock: retries (`SET NX GET`) already sent for the current attempt.
    pub(crate) set_nx_tries: u32,
    /// Redis/Redlock: attempts whose retry found the key already holding the worker's own value.
    pub found_already_held: u64,
}

impl Worker {
    pub fn new(id: NodeId, servers: usize, store: NodeId, options: LockServiceOptions) -> Worker {
        Worker {
            id,
            backend: Backend::Service,
            servers,
            store,
            options,
            phase: Phase::Idle,
            client: LockClient::new(servers, options.lease_ttl_ms),
            belief: None,
            next_id: 0,
            job: 0,
            unfinished_job: None,
            jobs_redone: 0,
            op: 0,
            attempts: 0,
            read_value: 0,
            jobs_done: 0,
            jobs_abandoned: 0,
            fenced_off: 0,
            malformed_sent: 0,
            lock_requests: 0,
            unknown_outcomes: 0,
            answered: vec![false; servers],
            granted: vec![false; servers],
            set_nx_tries: 0,
            found_already_held: 0,
            queue: None,
            account: 0,
        }
    }

    /// The same worker processing the work queue's jobs.
    pub fn with_queue(mut self, queue: crate::contract::config::QueueOptions) -> Worker {
        self.queue = Some(queue);
        self
    }

    /// Work queue, partitioned: the index of the worker that owns `account` (accounts 1..=N, dealt out
    /// in turn: A owns 1, 5, 9, ... of four workers). With fewer accounts than a multiple of the
    /// workers the last ones are also drawn by others ([`Worker::account_of`] wraps around): the
    /// partitions overlap, which the checker *Partition Ownership* reports.
    pub fn owner_of(account: u32, workers: u64) -> u64 {
        u64::from(account.saturating_sub(1)) % workers.max(1)
    }

    /// Work queue: the account of job number `job` of worker `index` of `workers`. Partitioned, a
    /// worker draws only from the accounts it owns (those whose [`Worker::owner_of`] is `index`);
    /// under the global lock, from all of them.
    pub fn account_of(
        queue: &crate::contract::config::QueueOptions,
        index: u64,
        workers: u64,
        job: u64,
    ) -> u32 {
        let mut mixed = job.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index.rotate_left(17);
        mixed ^= mixed >> 29;
        let accounts = queue.accounts as u64;
        if queue.partitioned {
            let owned = accounts.div_ceil(workers).max(1);
            let slot = mixed % owned;
            let account = (slot * workers + index) % accounts;
            account as u32 + 1
        } else {
            (mixed % accounts) as u32 + 1
        }
    }

    fn worker_index(&self) -> u64 {
        (self.id.index() - self.servers) as u64
    }

    /// A worker built from this one's configuration alone, as it is before its first job.
    fn configured(&self) -> Worker {
        let fresh =
            Worker::new(self.id, self.servers, self.store, self.options).with_backend(self.backend);
        match self.queue {
            Some(queue) => fresh.with_queue(queue),
            None => fresh,
        }
    }

    /// The same worker taking a Redis-style lock instead of the lock service's.
    pub fn with_backend(mut self, backend: Backend) -> Worker {
        self.backend = backend;
        self
    }

    pub(crate) fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub(crate) fn op_timer<M: WorkerWire>(&self, effects: &mut Effects<M>) {
        let local_us = self.options.op_timeout_ms * 1_000;
        effects.set_timer(
            OP_TIMER,
            TimerDelay::Exactly { local_us },
            "operation timeout",
        );
    }

    fn schedule_job<M: WorkerWire>(&self, effects: &mut Effects<M>) {
        let think_us = self.options.think_ms * 1_000;
        let delay = TimerDelay::Between {
            min_local_us: think_us / 2,
            max_local_us: think_us + think_us / 2,
        };
        effects.set_timer(JOB_TIMER, delay, "next job");
    }

    fn send_acquire<M: WorkerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.lock_requests += 1;
        effects.observe(LockFact::LockRequested { key: LOCK_KEY });
        if self.backend != Backend::Service {
            self.client.acquire_sent_local_us = now_us;
            self.send_set_nx(effects);
            return;
        }
        let lock = (LOCK_KEY, self.options.lease_ttl_ms);
        let idempotent = self.options.idempotency_key;
        self.client.send_acquire(now_us, effects, lock, idempotent);
        self.op_timer(effects);
    }

    fn start_job<M: WorkerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.phase = Phase::Acquiring;
        let request = self.fresh_id();
        self.client.begin_acquire(request);
        let fresh_job = (self.id.0 as u64) << 40 | self.fresh_id();
        self.job = match (self.options.idempotency_scope, self.unfinished_job) {
            (IdempotencyScope::Batch, Some(unfinished)) => {
                self.jobs_redone += 1;
                unfinished
            }
            _ => fresh_job,
        };
        self.unfinished_job = Some(self.job);
        if let Some(queue) = self.queue {
            let workers = queue_workers(self.options.workers);
            self.account = Worker::account_of(&queue, self.worker_index(), workers, self.job);
            if queue.partitioned {
                // The account is ours alone: no lock, no token.
                self.client.lease = None;
                self.client.lease_until_local_us = u64::MAX;
                self.belief = Some(Belief {
                    lease: 0,
                    token: FencingToken::ZERO,
                    lease_until_local_us: u64::MAX,
                });
                self.phase = Phase::Reading;
                self.attempts = 0;
                self.op = self.fresh_id();
                self.send_access(AccessKind::Read, effects);
                return;
            }
        }
        self.send_acquire(now_us, effects);
    }

    /// Back to idle: forget the lease and the belief, plan the next job.
    pub(crate) fn finish<M: WorkerWire>(&mut self, effects: &mut Effects<M>) {
        if let (Backend::Redis { .. } | Backend::Redlock, Some(belief)) =
            (self.backend, self.belief)
        {
            effects.observe(BeliefFact::LockBeliefEnded { hold: belief.lease });
        }
        self.phase = Phase::Idle;
        self.client.lease = None;
        self.belief = None;
        effects.cancel_timer(OP_TIMER);
        effects.cancel_timer(RENEW_TIMER);
        effects.cancel_timer(WORK_TIMER);
        effects.cancel_timer(RESEND_TIMER);
        self.schedule_job(effects);
    }

    fn abandon<M: WorkerWire>(&mut self, effects: &mut Effects<M>) {
        self.jobs_abandoned += 1;
        if self.backend != Backend::Service {
            if let Some(value) = self.client.lease {
                self.send_delete(value, effects);
            }
            self.finish(effects);
            return;
        }
        if let Some(lease) = self.client.lease {
            let request = self.fresh_id();
            self.client.send_release(effects, LOCK_KEY, lease, request);
        }
        self.finish(effects);
    }

    fn renew_timer<M: WorkerWire>(&self, effects: &mut Effects<M>) {
        let local_us = self.options.renew_ms * 1_000;
        effects.set_timer(
            RENEW_TIMER,
            TimerDelay::Exactly { local_us },
            "lease renewal",
        );
    }

    /// The inventory counts down; a work-queue job adds one to its account's balance.
    fn new_value(&self) -> u64 {
        match self.queue {
            Some(_) => self.read_value + 1,
            None => self.read_value.saturating_sub(1),
        }
    }

    fn lease_holds(&self, now_us: u64) -> bool {
        now_us < self.client.lease_until_local_us
    }

    pub(crate) fn on_acquired<M: WorkerWire>(
        &mut self,
        lease: u64,
        token: FencingToken,
        effects: &mut Effects<M>,
    ) {
        self.client.lease = Some(lease);
        self.belief = Some(Belief {
            lease,
            token,
            lease_until_local_us: self.client.lease_until_local_us,
        });
        if self.backend == Backend::Service {
            self.renew_timer(effects);
        }
        self.phase = Phase::Reading;
        self.attempts = 0;
        self.op = self.fresh_id();
        self.send_access(AccessKind::Read, effects);
    }

    fn on_message<M: WorkerWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &M,
        effects: &mut Effects<M>,
    ) {
        if let Some(message) = Carries::<LockServiceMessage>::peel(message) {
            self.on_lock_message(now_us, from, message, effects);
        } else if let Some(ResourceMessage::AccessReply { op, result }) =
            Carries::<ResourceMessage>::peel(message)
        {
            self.on_access_reply(now_us, *op, *result, effects);
        } else if let Some(message) = Carries::<KvMessage>::peel(message) {
            self.on_kv_message(now_us, from, message, effects);
        }
    }

    fn on_lock_message<M: WorkerWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &LockServiceMessage,
        effects: &mut Effects<M>,
    ) {
        let acquiring = self.phase == Phase::Acquiring;
        if let Some(reply) = self.client.on_reply(now_us, from, message, acquiring) {
            self.on_lock_reply(now_us, reply, effects);
            return;
        }
        if let LockServiceMessage::ReleaseReply { .. } = message {
            if self.phase == Phase::Releasing {
                self.finish(effects);
            }
        }
    }

    /// What the lock service's answer means for the job loop.
    fn on_lock_reply<M: WorkerWire>(
        &mut self,
        now_us: u64,
        reply: LockReply,
        effects: &mut Effects<M>,
    ) {
        match reply {
            LockReply::Ignored => {}
            // Refused outright: the request was not applied, so the same id is safe to resend, now or
            // after the back-off (no answer is awaited meanwhile, so no operation timeout either).
            LockReply::Resend => self.send_acquire(now_us, effects),
            LockReply::BackOff { delay } => {
                effects.cancel_timer(OP_TIMER);
                effects.set_timer(RESEND_TIMER, delay, "resend after back-off");
            }
            LockReply::Acquired { .. } | LockReply::Queued { .. } => {
                // An earlier send's answer may come while a refused later one backs off.
                effects.cancel_timer(RESEND_TIMER);
                self.client.lease_until_local_us = self
                    .client
                    .acquire_sent_local_us
                    .saturating_add(self.options.lease_ttl_ms * 1_000);
                match reply {
                    LockReply::Acquired { lease, token } => self.on_acquired(lease, token, effects),
                    LockReply::Queued { lease } => {
                        self.phase = Phase::Waiting;
                        self.client.lease = Some(lease);
                        effects.cancel_timer(OP_TIMER);
                        self.renew_timer(effects);
                    }
                    _ => {}
                }
            }
            LockReply::Granted { lease, token } => {
                if self.phase == Phase::Waiting && self.client.lease == Some(lease) {
                    self.on_acquired(lease, token, effects);
                } else if self.client.lease != Some(lease) {
                    // A lease from an earlier attempt whose answer never arrived: give it back.
                    let request = self.fresh_id();
                    self.client.send_release(effects, LOCK_KEY, lease, request);
                }
            }
            LockReply::Expired => self.abandon(effects),
            LockReply::Renewed { lease, token } => {
                if let Some(belief) = self.belief.as_mut() {
                    belief.lease_until_local_us = self.client.lease_until_local_us;
                }
                if let (Phase::Waiting, Some(token)) = (self.phase, token) {
                    self.on_acquired(lease, token, effects);
                }
            }
        }
    }

    fn release<M: WorkerWire>(&mut self, _now_us: u64, effects: &mut Effects<M>) {
        let Some(lease) = self.client.lease else {
            self.finish(effects);
            return;
        };
        if self.backend != Backend::Service {
            // Fire and forget: the key expires anyway if a delete is lost.
            self.send_delete(lease, effects);
            self.finish(effects);
            return;
        }
        self.phase = Phase::Releasing;
        self.belief = None;
        let request = self.fresh_id();
        self.client.send_release(effects, LOCK_KEY, lease, request);
        self.op_timer(effects);
    }

    /// The write leaves now, whatever happened since the lease was checked (a pause goes unnoticed).
    fn on_work_done<M: WorkerWire>(&mut self, effects: &mut Effects<M>) {
        if self.phase != Phase::Modifying {
            return;
        }
        self.phase = Phase::Writing;
        self.attempts = 0;
        self.op = self.fresh_id();
        let value = self.new_value();
        self.send_access(AccessKind::Write { value }, effects);
    }

    fn on_op_timeout<M: WorkerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.unknown_outcomes += 1;
        match self.phase {
            Phase::Acquiring if self.backend != Backend::Service => self.on_set_nx_timeout(effects),
            Phase::Acquiring => {
                self.client.try_next_server();
                if !self.options.idempotency_key {
                    self.client.request = self.fresh_id();
                }
                self.send_acquire(now_us, effects);
            }
            Phase::Reading | Phase::Writing if self.attempts < MAX_ACCESS_ATTEMPTS => {
                if !self.options.idempotency_key {
                    self.op = self.fresh_id();
                }
                let kind = match self.phase {
                    Phase::Reading => AccessKind::Read,
                    _ => AccessKind::Write {
                        value: self.new_value(),
                    },
                };
                self.send_access(kind, effects);
            }
            Phase::Reading | Phase::Writing => self.abandon(effects),
            Phase::Releasing => self.finish(effects),
            Phase::Idle | Phase::Waiting | Phase::Modifying => {}
        }
    }

    fn on_renew<M: WorkerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        if self.client.send_keep_alive(now_us, effects) {
            self.renew_timer(effects);
        }
    }
}

impl<M: WorkerWire> Protocol<M> for Worker {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Start | Input::Recover => self.schedule_job(effects),
            Input::Message { from, message } => {
                self.on_message(local_now_us, from, message, effects)
            }
            Input::Timer { key: JOB_TIMER } => {
                if self.phase == Phase::Idle {
                    self.start_job(local_now_us, effects);
                }
            }
            Input::Timer { key: OP_TIMER } => self.on_op_timeout(local_now_us, effects),
            Input::Timer { key: RENEW_TIMER } => self.on_renew(local_now_us, effects),
            Input::Timer { key: WORK_TIMER } => self.on_work_done(effects),
            Input::Timer { key: RESEND_TIMER } => {
                if self.phase == Phase::Acquiring {
                    self.send_acquire(local_now_us, effects);
                }
            }
            Input::Timer { .. } => {}
            Input::Client { request_id, .. } => {
                let error = ClientError::NotLeader { leader_hint: None };
                effects.reply(request_id, ClientOutcome::Rejected(error));
            }
        }
    }

    /// A worker keeps its configuration (a restarted process reads its config again: the backend, and
    /// in the work queue its queue and partition), its id counter (so it never reuses a request id),
    /// the batch it had not finished (batches come from a durable queue; only by batch is it redone)
    /// and its tallies; everything else was volatile.
    fn crash(&mut self) {
        let fresh = self.configured();
        *self = Worker {
            next_id: self.next_id,
            jobs_done: self.jobs_done,
            jobs_abandoned: self.jobs_abandoned,
            unfinished_job: self.unfinished_job,
            jobs_redone: self.jobs_redone,
            fenced_off: self.fenced_off,
            lock_requests: self.lock_requests,
            unknown_outcomes: self.unknown_outcomes,
            found_already_held: self.found_already_held,
            ..fresh
        };
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
