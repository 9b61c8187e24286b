//! The client side of the Redis-style locks (the servers are in `crate::protocols::redlock`): a worker
//! with a Redis or Redlock backend sends `SET NX PX` with a fresh random-looking value to every server
//! (one for a single instance), holds the lock once a majority granted it, and believes it for the
//! validity left: the TTL, less the time the round took, less Redlock's drift allowance. It lets go with
//! a compare-and-delete (or, configured unsafely, a plain `DEL` that may remove someone else's lock).
//!
//! These are methods of [`Worker`]: the job loop (read, modify, write) is the same whichever lock it
//! holds, and only taking and giving back the lock differ.

use super::{Backend, Phase, Worker, WorkerWire, LOCK_KEY, OP_TIMER};
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::protocol::Effects;
use crate::protocols::redlock::{BeliefFact, KvMessage};

impl Worker {
    /// Redis/Redlock: `SET NX PX` to every server (one for a single instance), with a fresh value.
    pub(crate) fn send_set_nx<M: WorkerWire>(&mut self, effects: &mut Effects<M>) {
        self.client.request = (self.id.0 as u64) << 32 | self.fresh_id();
        self.answered
            .iter_mut()
            .for_each(|answered| *answered = false);
        self.granted.iter_mut().for_each(|granted| *granted = false);
        for server in 0..self.servers {
            let message = KvMessage::SetNx {
                key: LOCK_KEY,
                value: self.client.request,
                px_ms: self.options.lease_ttl_ms,
            };
            effects.send(NodeId(server as u16), message);
        }
        self.op_timer(effects);
    }

    /// Redis/Redlock: delete our value everywhere (compare-and-delete unless configured otherwise).
    pub(crate) fn send_delete<M: WorkerWire>(&mut self, value: u64, effects: &mut Effects<M>) {
        self.send_delete_where(value, |_| true, effects);
    }

    /// Deletes on the servers `target` picks (after a failed attempt: only where ours may be set).
    pub(crate) fn send_delete_where<M: WorkerWire>(
        &mut self,
        value: u64,
        target: impl Fn(usize) -> bool,
        effects: &mut Effects<M>,
    ) {
        let checked = !matches!(
            self.backend,
            Backend::Redis {
                unchecked_release: true
            }
        );
        for server in (0..self.servers).filter(|server| target(*server)) {
            let message = KvMessage::Del {
                key: LOCK_KEY,
                value,
                checked,
            };
            effects.send(NodeId(server as u16), message);
        }
    }

    pub(crate) fn on_set_nx_reply<M: WorkerWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        value: u64,
        ok: bool,
        effects: &mut Effects<M>,
    ) {
        if self.phase != Phase::Acquiring
            || value != self.client.request
            || from.index() >= self.servers
        {
            return;
        }
        self.answered[from.index()] = true;
        self.granted[from.index()] = ok;
        let granted = self.granted.iter().filter(|granted| **granted).count();
        let answered = self.answered.iter().filter(|answered| **answered).count();
        let majority = self.servers / 2 + 1;
        if granted >= majority {
            let elapsed_us = now_us.saturating_sub(self.client.acquire_sent_local_us);
            let drift_us = match self.backend {
                Backend::Redlock => self.options.drift_allowance_ms * 1_000,
                _ => 0,
            };
            let validity_us = (self.options.lease_ttl_ms * 1_000)
                .saturating_sub(elapsed_us)
                .saturating_sub(drift_us);
            if validity_us > 0 {
                self.client.lease_until_local_us = now_us + validity_us;
                effects.observe(BeliefFact::LockBelief {
                    hold: value,
                    valid_for_local_us: validity_us,
                });
                effects.cancel_timer(OP_TIMER);
                // No fencing token in Redis: the unique value stands in for one.
                self.on_acquired(value, FencingToken(value), effects);
                return;
            }
        }
        if answered == self.servers || self.servers - answered + granted < majority {
            // No majority possible: give back what we got and try again after a pause.
            let granted = self.granted.clone();
            self.send_delete_where(value, |server| granted[server], effects);
            self.finish(effects);
        }
    }
}
