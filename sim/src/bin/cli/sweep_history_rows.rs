//! The `linearizability` and `history_models` blocks of a `quorumlab sweep --linearizability` report:
//! one row per read path (where the clients read through one) and one per history model, its verdict
//! counts as `sweep_history` tallied them, with the share refused and the first seeds of each kind, so
//! the tables in `docs/linearizability.md` can be read off it.

use quorumlab_sim::sweep::SweepSummary;
use quorumlab_sim::sweep_history::VerdictTally;
use serde::Serialize;
use std::collections::BTreeMap;

/// One read path's line of a `--linearizability` sweep.
#[derive(Serialize)]
pub struct HistoryRow {
    seeds_checked: u64,
    linearizable: u64,
    not_linearizable: u64,
    /// Of the seeds checked, in percent, two decimals.
    not_linearizable_percent: f64,
    undecided: u64,
    nothing_judged: u64,
    first_not_linearizable_seeds: Vec<u64>,
    first_undecided_seeds: Vec<u64>,
}

pub fn history_rows(summary: &SweepSummary) -> BTreeMap<&'static str, HistoryRow> {
    rows(&summary.histories.per_read_path)
}

/// One row per history model, by the model's name.
pub fn model_rows(summary: &SweepSummary) -> BTreeMap<&'static str, HistoryRow> {
    rows(&summary.histories.per_model)
}

fn rows(tallies: &BTreeMap<&'static str, VerdictTally>) -> BTreeMap<&'static str, HistoryRow> {
    let row = |tally: &VerdictTally| HistoryRow {
        seeds_checked: tally.seeds_checked,
        linearizable: tally.linearizable,
        not_linearizable: tally.not_linearizable,
        not_linearizable_percent: (tally.not_linearizable as f64 * 10_000.0
            / tally.seeds_checked.max(1) as f64)
            .round()
            / 100.0,
        undecided: tally.undecided,
        nothing_judged: tally.nothing_judged,
        first_not_linearizable_seeds: tally.not_linearizable_seeds.clone(),
        first_undecided_seeds: tally.undecided_seeds.clone(),
    };
    tallies
        .iter()
        .map(|(name, tally)| (*name, row(tally)))
        .collect()
}
