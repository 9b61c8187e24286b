//! A lock holder crashed: a worker went down while the lock service counted it as the holder. A crash
//! of a worker that held nothing does not count, because what a learner is meant to see next (the
//! service keeping the dead holder's lease until it runs out, the restarted worker asking again) only
//! follows the crash of a holder.
//!
//! The moment of the crash is what matters, and checks come only every few milliseconds (a scripted
//! run applies its actions between them), so the watch reads the trace: the grants and releases the
//! service applied, in revision order, tell who held the lock when each crash action came. A grant
//! the service makes to a waiter that has already crashed comes after the crash, so it is no witness.

use super::Verdict;
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::action::{Action, NodeTarget};
use crate::engine::trace::{TraceEvent, TraceRecord};
use crate::engine::world::World;
use crate::protocols::lockservice::LockFact;
use crate::worlds::actor::Fact;
use std::collections::BTreeMap;

/// What the checkpoint remembers between checks.
#[derive(Clone, Debug, Default)]
pub(super) struct HolderCrashWatch {
    /// Trace records when the step began: crashes before then do not count.
    records_at_begin: u64,
    /// Trace records read so far; `None` until the first check replays what the trace still holds.
    records_read: Option<u64>,
    /// Per key, the owner and token of the hold the service applied last.
    holds: BTreeMap<u32, (NodeId, FencingToken)>,
    /// The highest revision applied (every replica reports each change; the first report counts).
    revision: u64,
    /// Each crash since the step began: the worker, and the token it held then (`None`: nothing).
    crashes: Vec<(NodeId, Option<FencingToken>)>,
}

impl HolderCrashWatch {
    pub(super) fn begin(world: &World) -> HolderCrashWatch {
        HolderCrashWatch {
            records_at_begin: world.trace().total(),
            ..HolderCrashWatch::default()
        }
    }

    /// Reads what the trace gained; on the first call, everything it still holds (the holds in force
    /// when the step began come from the grants before it).
    fn catch_up(&mut self, world: &World) {
        let trace = world.trace();
        let read = self.records_read.unwrap_or(trace.dropped_records());
        if trace.total() < read {
            *self = HolderCrashWatch::begin(world);
            return self.catch_up(world);
        }
        let first = trace.dropped_records().max(read);
        let skip = (first - trace.dropped_records()) as usize;
        let mut records = trace.records().skip(skip).peekable();
        let mut index = first;
        while let Some(record) = records.next() {
            let skipped = records
                .peek()
                .is_some_and(|next| matches!(next.event, TraceEvent::Skipped { .. }));
            let counts = index >= self.records_at_begin && !skipped;
            self.note(record, counts);
            index += 1;
        }
        self.records_read = Some(trace.total());
    }

    fn note(&mut self, record: &TraceRecord, crash_counts: bool) {
        match &record.event {
            TraceEvent::Observe {
                fact: Fact::Lock(fact),
                ..
            } => self.apply(fact),
            TraceEvent::Action {
                action:
                    Action::Crash {
                        target: NodeTarget::Node(node),
                    },
            } if crash_counts => {
                let held = self.holds.values().find(|(owner, _)| owner == node);
                self.crashes.push((*node, held.map(|(_, token)| *token)));
            }
            _ => {}
        }
    }

    fn apply(&mut self, fact: &LockFact) {
        match *fact {
            LockFact::LockGranted {
                key,
                owner,
                token,
                revision,
                ..
            } if revision > self.revision => {
                self.revision = revision;
                self.holds.insert(key, (owner, token));
            }
            LockFact::LockReleased {
                key,
                owner,
                revision,
                ..
            } if revision > self.revision => {
                self.revision = revision;
                if self.holds.get(&key).is_some_and(|(held, _)| *held == owner) {
                    self.holds.remove(&key);
                }
            }
            _ => {}
        }
    }

    /// Met when `target` (any worker when `None`) crashed since the step began while it held the lock.
    pub(super) fn lock_holder_crashed(&mut self, world: &World, target: Option<NodeId>) -> Verdict {
        if world.layout().is_none_or(|layout| layout.workers == 0) {
            return Verdict::not_yet("this world has no lock clients".into());
        }
        self.catch_up(world);
        let wanted = |node: &NodeId| target.is_none_or(|target| target == *node);
        let mut crashes = self.crashes.iter().filter(|(node, _)| wanted(node));
        if let Some((node, token)) = crashes
            .clone()
            .find_map(|(node, token)| Some((node, (*token)?)))
        {
            return Verdict::yes(format!(
                "{} crashed while holding the lock (token {token}); the service goes on counting \
                 it as the holder until its lease runs out",
                world.node_label(*node)
            ));
        }
        let holder = match self.holds.values().next() {
            Some((owner, token)) => format!("{} holds it, token {token}", world.node_label(*owner)),
            None => "nobody holds it right now".into(),
        };
        match crashes.next_back() {
            Some((node, _)) => Verdict::not_yet(format!(
                "{} crashed holding nothing ({holder}): restart it, wait until it holds the lock, \
                 and crash it then",
                world.node_label(*node)
            )),
            None => Verdict::not_yet(format!("no lock holder has crashed; {holder}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_never_met, watch_until_met};
    use crate::base::ids::NodeId;
    use crate::contract::action::NodeTarget;
    use crate::tooling::lesson::Checkpoint;

    const FENCING: &str = include_str!("../../../../../lessons/scenarios/fencing-calm.toml");

    fn crash(target: &str, at_ms: u64) -> String {
        format!("{FENCING}\n[[step]]\nat_ms = {at_ms}\ndo = \"crash\"\ntarget = \"{target}\"\n")
            .replace("duration_ms = 120000", "duration_ms = 6000")
    }

    /// Three servers come first; the workers A and B follow them.
    fn worker(label: &str) -> Option<NodeTarget> {
        let index = if label == "A" { 3 } else { 4 };
        Some(NodeTarget::Node(NodeId(index)))
    }

    /// A holds token 5 at 1 300 ms (the holder tests in `holders.rs` rely on the same moment).
    #[test]
    fn the_holder_crashing_counts() {
        let text = crash("A", 1_300);
        let checkpoint = Checkpoint::LockHolderCrashed(worker("A"));
        let (met, verdict) = watch_until_met(&text, checkpoint, 1_000, 3_000);
        assert_eq!(met, Some(1_300), "{}", verdict.explanation);
        assert!(
            verdict
                .explanation
                .starts_with("A crashed while holding the lock (token 5)"),
            "{}",
            verdict.explanation
        );
    }

    /// B is waiting, not holding, at 1 300 ms: its crash is not the one the step asks for, even
    /// when the service later grants the lock to the crashed waiter.
    #[test]
    fn a_worker_that_held_nothing_does_not_count() {
        let text = crash("B", 1_300);
        let checkpoint = Checkpoint::LockHolderCrashed(worker("B"));
        let explanation = explanation_when_never_met(&text, checkpoint, 1_000, 4_000);
        assert!(
            explanation.starts_with("B crashed holding nothing"),
            "{}",
            explanation
        );
    }

    #[test]
    fn a_crash_before_the_step_began_does_not_count() {
        let text = crash("A", 1_300);
        let explanation =
            explanation_when_never_met(&text, Checkpoint::LockHolderCrashed(None), 1_400, 3_000);
        assert!(explanation.starts_with("no lock holder has crashed"));
    }
}
