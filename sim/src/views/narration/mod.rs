//! Narration: the trace retold in plain words, one line per event worth telling.
//!
//! The trace says *what* happened (`Timer n3 "election"`, `Observe n3 BecameCandidate{term: 4}`); a
//! learner needs *what it meant* ("n3 heard no leader before its election timer ran out: it raises its
//! term to 4 …"). The [`Narrator`] reads trace records in order and hands each fact to the world's
//! describer from the registry (`ProtocolEntry::describer`, written beside each protocol), and tells
//! actions, client outcomes and violations itself. It never touches the world, so narration costs
//! nothing unless someone reads it, and the same run always reads the same.
//!
//! Two things keep the log readable at high speed: lines a describer marks with the same coalescing
//! key in a row become one line with a count, and heartbeat traffic between two lines becomes one
//! "quiet" line ("4 rounds of heartbeats, nothing else changed").

pub mod actions;
mod fate;
mod records;

use crate::base::ids::NodeId;
use crate::contract::config::ProtocolKind;
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use crate::engine::trace::{TraceEvent, TraceLog, TraceRecord};
use crate::engine::world::World;
use crate::worlds::registry::describe::WorldDescriber;
use std::collections::VecDeque;

pub use records::plain_record;

/// Most lines kept; older ones are forgotten (the trace still has them).
pub const NARRATION_CAP: usize = 500;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NarrationLine {
    /// When it happened (simulated time), so the log can seek there.
    pub at_us: u64,
    pub text: String,
    pub nodes: Vec<NodeId>,
    pub weight: Weight,
    /// How many events this line stands for (1, or more when coalesced).
    pub repeats: u32,
    /// Which line of the narration this is, counting from the start of the run (stable across caps).
    pub ordinal: u64,
    coalesce: Option<&'static str>,
}

/// Reads a run's trace and keeps the newest [`NARRATION_CAP`] lines.
pub struct Narrator {
    describer: WorldDescriber,
    labels: Vec<String>,
    servers: usize,
    /// In a world of servers only, one past the highest node seen sending or sent to: servers added
    /// since the narrator was made count too.
    servers_in_trace: usize,
    lines: VecDeque<NarrationLine>,
    next_ordinal: u64,
    /// Trace records read so far (the trace's own count).
    records_read: u64,
    /// The timer that fired last, and on which node: the facts it caused come right after it.
    last_timer: Option<(NodeId, &'static str)>,
    heartbeats_since_line: u64,
    last_heartbeat_us: u64,
}

impl Narrator {
    /// A narrator for a world of `kind` whose actors are called `labels` (index order; empty for
    /// `n1..nN`), the first `servers` of them servers.
    pub fn new(kind: ProtocolKind, labels: Vec<String>, servers: usize) -> Narrator {
        Narrator {
            describer: WorldDescriber::new(kind),
            labels,
            servers,
            servers_in_trace: 0,
            lines: VecDeque::new(),
            next_ordinal: 0,
            records_read: 0,
            last_timer: None,
            heartbeats_since_line: 0,
            last_heartbeat_us: 0,
        }
    }

    /// A narrator for `world`, named as the world names its actors. It has read nothing yet: call
    /// [`Narrator::catch_up`] with the world's trace.
    pub fn for_world(world: &World) -> Narrator {
        let count = world.node_count();
        let (labels, servers) = match world.layout() {
            Some(layout) => {
                let labels = (0..count)
                    .map(|index| layout.label(NodeId(index as u16)))
                    .collect();
                (labels, layout.servers)
            }
            None => (Vec::new(), count),
        };
        Narrator::new(world.config().protocol.kind(), labels, servers)
    }

    /// How many trace records this narrator has read.
    pub fn records_read(&self) -> u64 {
        self.records_read
    }

    /// Reads the records `trace` gained since the last call. Returns false (reading nothing) when the
    /// trace is shorter than what was read: the run was rewound, and the caller makes a new narrator.
    pub fn catch_up(&mut self, trace: &TraceLog) -> bool {
        let total = trace.total();
        if total < self.records_read {
            return false;
        }
        let kept = total - trace.dropped_records();
        let first_kept = total - kept;
        let skip = self.records_read.max(first_kept) - first_kept;
        self.records_read = self.records_read.max(first_kept);
        for record in trace.records().skip(skip as usize) {
            self.read(record);
        }
        true
    }

    /// Reads one record (in trace order).
    pub fn read(&mut self, record: &TraceRecord) {
        self.records_read += 1;
        let at_us = record.at_us;
        if let TraceEvent::Send { from, to, .. } = &record.event {
            if self.labels.is_empty() {
                let highest = from.index().max(to.index());
                self.servers_in_trace = self.servers_in_trace.max(highest + 1);
            }
        }
        match &record.event {
            TraceEvent::Send { label, .. } if *label == "Heartbeat" => {
                self.heartbeats_since_line += 1;
                self.last_heartbeat_us = at_us;
            }
            TraceEvent::Timer { node, label } => self.last_timer = Some((*node, label)),
            TraceEvent::Observe { node, fact } => {
                let timer = self
                    .last_timer
                    .filter(|(timer_node, _)| timer_node == node)
                    .map(|(_, label)| label);
                let labels = &self.labels;
                let name = |node: NodeId| name_of(labels, node);
                let telling = Telling { name: &name, timer };
                if let Some(described) = self.describer.describe(*node, fact, &telling) {
                    self.push(at_us, described);
                }
            }
            TraceEvent::Deliver { .. } => self.last_timer = None,
            other => {
                self.last_timer = None;
                let labels = &self.labels;
                let name = |node: NodeId| name_of(labels, node);
                let telling = Telling {
                    name: &name,
                    timer: None,
                };
                let servers = self.servers.max(self.servers_in_trace);
                let told = records::tell(other, &mut self.describer, &telling, servers);
                if let Some(described) = told {
                    self.push(at_us, described);
                }
            }
        }
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> impl DoubleEndedIterator<Item = &NarrationLine> + ExactSizeIterator {
        self.lines.iter()
    }

    /// The newest line of at least `weight`: what a caption shows.
    pub fn latest(&self, weight: Weight) -> Option<&NarrationLine> {
        self.lines.iter().rev().find(|line| line.weight >= weight)
    }

    /// Heartbeat rounds since the newest line, when at least one full round went by: "nothing else
    /// changed" is itself news while the learner watches.
    pub fn quiet_rounds(&self) -> u64 {
        self.heartbeats_since_line / self.servers.saturating_sub(1).max(1) as u64
    }

    fn push(&mut self, at_us: u64, described: Described) {
        self.flush_quiet();
        if let Some(last) = self.lines.back_mut() {
            if described.coalesce.is_some() && last.coalesce == described.coalesce {
                last.text = described.text;
                last.nodes = described.nodes;
                last.at_us = at_us;
                last.repeats += 1;
                return;
            }
        }
        self.append(at_us, described);
    }

    fn flush_quiet(&mut self) {
        let rounds = self.quiet_rounds();
        self.heartbeats_since_line = 0;
        // A single round between two lines is the normal rhythm of a busy cluster, not news.
        if rounds < 2 || self.servers < 2 {
            return;
        }
        let text = if rounds == 1 {
            "One round of heartbeats; nothing else changed".to_string()
        } else {
            format!("{rounds} rounds of heartbeats; nothing else changed")
        };
        let described = Described::new(Weight::Routine, text, Vec::new());
        self.append(self.last_heartbeat_us, described);
    }

    fn append(&mut self, at_us: u64, described: Described) {
        let line = NarrationLine {
            at_us,
            text: described.text,
            nodes: described.nodes,
            weight: described.weight,
            repeats: 1,
            ordinal: self.next_ordinal,
            coalesce: described.coalesce,
        };
        self.next_ordinal += 1;
        self.lines.push_back(line);
        if self.lines.len() > NARRATION_CAP {
            self.lines.pop_front();
        }
    }

    /// The name of `node` as the narration says it.
    pub fn name_of(&self, node: NodeId) -> String {
        name_of(&self.labels, node)
    }
}

fn name_of(labels: &[String], node: NodeId) -> String {
    labels
        .get(node.index())
        .cloned()
        .unwrap_or_else(|| node.to_string())
}
