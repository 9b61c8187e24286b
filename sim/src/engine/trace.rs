//! The trace: one serializable record per thing that happened, and a hash over all of them.
//!
//! The hash (the run's fingerprint, see [`crate::engine::fingerprint`]) covers every record of the
//! run. Memory is capped: only the newest [`TRACE_CAP`] records are kept (in shared chunks, so cloning
//! a world for a snapshot is cheap); older ones are forgotten but stay covered by the hash, and
//! `dropped_records` says how many were forgotten.

use crate::base::ids::NodeId;
use crate::contract::action::Action;
use crate::contract::protocol::{ClientCommand, ClientOutcome, RequestId};
use crate::contract::verdicts::Finding;
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

impl From<Finding> for TraceEvent {
    fn from(finding: Finding) -> TraceEvent {
        TraceEvent::Violation {
            invariant: finding.invariant,
            nodes: finding.nodes,
            detail: finding.detail,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct TraceLog {
    sealed: VecDeque<Arc<Vec<TraceRecord>>>,
    open: Vec<TraceRecord>,
    fingerprint: Fingerprint,
    total: u64,
    dropped_records: u64,
    /// Neither kept nor hashed, only counted (see [`TraceLog::mute`]).
    muted: bool,
}

impl TraceLog {
    pub fn new(fingerprint: FingerprintKind) -> TraceLog {
        TraceLog {
            fingerprint: Fingerprint::new(fingerprint),
            ..TraceLog::default()
        }
    }

    pub fn record(&mut self, at_us: u64, event: TraceEvent) {
        if self.muted {
            self.total += 1;
            return;
        }
        let record = TraceRecord { at_us, event };
        self.fingerprint.add(&record, record.at_us, &record.event);
        self.total += 1;
        self.open.push(record);
        if self.open.len() >= CHUNK_LEN {
            self.seal_open_chunk();
        }
    }

    /// Moves the full open chunk to the sealed ones, forgetting the oldest so that sealed + open never
    /// exceed the cap. A forgotten chunk no snapshot shares becomes the next open one: the profile of
    /// a long run showed a twelfth of the engine's time in page faults from allocating fresh chunks.
    fn seal_open_chunk(&mut self) {
        let mut reusable = None;
        // Room for the chunk being sealed and one open chunk.
        while (self.sealed.len() + 2) * CHUNK_LEN > TRACE_CAP {
            let Some(oldest) = self.sealed.pop_front() else {
                break;
            };
            self.dropped_records += oldest.len() as u64;
            reusable = Arc::try_unwrap(oldest).ok();
        }
        let next_open = match reusable {
            Some(mut chunk) => {
                chunk.clear();
                chunk
            }
            None => Vec::with_capacity(CHUNK_LEN),
        };
        let full = std::mem::replace(&mut self.open, next_open);
        self.sealed.push_back(Arc::new(full));
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

    /// Stops keeping and hashing records, for a run whose trace nobody reads (a bounded search for
    /// a broken invariant: the checkers never read the trace, and the search's state digest leaves
    /// it out). The profile of a search showed a tenth of its time here. From then on the hash no
    /// longer identifies the run; the total still counts.
    pub fn mute(&mut self) {
        self.forget_records();
        self.muted = true;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn note_number(record: &TraceRecord) -> u64 {
        match &record.event {
            TraceEvent::Note { text } => text.parse().expect("a numbered note"),
            other => panic!("unexpected record {other:?}"),
        }
    }

    fn record_notes(trace: &mut TraceLog, numbers: std::ops::Range<u64>) {
        for number in numbers {
            let text = number.to_string();
            trace.record(number, TraceEvent::Note { text });
        }
    }

    #[test]
    fn a_muted_trace_keeps_and_hashes_nothing_but_counts() {
        let mut trace = TraceLog::default();
        record_notes(&mut trace, 0..10);
        let hash = trace.hash();
        trace.mute();
        record_notes(&mut trace, 10..20);
        assert_eq!(trace.records().count(), 0);
        assert_eq!((trace.total(), trace.hash()), (20, hash));
    }

    /// Past the cap the newest records stay, in order, whether a forgotten chunk was reused or a copy
    /// (a snapshot) still shared it.
    #[test]
    fn past_the_cap_the_newest_records_stay_in_order_and_copies_keep_theirs() {
        let mut trace = TraceLog::default();
        record_notes(&mut trace, 0..TRACE_CAP as u64 + 2_500);
        let copy = trace.clone();
        record_notes(
            &mut trace,
            TRACE_CAP as u64 + 2_500..3 * TRACE_CAP as u64 + 700,
        );
        let kept: Vec<u64> = trace.records().map(note_number).collect();
        let total = 3 * TRACE_CAP as u64 + 700;
        assert!(kept.len() <= TRACE_CAP && kept.len() > TRACE_CAP - CHUNK_LEN);
        let first = total - kept.len() as u64;
        assert!(
            kept.iter().copied().eq(first..total),
            "kept records out of order"
        );
        assert_eq!(trace.dropped_records() + kept.len() as u64, total);
        let copy_kept: Vec<u64> = copy.records().map(note_number).collect();
        let copy_total = TRACE_CAP as u64 + 2_500;
        let copy_first = copy_total - copy_kept.len() as u64;
        assert!(copy_kept.iter().copied().eq(copy_first..copy_total));
    }
}
