//! Redis-style locks: one key-value server with expiring keys, used alone ("single Redis lock") or as
//! one of N independent servers (Redlock).
//!
//! **Single instance.** A client takes the lock with `SET key value NX PX ttl`: the write succeeds only if
//! the key is absent (or its time to live has run out on the *server's* clock), and the key disappears by
//! itself after `ttl`. `value` is a string unique to this acquisition, so the client can release with a
//! compare-and-delete ("delete the key only if it still holds my value", a small Lua script in real Redis).
//! The careless variant deletes without checking: a client whose key already expired, and was taken by
//! someone else in the meantime, deletes *that* client's lock, and a third client can walk in while the
//! second still works. Nothing here is a fencing token: the value is unique, not increasing, so a
//! resource cannot tell an old holder from a new one.
//!
//! **Redlock** (the Redis documentation's multi-instance algorithm) runs the same `SET NX PX` on N
//! independent servers (no replication between them). A client that gets a majority within its time
//! budget holds the lock for a *validity time* = TTL − time spent acquiring − a drift allowance; if it
//! fails it deletes its value everywhere. The argument for safety assumes that time passes at about the
//! same rate on all servers and clients and that processes do not pause for long. A clock that jumps
//! forward on one server expires a key early there; a second client then gets a majority that shares
//! that one server with the first, and both believe, within their validity time, that they hold the lock
//! (Kleppmann, "How to do distributed locking", 2016). The checker *Exclusive Belief* catches that moment.
//!
//! **A lost answer.** A `SET NX` whose `OK` never reaches the client leaves it not knowing whether the
//! key is its own. A client configured to retry (`set_nx_retries`) asks again with `SET NX GET`, whose
//! answer names the value the key holds: finding its own value there, the client holds the lock after
//! all. The key's time to live is not renewed by the retry, so the client counts its validity from the
//! first send, the earliest moment the key can have been set.
//!
//! Expiry is lazy, as in Redis: a key past its deadline is treated as absent by the next command that
//! touches it. The server is volatile: a crash forgets every key (Redis without persistence), which is
//! one more way for Redlock to grant twice.

pub mod describe;
pub mod entry;
pub mod fact;
pub mod message;
pub mod parts;
pub mod variations;
pub mod view;

pub use fact::BeliefFact;
pub use message::KvMessage;

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::protocol::{
    ActorSummary, Carries, ClientError, ClientOutcome, Effects, Input, Observes, Protocol,
};
use crate::contract::roles::{ReleaseRequest, ReleaseRule, RoleSlot};
use crate::protocols::lockservice::LockFact;
use serde::Serialize;
use std::collections::BTreeMap;

/// One key: who set it, with which value, until when on the server's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct KvEntry {
    pub value: u64,
    pub owner: NodeId,
    pub expires_at_local_us: u64,
}

#[derive(Clone, Debug, Hash)]
pub struct KvLockServer {
    pub entries: BTreeMap<u32, KvEntry>,
    /// Bumped by every set and every delete; only meaningful (and only reported) for a single instance.
    pub revision: u64,
    /// Report grants and releases as facts (a single instance is the whole lock service).
    report_facts: bool,
    /// A learner's compare-and-delete in place of ours; empty unless the lab set it.
    pub release_rule: RoleSlot<dyn ReleaseRule>,
}

impl KvLockServer {
    pub fn new(report_facts: bool) -> KvLockServer {
        KvLockServer {
            entries: BTreeMap::new(),
            revision: 0,
            report_facts,
            release_rule: RoleSlot::EMPTY,
        }
    }

    /// The live entry for `key` at local time `now_us`; an expired one is removed first (lazy expiry).
    fn live<M: Carries<KvMessage> + Observes<LockFact>>(
        &mut self,
        key: u32,
        now_us: u64,
        effects: &mut Effects<M>,
    ) -> Option<KvEntry> {
        let entry = self.entries.get(&key).copied()?;
        if entry.expires_at_local_us > now_us {
            return Some(entry);
        }
        self.entries.remove(&key);
        self.end(key, entry, entry.owner, true, effects);
        None
    }

    fn end<M: Carries<KvMessage> + Observes<LockFact>>(
        &mut self,
        key: u32,
        entry: KvEntry,
        by: NodeId,
        expired: bool,
        effects: &mut Effects<M>,
    ) {
        self.revision += 1;
        if self.report_facts {
            effects.observe(LockFact::LockReleased {
                key,
                lease: entry.value,
                owner: entry.owner,
                by,
                // Redis has no fencing token: the hold's random value stands in its place, unique
                // but not increasing (the checkers know these tokens do not fence).
                token: FencingToken(entry.value),
                expired,
                revision: self.revision,
            });
        }
    }

    /// Whether a `DEL` of `value` from `from` removes the live `entry`: ours compares values unless
    /// the client sent a plain `DEL`; a learner's rule decides alone.
    fn may_delete(&self, entry: KvEntry, (from, value): (NodeId, u64), checked: bool) -> bool {
        let Some(rule) = self.release_rule.get() else {
            return !checked || entry.value == value;
        };
        rule.release(&ReleaseRequest {
            held_value: entry.value,
            held_by: entry.owner.0,
            value,
            from: from.0,
        })
    }

    /// `SET key value NX PX px_ms`: sets the key if it is free and returns `None`, or leaves it alone
    /// and returns the value it holds (even the sender's own: NX never renews a key's time to live).
    fn set_if_absent<M: Carries<KvMessage> + Observes<LockFact>>(
        &mut self,
        now_us: u64,
        from: NodeId,
        (key, value, px_ms): (u32, u64, u64),
        effects: &mut Effects<M>,
    ) -> Option<u64> {
        if let Some(entry) = self.live(key, now_us, effects) {
            return Some(entry.value);
        }
        let entry = KvEntry {
            value,
            owner: from,
            expires_at_local_us: now_us.saturating_add(px_ms * 1_000),
        };
        self.entries.insert(key, entry);
        self.revision += 1;
        if self.report_facts {
            effects.observe(LockFact::LockGranted {
                key,
                lease: value,
                owner: from,
                token: FencingToken(value),
                revision: self.revision,
            });
        }
        None
    }

    fn on_message<M: Carries<KvMessage> + Observes<LockFact>>(
        &mut self,
        now_us: u64,
        from: NodeId,
        message: &KvMessage,
        effects: &mut Effects<M>,
    ) {
        let reply = match *message {
            KvMessage::SetNx { key, value, px_ms } => {
                let ok = self
                    .set_if_absent(now_us, from, (key, value, px_ms), effects)
                    .is_none();
                KvMessage::SetNxReply { key, value, ok }
            }
            KvMessage::SetNxGet { key, value, px_ms } => {
                let held = self.set_if_absent(now_us, from, (key, value, px_ms), effects);
                KvMessage::SetNxGetReply {
                    key,
                    value,
                    ok: held.is_none(),
                    held,
                }
            }
            KvMessage::Del {
                key,
                value,
                checked,
            } => {
                let live = self.live(key, now_us, effects);
                let deleted = match live {
                    Some(entry) if self.may_delete(entry, (from, value), checked) => {
                        self.entries.remove(&key);
                        self.end(key, entry, from, false, effects);
                        true
                    }
                    _ => false,
                };
                KvMessage::DelReply {
                    key,
                    value,
                    deleted,
                }
            }
            _ => return,
        };
        effects.send(from, reply);
    }
}

impl<M: Carries<KvMessage> + Observes<LockFact>> Protocol<M> for KvLockServer {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Message { from, message } => {
                if let Some(message) = message.peel() {
                    self.on_message(local_now_us, from, message, effects);
                }
            }
            Input::Client { request_id, .. } => {
                let error = ClientError::NotLeader { leader_hint: None };
                effects.reply(request_id, ClientOutcome::Rejected(error));
            }
            _ => {}
        }
    }

    /// No persistence: a restarted server has no keys.
    fn crash(&mut self) {
        self.entries.clear();
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
