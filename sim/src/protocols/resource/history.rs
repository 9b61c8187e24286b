//! What the store's messages tell a client history: an access sent is an op invoked, its reply the
//! op's end. The world reads these as its actors send and receive (`worlds::history_tap`); nothing
//! here changes a message or a run.

use super::{AccessKind, ResourceError, ResourceMessage};
use crate::contract::client_history::{OpCall, OpEnd, OpReturn, Tap};

impl ResourceMessage {
    /// The op a holder starts by sending this message, keyed by the message's id (a retry under an
    /// idempotency key repeats the id, and so is the same op).
    pub fn tap_sent(&self) -> Option<Tap> {
        let ResourceMessage::Access {
            kind,
            token,
            op,
            idempotent,
            account,
            ..
        } = *self
        else {
            return None;
        };
        let write = match kind {
            AccessKind::Read => None,
            AccessKind::Write { value } => Some(value),
        };
        let call = OpCall::Access {
            account,
            token,
            write,
            key: op,
            idempotent,
        };
        Some(Tap::Invoke { local: op, call })
    }

    /// How the op this reply answers ended; `open` finds the call still open under an op id, which
    /// says whether the value returned is a read's answer or a write's acknowledgement.
    pub fn tap_received(&self, open: &dyn Fn(u64) -> Option<OpCall>) -> Option<Tap> {
        let ResourceMessage::AccessReply { op, result } = *self else {
            return None;
        };
        let is_write = matches!(open(op)?, OpCall::Access { write: Some(_), .. });
        let end = match result {
            Ok(_) if is_write => OpEnd::Ok(OpReturn::Written),
            Ok(value) => OpEnd::Ok(OpReturn::Value(value)),
            Err(ResourceError::StaleToken { .. }) => OpEnd::Failed("stale token"),
            Err(ResourceError::Malformed(_)) => OpEnd::Failed("malformed"),
        };
        Some(Tap::Complete { local: op, end })
    }
}
