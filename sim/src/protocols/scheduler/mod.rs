//! The singleton job: an invoice scheduler run as several instances, where each simulated minute's
//! invoices must be generated exactly once.
//!
//! Every instance has a timer that fires once per "minute" on its own clock and decides whether to
//! generate the invoices of the minute its clock shows. Four ways to decide (`SchedulerMode`):
//!
//! - **none**: every instance generates. Each minute is invoiced once per instance: duplicates.
//! - **lock every run**: each run takes the lock from the lock service, asks the invoice store to
//!   generate "if absent" (the check and the write are one step at the store), and releases. Correct while
//!   the lock works, and every instance pays a lock round trip every minute: the contention cost.
//! - **leader election**: the instances campaign for one long-lived lease on the lock service (a lock held
//!   with keep-alives). Only the instance that believes it holds it generates: it checks its lease at the
//!   top of the minute, then spends `work_ms` generating, and writes the invoices of the minute its clock
//!   shows when it is done. When the leader dies, its
//!   lease must expire before another takes over: minutes in that *failover gap* may be missed. And a
//!   leader paused past its lease wakes up still believing it leads: it and the new leader both generate.
//! - **leader election + fencing**: the same, and every invoice carries the leader's fencing token; the
//!   invoice store refuses a token below the highest it has seen, so the old leader's late run is refused.
//!   Fencing orders the writers but cannot tell the store that a minute was already done: if the old
//!   leader's stale run lands *before* the new leader's first write, both are accepted (the seed sweep
//!   found this). So in this mode the leader also writes "if absent": the token keeps stale leaders out,
//!   the minute as idempotency key keeps each minute single.
//!
//! An instance takes its lock through the shared [`LockClient`]: a refused acquire goes again after its
//! back-off, and duplicated refusals start no second resend (see [`crate::protocols::lock_client`]).
//!
//! The store records who generated each minute; the checker *No Duplicate Invoice* fires when a minute is
//! invoiced twice, and the report counts generated invoices, duplicates and missed minutes.

pub mod checkpoints;
pub mod describe;
pub mod entry;
pub mod fact;
pub mod guard;
pub mod message;
pub mod options;
pub mod parts;
pub mod variations;
pub mod view;

pub use fact::SchedulerFact;
pub use message::InvoiceMessage;

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::config::{LockServiceOptions, SchedulerMode, SchedulerOptions};
use crate::contract::protocol::{
    ActorSummary, Carries, ClientError, ClientOutcome, Effects, Input, Observes, Protocol,
    TimerDelay, TimerKey,
};
use crate::contract::roles::{JobGuardRule, RoleSlot};
use crate::protocols::lock_client::{LockClient, LockReply};
use crate::protocols::lockservice::{LockFact, LockServiceMessage};
use guard::PendingGuard;
use serde::Serialize;

/// What a world's message type must carry for a scheduler instance: the lock service's replies and the
/// invoice store's; the lock clients' facts and its own.
pub trait SchedulerWire:
    Carries<LockServiceMessage> + Carries<InvoiceMessage> + Observes<LockFact> + Observes<SchedulerFact>
{
}

impl<M> SchedulerWire for M where
    M: Carries<LockServiceMessage>
        + Carries<InvoiceMessage>
        + Observes<LockFact>
        + Observes<SchedulerFact>
{
}

/// The lock key the instances share (leadership or the per-run lock).
pub const SCHEDULER_KEY: u32 = 1;
const MINUTE_TIMER: TimerKey = 0;
const OP_TIMER: TimerKey = 1;
const RENEW_TIMER: TimerKey = 2;
const GENERATE_TIMER: TimerKey = 3;
/// A refused acquire goes again when this fires (`lock_client`'s back-off).
const RESEND_TIMER: TimerKey = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LockState {
    None,
    Acquiring,
    Waiting,
    Held,
    Releasing,
}

#[derive(Clone, Debug, Hash)]
pub struct SchedulerInstance {
    pub id: NodeId,
    pub servers: usize,
    pub store: NodeId,
    pub locks: LockServiceOptions,
    pub options: SchedulerOptions,
    pub lock: LockState,
    /// Leader guess, current acquire attempt, lease and how long it lasts on this instance's clock.
    pub client: LockClient,
    pub token: FencingToken,
    next_id: u64,
    /// Lock every run: the minute waiting for the lock. Leader modes: the minute being generated.
    pending_minute: Option<u64>,
    /// Minutes this instance generated invoices for (the store may have refused some).
    pub runs: u64,
    pub lock_round_trips: u64,
    /// A learner's guard in place of ours (`guard.rs`); empty unless the lab set it.
    pub job_guard: RoleSlot<dyn JobGuardRule>,
    /// The learner's guard's answer for the run in progress.
    guarded: PendingGuard,
}

impl SchedulerInstance {
    pub fn new(
        id: NodeId,
        servers: usize,
        store: NodeId,
        locks: LockServiceOptions,
        options: SchedulerOptions,
    ) -> SchedulerInstance {
        SchedulerInstance {
            id,
            servers,
            store,
            locks,
            options,
            lock: LockState::None,
            client: LockClient::new(servers, locks.lease_ttl_ms),
            token: FencingToken::ZERO,
            next_id: 0,
            pending_minute: None,
            runs: 0,
            lock_round_trips: 0,
            job_guard: RoleSlot::EMPTY,
            guarded: PendingGuard::default(),
        }
    }

    /// Believes it leads (leader modes): holds the lease and its lease has not run out on its clock.
    pub fn believes_it_leads(&self, now_us: u64) -> bool {
        self.lock == LockState::Held && now_us < self.client.lease_until_local_us
    }

    fn leader_mode(&self) -> bool {
        matches!(
            self.options.mode,
            SchedulerMode::LeaderElection | SchedulerMode::LeaderFencing
        )
    }

    fn set<M: SchedulerWire>(
        &self,
        effects: &mut Effects<M>,
        key: TimerKey,
        ms: u64,
        label: &'static str,
    ) {
        effects.set_timer(
            key,
            TimerDelay::Exactly {
                local_us: ms * 1_000,
            },
            label,
        );
    }

    fn minute_timer<M: SchedulerWire>(&self, now_us: u64, effects: &mut Effects<M>) {
        // Fire at the start of the next minute on this instance's clock.
        let minute_us = self.options.minute_ms * 1_000;
        let next_us = (now_us / minute_us + 1) * minute_us;
        let local_us = next_us - now_us;
        effects.set_timer(
            MINUTE_TIMER,
            TimerDelay::Exactly { local_us },
            "next minute",
        );
    }

    fn acquire<M: SchedulerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.next_id += 1;
        self.client.begin_acquire(self.next_id);
        self.lock = LockState::Acquiring;
        self.send_acquire(now_us, effects);
    }

    fn send_acquire<M: SchedulerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.lock_round_trips += 1;
        effects.observe(LockFact::LockRequested { key: SCHEDULER_KEY });
        let lock = (SCHEDULER_KEY, self.locks.lease_ttl_ms);
        self.client.send_acquire(now_us, effects, lock, true);
        self.set(
            effects,
            OP_TIMER,
            self.locks.op_timeout_ms,
            "operation timeout",
        );
    }

    fn lose_lock<M: SchedulerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        let led = self.leader_mode() && self.lock == LockState::Held;
        self.lock = LockState::None;
        self.client.lease = None;
        effects.cancel_timer(RENEW_TIMER);
        effects.cancel_timer(OP_TIMER);
        effects.cancel_timer(RESEND_TIMER);
        if led {
            effects.observe(SchedulerFact::SchedulerLeader { leads: false });
        }
        if self.leader_mode() {
            // Campaign again.
            self.acquire(now_us, effects);
        }
    }

    fn on_minute<M: SchedulerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        self.minute_timer(now_us, effects);
        let minute = now_us / (self.options.minute_ms * 1_000);
        match self.options.mode {
            SchedulerMode::None => self.generate(minute, false, effects),
            SchedulerMode::LockEveryRun => {
                if self.lock == LockState::None {
                    self.pending_minute = Some(minute);
                    self.acquire(now_us, effects);
                }
            }
            SchedulerMode::LeaderElection | SchedulerMode::LeaderFencing
                if self.job_guard.0.is_some() =>
            {
                self.guard_minute(minute, now_us, effects)
            }
            SchedulerMode::LeaderElection | SchedulerMode::LeaderFencing => {
                // The lease is checked here; generating takes `work_ms`, and a pause in between goes
                // unnoticed (the invoices leave when it ends).
                if self.believes_it_leads(now_us) {
                    self.pending_minute = Some(minute);
                    self.set(effects, GENERATE_TIMER, self.locks.work_ms, "generating");
                }
            }
        }
    }

    /// The learner's guard decides whether this minute runs, and what its write will carry.
    fn guard_minute<M: SchedulerWire>(
        &mut self,
        minute: u64,
        now_us: u64,
        effects: &mut Effects<M>,
    ) {
        let Some(guard) = self.job_guard.get() else {
            return;
        };
        let decision = guard.guard(&self.guard_input(minute, now_us));
        if decision.run {
            self.pending_minute = Some(minute);
            self.guarded = PendingGuard(Some(decision));
            self.set(effects, GENERATE_TIMER, self.locks.work_ms, "generating");
        }
    }

    fn generate<M: SchedulerWire>(
        &mut self,
        minute: u64,
        if_absent: bool,
        effects: &mut Effects<M>,
    ) {
        self.generate_carrying(minute, (self.token, if_absent), effects);
    }

    fn generate_carrying<M: SchedulerWire>(
        &mut self,
        minute: u64,
        (token, if_absent): (FencingToken, bool),
        effects: &mut Effects<M>,
    ) {
        self.runs += 1;
        self.next_id += 1;
        let invoice = InvoiceMessage::Invoice {
            minute,
            token,
            if_absent,
            run: self.next_id,
        };
        effects.send(self.store, invoice);
    }

    fn on_granted<M: SchedulerWire>(
        &mut self,
        now_us: u64,
        lease: u64,
        token: FencingToken,
        effects: &mut Effects<M>,
    ) {
        self.lock = LockState::Held;
        self.client.lease = Some(lease);
        self.token = token;
        self.client.lease_until_local_us = self
            .client
            .acquire_sent_local_us
            .saturating_add(self.locks.lease_ttl_ms * 1_000);
        effects.cancel_timer(OP_TIMER);
        effects.cancel_timer(RESEND_TIMER);
        self.set(effects, RENEW_TIMER, self.locks.renew_ms, "lease renewal");
        if self.leader_mode() {
            effects.observe(SchedulerFact::SchedulerLeader { leads: true });
            return;
        }
        if let Some(minute) = self.pending_minute.take() {
            self.generate(minute, true, effects);
            // Release as soon as the store answers (see `InvoiceReply`).
            let _ = now_us;
        }
    }

    fn release<M: SchedulerWire>(&mut self, effects: &mut Effects<M>) {
        let Some(lease) = self.client.lease else {
            self.lock = LockState::None;
            return;
        };
        self.lock = LockState::Releasing;
        self.next_id += 1;
        self.client
            .send_release(effects, SCHEDULER_KEY, lease, self.next_id);
        effects.cancel_timer(RENEW_TIMER);
        self.set(
            effects,
            OP_TIMER,
            self.locks.op_timeout_ms,
            "operation timeout",
        );
    }

    fn on_message<M: SchedulerWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &M,
        effects: &mut Effects<M>,
    ) {
        if let Some(message) = Carries::<LockServiceMessage>::peel(message) {
            self.on_lock_message(now_us, from, message, effects);
        } else if let Some(InvoiceMessage::InvoiceReply { refused, .. }) =
            Carries::<InvoiceMessage>::peel(message)
        {
            if self.options.mode == SchedulerMode::LockEveryRun && self.lock == LockState::Held {
                self.release(effects);
            }
            if self.leader_mode() && *refused {
                // Fenced off: a newer leader exists.
                self.lose_lock(now_us, effects);
            }
        }
    }

    fn on_lock_message<M: SchedulerWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &LockServiceMessage,
        effects: &mut Effects<M>,
    ) {
        let acquiring = self.lock == LockState::Acquiring;
        if let Some(reply) = self.client.on_reply(now_us, from, message, acquiring) {
            self.on_lock_reply(now_us, reply, effects);
            return;
        }
        if let LockServiceMessage::ReleaseReply { .. } = message {
            if self.lock == LockState::Releasing {
                self.lock = LockState::None;
                self.client.lease = None;
                effects.cancel_timer(OP_TIMER);
            }
        }
    }

    /// What the lock service's answer means for this instance: leading, or waiting to.
    fn on_lock_reply<M: SchedulerWire>(
        &mut self,
        now_us: u64,
        reply: LockReply,
        effects: &mut Effects<M>,
    ) {
        match reply {
            LockReply::Ignored => {}
            // Not applied: the same id goes again, now or after the back-off (awaiting no answer).
            LockReply::Resend => self.send_acquire(now_us, effects),
            LockReply::BackOff { delay } => {
                effects.cancel_timer(OP_TIMER);
                effects.set_timer(RESEND_TIMER, delay, "resend after back-off");
            }
            LockReply::Acquired { lease, token } => self.on_granted(now_us, lease, token, effects),
            LockReply::Queued { lease } => {
                self.lock = LockState::Waiting;
                self.client.lease = Some(lease);
                effects.cancel_timer(OP_TIMER);
                effects.cancel_timer(RESEND_TIMER);
                self.set(effects, RENEW_TIMER, self.locks.renew_ms, "lease renewal");
            }
            LockReply::Granted { lease, token } => {
                if self.lock == LockState::Waiting && self.client.lease == Some(lease) {
                    self.on_granted(now_us, lease, token, effects);
                }
            }
            LockReply::Expired => self.lose_lock(now_us, effects),
            LockReply::Renewed { lease, token } => {
                if let (LockState::Waiting, Some(token)) = (self.lock, token) {
                    self.on_granted(now_us, lease, token, effects);
                }
            }
        }
    }

    fn on_op_timeout<M: SchedulerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        match self.lock {
            LockState::Acquiring => {
                self.client.try_next_server();
                self.send_acquire(now_us, effects);
            }
            LockState::Releasing => {
                self.lock = LockState::None;
                self.client.lease = None;
            }
            LockState::Held if self.options.mode == SchedulerMode::LockEveryRun => {
                self.release(effects)
            }
            _ => {}
        }
    }

    fn on_renew<M: SchedulerWire>(&mut self, now_us: u64, effects: &mut Effects<M>) {
        if self.client.send_keep_alive(now_us, effects) {
            self.set(effects, RENEW_TIMER, self.locks.renew_ms, "lease renewal");
        }
    }
}

impl<M: SchedulerWire> Protocol<M> for SchedulerInstance {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Start | Input::Recover => {
                self.minute_timer(local_now_us, effects);
                if self.leader_mode() {
                    self.acquire(local_now_us, effects);
                }
            }
            Input::Message { from, message } => {
                self.on_message(local_now_us, from, message, effects)
            }
            Input::Timer { key: MINUTE_TIMER } => self.on_minute(local_now_us, effects),
            Input::Timer { key: OP_TIMER } => self.on_op_timeout(local_now_us, effects),
            Input::Timer { key: RENEW_TIMER } => self.on_renew(local_now_us, effects),
            Input::Timer { key: RESEND_TIMER } => {
                if self.lock == LockState::Acquiring {
                    self.send_acquire(local_now_us, effects);
                }
            }
            Input::Timer {
                key: GENERATE_TIMER,
            } => {
                // The run invoices the minute its clock shows when it writes.
                if self.pending_minute.take().is_some() {
                    let minute = local_now_us / (self.options.minute_ms * 1_000);
                    if let Some(decision) = self.guarded.0.take() {
                        let carried = (FencingToken(decision.token), decision.if_absent);
                        self.generate_carrying(minute, carried, effects);
                    } else {
                        let if_absent = self.options.mode == SchedulerMode::LeaderFencing;
                        self.generate(minute, if_absent, effects);
                    }
                }
            }
            Input::Timer { .. } => {}
            Input::Client { request_id, .. } => {
                let error = ClientError::NotLeader { leader_hint: None };
                effects.reply(request_id, ClientOutcome::Rejected(error));
            }
        }
    }

    /// Keeps only its id counter and tallies.
    fn crash(&mut self) {
        let fresh =
            SchedulerInstance::new(self.id, self.servers, self.store, self.locks, self.options);
        *self = SchedulerInstance {
            next_id: self.next_id,
            runs: self.runs,
            lock_round_trips: self.lock_round_trips,
            job_guard: self.job_guard.clone(),
            ..fresh
        };
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
