//! What the lock service's messages tell a client history: an acquire or a release sent is an op
//! invoked, the answer the client receives its end. The world reads these as its actors send and
//! receive (`worlds::history_tap`); nothing here changes a message or a run.
//!
//! An acquire keeps its request id across resends, so a resend is the same op. One answered "queued"
//! stays open under its lease ([`Tap::Alias`]) and ends when the grant for that lease reaches the
//! client, pushed or noticed through a keep-alive. A grant pushed for a lease no open acquire waits
//! under is no op: the client treats it as an orphan and gives it back (its "queued" answer was
//! lost, or a new leader replays old grants from its log). A "not the leader" answer ends nothing:
//! the client sends again.

use super::{AcquireResult, LockServiceMessage};
use crate::contract::client_history::{LockCall, OpCall, OpEnd, OpReturn, Tap};

/// Keeps a client's acquire and release ids apart from each other and from its store accesses.
const ACQUIRE_TAG: u64 = 1 << 62;
const RELEASE_TAG: u64 = 2 << 62;
const LEASE_TAG: u64 = 3 << 62;

impl LockServiceMessage {
    /// The op a client (node number `client`) starts by sending this message.
    pub fn tap_sent(&self, client: u16) -> Option<Tap> {
        match *self {
            LockServiceMessage::Acquire { key, request, .. } => Some(Tap::Invoke {
                local: ACQUIRE_TAG | request,
                call: OpCall::Lock(LockCall::Acquire { lock: key, client }),
            }),
            LockServiceMessage::Release { key, request, .. } => Some(Tap::Invoke {
                local: RELEASE_TAG | request,
                call: OpCall::Lock(LockCall::Release { lock: key, client }),
            }),
            _ => None,
        }
    }

    /// What the client learns from this message, when it answers one of its ops.
    pub fn tap_received(&self) -> Option<Tap> {
        let granted = |token| OpEnd::Ok(OpReturn::Granted(token));
        match *self {
            LockServiceMessage::AcquireReply { request, result } => Some(match result {
                AcquireResult::Granted { token, .. } => Tap::Complete {
                    local: ACQUIRE_TAG | request,
                    end: granted(token),
                },
                AcquireResult::Queued { lease } => Tap::Alias {
                    local: ACQUIRE_TAG | request,
                    alias: LEASE_TAG | lease,
                },
            }),
            // A holder's keep-alives carry its token too: only one an acquire waits for ends it.
            LockServiceMessage::Granted { lease, token, .. }
            | LockServiceMessage::KeepAliveReply {
                lease,
                token: Some(token),
                ..
            } => Some(Tap::CompleteAlias {
                alias: LEASE_TAG | lease,
                end: granted(token),
            }),
            LockServiceMessage::ReleaseReply { request, released } => Some(Tap::Complete {
                local: RELEASE_TAG | request,
                end: OpEnd::Ok(OpReturn::Released(released)),
            }),
            _ => None,
        }
    }
}
