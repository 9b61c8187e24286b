//! Disks: how long a node's writes take, and the replies that wait for them.
//!
//! A protocol says "what I send next depends on what I just made durable" by pushing
//! `Effect::Persist` before the sends (the ordering rule of `contract::protocol`). Until disks existed
//! the world took the write as done the instant `handle` returned. Now each node has a write time, a
//! range in milliseconds — the world's `[timing] persist_ms`, or its own after a `SlowDisk` action —
//! and when an input made a write, the messages that depend on it (pushed with
//! `Effects::send_after_persist`) leave only when the write is done. That is Raft's "persist before
//! you answer": a vote, a term, log entries are on disk before RequestVote or AppendEntries is
//! answered, and a candidate writes its term and its vote for itself before asking for votes (the
//! simple way; an implementation may also ask first and only count its own vote once written); a
//! Paxos acceptor's promise likewise. A leader's
//! AppendEntries is not held: the dissertation (section 10.2.1) lets a leader write its own log in
//! parallel with sending it. Why per input and not per `persist` call: a real server gathers what
//! one message changed (a term, then a vote) into one write and one flush, as etcd's `Ready` does.
//!
//! The disk does one write at a time: a write that begins while an earlier one is still going waits
//! for it, so a burst of requests to a slow disk queues, as on a real one (the leader's own writes
//! occupy its disk too). A write time of `[0, 0]` (every world's default) is a disk that writes at
//! once: no random number is drawn, no send moves, and every pinned hash stays what it was.
//!
//! Known simplification: a leader counts its own copy of an entry at once, before its own write
//! would be done, so commit latency under a slow leader disk reads a little short; elections, which
//! the experiments measure, depend only on the replies.
//!
//! What a crash does to a write in progress: the state the actor holds as durable is kept (the model
//! has no torn writes), but the replies waiting behind it are never sent, so the crashed node tells
//! no one anything after it went down. That is one of the outcomes a real crash can have, and a safe
//! one: nothing was promised to anyone.

use super::{NodeStatus, World};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::contract::action::NodeTarget;
use crate::contract::config::MAX_PERSIST_MS;
use crate::engine::trace::TraceEvent;

/// One node's disk: its own write time, if a learner gave it one, and when its current write ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Disk {
    /// The node's own write time in ms; `None` follows the world's `[timing] persist_ms`.
    pub own_persist_ms: Option<(u64, u64)>,
    /// When the write in progress (if any) is done; nothing waits before this.
    pub free_at: SimTime,
}

impl World {
    /// The write time range, in ms, `node`'s disk has now.
    pub fn persist_ms(&self, node: NodeId) -> (u64, u64) {
        self.nodes[node.index()]
            .disk
            .own_persist_ms
            .unwrap_or(self.config.timing.persist_ms)
    }

    /// Starts one write on `node`'s disk and returns when it is done: at once (no draw) for a disk
    /// that writes instantly, otherwise after any write still going plus a time drawn in the range.
    pub(super) fn write_to_disk(&mut self, node: NodeId) -> SimTime {
        let (min_ms, max_ms) = self.persist_ms(node);
        if max_ms == 0 {
            return self.now;
        }
        let took_us = self.rng.range_inclusive(min_ms * 1_000, max_ms * 1_000);
        let disk = &mut self.nodes[node.index()].disk;
        let starts = disk.free_at.max(self.now);
        disk.free_at = starts.plus_micros(took_us);
        disk.free_at
    }

    /// `Action::SlowDisk`: gives the node its own write time, or the world's again.
    pub(super) fn slow_disk(
        &mut self,
        target: NodeTarget,
        persist_ms: Option<(u64, u64)>,
    ) -> Result<(), String> {
        let node = self.resolve(target)?;
        if let Some((min_ms, max_ms)) = persist_ms {
            if min_ms > max_ms || max_ms > MAX_PERSIST_MS {
                return Err(format!(
                    "a disk write takes [{min_ms}, {max_ms}] ms: it must be an ordered range of \
                     at most {MAX_PERSIST_MS} ms"
                ));
            }
        }
        self.nodes[node.index()].disk.own_persist_ms = persist_ms;
        Ok(())
    }

    /// A crashed node's replies still waiting for its disk are never sent (see the module note).
    pub(super) fn forget_replies_waiting_on_disk(&mut self, node: NodeId) {
        debug_assert_eq!(self.nodes[node.index()].status, NodeStatus::Crashed);
        let now = self.now;
        let disk = &mut self.nodes[node.index()].disk;
        // No write in progress (always so on a disk that writes at once): nothing can be waiting.
        if disk.free_at <= now {
            return;
        }
        disk.free_at = now;
        let waiting: Vec<u64> = self
            .network
            .in_flight
            .in_id_order()
            .into_iter()
            .filter(|flight| flight.from == node && flight.sent_at > now)
            .map(|flight| flight.id)
            .collect();
        if waiting.is_empty() {
            return;
        }
        for id in &waiting {
            self.network.in_flight.remove(id);
        }
        let name = self.node_label(node);
        let count = waiting.len();
        let text = format!(
            "{name} crashed before its disk write was done: {count} message(s) waiting on it never left"
        );
        self.record(TraceEvent::Note { text });
    }
}
