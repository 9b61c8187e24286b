//! Clients: requests submitted by actions, their outcomes, and the client-side timeout that turns a
//! silent request into "unknown". Each request is also written to the client log (invocation and
//! completion), beside the trace and never instead of it: those writes draw nothing, schedule nothing
//! and record nothing, so a run's hash does not know they happen.

use super::{BacklogItem, EventKind, NodeStatus, World};
use crate::base::ids::NodeId;
use crate::base::permutation::Permutation;
use crate::base::time::SimTime;
use crate::base::units::LogIndex;
use crate::contract::action::RequestKind;
use crate::contract::client_history::{OpCall, OpEnd, OpReturn, Record, Unknown, Who};
use crate::contract::protocol::{ClientCommand, ClientError, ClientOutcome, Input, RequestId};
use crate::contract::report::RequestCounts;
use crate::engine::checker::LINEARIZABLE_READS;
use crate::engine::trace::TraceEvent;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// Finished requests kept for the UI's "recent outcomes" list.
pub const RECENT_REQUESTS: usize = 64;
/// Keys cycle through this many values so reads see earlier writes.
const KEY_SPACE: u64 = 16;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ClientRecord {
    pub id: RequestId,
    pub node: Option<NodeId>,
    pub command: Option<ClientCommand>,
    pub submitted_at_us: u64,
    pub outcome: ClientOutcome,
    pub finished_at_us: Option<u64>,
    /// Highest log index of a write acknowledged to any client before this request was submitted: a
    /// linearizable read must reflect at least this much.
    pub must_reflect_index: LogIndex,
}

#[derive(Clone, Debug, Default)]
pub struct Clients {
    pending: BTreeMap<RequestId, ClientRecord>,
    pub recent: VecDeque<ClientRecord>,
    pub counts: RequestCounts,
    next_id: RequestId,
    highest_acknowledged_write: LogIndex,
}

impl Clients {
    /// Feeds the requests still waiting to `out` (the explorer's state digest), and the highest write
    /// acknowledged, which later linearizability verdicts read. Finished requests only report.
    pub fn digest(&self, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        (&self.pending, self.highest_acknowledged_write).hash(&mut out);
    }

    /// [`Clients::digest`] with the node each request went to renamed by `renaming`.
    pub fn digest_under(&self, renaming: &Permutation, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        self.pending.len().hash(&mut out);
        for (id, record) in &self.pending {
            let node = record.node.map(|node| renaming.node(node));
            let renamed = ClientRecord {
                node,
                ..record.clone()
            };
            (id, renamed).hash(&mut out);
        }
        self.highest_acknowledged_write.hash(&mut out);
    }

    pub fn pending(&self) -> impl Iterator<Item = &ClientRecord> {
        self.pending.values()
    }

    fn allocate(&mut self) -> RequestId {
        self.next_id += 1;
        self.next_id
    }

    fn finish(&mut self, mut record: ClientRecord, outcome: ClientOutcome, now: SimTime) {
        if let ClientOutcome::Committed { index, .. } = outcome {
            self.highest_acknowledged_write = self.highest_acknowledged_write.max(index);
        }
        record.outcome = outcome;
        record.finished_at_us = Some(now.as_micros());
        match outcome {
            ClientOutcome::Committed { .. } | ClientOutcome::Read { .. } => {
                self.counts.committed += 1
            }
            ClientOutcome::Rejected(_) => self.counts.failed += 1,
            ClientOutcome::Unknown => self.counts.unknown += 1,
            ClientOutcome::Pending => {}
        }
        if self.recent.len() >= RECENT_REQUESTS {
            self.recent.pop_front();
        }
        self.recent.push_back(record);
    }
}

impl World {
    /// Submits one request to `node` (or records a failure when there is no target).
    pub(super) fn submit_request(&mut self, node: Option<NodeId>, kind: &RequestKind) {
        let id = self.clients.allocate();
        self.clients.counts.submitted += 1;
        let key = (id % KEY_SPACE) as u32;
        let command = match kind {
            RequestKind::Put => ClientCommand::Put { key, value: id },
            RequestKind::Get => ClientCommand::Get { key },
        };
        let record = ClientRecord {
            id,
            node,
            command: Some(command),
            submitted_at_us: self.now.as_micros(),
            outcome: ClientOutcome::Pending,
            finished_at_us: None,
            must_reflect_index: self.clients.highest_acknowledged_write,
        };
        let call = OpCall::Kv(command);
        self.log_client(Record::Invoke { local: id, call }, None);
        let Some(node) = node else {
            let error = ClientError::NotLeader { leader_hint: None };
            let end = op_end(ClientOutcome::Rejected(error));
            self.log_client(Record::Complete { local: id, end }, None);
            self.clients
                .finish(record, ClientOutcome::Rejected(error), self.now);
            return;
        };
        self.clients.pending.insert(id, record);
        let timeout_at = self.now.plus_ms(self.config.timing.client_timeout_ms);
        self.queue
            .push(timeout_at, EventKind::ClientTimeout { request_id: id });
        self.record(TraceEvent::ClientSubmit {
            request: id,
            node,
            command,
        });
        match self.nodes[node.index()].status {
            NodeStatus::Up => self.dispatch(
                node,
                Input::Client {
                    request_id: id,
                    command,
                },
            ),
            NodeStatus::Paused => self.enqueue_backlog(
                node,
                BacklogItem::Client {
                    request_id: id,
                    command,
                },
            ),
            NodeStatus::Crashed => {
                self.client_reply(id, ClientOutcome::Rejected(ClientError::NodeDown))
            }
        }
    }

    /// A reply after the client gave up is ignored: the client already reported "unknown".
    pub(super) fn client_reply(&mut self, request_id: RequestId, outcome: ClientOutcome) {
        let Some(record) = self.clients.pending.remove(&request_id) else {
            return;
        };
        self.record(TraceEvent::ClientOutcome {
            request: request_id,
            outcome,
        });
        let end = op_end(outcome);
        let served_by = record.node.filter(|_| !matches!(end, OpEnd::Unknown(_)));
        let complete = Record::Complete {
            local: request_id,
            end,
        };
        self.log_client(complete, served_by);
        if let ClientOutcome::Read { index, .. } = outcome {
            if index < record.must_reflect_index {
                self.report_stale_read(&record, index);
            }
        }
        self.clients.finish(record, outcome, self.now);
    }

    fn report_stale_read(&mut self, record: &ClientRecord, index: LogIndex) {
        let nodes: Vec<NodeId> = record.node.into_iter().collect();
        let detail = format!(
            "request {} read state as of index {index}, but a write at index {} was acknowledged before it began",
            record.id, record.must_reflect_index
        );
        let event = self
            .checkers
            .report_violation(LINEARIZABLE_READS, self.now, nodes, detail);
        self.record(event);
    }

    pub(super) fn client_timeout(&mut self, request_id: RequestId) {
        self.client_reply(request_id, ClientOutcome::Unknown);
    }

    /// Writes one event of an anonymous client request to the client log, at the true time.
    fn log_client(&mut self, record: Record, served_by: Option<NodeId>) {
        let at_us = self.now.as_micros();
        self.client_log.push(at_us, Who::Request, record, served_by);
    }
}

/// How a client saw a request end, in the history's words. A refusal is known not to have happened:
/// Raft refuses before appending, and a crashed node does nothing at all.
fn op_end(outcome: ClientOutcome) -> OpEnd {
    match outcome {
        ClientOutcome::Committed { .. } => OpEnd::Ok(OpReturn::Written),
        ClientOutcome::Read { value, .. } => OpEnd::Ok(OpReturn::Read(value)),
        ClientOutcome::Rejected(ClientError::NotLeader { .. }) => OpEnd::Failed("not the leader"),
        ClientOutcome::Rejected(ClientError::NodeDown) => OpEnd::Failed("node down"),
        ClientOutcome::Unknown => OpEnd::Unknown(Unknown::Timeout),
        ClientOutcome::Pending => OpEnd::Unknown(Unknown::NotYet),
    }
}
