//! A lock request to the etcd-style lock service that got no answer in time.
//!
//! A worker asks the service for the lock (etcd would call it a Txn that creates the worker's key) and
//! waits at most its operation timeout. When no answer comes (the server it asked crashed, or was cut
//! off, or the answer was lost) the worker cannot tell whether the request was applied: its outcome is
//! unknown. It then asks the next server, under the same request id when it uses an idempotency key,
//! so that a lease the first attempt made is found again rather than made twice.
//!
//! `lock_request_timed_out` reads that from the trace: a worker's operation timer fired, and the next
//! thing the worker sent was an `Acquire`. A refused acquire ("not leader") is answered and resent
//! without any timer, and a timed-out read or write at the store is followed by another access, so
//! neither counts.

use super::trace_cursor::TraceCursor;
use super::Verdict;
use crate::base::ids::NodeId;
use crate::engine::trace::TraceEvent;
use crate::engine::world::World;
use std::collections::{BTreeMap, BTreeSet};

/// The worker's timer for any operation it waits on (its label in the trace).
const OPERATION_TIMEOUT: &str = "operation timeout";
const ACQUIRE: &str = "Acquire";

#[derive(Clone, Debug)]
pub(super) struct LockTimeoutWatch {
    cursor: TraceCursor,
    /// Per worker, the server its latest `Acquire` went to.
    asked: BTreeMap<NodeId, NodeId>,
    /// Workers whose operation timer just fired, before their next send.
    timed_out: BTreeSet<NodeId>,
    /// Some other operation timed out (a store access, a release).
    other_timeouts: u64,
    /// The timed-out acquire: the worker, the server that did not answer, the server asked next.
    found: Option<(NodeId, NodeId, NodeId)>,
}

impl LockTimeoutWatch {
    pub(super) fn begin(world: &World) -> LockTimeoutWatch {
        LockTimeoutWatch {
            cursor: TraceCursor::at_end(world),
            asked: BTreeMap::new(),
            timed_out: BTreeSet::new(),
            other_timeouts: 0,
            found: None,
        }
    }

    pub(super) fn acquire_timed_out(&mut self, world: &World) -> Verdict {
        if world.layout().is_none_or(|layout| layout.workers == 0) {
            return Verdict::not_yet("this world has no lock clients".into());
        }
        let Some(records) = self.cursor.unread(world) else {
            *self = LockTimeoutWatch::begin(world);
            return Verdict::not_yet("the run went back in time; watching again from here".into());
        };
        for record in records {
            match &record.event {
                // Any other timer of the worker (its next job, say) comes between a timeout and a
                // send that does not answer it.
                TraceEvent::Timer { node, label } if *label == OPERATION_TIMEOUT => {
                    self.timed_out.insert(*node);
                }
                TraceEvent::Timer { node, .. } => {
                    self.timed_out.remove(node);
                }
                TraceEvent::Send {
                    from, to, label, ..
                } => {
                    let after_timeout = self.timed_out.remove(from);
                    if *label != ACQUIRE {
                        self.other_timeouts += u64::from(after_timeout);
                        continue;
                    }
                    let before = self.asked.insert(*from, *to);
                    if let (true, Some(silent), None) = (after_timeout, before, self.found) {
                        self.found = Some((*from, silent, *to));
                    }
                }
                _ => {}
            }
        }
        self.verdict(world)
    }

    fn verdict(&self, world: &World) -> Verdict {
        let Some((worker, silent, next)) = self.found else {
            return Verdict::not_yet(if self.other_timeouts > 0 {
                "an operation timed out, but it was a read, a write or a release, not a request for \
                 the lock"
                    .into()
            } else {
                "every request for the lock so far was answered in time".into()
            });
        };
        let options = world.config().protocol.lock_options();
        let timeout_ms = options.map_or(0, |options| options.op_timeout_ms);
        let same_id = options.is_some_and(|options| options.idempotency_key);
        let retry = if same_id {
            "under the same request id, so a lease the first attempt made is found again, not made \
             twice"
        } else {
            "under a new request id: had the first attempt landed, its lease is left for nobody to \
             keep alive until it expires"
        };
        let label = world.node_label(worker);
        Verdict::yes(format!(
            "{label}'s request for the lock (a Txn creating its key, in etcd's words) to {} got no \
             answer within {timeout_ms} ms: {label} cannot tell whether it was applied, so its \
             outcome is unknown. It asked {} next, {retry}",
            world.node_label(silent),
            world.node_label(next)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_met, explanation_when_never_met, with_step};
    use crate::tooling::lesson::Checkpoint;

    const DELAY: &str =
        include_str!("../../../../../lessons/scenarios/lock-delay-fenced-calm.toml");

    fn world() -> String {
        DELAY.replace("duration_ms = 120000", "duration_ms = 8000")
    }

    #[test]
    fn a_lock_request_to_a_crashed_service_leader_times_out() {
        let text = with_step(&world(), 1_100, "\"crash\"\ntarget = \"leader\"");
        let explanation =
            explanation_when_met(&text, Checkpoint::LockRequestTimedOut, 1_000, 5_000);
        assert!(
            explanation.contains("got no answer within 300 ms")
                && explanation.contains("same request id"),
            "{}",
            explanation
        );
    }

    /// A crashed store leaves reads and writes unanswered: operations time out, but none is a
    /// request for the lock.
    #[test]
    fn a_store_access_that_times_out_is_not_a_lock_request() {
        let text = with_step(&world(), 1_100, "\"crash\"\ntarget = \"store\"");
        let explanation =
            explanation_when_never_met(&text, Checkpoint::LockRequestTimedOut, 1_000, 5_000);
        assert!(
            explanation.contains("not a request for the lock"),
            "{}",
            explanation
        );
    }

    #[test]
    fn a_calm_service_answers_every_lock_request() {
        explanation_when_never_met(&world(), Checkpoint::LockRequestTimedOut, 1_000, 5_000);
    }
}
