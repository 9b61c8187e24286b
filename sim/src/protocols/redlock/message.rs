//! The Redis commands a lock client sends to a key-value server, and their answers.

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KvMessage {
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
    /// Redis 7's `SET key value NX PX px_ms GET`: the same conditional set, whose answer also names the
    /// value the key already held. Only a client configured to retry a `SET NX` that went unanswered
    /// sends it: its own value in the answer means the first attempt had landed.
    SetNxGet {
        key: u32,
        value: u64,
        px_ms: u64,
    },
    /// `held` is the value the key held when the command arrived (`None`: it was free, and is now set).
    SetNxGetReply {
        key: u32,
        value: u64,
        ok: bool,
        held: Option<u64>,
    },
}

impl KvMessage {
    pub fn label(&self) -> &'static str {
        match self {
            KvMessage::SetNx { .. } => "SET NX",
            KvMessage::SetNxReply { ok: true, .. } => "OK",
            KvMessage::SetNxReply { .. } => "nil",
            KvMessage::Del { checked: true, .. } => "DEL if mine",
            KvMessage::Del { .. } => "DEL",
            KvMessage::DelReply { deleted: true, .. } => "Deleted",
            KvMessage::DelReply { .. } => "Not deleted",
            KvMessage::SetNxGet { .. } => "SET NX GET",
            KvMessage::SetNxGetReply { ok: true, .. } => "OK",
            KvMessage::SetNxGetReply { value, held, .. } if *held == Some(*value) => "yours",
            KvMessage::SetNxGetReply { .. } => "taken",
        }
    }
}
