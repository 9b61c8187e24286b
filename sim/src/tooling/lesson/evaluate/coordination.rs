//! Evaluating the checkpoints of the coordination lessons: work that carries on while something is down,
//! and retries the store recognises. (The ZooKeeper-style election's own checkpoints live in its
//! folder, `protocols/zookeeper/checkpoints.rs`.)
//!
//! "Work carries on" is about a stretch of time, not a moment: a lesson asks for, say, twenty jobs
//! finished *while* a worker is paused. So the baseline remembers how many jobs each worker had finished
//! at the previous check and, at every check where the condition holds, adds what was finished since.
//! Counting from the step's start (rather than totals) is what keeps an untouched world, which finishes
//! jobs all the time, from ticking the step. The other conditions are counters compared with their value
//! when the step began.

use super::{counted, Verdict};
use crate::engine::world::{NodeStatus, World};

/// What the coordination checkpoints remember from the start of their step.
#[derive(Clone, Debug)]
pub(super) struct CoordinationBaseline {
    /// Jobs each worker had finished at the previous check, indexed by worker.
    jobs_seen: Vec<u64>,
    /// Jobs finished since the step began at checks where the step's condition held.
    jobs_counted: u64,
    duplicates_at_start: u64,
    redos_at_start: u64,
}

impl CoordinationBaseline {
    pub(super) fn begin(world: &World) -> CoordinationBaseline {
        CoordinationBaseline {
            jobs_seen: jobs_per_worker(world),
            jobs_counted: 0,
            duplicates_at_start: store_duplicates(world),
            redos_at_start: store(world).map_or(0, |resource| resource.redos_recognised),
        }
    }

    /// Adds the jobs finished since the previous check when `condition_holds`; always moves the
    /// per-worker baseline forward, so a stretch where the condition did not hold is never counted.
    fn tally_jobs(&mut self, world: &World, condition_holds: bool) {
        let now = jobs_per_worker(world);
        if condition_holds {
            let finished: u64 = now
                .iter()
                .zip(self.jobs_seen.iter().chain(std::iter::repeat(&0)))
                .map(|(now, before)| now.saturating_sub(*before))
                .sum();
            self.jobs_counted += finished;
        }
        self.jobs_seen = now;
    }

    pub(super) fn jobs_done_while_paused(&mut self, world: &World, wanted: u64) -> Verdict {
        if world.layout().is_none_or(|layout| layout.workers == 0) {
            return Verdict::not_yet("this world has no workers".into());
        }
        let paused = paused_workers(world);
        self.tally_jobs(world, !paused.is_empty());
        let counted = self.jobs_counted;
        // Zero jobs asked for still means "while a worker is paused": the pause itself must happen.
        if counted >= wanted && (counted > 0 || !paused.is_empty()) {
            return Verdict::yes(format!(
                "the other workers finished {counted} jobs while a worker was paused"
            ));
        }
        if paused.is_empty() {
            Verdict::not_yet(format!(
                "no worker is paused ({counted} of {wanted} jobs counted so far)"
            ))
        } else {
            Verdict::not_yet(format!(
                "{} paused: {counted} of {wanted} jobs finished meanwhile",
                paused.join(", ")
            ))
        }
    }

    pub(super) fn jobs_done_without_leader(&mut self, world: &World, wanted: u64) -> Verdict {
        if world.layout().is_none_or(|layout| layout.workers == 0) {
            return Verdict::not_yet("this world has no workers".into());
        }
        let leader = world.current_leader();
        self.tally_jobs(world, leader.is_none());
        let counted = self.jobs_counted;
        match leader {
            _ if counted >= wanted && (counted > 0 || leader.is_none()) => Verdict::yes(format!(
                "the workers finished {counted} jobs while no server led"
            )),
            Some(leader) => Verdict::not_yet(format!(
                "{} leads the service ({counted} of {wanted} jobs counted without a leader so far)",
                world.node_label(leader)
            )),
            None => Verdict::not_yet(format!(
                "no server leads: {counted} of {wanted} jobs finished meanwhile"
            )),
        }
    }

    pub(super) fn duplicate_write_ignored(&self, world: &World) -> Verdict {
        let Some(resource) = store(world) else {
            return Verdict::not_yet("this world has no store".into());
        };
        let new_duplicates = resource.duplicates.saturating_sub(self.duplicates_at_start);
        if new_duplicates > 0 {
            Verdict::yes(format!(
                "the store recognised {} by their idempotency key and applied none of them twice",
                counted(new_duplicates, "repeated write", "repeated writes")
            ))
        } else {
            Verdict::not_yet("no write has reached the store twice yet".into())
        }
    }

    pub(super) fn batch_redo_recognised(&self, world: &World) -> Verdict {
        let Some(resource) = store(world) else {
            return Verdict::not_yet("this world has no store".into());
        };
        let redos = resource
            .redos_recognised
            .saturating_sub(self.redos_at_start);
        if redos > 0 {
            Verdict::yes(format!(
                "the store recognised {} of a batch it had already applied, by the batch's key, \
                 and did not apply it again",
                counted(redos, "redo", "redos")
            ))
        } else {
            Verdict::not_yet("no batch has been redone after its write landed yet".into())
        }
    }
}

/// Jobs finished by each worker (0 for a worker slot that holds something else).
fn jobs_per_worker(world: &World) -> Vec<u64> {
    let Some(layout) = world.layout() else {
        return Vec::new();
    };
    (0..layout.workers)
        .map(|index| {
            world.nodes()[layout.worker(index).index()]
                .actor
                .as_worker()
                .map_or(0, |worker| worker.jobs_done)
        })
        .collect()
}

fn paused_workers(world: &World) -> Vec<String> {
    let Some(layout) = world.layout() else {
        return Vec::new();
    };
    (0..layout.workers)
        .map(|index| layout.worker(index))
        .filter(|node| world.nodes()[node.index()].status == NodeStatus::Paused)
        .map(|node| world.node_label(node))
        .collect()
}

pub(super) fn store(world: &World) -> Option<&crate::protocols::resource::Resource> {
    let layout = world.layout()?;
    world
        .nodes()
        .get(layout.store().index())?
        .actor
        .as_resource()
}

fn store_duplicates(world: &World) -> u64 {
    store(world).map_or(0, |resource| resource.duplicates)
}

#[cfg(test)]
mod tests {
    use super::super::CheckpointEvaluator;
    use super::Verdict;
    use crate::base::time::SimTime;
    use crate::tooling::lesson::Checkpoint;
    use crate::tooling::runner::ScenarioRun;
    use crate::tooling::scenario::parse_scenario;

    const QUEUE: &str = "protocol = \"work-queue\"\nnodes = 3\nduration_ms = 4000\n\
        [timing]\ncheck_quorum = true\n[locks]\nworkers = 4\nwork_ms = 20\nthink_ms = 10\n\
        [queue]\npartitioned = true\naccounts = 64\n";
    const INVENTORY: &str = "protocol = \"lock-service\"\nnodes = 3\nduration_ms = 4000\n\
        [locks]\nworkers = 2\nwork_ms = 400\nthink_ms = 100\n";

    fn step(at_ms: u64, action: &str) -> String {
        format!("[[step]]\nat_ms = {at_ms}\n{action}\n")
    }

    /// Runs `scenario` (base text plus steps), watching `checkpoint` from `begin_ms` every 5 ms to the
    /// end. Returns the last verdict and when it was first met.
    fn watch(scenario: &str, checkpoint: Checkpoint, begin_ms: u64) -> (Verdict, Option<u64>) {
        let mut run = ScenarioRun::new(parse_scenario(scenario, "test.toml").unwrap()).unwrap();
        run.advance_to(SimTime::from_ms(begin_ms));
        let mut evaluator = CheckpointEvaluator::begin(checkpoint, run.world());
        let mut met_at = None;
        loop {
            let verdict = evaluator.check(run.world());
            if verdict.satisfied && met_at.is_none() {
                met_at = Some(run.world().now().as_ms());
            }
            if run.is_finished() {
                return (verdict, met_at);
            }
            let next = run.world().now().plus_ms(5);
            run.advance_to(next);
        }
    }

    #[test]
    fn jobs_count_only_while_a_worker_is_paused() {
        let paused = format!(
            "{QUEUE}{}",
            step(1000, "do = \"pause\"\ntarget = \"A\"\nduration_ms = 2000")
        );
        let (verdict, met_at) = watch(&paused, Checkpoint::JobsDoneWhilePaused(20), 500);
        assert!(verdict.satisfied, "{}", verdict.explanation);
        assert!(met_at.unwrap() > 1000, "{met_at:?}");
        // The calm queue finishes hundreds of jobs, none of them while anyone is paused.
        assert!(
            !watch(QUEUE, Checkpoint::JobsDoneWhilePaused(0), 500)
                .0
                .satisfied
        );
        let (verdict, _) = watch(QUEUE, Checkpoint::JobsDoneWhilePaused(1), 500);
        assert!(!verdict.satisfied);
        assert_eq!(
            verdict.explanation,
            "no worker is paused (0 of 1 jobs counted so far)"
        );
        // Pausing a server is not pausing a worker.
        let server = format!("{QUEUE}{}", step(1000, "do = \"pause\"\ntarget = \"n3\""));
        assert!(
            !watch(&server, Checkpoint::JobsDoneWhilePaused(1), 500)
                .0
                .satisfied
        );
    }

    #[test]
    fn jobs_count_only_while_no_server_leads() {
        let quorum_lost = format!(
            "{QUEUE}{}{}",
            step(1000, "do = \"crash\"\ntarget = \"n1\""),
            step(1000, "do = \"crash\"\ntarget = \"n2\"")
        );
        let (verdict, met_at) = watch(&quorum_lost, Checkpoint::JobsDoneWithoutLeader(50), 500);
        assert!(verdict.satisfied, "{}", verdict.explanation);
        assert!(met_at.unwrap() > 1000, "{met_at:?}");
        assert!(
            !watch(QUEUE, Checkpoint::JobsDoneWithoutLeader(0), 500)
                .0
                .satisfied
        );
        let (verdict, _) = watch(QUEUE, Checkpoint::JobsDoneWithoutLeader(1), 500);
        assert!(
            verdict.explanation.contains("leads the service"),
            "{}",
            verdict.explanation
        );
        assert!(!verdict.satisfied);
        // Under one global lock, losing the service's majority stops the work (a holder may still finish
        // the job it had begun, but no new job can take the lock).
        let global = quorum_lost.replace("partitioned = true", "partitioned = false");
        let (verdict, _) = watch(&global, Checkpoint::JobsDoneWithoutLeader(5), 500);
        assert!(!verdict.satisfied, "{}", verdict.explanation);
        assert!(
            verdict.explanation.starts_with("no server leads"),
            "{}",
            verdict.explanation
        );
    }

    #[test]
    fn a_repeated_write_is_seen_only_when_a_retry_reaches_the_store() {
        let store_paused = format!(
            "{INVENTORY}{}",
            step(
                1300,
                "do = \"pause\"\ntarget = \"store\"\nduration_ms = 1000"
            )
        );
        let (verdict, met_at) = watch(&store_paused, Checkpoint::DuplicateWriteIgnored, 500);
        assert!(verdict.satisfied, "{}", verdict.explanation);
        assert!(
            met_at.unwrap() >= 2300,
            "the store answers only when it wakes: {met_at:?}"
        );
        let (verdict, _) = watch(INVENTORY, Checkpoint::DuplicateWriteIgnored, 500);
        assert_eq!(
            verdict.explanation,
            "no write has reached the store twice yet"
        );
        // Without idempotency keys every retry is a new write, so nothing is recognised.
        let no_keys = store_paused.replace("[locks]\n", "[locks]\nidempotency_key = false\n");
        assert!(
            !watch(&no_keys, Checkpoint::DuplicateWriteIgnored, 500)
                .0
                .satisfied
        );
    }

    #[test]
    fn worlds_without_workers_or_candidates_say_so() {
        let raft = "protocol = \"raft\"\nnodes = 3\nduration_ms = 600\n";
        let cases = [
            (
                Checkpoint::JobsDoneWhilePaused(1),
                "this world has no workers",
            ),
            (
                Checkpoint::JobsDoneWithoutLeader(1),
                "this world has no workers",
            ),
            (Checkpoint::DuplicateWriteIgnored, "this world has no store"),
        ];
        for (checkpoint, expected) in cases {
            let (verdict, _) = watch(raft, checkpoint, 0);
            assert!(!verdict.satisfied);
            assert_eq!(verdict.explanation, expected);
        }
    }
}
