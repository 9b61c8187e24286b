//! The worker's side of the protected resource: one read or write carrying the token it believes it
//! holds, and what the answer means for the job (a stale token means the lock is gone).

use super::{Phase, Worker, WorkerWire, OP_TIMER, WORK_TIMER};
use crate::base::units::FencingToken;
use crate::contract::action::MalformedFault;
use crate::contract::protocol::{Effects, TimerDelay};
use crate::protocols::resource::{AccessKind, RawWrite, ResourceError, ResourceMessage};

impl Worker {
    pub(super) fn send_access<M: WorkerWire>(
        &mut self,
        kind: AccessKind,
        effects: &mut Effects<M>,
    ) {
        let Some(belief) = self.belief else {
            return;
        };
        self.attempts += 1;
        let access = ResourceMessage::Access {
            kind,
            token: belief.token,
            op: self.op,
            idempotent: self.options.idempotency_key,
            intent: self.job,
            account: self.account,
        };
        effects.send(self.store, access);
        self.op_timer(effects);
    }

    /// Sends the store a write with the bug `fault`, beside whatever the worker is doing: the write
    /// it would make now (its token, one less than the count it read), spoiled. It goes under a
    /// fresh message id, so the answer matches nothing the job waits for and the job carries on.
    pub fn send_malformed_write<M: WorkerWire>(
        &mut self,
        fault: MalformedFault,
        effects: &mut Effects<M>,
    ) {
        let token = self
            .belief
            .map_or(FencingToken::ZERO, |belief| belief.token);
        let write = RawWrite::with_fault(fault, token, self.new_value());
        let op = self.fresh_id();
        self.malformed_sent += 1;
        effects.send(self.store, ResourceMessage::RawWrite { op, write });
    }

    pub(super) fn on_access_reply<M: WorkerWire>(
        &mut self,
        now_us: u64,
        op: u64,
        result: Result<u64, ResourceError>,
        effects: &mut Effects<M>,
    ) {
        if op != self.op || !matches!(self.phase, Phase::Reading | Phase::Writing) {
            return;
        }
        effects.cancel_timer(OP_TIMER);
        let value = match result {
            Ok(value) => value,
            Err(ResourceError::StaleToken { .. }) => {
                // Fenced off: someone with a newer token has been there. The lock is gone.
                self.fenced_off += 1;
                self.client.lease = None;
                self.abandon(effects);
                return;
            }
            // The job's own accesses are typed and always read; an answer like this belongs to a
            // malformed write, whose id never matches the job's, so it stops at the check above.
            Err(ResourceError::Malformed(_)) => return,
        };
        match self.phase {
            Phase::Reading => {
                if self.options.check_lease_before_write && !self.lease_holds(now_us) {
                    self.abandon(effects);
                    return;
                }
                self.read_value = value;
                self.phase = Phase::Modifying;
                let local_us = self.options.work_ms * 1_000;
                effects.set_timer(WORK_TIMER, TimerDelay::Exactly { local_us }, "modify");
            }
            _ => {
                self.jobs_done += 1;
                self.unfinished_job = None;
                self.release(now_us, effects);
            }
        }
    }
}
