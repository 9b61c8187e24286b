//! The client log: what every client asked and what it was told, in the order it happened.
//!
//! The trace is the world's story for people and for the run's hash; the client log is the story as
//! the clients lived it, kept apart for three reasons. It must not move a pinned hash, so nothing in it
//! is hashed, and the world writes it only at points that draw no random number, push no event and
//! record no trace. It must survive time travel: the trace keeps its newest records and a timeline
//! snapshot keeps none, so after a seek back the old submits would be gone, while a linearizability
//! check needs every op from the start. And it must be cheap to clone, since every snapshot is a world
//! clone: full chunks are sealed behind an `Arc` and shared, as the trace's are.
//!
//! The log is append-only and keeps the *oldest* events. Past its cap it records nothing more and says
//! so ([`ClientLog::truncated_at_us`]): a prefix of a history, with the ops still open at the cut
//! counted as "not yet answered", is itself a history, and linearizability is closed under prefixes,
//! so a check of the prefix is a true statement about the run up to that instant, never a silent one
//! about the whole.
//!
//! An entry's place in the log is its [`LogInstant::position`]: two things that happen in the same
//! simulated microsecond (a lease read asked and answered in one dispatch) still happen in an order.

use crate::base::ids::NodeId;
use crate::contract::client_history::{
    LogInstant, Op, OpCall, OpEnd, OpIndex, Record, Tap, Unknown, Who,
};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Events (invocations and completions) the log keeps before it stops recording: about 10 MB.
pub const MAX_CLIENT_EVENTS: usize = 200_000;
/// Entries per sealed chunk, shared between a world and its snapshots.
const CHUNK_LEN: usize = 1_024;

/// One event of the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// True simulated time, never a node's clock.
    pub at_us: u64,
    pub who: Who,
    pub kind: EntryKind,
}

/// An invocation, or the completion of the op the log numbered `op`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Invoke {
        call: OpCall,
    },
    Complete {
        op: OpIndex,
        end: OpEnd,
        served_by: Option<NodeId>,
    },
}

/// The world's append-only record of client operations.
#[derive(Clone, Debug)]
pub struct ClientLog {
    sealed: Vec<Arc<Vec<LogEntry>>>,
    open: Vec<LogEntry>,
    /// Ops invoked and not yet completed, by (client, the client's own id for the op), with their call.
    pending: BTreeMap<(Who, u64), (OpIndex, OpCall)>,
    /// Open ops waiting under a second id (a queued lock request under its lease): (client, alias)
    /// to the client's own id for the op.
    aliases: BTreeMap<(Who, u64), u64>,
    /// Open ops their client has sent more than once (a retry under the same id).
    resent: BTreeSet<(Who, u64)>,
    invoked: OpIndex,
    cap: usize,
    truncated_at_us: Option<u64>,
}

impl Default for ClientLog {
    fn default() -> ClientLog {
        ClientLog::with_cap(MAX_CLIENT_EVENTS)
    }
}

impl ClientLog {
    /// A log that stops after `cap` events (tests use a small one).
    pub fn with_cap(cap: usize) -> ClientLog {
        ClientLog {
            sealed: Vec::new(),
            open: Vec::new(),
            pending: BTreeMap::new(),
            aliases: BTreeMap::new(),
            resent: BTreeSet::new(),
            invoked: 0,
            cap,
            truncated_at_us: None,
        }
    }

    /// Changes the cap; events already recorded stay, even past a lower cap.
    pub fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
    }

    /// Records `record` by `who` at `at_us`. A completion that matches no open op (its invocation fell
    /// past the cap, or it completed already) is ignored; `served_by` is the node whose answer it was.
    pub fn push(&mut self, at_us: u64, who: Who, record: Record, served_by: Option<NodeId>) {
        let kind = match record {
            Record::Invoke { local, call } => {
                if !self.has_room(at_us) {
                    return;
                }
                self.pending.insert((who, local), (self.invoked, call));
                self.invoked += 1;
                EntryKind::Invoke { call }
            }
            Record::Complete { local, end } => {
                let Some(&(op, _)) = self.pending.get(&(who, local)) else {
                    return;
                };
                if !self.has_room(at_us) {
                    return;
                }
                self.pending.remove(&(who, local));
                EntryKind::Complete { op, end, served_by }
            }
        };
        self.open.push(LogEntry { at_us, who, kind });
        if self.open.len() >= CHUNK_LEN {
            let full = std::mem::replace(&mut self.open, Vec::with_capacity(CHUNK_LEN));
            self.sealed.push(Arc::new(full));
        }
    }

    /// The call `who` still waits for under its own id `local`, if any.
    pub fn open_call(&self, who: Who, local: u64) -> Option<OpCall> {
        self.pending.get(&(who, local)).map(|(_, call)| *call)
    }

    /// Records what a message told the history ([`Tap`]): an invoke of an op already open is a resend
    /// of it and records nothing; an alias or completion that names no open op is ignored. A refusal
    /// of a resent op ends it as unknown, not failed: the refusal answers the resend, and an earlier
    /// copy may have taken effect (a store that accepted a write, then lost its reply in a crash).
    pub fn tap(&mut self, at_us: u64, who: Who, tap: Tap, served_by: Option<NodeId>) {
        let record = match tap {
            Tap::Invoke { local, .. } if self.pending.contains_key(&(who, local)) => {
                self.resent.insert((who, local));
                return;
            }
            Tap::Invoke { local, call } => Record::Invoke { local, call },
            Tap::Complete { local, end } => {
                let resent = self.resent.remove(&(who, local));
                let end = match end {
                    OpEnd::Failed(_) if resent => OpEnd::Unknown(Unknown::RefusedResend),
                    end => end,
                };
                Record::Complete { local, end }
            }
            Tap::Alias { local, alias } => {
                if self.pending.contains_key(&(who, local)) {
                    self.aliases.insert((who, alias), local);
                }
                return;
            }
            Tap::CompleteAlias { alias, end } => {
                let Some(local) = self.aliases.remove(&(who, alias)) else {
                    return;
                };
                self.resent.remove(&(who, local));
                Record::Complete { local, end }
            }
        };
        self.push(at_us, who, record, served_by);
    }

    /// Whether one more event fits; the first that does not marks the log truncated.
    fn has_room(&mut self, at_us: u64) -> bool {
        if self.len() < self.cap {
            return true;
        }
        self.truncated_at_us.get_or_insert(at_us);
        false
    }

    /// Events recorded.
    pub fn len(&self) -> usize {
        self.sealed.iter().map(|chunk| chunk.len()).sum::<usize>() + self.open.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What tells two states of the log apart cheaply, so a checker can skip an unchanged history:
    /// the op count and the positions of the last invocation and of the last answer.
    pub fn content_key(ops: &[Op]) -> (usize, u64, u64) {
        let last_invoke = ops.last().map_or(0, |op| op.invoked.position);
        let last_answer = ops
            .iter()
            .filter_map(|op| op.completed.map(|done| done.position))
            .max()
            .unwrap_or(0);
        (ops.len(), last_invoke, last_answer)
    }

    /// Ops invoked so far (recorded ones).
    pub fn op_count(&self) -> usize {
        self.invoked as usize
    }

    /// The simulated instant of the first event the log had no room for; `None` while nothing was lost.
    pub fn truncated_at_us(&self) -> Option<u64> {
        self.truncated_at_us
    }

    /// The events, oldest first.
    pub fn entries(&self) -> impl Iterator<Item = &LogEntry> {
        self.sealed
            .iter()
            .flat_map(|chunk| chunk.iter())
            .chain(self.open.iter())
    }

    /// The history so far: one op per invocation, numbered in invocation order. An op with no
    /// completion yet ends `Unknown(NotYet)`: it may still take effect.
    pub fn ops(&self) -> Vec<Op> {
        let mut ops: Vec<Op> = Vec::with_capacity(self.op_count());
        for (position, entry) in self.entries().enumerate() {
            let instant = LogInstant {
                at_us: entry.at_us,
                position: position as u64,
            };
            match entry.kind {
                EntryKind::Invoke { call } => ops.push(Op {
                    index: ops.len() as OpIndex,
                    who: entry.who,
                    call,
                    invoked: instant,
                    completed: None,
                    end: OpEnd::Unknown(Unknown::NotYet),
                    served_by: None,
                }),
                EntryKind::Complete { op, end, served_by } => {
                    let op = &mut ops[op as usize];
                    op.completed = Some(instant);
                    op.end = end;
                    op.served_by = served_by;
                }
            }
        }
        ops
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::client_history::OpReturn;
    use crate::contract::protocol::ClientCommand;

    fn get(key: u32) -> OpCall {
        OpCall::Kv(ClientCommand::Get { key })
    }

    #[test]
    fn chunks_seal_and_positions_run_on_across_them() {
        let mut log = ClientLog::default();
        for local in 0..(CHUNK_LEN as u64) {
            let call = get(1);
            log.push(local, Who::Request, Record::Invoke { local, call }, None);
        }
        let end = OpEnd::Ok(OpReturn::Read(None));
        log.push(9, Who::Request, Record::Complete { local: 3, end }, None);
        assert_eq!(log.sealed.len(), 1);
        let ops = log.ops();
        assert_eq!(ops.len(), CHUNK_LEN);
        assert_eq!(ops[3].completed.unwrap().position, CHUNK_LEN as u64);
        assert_eq!(ops[3].end, end);
        assert_eq!(ops[4].end, OpEnd::Unknown(Unknown::NotYet));
    }

    #[test]
    fn a_refused_resend_ends_unknown_and_a_refusal_of_one_send_ends_failed() {
        let mut log = ClientLog::default();
        let who = Who::Node(NodeId(3));
        let call = get(1);
        log.tap(0, who, Tap::Invoke { local: 7, call }, None);
        log.tap(5, who, Tap::Invoke { local: 7, call }, None);
        log.tap(9, who, Tap::Invoke { local: 8, call }, None);
        let refused = OpEnd::Failed("stale token");
        log.tap(
            10,
            who,
            Tap::Complete {
                local: 7,
                end: refused,
            },
            None,
        );
        log.tap(
            11,
            who,
            Tap::Complete {
                local: 8,
                end: refused,
            },
            None,
        );
        let ops = log.ops();
        assert_eq!(ops.len(), 2, "a resend is the same op");
        assert_eq!(ops[0].end, OpEnd::Unknown(Unknown::RefusedResend));
        assert_eq!(ops[1].end, refused);
        // An op answered after a resend keeps its answer.
        log.tap(12, who, Tap::Invoke { local: 9, call }, None);
        log.tap(13, who, Tap::Invoke { local: 9, call }, None);
        let answered = OpEnd::Ok(OpReturn::Read(None));
        log.tap(
            14,
            who,
            Tap::Complete {
                local: 9,
                end: answered,
            },
            None,
        );
        assert_eq!(log.ops()[2].end, answered);
    }
}
