//! What the clients saw: one operation per client request, from the moment a client asked to the
//! moment it learned the answer, with the answer itself.
//!
//! The omniscient checkers look inside the servers; a client history looks only at the edge, where a
//! person using the system stands. A history is a list of [`Op`]s. Each op has the call a client made
//! ([`OpCall`]), the instant it was invoked and, if an answer came, the instant it completed, both
//! in true simulated microseconds (never a node's drifting clock). How it ended is an [`OpEnd`]:
//!
//! - `Ok`: the client got an answer, and the answer ([`OpReturn`]) is part of what must be explained;
//! - `Failed`: the system said no before doing anything, so the op is known not to have happened and a
//!   checker may leave it out entirely;
//! - `Unknown`: the client stopped waiting (a timeout, a crash, the end of the recording). The op may
//!   have taken effect at any moment after its invocation, even long after the client gave up, or
//!   never. A checker has to allow both.
//!
//! Real-time order comes from the log position of each invoke and completion ([`LogInstant`]), not
//! from the microsecond: a server may answer in the same instant it was asked, and two things that
//! happen in one instant still happen one after the other. Op `a` precedes op `b` in real time exactly
//! when `a` completed at a smaller position than `b` was invoked at.
//!
//! These are plain data types, shared by whoever records a history and whoever checks it. Nothing here
//! decides anything; the sequential models (`contract::sequential`) and the checker
//! (`engine::linearizable`) give them meaning.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::protocol::ClientCommand;

/// An op's number in its history, which is also its index in the history's list of ops.
pub type OpIndex = u32;

/// One point in a history: the true simulated time and the position in the recording. Positions are
/// unique and grow with time, so they alone order events; the microsecond is for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LogInstant {
    pub at_us: u64,
    pub position: u64,
}

/// A lock service call made by a client; `client` is the caller's node number, since whether a
/// release may say "you held it" depends on who asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LockCall {
    Acquire { lock: u32, client: u16 },
    Release { lock: u32, client: u16 },
}

/// What a client asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpCall {
    /// A request to a replicated key-value store.
    Kv(ClientCommand),
    /// One read or write of a fenced store, carrying the token of the lock the sender believes it holds.
    /// `write` is `None` for a read; `key` is the message's idempotency key.
    Access {
        account: u32,
        token: FencingToken,
        write: Option<u64>,
        key: u64,
        idempotent: bool,
    },
    /// A worker's whole read-modify-write of one account, judged as a single operation.
    Job { account: u32 },
    /// A call to the lock service.
    Lock(LockCall),
}

/// The answer a client received for an op that ended well.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpReturn {
    /// A write was acknowledged.
    Written,
    /// A key-value read: the value found, or `None` for a key never written.
    Read(Option<u64>),
    /// A fenced store's read answered with the account's value.
    Value(u64),
    /// A job read `read` and then wrote `wrote`, and both were acknowledged.
    Job { read: u64, wrote: u64 },
    /// A lock was granted with this token.
    Granted(FencingToken),
    /// A release was answered; `true` when the lock was still held by the caller.
    Released(bool),
}

/// Why a client does not know whether its op took effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unknown {
    /// The client's deadline passed without an answer.
    Timeout,
    /// The client crashed while waiting.
    ClientCrashed,
    /// The client abandoned the op (for example a worker whose lease ran out).
    GaveUp,
    /// Still pending when the history ends.
    NotYet,
    /// Refused after the client sent it again: an earlier copy may have taken effect before the
    /// answer to it was lost, and the refusal answers only the resend.
    RefusedResend,
}

/// How an op ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpEnd {
    /// Answered; the answer must be explained by some order of the ops.
    Ok(OpReturn),
    /// Refused before it could change anything; the reason is for people.
    Failed(&'static str),
    /// May or may not have taken effect.
    Unknown(Unknown),
}

impl OpEnd {
    /// Whether every linearization has to include the op.
    pub fn is_required(&self) -> bool {
        matches!(self, OpEnd::Ok(_))
    }

    /// The answer a model must agree with: `None` unless the op ended well.
    pub fn returned(&self) -> Option<&OpReturn> {
        match self {
            OpEnd::Ok(returned) => Some(returned),
            OpEnd::Failed(_) | OpEnd::Unknown(_) => None,
        }
    }
}

/// Who made an op: a node acting as a client (a worker), or an anonymous request from outside the
/// cluster, whose lanes a view assigns later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Who {
    Node(NodeId),
    Request,
}

/// What a recorder writes as things happen: an invoke, later matched with its completion by the
/// client's own id for the op (`local`: a request id, a message id, a job number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Record {
    Invoke { local: u64, call: OpCall },
    Complete { local: u64, end: OpEnd },
}

/// What one message tells a client history, read by the world as a client sends or receives it
/// (`worlds::history_tap`). `local` is the client's own id for the op, as in [`Record`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tap {
    /// The client asked; a resend of an op still open is the same op.
    Invoke { local: u64, call: OpCall },
    /// The client learned how `local` ended.
    Complete { local: u64, end: OpEnd },
    /// The open op `local` now waits under another name (a lock request queued under its lease).
    Alias { local: u64, alias: u64 },
    /// The op waiting under `alias` ended; nothing when none waits.
    CompleteAlias { alias: u64, end: OpEnd },
}

/// One operation of a history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Op {
    pub index: OpIndex,
    pub who: Who,
    /// The partition the op belongs to is up to the model (a key for a key-value store).
    pub call: OpCall,
    pub invoked: LogInstant,
    /// When the answer came; `None` while none did. An unknown op may carry the instant its client
    /// stopped waiting, for drawing, but it bounds nothing: the op may still take effect later.
    pub completed: Option<LogInstant>,
    pub end: OpEnd,
    /// The node whose answer completed the op, when there was one.
    pub served_by: Option<NodeId>,
}

impl Op {
    /// Whether this op completed before `later` was invoked: then every order must put it first. An
    /// unknown op precedes nothing, whatever instant its client gave up at.
    pub fn precedes(&self, later: &Op) -> bool {
        let known = !matches!(self.end, OpEnd::Unknown(_));
        known
            && self
                .completed
                .is_some_and(|completed| completed.position < later.invoked.position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(index: OpIndex, invoked: u64, completed: Option<u64>, end: OpEnd) -> Op {
        Op {
            index,
            who: Who::Request,
            call: OpCall::Kv(ClientCommand::Get { key: 1 }),
            invoked: LogInstant {
                at_us: 5,
                position: invoked,
            },
            completed: completed.map(|position| LogInstant { at_us: 5, position }),
            end,
            served_by: None,
        }
    }

    #[test]
    fn real_time_order_follows_positions_not_microseconds() {
        let first = op(0, 1, Some(3), OpEnd::Ok(OpReturn::Read(None)));
        let second = op(1, 4, Some(5), OpEnd::Ok(OpReturn::Read(None)));
        let overlapping = op(2, 2, Some(6), OpEnd::Ok(OpReturn::Read(None)));
        assert!(first.precedes(&second));
        assert!(!second.precedes(&first));
        assert!(!first.precedes(&overlapping) && !overlapping.precedes(&first));
        let unknown = op(3, 0, Some(2), OpEnd::Unknown(Unknown::Timeout));
        assert!(!unknown.precedes(&second), "giving up is no completion");
        assert!(!unknown.end.is_required());
        assert_eq!(unknown.end.returned(), None);
        assert!(first.end.is_required());
    }
}
