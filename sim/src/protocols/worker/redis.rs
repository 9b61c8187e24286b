//! The client side of the Redis-style locks (the servers are in `crate::protocols::redlock`): a worker
//! with a Redis or Redlock backend sends `SET NX PX` with a fresh random-looking value to every server
//! (one for a single instance), holds the lock once a majority granted it, and believes it for the
//! validity left: the TTL, less the time the round took, less Redlock's drift allowance. It lets go with
//! a compare-and-delete (or, configured unsafely, a plain `DEL` that may remove someone else's lock).
//!
//! A `SET NX` that goes unanswered has an unknown outcome. By default the worker gives the attempt up
//! at once, with a compare-and-delete wherever its value may be set. With `set_nx_retries` it first
//! asks again, up to that many times, with `SET NX GET` and the same value: an answer naming its own
//! value means the first attempt landed and only its reply was lost, so the worker holds the lock after
//! all. Its validity still counts from the first send, because the key's time to live started no
//! earlier than that and the retry did not renew it.
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
        self.set_nx_tries = 0;
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

    /// A key-value server's answer to this worker.
    pub(crate) fn on_kv_message<M: WorkerWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &KvMessage,
        effects: &mut Effects<M>,
    ) {
        let (value, answer) = match *message {
            KvMessage::SetNxReply {
                value, ok: true, ..
            } => (value, SetNxAnswer::Set),
            KvMessage::SetNxReply { value, .. } => (value, SetNxAnswer::Refused),
            KvMessage::SetNxGetReply {
                value, ok: true, ..
            } => (value, SetNxAnswer::Set),
            KvMessage::SetNxGetReply { value, held, .. } if held == Some(value) => {
                (value, SetNxAnswer::AlreadyMine)
            }
            KvMessage::SetNxGetReply { value, .. } => (value, SetNxAnswer::Refused),
            _ => return,
        };
        self.on_set_nx_reply(now_us, from, value, answer, effects);
    }

    /// The current `SET NX` went unanswered: ask again while retries are left, else give it up.
    pub(crate) fn on_set_nx_timeout<M: WorkerWire>(&mut self, effects: &mut Effects<M>) {
        if self.set_nx_tries < self.options.set_nx_retries {
            self.set_nx_tries += 1;
            let answered = self.answered.clone();
            // Only where no answer came: a server that answered has told us where we stand.
            for server in (0..self.servers).filter(|server| !answered[*server]) {
                let message = KvMessage::SetNxGet {
                    key: LOCK_KEY,
                    value: self.client.request,
                    px_ms: self.options.lease_ttl_ms,
                };
                effects.send(NodeId(server as u16), message);
            }
            self.op_timer(effects);
            return;
        }
        // Unknown outcome where no answer came: ours may be set there.
        let (value, granted, answered) = (
            self.client.request,
            self.granted.clone(),
            self.answered.clone(),
        );
        let maybe_ours = |server: usize| granted[server] || !answered[server];
        self.send_delete_where(value, maybe_ours, effects);
        self.finish(effects);
    }

    fn on_set_nx_reply<M: WorkerWire>(
        &mut self,
        now_us: u64,
        from: NodeId,
        value: u64,
        answer: SetNxAnswer,
        effects: &mut Effects<M>,
    ) {
        if self.phase != Phase::Acquiring
            || value != self.client.request
            || from.index() >= self.servers
        {
            return;
        }
        if answer == SetNxAnswer::AlreadyMine && !self.granted[from.index()] {
            self.found_already_held += 1;
            effects.observe(BeliefFact::FoundAlreadyHeld {
                hold: value,
                tries: self.set_nx_tries,
            });
        }
        self.answered[from.index()] = true;
        self.granted[from.index()] = answer != SetNxAnswer::Refused;
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

/// What a server's answer to `SET NX` (or `SET NX GET`) says about the worker's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum SetNxAnswer {
    /// The key was free and now holds the value.
    Set,
    /// The key already held this very value: an earlier, unanswered attempt had set it.
    AlreadyMine,
    /// Someone else's value holds the key.
    Refused,
}
