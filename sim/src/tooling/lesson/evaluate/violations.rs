//! Checkpoints that tick when a checker reports a *new* violation of one invariant.
//!
//! Some lessons are about making an unsafe configuration fail on purpose: a lease read answered from a
//! leader whose clock lies, a careless `DEL` that frees somebody else's lock, a late write that a store
//! without fencing accepts, losing an update. The checkers already spot those moments and count them
//! per invariant, so the checkpoint only has to compare the count with the one it saw when the step
//! began. Counting from the step's start (not from zero) matters: an earlier step may already have
//! broken the same invariant, and that must not tick this one.

use super::{counted, Verdict};
use crate::engine::checker::{LINEARIZABLE_READS, NO_LOST_UPDATES, RELEASE_BY_OWNER};
use crate::engine::world::World;
use std::collections::BTreeMap;

/// Violations counted per invariant when a step began.
#[derive(Clone, Debug, Default)]
pub(super) struct ViolationBaseline {
    counts: BTreeMap<String, u64>,
}

impl ViolationBaseline {
    pub(super) fn of(world: &World) -> ViolationBaseline {
        ViolationBaseline {
            counts: world.checkers().violation_counts().clone(),
        }
    }

    /// How many violations of `invariant` were reported after the baseline was taken.
    fn new_since(&self, world: &World, invariant: &str) -> u64 {
        let now = count_of(world.checkers().violation_counts(), invariant);
        now.saturating_sub(count_of(&self.counts, invariant))
    }

    pub(super) fn stale_read(&self, world: &World) -> Verdict {
        match self.new_since(world, LINEARIZABLE_READS) {
            0 => Verdict::not_yet("every read so far reflected every acknowledged write".into()),
            stale => Verdict::yes(format!(
                "{} came back stale: {}",
                counted(stale, "read", "reads"),
                latest_detail(world, LINEARIZABLE_READS)
            )),
        }
    }

    pub(super) fn released_by_wrong_owner(&self, world: &World) -> Verdict {
        match self.new_since(world, RELEASE_BY_OWNER) {
            0 => Verdict::not_yet(
                "every lock so far was released by its own holder or expired".into(),
            ),
            wrong => Verdict::yes(format!(
                "{} freed by a client that did not hold it: {}",
                counted(wrong, "lock", "locks"),
                latest_detail(world, RELEASE_BY_OWNER)
            )),
        }
    }

    /// `hint`: why the late write that would lose an update cannot come (see `paused_phase`).
    pub(super) fn lost_update(&self, world: &World, hint: Option<String>) -> Verdict {
        match self.new_since(world, NO_LOST_UPDATES) {
            0 => Verdict::not_yet(hint.unwrap_or_else(|| {
                "the store's count still matches every job written to it".into()
            })),
            lost => Verdict::yes(format!(
                "the store lost an update {}: {}",
                counted(lost, "time", "times"),
                latest_detail(world, NO_LOST_UPDATES)
            )),
        }
    }
}

fn count_of(counts: &BTreeMap<String, u64>, invariant: &str) -> u64 {
    counts.get(invariant).copied().unwrap_or(0)
}

/// The newest recorded detail of `invariant` (the list keeps the first hundred per invariant).
pub(super) fn latest_detail(world: &World, invariant: &str) -> String {
    world
        .checkers()
        .violations()
        .iter()
        .rev()
        .find(|record| record.invariant == invariant)
        .map_or_else(|| invariant.to_string(), |record| record.detail.clone())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::watch_until_met;
    use crate::tooling::lesson::Checkpoint;

    /// Whether `checkpoint` was met and the last explanation.
    fn watch(text: &str, checkpoint: Checkpoint, begin_ms: u64, until_ms: u64) -> (bool, String) {
        let (met_at, verdict) = watch_until_met(text, checkpoint, begin_ms, until_ms);
        (met_at.is_some(), verdict.explanation)
    }

    /// The leader (n4 with this seed) is cut off and its clock set back 1.5 s, so its lease outlives its
    /// leadership; a write commits on the majority side, then the old leader is asked for reads.
    const STALE_LEASE: &str = r#"
title = "stale lease read"
protocol = "raft"
nodes = 5
seed = 1
duration_ms = 4000
[timing]
check_quorum = true
pre_vote = true
lease_reads = LEASE_READS
[[step]]
at_ms = 1000
do = "isolate"
target = "leader"
[[step]]
at_ms = 1000
do = "clock_jump"
target = "leader"
by_ms = -1500
[[step]]
at_ms = 1600
do = "request"
count = 1
[[step]]
at_ms = 1900
do = "request"
count = 3
kind = "get"
target = "n4"
"#;

    #[test]
    fn a_lease_read_from_a_deposed_leader_is_a_stale_read() {
        let text = STALE_LEASE.replace("LEASE_READS", "true");
        let (met, why) = watch(&text, Checkpoint::StaleRead, 0, 4000);
        assert!(met, "{why}");
        assert!(
            why.contains("1 read came back stale: request")
                || why.contains("reads came back stale: request"),
            "{why}"
        );
    }

    #[test]
    fn reads_through_the_log_are_never_stale() {
        let text = STALE_LEASE.replace("LEASE_READS", "false");
        let (met, why) = watch(&text, Checkpoint::StaleRead, 0, 4000);
        assert!(!met, "{why}");
        assert_eq!(why, "every read so far reflected every acknowledged write");
    }

    #[test]
    fn a_stale_read_before_the_step_began_does_not_count() {
        let text = STALE_LEASE.replace("LEASE_READS", "true");
        let (met, _) = watch(&text, Checkpoint::StaleRead, 0, 4000);
        assert!(met);
        let (met_later, why) = watch(&text, Checkpoint::StaleRead, 3000, 4000);
        assert!(!met_later, "{why}");
    }

    const NO_FENCING: &str = include_str!("../../../../scenarios/no-fencing-pause.toml");

    #[test]
    fn a_stale_write_accepted_without_fencing_loses_an_update() {
        let (met, why) = watch(NO_FENCING, Checkpoint::LostUpdate, 0, 6000);
        assert!(met, "{why}");
        assert!(
            why.contains("the store lost an update 1 time: after A's write"),
            "{why}"
        );
    }

    #[test]
    fn a_fenced_store_loses_no_update() {
        let fenced = NO_FENCING.replace("fencing = false", "fencing = true");
        assert_ne!(fenced, NO_FENCING);
        let (met, why) = watch(&fenced, Checkpoint::LostUpdate, 0, 6000);
        assert!(!met, "{why}");
        assert_eq!(
            why,
            "the store's count still matches every job written to it"
        );
    }

    const REDIS: &str = include_str!("../../../../scenarios/redis-unsafe-release.toml");

    #[test]
    fn a_careless_delete_frees_the_next_holders_lock() {
        let (met, why) = watch(REDIS, Checkpoint::LockReleasedByWrongOwner, 0, 5000);
        assert!(met, "{why}");
        assert!(why.contains("B released key 0, held by"), "{why}");
    }

    #[test]
    fn compare_and_delete_never_frees_someone_elses_lock() {
        let safe = REDIS.replace("unchecked_release = true", "unchecked_release = false");
        assert_ne!(safe, REDIS);
        let (met, why) = watch(&safe, Checkpoint::LockReleasedByWrongOwner, 0, 5000);
        assert!(!met, "{why}");
        assert_eq!(
            why,
            "every lock so far was released by its own holder or expired"
        );
    }
}
