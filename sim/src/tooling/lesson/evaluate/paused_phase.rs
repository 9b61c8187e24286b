//! Where each paused lock worker froze, for the checkpoints that wait on its *late write*.
//!
//! The lock lessons ask the learner to freeze a holder while it is modifying: it has read the count
//! and is about to write, so its write leaves late. Frozen at another moment, the same worker never
//! sends a late write at all, and a step waiting for one (a lost update, a refused stale write) would
//! wait in silence. Three moments are hopeless, and the hint names the one the learner hit:
//! - releasing: its write reached the store before the freeze, the job is done;
//! - between jobs: it holds nothing;
//! - reading: when it wakes, its read's answer is the first thing it sees; it checks its lease, finds
//!   it has run out and drops the job. The hint waits until that drop is seen, because a pause shorter
//!   than the lease carries on normally.
//!
//! A worker frozen while asking for the lock or while writing may still send something late (a grant
//! that arrives for a lost lease, a write retried after its timeout), so those get no hint.

use super::holders::workers;
use crate::base::ids::NodeId;
use crate::engine::world::{NodeStatus, World};
use crate::protocols::worker::Phase;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub(super) struct PausedPhases {
    /// The phase each worker was seen paused in since the step began (a paused worker's phase is
    /// frozen with it, so the latest sighting is the phase it was struck in).
    paused_in: BTreeMap<NodeId, Phase>,
    /// Jobs each worker had dropped when the step began.
    abandoned_at_start: BTreeMap<NodeId, u64>,
}

impl PausedPhases {
    pub(super) fn begin(world: &World) -> PausedPhases {
        let mut phases = PausedPhases {
            paused_in: BTreeMap::new(),
            abandoned_at_start: workers(world)
                .map(|(node, worker)| (node, worker.jobs_abandoned))
                .collect(),
        };
        phases.note(world);
        phases
    }

    /// Records the phase of every worker paused right now.
    pub(super) fn note(&mut self, world: &World) {
        for (node, worker) in workers(world) {
            if world.nodes()[node.index()].status == NodeStatus::Paused {
                self.paused_in.insert(node, worker.phase);
            }
        }
    }

    /// Why the late write cannot come and what to do instead, once every worker paused since the step
    /// began froze at a hopeless moment; `None` while one of them may still send it.
    pub(super) fn hint(&self, world: &World) -> Option<String> {
        let reasons: Vec<(NodeId, String)> = self
            .paused_in
            .iter()
            .map(|(node, phase)| Some((*node, self.reason(world, *node, *phase)?)))
            .collect::<Option<_>>()?;
        let (node, why) = reasons.into_iter().next()?;
        let label = world.node_label(node);
        Some(format!(
            "{why}, and this step cannot tick. Drag the timeline back to before the pause, pause \
             {label} again while its lane says modifying, and resume it once another worker holds \
             the lock"
        ))
    }

    fn reason(&self, world: &World, node: NodeId, phase: Phase) -> Option<String> {
        let label = world.node_label(node);
        match phase {
            Phase::Releasing => Some(format!(
                "{label} was paused while releasing: its write had reached the store before the \
                 pause, so {label} has no late write to send"
            )),
            Phase::Idle => Some(format!(
                "{label} was paused between jobs, holding no lock, so it has no late write to send"
            )),
            Phase::Reading if self.dropped_a_job(world, node) => Some(format!(
                "{label} was paused before the count it asked for came back; when it woke it \
                 checked its lease, found it had run out and dropped the job, so it wrote nothing \
                 late"
            )),
            _ => None,
        }
    }

    /// Whether `node` has dropped a job since the step began and is running again.
    fn dropped_a_job(&self, world: &World, node: NodeId) -> bool {
        let running = world.nodes()[node.index()].status == NodeStatus::Up;
        let before = self.abandoned_at_start.get(&node).copied().unwrap_or(0);
        running
            && workers(world)
                .any(|(worker_node, worker)| worker_node == node && worker.jobs_abandoned > before)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::watch_until_met;
    use crate::tooling::lesson::Checkpoint;

    const REDIS: &str = include_str!("../../../../../lessons/scenarios/redis-lock-calm.toml");

    /// Lesson 5's world with B paused at `at_ms` and resumed 1.3 s later, after C has taken the lock
    /// (1 102 ms with this seed). B is granted the lock at 66 ms, asks for the count and has it back at
    /// 93 ms, modifies until 491 ms, writes, releases at 508 ms and asks again at 578 ms.
    fn pause_b_at(at_ms: u64) -> String {
        let resume_ms = at_ms + 1_300;
        format!(
            "{REDIS}\n[[step]]\nat_ms = {at_ms}\ndo = \"pause\"\ntarget = \"B\"\n\
             [[step]]\nat_ms = {resume_ms}\ndo = \"resume\"\ntarget = \"B\"\n"
        )
        .replace("duration_ms = 120000", "duration_ms = 6000")
    }

    /// The step begins where the lesson's does: B frozen, another worker holding the lock.
    fn lost_update_after_pause_at(at_ms: u64) -> (Option<u64>, String) {
        let (met, verdict) =
            watch_until_met(&pause_b_at(at_ms), Checkpoint::LostUpdate, 1_200, 5_000);
        (met, verdict.explanation)
    }

    #[test]
    fn a_holder_paused_while_modifying_loses_an_update() {
        for at_ms in [100, 300, 480] {
            let (met, why) = lost_update_after_pause_at(at_ms);
            assert!(met.is_some(), "paused at {at_ms} ms: {why}");
            assert!(why.starts_with("the store lost an update"), "{why}");
        }
    }

    #[test]
    fn a_holder_paused_before_its_read_came_back_drops_the_job_and_is_told_why() {
        let (met, why) = lost_update_after_pause_at(80);
        assert_eq!(met, None, "{why}");
        assert!(
            why.starts_with("B was paused before the count it asked for came back"),
            "{why}"
        );
        assert!(why.contains("again while its lane says modifying"), "{why}");
    }

    /// While it is still frozen, a worker struck while reading may yet carry on (a short pause), so
    /// the verdict only says the count matches.
    #[test]
    fn the_reading_hint_waits_for_the_dropped_job() {
        let (met, verdict) = watch_until_met(&pause_b_at(80), Checkpoint::LostUpdate, 1_200, 1_350);
        assert_eq!(met, None);
        assert!(
            verdict
                .explanation
                .starts_with("the store's count still matches"),
            "{}",
            verdict.explanation
        );
    }

    #[test]
    fn a_worker_paused_between_jobs_is_told_why() {
        let (met, why) = lost_update_after_pause_at(540);
        assert_eq!(met, None, "{why}");
        assert!(why.starts_with("B was paused between jobs"), "{why}");
    }
}
