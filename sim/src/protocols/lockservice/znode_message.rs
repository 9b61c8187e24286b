//! ZooKeeper-style requests: sessions, ephemeral znodes and one-shot watches.
//!
//! They live with the lock service rather than in `zookeeper/` because the lock server is what answers
//! them (sessions are its leases, znodes sit in its table): the candidates in `zookeeper/` depend on
//! the service, never the other way round. A session is kept alive with the lock service's own
//! `KeepAlive`, and a follower answers with its `NotLeader`.

use super::{CreatePath, ZPath};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ZnodeMessage {
    /// Open a session with a timeout (kept alive with `KeepAlive`).
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
        path: CreatePath,
        request: u64,
    },
    /// `path: None`: not created (it exists, or the session is gone).
    CreateReply {
        request: u64,
        path: Option<ZPath>,
    },
    /// `exists` with a watch: the server answers and, if the znode exists, notifies once when it goes.
    WatchExists {
        path: ZPath,
        request: u64,
    },
    WatchExistsReply {
        request: u64,
        path: ZPath,
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
        path: ZPath,
    },
}

impl ZnodeMessage {
    pub fn label(&self) -> &'static str {
        match self {
            ZnodeMessage::OpenSession { .. } => "Open session",
            ZnodeMessage::SessionOpened { .. } => "Session",
            ZnodeMessage::Create { .. } => "Create",
            ZnodeMessage::CreateReply { path: Some(_), .. } => "Created",
            ZnodeMessage::CreateReply { .. } => "Node exists",
            ZnodeMessage::WatchExists { .. } => "Exists + watch",
            ZnodeMessage::WatchExistsReply { .. } => "Exists",
            ZnodeMessage::Children { .. } => "Get children",
            ZnodeMessage::ChildrenReply { .. } => "Children",
            ZnodeMessage::WatchEvent { .. } => "Watch fired",
        }
    }
}
