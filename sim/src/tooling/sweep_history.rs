//! What a sweep's linearizability checks found, per read path.
//!
//! With `--linearizability` every seed's client history is checked against the key-value model within
//! [`SWEEP_BUDGET`], and the seed's verdict is tallied under the read path the seed ran with. Three
//! verdicts are kept apart and never folded into each other: *linearizable*, *not linearizable* (the
//! checker found no order; the seed also fails, under [`NOT_LINEARIZABLE`]) and *undecided* (the
//! budget ran out first: neither a pass nor a failure). A history with no client op the model judges
//! is counted as *nothing judged*, for the same reason.

use crate::contract::config::ReadPath;
use crate::engine::linearizable::models::HistoryVerdict;
use crate::engine::linearizable::Budget;
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

/// Checks the finished run's client history within `budget`. A malformed client log is an error: it
/// would be a bug of the engine, never a verdict.
pub fn seed_history(run: &ScenarioRun, budget: Budget) -> Result<(ReadPath, SeedHistory), String> {
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
    Ok((run.scenario().raft.read_path, verdict))
}

/// The seeds of one read path, by verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadPathTally {
    pub seeds_checked: u64,
    pub linearizable: u64,
    pub not_linearizable: u64,
    pub undecided: u64,
    pub nothing_judged: u64,
    /// The first [`MAX_LISTED_HISTORY_SEEDS`] of each, in the order run.
    pub not_linearizable_seeds: Vec<u64>,
    pub undecided_seeds: Vec<u64>,
}

impl ReadPathTally {
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

    fn merge(&mut self, later: ReadPathTally) {
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

/// Every read path's tally, by the path's scenario name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryTally {
    pub per_read_path: BTreeMap<&'static str, ReadPathTally>,
}

impl HistoryTally {
    pub fn add(&mut self, seed: u64, read_path: ReadPath, verdict: SeedHistory) {
        let tally = self.per_read_path.entry(read_path.name()).or_default();
        tally.add(seed, verdict);
    }

    /// Adds a later stretch of seeds' tally (`later` ran after every seed of `self`).
    pub fn merge(&mut self, later: HistoryTally) {
        for (path, tally) in later.per_read_path {
            self.per_read_path.entry(path).or_default().merge(tally);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undecided_and_refused_seeds_are_counted_apart_from_the_linearizable_ones() {
        let mut early = HistoryTally::default();
        early.add(1, ReadPath::Lease, SeedHistory::Linearizable);
        early.add(2, ReadPath::Lease, SeedHistory::Undecided);
        early.add(3, ReadPath::Lease, SeedHistory::NotLinearizable);
        let mut late = HistoryTally::default();
        late.add(4, ReadPath::Lease, SeedHistory::NotLinearizable);
        late.add(5, ReadPath::Log, SeedHistory::NothingJudged);
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
    }

    #[test]
    fn listed_seeds_stop_at_the_limit_but_the_counts_do_not() {
        let mut tally = HistoryTally::default();
        for seed in 0..(MAX_LISTED_HISTORY_SEEDS as u64 + 5) {
            tally.add(seed, ReadPath::Follower, SeedHistory::NotLinearizable);
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
