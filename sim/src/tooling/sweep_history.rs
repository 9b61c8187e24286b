//! What a sweep's linearizability checks found, per read path and per history model.
//!
//! With `--linearizability` every seed's client history is checked against its world's models within
//! [`SWEEP_BUDGET`] (Raft's key-value store; the lock service's fenced store and lock grants), and the
//! seed's verdict is tallied twice: under each model, by that model's own part of the history, and,
//! where the world's clients read through one of Raft's read paths, under the read path the seed ran
//! with. A lock world's clients never read through a read path, so its seeds are filed under their
//! models only: a `log` row for them would claim a read path that answered nothing. Three
//! verdicts are kept apart and never folded into each other: *linearizable*, *not linearizable* (the
//! checker found no order; the seed also fails, under [`NOT_LINEARIZABLE`]) and *undecided* (the
//! budget ran out first: neither a pass nor a failure). A history with no client op the model judges
//! is counted as *nothing judged*, for the same reason.

use crate::contract::config::ReadPath;
use crate::engine::linearizable::models::HistoryVerdict;
use crate::engine::linearizable::{Budget, Check, Verdict};
use crate::tooling::runner::ScenarioRun;
use std::collections::BTreeMap;

/// Name under which a seed whose client history is not linearizable is tallied next to the checkers'
/// invariants.
pub const NOT_LINEARIZABLE: &str = "Linearizable history";

/// Most seeds listed per read path and verdict (all are counted).
pub const MAX_LISTED_HISTORY_SEEDS: usize = 10;

/// Each partition's limit in a sweep: a chaos seed's history is a few hundred ops over sixteen keys,
/// far inside it, so a seed that reaches it is worth looking at, and the sweep stays fast.
pub const SWEEP_BUDGET: Budget = Budget {
    configurations: 500_000,
    cache_bytes: 64 * 1024 * 1024,
    ops_per_partition: 5_000,
};

/// One seed's history verdict, in the sweep's four kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedHistory {
    NothingJudged,
    Linearizable,
    NotLinearizable,
    Undecided,
}

/// One seed's verdicts: over the whole history, and per model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedHistories {
    /// The read path the seed's clients read through, where they read through one (plain Raft).
    pub read_path: Option<ReadPath>,
    /// Over every model: a refusal by any is a refusal (`HistoryCheck::verdict`).
    pub verdict: SeedHistory,
    /// Each model's verdict on its own part of the history, in the order the world lists them.
    pub per_model: Vec<(&'static str, SeedHistory)>,
}

/// Checks the finished run's client history within `budget`. A malformed client log is an error: it
/// would be a bug of the engine, never a verdict.
pub fn seed_history(run: &ScenarioRun, budget: Budget) -> Result<SeedHistories, String> {
    let world = run.world();
    let check = world.linearizability(budget).map_err(|error| {
        format!(
            "seed {}: malformed client log: {error}",
            run.scenario().seed
        )
    })?;
    let verdict = match check.verdict() {
        HistoryVerdict::NothingJudged => SeedHistory::NothingJudged,
        HistoryVerdict::Linearizable => SeedHistory::Linearizable,
        HistoryVerdict::Refused { .. } => SeedHistory::NotLinearizable,
        HistoryVerdict::Undecided { .. } => SeedHistory::Undecided,
    };
    let reads = world.config().protocol.entry().capabilities;
    Ok(SeedHistories {
        read_path: reads
            .reads_through_read_path()
            .then_some(run.scenario().raft.read_path),
        verdict,
        per_model: check
            .checks
            .iter()
            .map(|model| (model.model, model_verdict(model)))
            .collect(),
    })
}

/// One model's verdict on its part of a history; a model that judged no op judged nothing.
fn model_verdict(check: &Check) -> SeedHistory {
    if check.partitions.is_empty() {
        return SeedHistory::NothingJudged;
    }
    match check.verdict() {
        Verdict::Linearizable => SeedHistory::Linearizable,
        Verdict::Refused { .. } => SeedHistory::NotLinearizable,
        Verdict::Undecided { .. } => SeedHistory::Undecided,
    }
}

/// The seeds of one read path, or of one model, by verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerdictTally {
    pub seeds_checked: u64,
    pub linearizable: u64,
    pub not_linearizable: u64,
    pub undecided: u64,
    pub nothing_judged: u64,
    /// The first [`MAX_LISTED_HISTORY_SEEDS`] of each, in the order run.
    pub not_linearizable_seeds: Vec<u64>,
    pub undecided_seeds: Vec<u64>,
}

impl VerdictTally {
    fn add(&mut self, seed: u64, verdict: SeedHistory) {
        self.seeds_checked += 1;
        let listed = match verdict {
            SeedHistory::NothingJudged => {
                self.nothing_judged += 1;
                None
            }
            SeedHistory::Linearizable => {
                self.linearizable += 1;
                None
            }
            SeedHistory::NotLinearizable => {
                self.not_linearizable += 1;
                Some(&mut self.not_linearizable_seeds)
            }
            SeedHistory::Undecided => {
                self.undecided += 1;
                Some(&mut self.undecided_seeds)
            }
        };
        if let Some(seeds) = listed.filter(|seeds| seeds.len() < MAX_LISTED_HISTORY_SEEDS) {
            seeds.push(seed);
        }
    }

    fn merge(&mut self, later: VerdictTally) {
        self.seeds_checked += later.seeds_checked;
        self.linearizable += later.linearizable;
        self.not_linearizable += later.not_linearizable;
        self.undecided += later.undecided;
        self.nothing_judged += later.nothing_judged;
        for (seeds, more) in [
            (
                &mut self.not_linearizable_seeds,
                later.not_linearizable_seeds,
            ),
            (&mut self.undecided_seeds, later.undecided_seeds),
        ] {
            seeds.extend(more);
            seeds.truncate(MAX_LISTED_HISTORY_SEEDS);
        }
    }
}

/// Every read path's tally, by the path's scenario name, and every model's, by the model's name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryTally {
    pub per_read_path: BTreeMap<&'static str, VerdictTally>,
    pub per_model: BTreeMap<&'static str, VerdictTally>,
}

impl HistoryTally {
    pub fn add(&mut self, seed: u64, histories: &SeedHistories) {
        if let Some(read_path) = histories.read_path {
            let tally = self.per_read_path.entry(read_path.name()).or_default();
            tally.add(seed, histories.verdict);
        }
        for (model, verdict) in &histories.per_model {
            self.per_model.entry(model).or_default().add(seed, *verdict);
        }
    }

    /// Adds a later stretch of seeds' tally (`later` ran after every seed of `self`).
    pub fn merge(&mut self, later: HistoryTally) {
        for (path, tally) in later.per_read_path {
            self.per_read_path.entry(path).or_default().merge(tally);
        }
        for (model, tally) in later.per_model {
            self.per_model.entry(model).or_default().merge(tally);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Raft seed's verdicts: read through `read_path`, one key-value model.
    fn raft(read_path: ReadPath, verdict: SeedHistory) -> SeedHistories {
        SeedHistories {
            read_path: Some(read_path),
            verdict,
            per_model: vec![("key-value store", verdict)],
        }
    }

    #[test]
    fn undecided_and_refused_seeds_are_counted_apart_from_the_linearizable_ones() {
        let mut early = HistoryTally::default();
        early.add(1, &raft(ReadPath::Lease, SeedHistory::Linearizable));
        early.add(2, &raft(ReadPath::Lease, SeedHistory::Undecided));
        early.add(3, &raft(ReadPath::Lease, SeedHistory::NotLinearizable));
        let mut late = HistoryTally::default();
        late.add(4, &raft(ReadPath::Lease, SeedHistory::NotLinearizable));
        late.add(5, &raft(ReadPath::Log, SeedHistory::NothingJudged));
        early.merge(late);
        let lease = &early.per_read_path["lease"];
        assert_eq!(
            (lease.seeds_checked, lease.linearizable, lease.undecided),
            (4, 1, 1)
        );
        assert_eq!(lease.not_linearizable_seeds, vec![3, 4]);
        assert_eq!(lease.undecided_seeds, vec![2]);
        let log = &early.per_read_path["log"];
        assert_eq!(
            (log.seeds_checked, log.linearizable, log.nothing_judged),
            (1, 0, 1)
        );
        let store = &early.per_model["key-value store"];
        assert_eq!((store.seeds_checked, store.not_linearizable), (5, 2));
    }

    #[test]
    fn a_world_read_through_no_read_path_is_filed_under_its_models_only() {
        let mut tally = HistoryTally::default();
        let lock_world = SeedHistories {
            read_path: None,
            verdict: SeedHistory::NotLinearizable,
            per_model: vec![
                ("fenced store", SeedHistory::NotLinearizable),
                ("lock", SeedHistory::Linearizable),
            ],
        };
        tally.add(7, &lock_world);
        assert!(tally.per_read_path.is_empty(), "{tally:?}");
        assert_eq!(tally.per_model["fenced store"].not_linearizable_seeds, [7]);
        assert_eq!(tally.per_model["lock"].linearizable, 1);
        assert_eq!(tally.per_model["lock"].not_linearizable, 0);
    }

    #[test]
    fn listed_seeds_stop_at_the_limit_but_the_counts_do_not() {
        let mut tally = HistoryTally::default();
        for seed in 0..(MAX_LISTED_HISTORY_SEEDS as u64 + 5) {
            tally.add(
                seed,
                &raft(ReadPath::Follower, SeedHistory::NotLinearizable),
            );
        }
        let follower = &tally.per_read_path["follower"];
        assert_eq!(
            follower.not_linearizable,
            MAX_LISTED_HISTORY_SEEDS as u64 + 5
        );
        assert_eq!(
            follower.not_linearizable_seeds.len(),
            MAX_LISTED_HISTORY_SEEDS
        );
    }
}
