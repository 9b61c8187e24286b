//! The lock service's replicated state machine: leases, a FIFO lock per key, and the revision counter
//! that fencing tokens come from. Pure and deterministic: every replica applies the same operations in
//! log order and reaches the same table.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// One operation in the Raft log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LockOp {
    /// Create a lease for `owner` and queue it on `key`. With `idempotent`, a repeated `request` from the
    /// same owner is answered with the lease it already created.
    Acquire {
        key: u32,
        owner: NodeId,
        ttl_ms: u64,
        request: u64,
        idempotent: bool,
    },
    /// Release `key` if `lease` holds it (unlock only by the owner); a queued lease just leaves the queue.
    Release { key: u32, lease: u64, by: NodeId },
    /// The leader saw the lease's time to live run out on its own clock.
    Expire { lease: u64 },
    /// ZooKeeper-style: open a session (a lease that waits in no queue) for `owner`.
    OpenSession { owner: NodeId, ttl_ms: u64 },
    /// ZooKeeper-style: create an ephemeral znode owned by session `lease`.
    Create { lease: u64, path: CreatePath },
    /// ZooKeeper-style: close the session (its ephemeral znodes go with it).
    CloseSession { lease: u64 },
    /// The leader saw `key`'s lock-delay, the one begun at `revision`, run out on its own clock: the
    /// key may be granted again. A stale end (of an earlier delay on the key) changes nothing.
    /// (Added after `CloseSession`; only a service with a lock-delay ever writes it.)
    EndDelay { key: u32, revision: u64 },
}

/// The lock key of sessions: a session lease waits in no queue and holds no lock.
pub const SESSION_KEY: u32 = u32::MAX;

/// Where a znode is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CreatePath {
    /// `/election/leader` (fails if it exists).
    Leader,
    /// `/election/n_` with a sequence number appended by the service.
    Sequential,
}

/// A znode of the election recipes: `/election/leader` or `/election/n_<seq>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ZPath {
    Leader,
    Candidate(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ZNode {
    pub path: ZPath,
    /// The session it belongs to (ephemeral: it goes when the session goes).
    pub session: u64,
    pub owner: NodeId,
}

impl crate::protocols::raft::Payload for LockOp {
    fn digest(&self) -> u64 {
        LockOp::digest(self)
    }
}

impl LockOp {
    pub fn digest(&self) -> u64 {
        let words = match *self {
            LockOp::Acquire {
                key,
                owner,
                ttl_ms,
                request,
                idempotent,
            } => [
                1,
                key as u64,
                owner.0 as u64,
                ttl_ms ^ (request << 20) ^ idempotent as u64,
            ],
            LockOp::Release { key, lease, by } => [2, key as u64, lease, by.0 as u64],
            LockOp::Expire { lease } => [3, lease, 0, 0],
            LockOp::OpenSession { owner, ttl_ms } => [4, owner.0 as u64, ttl_ms, 0],
            LockOp::Create { lease, path } => [5, lease, path as u64, 0],
            LockOp::CloseSession { lease } => [6, lease, 0, 0],
            LockOp::EndDelay { key, revision } => [7, key as u64, revision, 0],
        };
        let mut hash = crate::base::hash::Fnv::new();
        for word in words {
            hash.write_u64(word);
        }
        hash.finish()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Lease {
    pub id: u64,
    pub owner: NodeId,
    pub key: u32,
    pub ttl_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Hold {
    pub lease: u64,
    pub owner: NodeId,
    pub token: FencingToken,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct KeyState {
    pub holder: Option<Hold>,
    /// Leases waiting for the key, in request order.
    pub waiters: VecDeque<u64>,
}

/// What applying one operation changed, for replies, facts and the checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableEvent {
    Granted {
        key: u32,
        hold: Hold,
        revision: u64,
    },
    Queued {
        key: u32,
        lease: u64,
    },
    /// A repeated idempotent `Acquire`: the existing lease (and token, if it holds the key).
    Existing {
        lease: u64,
        token: Option<FencingToken>,
    },
    Released {
        key: u32,
        hold: Hold,
        by: NodeId,
        expired: bool,
        revision: u64,
    },
    /// A release by someone who does not hold the key: refused.
    NotOwner {
        key: u32,
        by: NodeId,
    },
    SessionOpened {
        lease: u64,
    },
    /// A znode was created (`created`), or not because it exists or the session is gone.
    Created {
        path: Option<ZPath>,
    },
    /// A znode went away with its session.
    Deleted {
        node: ZNode,
    },
    /// An invalidated lease's hold ended and lock-delay now keeps `key` from everyone (told just before
    /// the `Released` of the same `revision`).
    DelayStarted {
        key: u32,
        hold: Hold,
        revision: u64,
    },
    /// `key`'s lock-delay (begun at `revision`) is over; a grant to the next waiter may follow.
    DelayEnded {
        key: u32,
        revision: u64,
    },
}

/// Invariant: every `holder` and every waiter names a lease in `leases`, and a lease appears at most
/// once across all holders and queues. Tokens are revisions, so they strictly increase with every grant.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct LockTable {
    pub leases: BTreeMap<u64, Lease>,
    pub keys: BTreeMap<u32, KeyState>,
    /// Bumped by every grant and every release; a grant's token is the revision it created.
    pub revision: u64,
    /// Latest idempotent acquire per owner: (request, lease).
    last_request: BTreeMap<NodeId, (u64, u64)>,
    /// ZooKeeper-style znodes, ephemeral, each owned by a session lease.
    pub znodes: BTreeMap<ZPath, ZNode>,
    /// Sequence numbers handed to `/election/n_` znodes.
    pub next_sequence: u64,
    /// Whether an invalidated lease's key is held back until an `EndDelay` (the service's lock-delay
    /// is above zero). Configuration, the same on every replica.
    #[serde(skip)]
    lock_delay: bool,
    /// Keys under lock-delay, each with the revision of the release that began it. Invariant: a key
    /// here has no holder and is granted to no one until its `EndDelay` is applied.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub delayed_keys: BTreeMap<u32, u64>,
}

impl LockTable {
    /// An empty table whose invalidated leases' keys wait for an `EndDelay` when `lock_delay` is set.
    pub fn with_lock_delay(lock_delay: bool) -> LockTable {
        LockTable {
            lock_delay,
            ..LockTable::default()
        }
    }

    /// Applies the operation stored at log `index` (new leases take the index as their id).
    pub fn apply(&mut self, index: u64, op: LockOp, events: &mut Vec<TableEvent>) {
        match op {
            LockOp::Acquire {
                key,
                owner,
                ttl_ms,
                request,
                idempotent,
            } => self.acquire(index, key, owner, ttl_ms, (request, idempotent), events),
            LockOp::Release { key, lease, by } => self.release(key, lease, by, events),
            LockOp::Expire { lease } | LockOp::CloseSession { lease } => self.expire(lease, events),
            LockOp::OpenSession { owner, ttl_ms } => {
                let lease = Lease {
                    id: index,
                    owner,
                    key: SESSION_KEY,
                    ttl_ms,
                };
                self.leases.insert(index, lease);
                events.push(TableEvent::SessionOpened { lease: index });
            }
            LockOp::Create { lease, path } => self.create(lease, path, events),
            LockOp::EndDelay { key, revision } => self.end_delay(key, revision, events),
        }
    }

    /// Ends `key`'s lock-delay begun at `revision`, if it is still under that one, and grants the key
    /// to the first waiter.
    fn end_delay(&mut self, key: u32, revision: u64, events: &mut Vec<TableEvent>) {
        if self.delayed_keys.get(&key) != Some(&revision) {
            return;
        }
        self.delayed_keys.remove(&key);
        events.push(TableEvent::DelayEnded { key, revision });
        self.grant_next(key, events);
    }

    fn create(&mut self, lease: u64, path: CreatePath, events: &mut Vec<TableEvent>) {
        let Some(session) = self.leases.get(&lease).copied() else {
            events.push(TableEvent::Created { path: None });
            return;
        };
        let path = match path {
            CreatePath::Leader if self.znodes.contains_key(&ZPath::Leader) => {
                events.push(TableEvent::Created { path: None });
                return;
            }
            CreatePath::Leader => ZPath::Leader,
            CreatePath::Sequential => {
                self.next_sequence += 1;
                ZPath::Candidate(self.next_sequence)
            }
        };
        let node = ZNode {
            path,
            session: lease,
            owner: session.owner,
        };
        self.znodes.insert(path, node);
        events.push(TableEvent::Created { path: Some(path) });
    }

    /// Removes a session's ephemeral znodes.
    fn drop_znodes(&mut self, lease: u64, events: &mut Vec<TableEvent>) {
        let gone: Vec<ZNode> = self
            .znodes
            .values()
            .filter(|node| node.session == lease)
            .copied()
            .collect();
        for node in gone {
            self.znodes.remove(&node.path);
            events.push(TableEvent::Deleted { node });
        }
    }

    /// The token `lease` holds its key with, if it holds it.
    pub fn token_of(&self, lease: u64) -> Option<FencingToken> {
        let key = self.leases.get(&lease)?.key;
        let hold = self.keys.get(&key)?.holder?;
        (hold.lease == lease).then_some(hold.token)
    }

    fn acquire(
        &mut self,
        index: u64,
        key: u32,
        owner: NodeId,
        ttl_ms: u64,
        (request, idempotent): (u64, bool),
        events: &mut Vec<TableEvent>,
    ) {
        if idempotent {
            if let Some(&(last, lease)) = self.last_request.get(&owner) {
                if last == request && self.leases.contains_key(&lease) {
                    let token = self.token_of(lease);
                    events.push(TableEvent::Existing { lease, token });
                    return;
                }
            }
            self.last_request.insert(owner, (request, index));
        }
        let lease = Lease {
            id: index,
            owner,
            key,
            ttl_ms,
        };
        self.leases.insert(index, lease);
        self.keys.entry(key).or_default().waiters.push_back(index);
        self.grant_next(key, events);
        if self.token_of(index).is_none() {
            events.push(TableEvent::Queued { key, lease: index });
        }
    }

    /// Grants `key` to the first waiter if nobody holds it.
    fn grant_next(&mut self, key: u32, events: &mut Vec<TableEvent>) {
        if self.delayed_keys.contains_key(&key) {
            return;
        }
        let state = self.keys.entry(key).or_default();
        if state.holder.is_some() {
            return;
        }
        let Some(lease) = state.waiters.pop_front() else {
            return;
        };
        let owner = self.leases[&lease].owner;
        self.revision += 1;
        let hold = Hold {
            lease,
            owner,
            // The revision only grows, which is all a fencing token needs.
            token: FencingToken(self.revision),
        };
        state.holder = Some(hold);
        events.push(TableEvent::Granted {
            key,
            hold,
            revision: self.revision,
        });
    }

    fn release(&mut self, key: u32, lease: u64, by: NodeId, events: &mut Vec<TableEvent>) {
        let Some(state) = self.keys.get_mut(&key) else {
            events.push(TableEvent::NotOwner { key, by });
            return;
        };
        let owned = self
            .leases
            .get(&lease)
            .is_some_and(|known| known.owner == by);
        match state.holder {
            Some(hold) if hold.lease == lease && owned => {
                self.end_hold(key, hold, by, false, events);
            }
            _ if owned && state.waiters.contains(&lease) => {
                state.waiters.retain(|waiting| *waiting != lease);
                self.leases.remove(&lease);
            }
            _ => events.push(TableEvent::NotOwner { key, by }),
        }
    }

    fn expire(&mut self, lease: u64, events: &mut Vec<TableEvent>) {
        let Some(known) = self.leases.get(&lease).copied() else {
            return;
        };
        if known.key == SESSION_KEY {
            self.leases.remove(&lease);
            self.drop_znodes(lease, events);
            return;
        }
        let state = self.keys.entry(known.key).or_default();
        match state.holder {
            Some(hold) if hold.lease == lease => {
                self.end_hold(known.key, hold, known.owner, true, events)
            }
            _ => {
                state.waiters.retain(|waiting| *waiting != lease);
                self.leases.remove(&lease);
            }
        }
    }

    fn end_hold(
        &mut self,
        key: u32,
        hold: Hold,
        by: NodeId,
        expired: bool,
        events: &mut Vec<TableEvent>,
    ) {
        self.leases.remove(&hold.lease);
        self.revision += 1;
        // Consul holds back the locks of an invalidated session only; a holder's own release frees
        // the key at once.
        if expired && self.lock_delay {
            self.delayed_keys.insert(key, self.revision);
            events.push(TableEvent::DelayStarted {
                key,
                hold,
                revision: self.revision,
            });
        }
        let state = self.keys.get_mut(&key).expect("a held key has a state");
        state.holder = None;
        events.push(TableEvent::Released {
            key,
            hold,
            by,
            expired,
            revision: self.revision,
        });
        // Waiters whose lease is gone never hold: skip them.
        let leases = &self.leases;
        state.waiters.retain(|waiting| leases.contains_key(waiting));
        self.grant_next(key, events);
    }
}
