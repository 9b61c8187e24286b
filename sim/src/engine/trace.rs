//! The trace: one serializable record per thing that happened, and a hash over all of them.
//!
//! The hash (the run's fingerprint, see [`crate::engine::fingerprint`]) covers every record of the
//! run. Memory is capped: only the newest [`TRACE_CAP`] records are kept (in shared chunks, so cloning
//! a world for a snapshot is cheap); older ones are forgotten but stay covered by the hash, and
//! `dropped_records` says how many were forgotten.

use crate::base::ids::NodeId;
use crate::contract::action::Action;
use crate::contract::protocol::{ClientCommand, ClientOutcome, RequestId};
use crate::engine::fingerprint::{Fingerprint, FingerprintKind};
use crate::engine::network::MessageId;
use crate::worlds::actor::Fact;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;

/// Most records kept in memory (the newest ones; forgetting happens a chunk of 1_000 at a time).
pub const TRACE_CAP: usize = 100_000;
const CHUNK_LEN: usize = 1_000;

#[derive(Clone, Debug, Serialize)]
pub struct TraceRecord {
    pub at_us: u64,
    #[serde(flatten)]
    pub event: TraceEvent,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TraceEvent {
    Action {
        action: Action,
    },
    /// The action just before could not run (its target did not exist, or it made no sense then).
    Skipped {
        reason: String,
    },
    Send {
        id: MessageId,
        from: NodeId,
        to: NodeId,
        label: &'static str,
        deliver_at_us: u64,
        dropped: bool,
    },
    Deliver {
        id: MessageId,
        from: NodeId,
        to: NodeId,
        label: &'static str,
    },
    Drop {
        id: MessageId,
        reason: &'static str,
    },
    Queued {
        id: MessageId,
        to: NodeId,
    },
    Timer {
        node: NodeId,
        label: &'static str,
    },
    Observe {
        node: NodeId,
        fact: Fact,
    },
    ClientSubmit {
        request: RequestId,
        node: NodeId,
        command: ClientCommand,
    },
    ClientOutcome {
        request: RequestId,
        outcome: ClientOutcome,
    },
    Violation {
        invariant: &'static str,
        nodes: Vec<NodeId>,
        detail: String,
    },
    Note {
        text: String,
    },
    // New variants go below this line only (the fingerprint numbers them in order).
    /// A learner dropped (`held_by_ms: None`) or held back one message in flight by `held_by_ms`.
    Intercepted {
        id: MessageId,
        from: NodeId,
        to: NodeId,
        label: &'static str,
        held_by_ms: Option<u64>,
    },
}

#[derive(Clone, Debug, Default)]
pub struct TraceLog {
    sealed: VecDeque<Arc<Vec<TraceRecord>>>,
    open: Vec<TraceRecord>,
    fingerprint: Fingerprint,
    total: u64,
    dropped_records: u64,
}

impl TraceLog {
    pub fn new(fingerprint: FingerprintKind) -> TraceLog {
        TraceLog {
            fingerprint: Fingerprint::new(fingerprint),
            ..TraceLog::default()
        }
    }

    pub fn record(&mut self, at_us: u64, event: TraceEvent) {
        let record = TraceRecord { at_us, event };
        self.fingerprint.add(&record, record.at_us, &record.event);
        self.total += 1;
        self.open.push(record);
        if self.open.len() >= CHUNK_LEN {
            let chunk = std::mem::replace(&mut self.open, Vec::with_capacity(CHUNK_LEN));
            self.sealed.push_back(Arc::new(chunk));
            // Room for one open chunk, so sealed + open never exceeds the cap.
            while (self.sealed.len() + 1) * CHUNK_LEN > TRACE_CAP {
                let forgotten = self.sealed.pop_front().map_or(0, |chunk| chunk.len());
                self.dropped_records += forgotten as u64;
            }
        }
    }

    pub fn hash(&self) -> u64 {
        self.fingerprint.value()
    }

    /// Forgets every kept record; the hash, the total and the count of dropped records still cover
    /// them.
    pub fn forget_records(&mut self) {
        let kept = self.open.len() + self.sealed.iter().map(|chunk| chunk.len()).sum::<usize>();
        self.dropped_records += kept as u64;
        self.sealed.clear();
        self.open = Vec::new();
    }

    pub fn fingerprint_kind(&self) -> FingerprintKind {
        self.fingerprint.kind()
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn dropped_records(&self) -> u64 {
        self.dropped_records
    }

    /// The records still in memory, oldest first (`.rev()` for newest first).
    pub fn records(&self) -> impl DoubleEndedIterator<Item = &TraceRecord> {
        self.sealed
            .iter()
            .flat_map(|chunk| chunk.iter())
            .chain(self.open.iter())
    }

    pub fn write_jsonl(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        for record in self.records() {
            serde_json::to_writer(&mut *out, record)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}
