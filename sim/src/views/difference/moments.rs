//! One run's notable moments and tallies, read incrementally from its trace (as the narrator reads it:
//! only what the trace gained since the last call, and a fresh start after a rewind).

use crate::contract::protocol::RaftFact;
use crate::engine::trace::{TraceEvent, TraceRecord};
use crate::engine::world::World;
use crate::protocols::resource::{AccessOutcome, ResourceFact};
use crate::worlds::actor::Fact;

/// Moments kept per run; past this only the tallies grow (a long chaotic run stays bounded).
pub const MAX_MOMENTS: usize = 1_000;

/// Something a learner would point at: when, and what in a few words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    pub at_us: u64,
    pub what: String,
}

/// Counts that show a difference of cost rather than of correctness.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub messages_sent: u64,
    pub writes_accepted: u64,
    pub writes_refused: u64,
    pub violations: u64,
    pub elections: u64,
}

/// A run's moments so far, read from its trace.
#[derive(Clone, Debug, Default)]
pub struct MomentLog {
    records_read: u64,
    moments: Vec<Moment>,
    tally: Tally,
    /// Whether the newest moment is a violation (the next one at its instant joins it).
    last_was_violation: bool,
}

impl MomentLog {
    pub fn new() -> MomentLog {
        MomentLog::default()
    }

    pub fn moments(&self) -> &[Moment] {
        &self.moments
    }

    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// Reads what `world`'s trace gained since the last call. After a rewind (a shorter trace) it
    /// starts again from the run's beginning, so the log always matches the run shown.
    pub fn catch_up(&mut self, world: &World) {
        let trace = world.trace();
        if trace.total() < self.records_read {
            *self = MomentLog::new();
        }
        // Records the trace already forgot cannot be read; they count as read.
        let first_kept = trace.dropped_records();
        self.records_read = self.records_read.max(first_kept);
        let skip = (self.records_read - first_kept) as usize;
        for record in trace.records().skip(skip) {
            self.read(world, record);
        }
    }

    fn read(&mut self, world: &World, record: &TraceRecord) {
        self.records_read += 1;
        let (what, is_violation) = match &record.event {
            TraceEvent::Send { .. } => {
                self.tally.messages_sent += 1;
                (None, false)
            }
            TraceEvent::Violation { invariant, .. } => {
                self.tally.violations += 1;
                (Some(violation_words(invariant)), true)
            }
            TraceEvent::Observe { node, fact } => {
                (self.read_fact(fact, &world.node_label(*node)), false)
            }
            _ => (None, false),
        };
        let Some(what) = what else {
            return;
        };
        // Invariants one event broke together are one moment ("stale token accepted, lost update").
        let joins_last = is_violation && self.last_was_violation;
        self.last_was_violation = is_violation;
        if let Some(last) = self.moments.last_mut() {
            if joins_last && last.at_us == record.at_us {
                last.what = joined(&last.what, &what);
                return;
            }
        }
        if self.moments.len() < MAX_MOMENTS {
            self.moments.push(Moment {
                at_us: record.at_us,
                what,
            });
        }
    }

    fn read_fact(&mut self, fact: &Fact, node: &str) -> Option<String> {
        match fact {
            Fact::Raft(RaftFact::BecameLeader { term, .. }) => {
                self.tally.elections += 1;
                Some(format!("{node} elected in term {}", term.0))
            }
            Fact::Resource(ResourceFact::ResourceAccess {
                write: true,
                outcome,
                ..
            }) => match outcome {
                AccessOutcome::StaleToken => {
                    self.tally.writes_refused += 1;
                    Some("StaleToken refused".to_string())
                }
                AccessOutcome::Accepted => {
                    self.tally.writes_accepted += 1;
                    None
                }
                AccessOutcome::Duplicate => None,
                AccessOutcome::Malformed(_) => Some("malformed write refused".to_string()),
            },
            _ => None,
        }
    }
}

/// `what` added to a moment's words: a new kind after a comma, a kind already there counted
/// ("stale read ×3" rather than the same words three times).
fn joined(words: &str, what: &str) -> String {
    let mut parts: Vec<(String, u32)> = words
        .split(", ")
        .map(|part| match part.rsplit_once(" ×") {
            Some((kind, count)) if count.parse::<u32>().is_ok() => {
                (kind.to_string(), count.parse().unwrap_or(1))
            }
            _ => (part.to_string(), 1),
        })
        .collect();
    match parts.iter_mut().find(|(kind, _)| kind == what) {
        Some((_, count)) => *count += 1,
        None => parts.push((what.to_string(), 1)),
    }
    let words: Vec<String> = parts
        .into_iter()
        .map(|(kind, count)| match count {
            1 => kind,
            count => format!("{kind} ×{count}"),
        })
        .collect();
    words.join(", ")
}

/// A violated invariant in the words a learner uses for what went wrong.
fn violation_words(invariant: &str) -> String {
    match invariant {
        "No Lost Updates" => "lost update".to_string(),
        "Mutual Exclusion" => "two holders at once".to_string(),
        "No Duplicate Invoice" => "duplicate invoice".to_string(),
        "Linearizable Reads" => "stale read".to_string(),
        "Election Safety" => "two leaders in one term".to_string(),
        "Token Monotonicity" => "stale token accepted".to_string(),
        other => format!("{other} broken"),
    }
}
