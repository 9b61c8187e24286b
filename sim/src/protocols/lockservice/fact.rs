//! What the lock service (and anything that grants locks the same way) tells the checkers.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LockFact {
    /// A lock-service replica applied a grant: `owner` now holds `key` under `lease`, with fencing token
    /// `token`. Every replica reports each applied change; `revision` (strictly increasing along the
    /// replicated state) lets a checker count each change once. Redis-style servers report their
    /// grants this way too.
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
    /// A ZooKeeper-style watch fired: the leader notified `watcher` that a znode went away.
    WatchNotified { watcher: NodeId },
    /// A lock client asked for a lock (counted for the contention report).
    LockRequested { key: u32 },
    /// A replica applied the end of `owner`'s invalidated hold on `key` (the `LockReleased` of the same
    /// `revision` follows), and Consul-style lock-delay keeps the key from everyone for `delay_ms` on the
    /// leader's clock. (Added after `LockRequested`; recorded only by a service with a lock-delay.)
    LockDelayStarted {
        key: u32,
        owner: NodeId,
        delay_ms: u64,
        revision: u64,
    },
    /// A replica applied the end of `key`'s lock-delay, the one begun at `revision`.
    LockDelayEnded { key: u32, revision: u64 },
}
