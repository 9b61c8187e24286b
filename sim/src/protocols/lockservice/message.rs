//! What lock clients and the lock service say to each other: leases, locks and keep-alives. The
//! ZooKeeper-style session and znode requests the same servers answer are in `znode_message.rs`; the
//! protected resource's language is [`crate::protocols::resource::ResourceMessage`].

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use serde::{Deserialize, Serialize};

/// Answer of the lock service to an `Acquire`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AcquireResult {
    Granted {
        lease: u64,
        token: FencingToken,
    },
    /// The lease exists and waits in the key's queue; a `Granted` notice or a keep-alive answer will
    /// tell the client when it holds the lock.
    Queued {
        lease: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LockServiceMessage {
    /// Create a lease with `ttl_ms` and queue it for `key`. `request` identifies the acquire; with
    /// `idempotent` the service answers a repeated `request` from the same client with the lease it
    /// already created instead of a new one. `attempt` numbers the sends of one request (a refusal
    /// echoes it, so the client can tell a late or duplicated refusal of an earlier send from one of
    /// the send it waits for).
    Acquire {
        key: u32,
        ttl_ms: u64,
        request: u64,
        attempt: u32,
        idempotent: bool,
    },
    AcquireReply {
        request: u64,
        result: AcquireResult,
    },
    /// Sent by the leader when a queued lease reaches the head of its key's queue.
    Granted {
        key: u32,
        lease: u64,
        token: FencingToken,
    },
    /// `sent_at_local_us` is the client's clock, echoed back so it knows from when the renewal counts.
    /// ZooKeeper-style sessions are leases too and are kept alive the same way.
    KeepAlive {
        lease: u64,
        sent_at_local_us: u64,
    },
    KeepAliveReply {
        lease: u64,
        alive: bool,
        /// The token, if this lease holds the lock now.
        token: Option<FencingToken>,
        echo_sent_at_local_us: u64,
    },
    Release {
        key: u32,
        lease: u64,
        request: u64,
    },
    ReleaseReply {
        request: u64,
        released: bool,
    },
    /// This server does not lead (or cannot vouch for its leadership right now). `request` and
    /// `attempt` are the refused message's (`attempt` is 0 for a message that has none: only an
    /// `Acquire` is numbered).
    NotLeader {
        request: u64,
        attempt: u32,
        leader_hint: Option<NodeId>,
    },
}

impl LockServiceMessage {
    pub fn label(&self) -> &'static str {
        match self {
            LockServiceMessage::Acquire { .. } => "Acquire",
            LockServiceMessage::AcquireReply {
                result: AcquireResult::Granted { .. },
                ..
            } => "Acquired",
            LockServiceMessage::AcquireReply { .. } => "Queued",
            LockServiceMessage::Granted { .. } => "Granted",
            LockServiceMessage::KeepAlive { .. } => "KeepAlive",
            LockServiceMessage::KeepAliveReply { alive: true, .. } => "KeepAlive ok",
            LockServiceMessage::KeepAliveReply { .. } => "Lease gone",
            LockServiceMessage::Release { .. } => "Release",
            LockServiceMessage::ReleaseReply { .. } => "Released",
            LockServiceMessage::NotLeader { .. } => "Not leader",
        }
    }
}
