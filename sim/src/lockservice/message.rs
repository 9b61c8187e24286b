//! What lock clients, the lock service and the protected resource say to each other.

use crate::units::FencingToken;
use serde::{Deserialize, Serialize};

/// Why the protected resource refused an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResourceError {
    /// Fencing: a holder with a newer token has already been here.
    StaleToken {
        presented: FencingToken,
        highest_seen: FencingToken,
    },
}

/// A read of the count, or a write of a new count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessKind {
    Read,
    Write { value: u64 },
}

/// Answer of the lock service to an `Acquire`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LockMessage {
    /// Create a lease with `ttl_ms` and queue it for `key`. `request` identifies the attempt; with
    /// `idempotent` the service answers a repeated `request` from the same client with the lease it
    /// already created instead of a new one.
    Acquire {
        key: u32,
        ttl_ms: u64,
        request: u64,
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
    /// This server does not lead (or cannot vouch for its leadership right now).
    NotLeader {
        request: u64,
        leader_hint: Option<crate::ids::NodeId>,
    },
    /// To the protected resource. `op` identifies the message (the same on a retry only with an
    /// idempotency key); `intent` names the job, for the checkers.
    Access {
        kind: AccessKind,
        token: FencingToken,
        op: u64,
        idempotent: bool,
        intent: u64,
        /// The record accessed: 0 is the inventory count; the work queue uses one per account.
        account: u32,
    },
    AccessReply {
        op: u64,
        result: Result<u64, ResourceError>,
    },
    /// Scheduler to invoice store: generate the invoices of `minute`. With `if_absent` the store skips a
    /// minute that already has invoices (check and write in one step).
    Invoice {
        minute: u64,
        token: FencingToken,
        if_absent: bool,
        /// Identifies this run (idempotency key): a repeated message of the same run is applied once.
        run: u64,
    },
    InvoiceReply {
        minute: u64,
        /// Written now (false: already there, or refused by fencing).
        written: bool,
        refused: bool,
    },
    /// ZooKeeper-style: open a session with a timeout (kept alive with `KeepAlive`).
    OpenSession {
        ttl_ms: u64,
        request: u64,
    },
    SessionOpened {
        request: u64,
        session: u64,
    },
    /// Create an ephemeral znode for the session.
    Create {
        session: u64,
        path: super::CreatePath,
        request: u64,
    },
    /// `path: None`: not created (it exists, or the session is gone).
    CreateReply {
        request: u64,
        path: Option<super::ZPath>,
    },
    /// `exists` with a watch: the server answers and, if the znode exists, notifies once when it goes.
    WatchExists {
        path: super::ZPath,
        request: u64,
    },
    WatchExistsReply {
        request: u64,
        path: super::ZPath,
        exists: bool,
        /// The session owning the znode, if it exists (ZooKeeper's `ephemeralOwner`).
        owner_session: Option<u64>,
    },
    /// `getChildren /election`: the sequence numbers of the candidates.
    Children {
        request: u64,
    },
    /// `(sequence, owning session)` of every candidate znode.
    ChildrenReply {
        request: u64,
        sequences: Vec<(u64, u64)>,
    },
    /// A one-shot watch fired: `path` was deleted.
    WatchEvent {
        path: super::ZPath,
    },
    /// Redis `SET key value NX PX px_ms`: set only if absent, expire after `px_ms` (server clock).
    SetNx {
        key: u32,
        value: u64,
        px_ms: u64,
    },
    SetNxReply {
        key: u32,
        value: u64,
        ok: bool,
    },
    /// Delete `key`; with `checked`, only if it still holds `value` (compare-and-delete).
    Del {
        key: u32,
        value: u64,
        checked: bool,
    },
    DelReply {
        key: u32,
        value: u64,
        deleted: bool,
    },
}

impl LockMessage {
    pub fn label(&self) -> &'static str {
        match self {
            LockMessage::Acquire { .. } => "Acquire",
            LockMessage::AcquireReply {
                result: AcquireResult::Granted { .. },
                ..
            } => "Acquired",
            LockMessage::AcquireReply { .. } => "Queued",
            LockMessage::Granted { .. } => "Granted",
            LockMessage::KeepAlive { .. } => "KeepAlive",
            LockMessage::KeepAliveReply { alive: true, .. } => "KeepAlive ok",
            LockMessage::KeepAliveReply { .. } => "Lease gone",
            LockMessage::Release { .. } => "Release",
            LockMessage::ReleaseReply { .. } => "Released",
            LockMessage::NotLeader { .. } => "Not leader",
            LockMessage::Access {
                kind: AccessKind::Read,
                ..
            } => "Read",
            LockMessage::Access { .. } => "Write",
            LockMessage::AccessReply { result: Ok(_), .. } => "Access ok",
            LockMessage::AccessReply { .. } => "Stale token",
            LockMessage::Invoice { .. } => "Invoice",
            LockMessage::InvoiceReply { refused: true, .. } => "Stale token",
            LockMessage::InvoiceReply { written: true, .. } => "Invoiced",
            LockMessage::InvoiceReply { .. } => "Already done",
            LockMessage::OpenSession { .. } => "Open session",
            LockMessage::SessionOpened { .. } => "Session",
            LockMessage::Create { .. } => "Create",
            LockMessage::CreateReply { path: Some(_), .. } => "Created",
            LockMessage::CreateReply { .. } => "Node exists",
            LockMessage::WatchExists { .. } => "Exists + watch",
            LockMessage::WatchExistsReply { .. } => "Exists",
            LockMessage::Children { .. } => "Get children",
            LockMessage::ChildrenReply { .. } => "Children",
            LockMessage::WatchEvent { .. } => "Watch fired",
            LockMessage::SetNx { .. } => "SET NX",
            LockMessage::SetNxReply { ok: true, .. } => "OK",
            LockMessage::SetNxReply { .. } => "nil",
            LockMessage::Del { checked: true, .. } => "DEL if mine",
            LockMessage::Del { .. } => "DEL",
            LockMessage::DelReply { deleted: true, .. } => "Deleted",
            LockMessage::DelReply { .. } => "Not deleted",
        }
    }

    /// The fencing token a message carries, if any (drawn on the arrow).
    pub fn token(&self) -> FencingToken {
        match self {
            LockMessage::AcquireReply {
                result: AcquireResult::Granted { token, .. },
                ..
            }
            | LockMessage::Granted { token, .. }
            | LockMessage::Access { token, .. } => *token,
            _ => FencingToken::ZERO,
        }
    }
}
