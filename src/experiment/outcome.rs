//! An experiment's result as the page reads it back from the worker, and what the chart and the
//! table need from it: each line's distribution as a CDF, and the trial behind any point.
//!
//! The worker sends the CLI's JSON (`quorumlab_sim::experiment::ExperimentResult`); these are the
//! parts the page uses, read with serde. Why a copy of the outer shape and not the engine's type: the
//! engine's result is written, never read (its names are `&'static str`); a line's numbers are the
//! engine's own `Summary`, a plain struct that brings none of the runner into the page.

pub use quorumlab_sim::experiment::{Summary, Unit};
use serde::Deserialize;

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Outcome {
    pub title: String,
    pub measure: String,
    /// A time unless the result says `count` (a result written before counts has no `unit`).
    #[serde(default)]
    pub unit: Unit,
    /// `election_after_action`: `crash`, `pause` or `isolate`.
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default)]
    pub checkpoint: Option<String>,
    pub key: String,
    pub trials_per_line: u64,
    pub first_seed: u64,
    pub bound_ms: u64,
    pub lines: Vec<Line>,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Line {
    pub value: String,
    pub heartbeat_ms: u64,
    pub summary: Summary,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Row {
    pub line: usize,
    pub seed: u64,
    pub from_us: u64,
    pub outcome: String,
    /// A time's value, µs.
    #[serde(default)]
    pub measured_us: Option<u64>,
    /// A count's value, thousandths.
    #[serde(default)]
    pub measured_thousandths: Option<u64>,
}

impl Row {
    /// What the trial measured, times 1,000 (µs or thousandths), whichever its unit.
    pub fn measured(&self) -> Option<u64> {
        self.measured_us.or(self.measured_thousandths)
    }
}

/// One point of a line's CDF: a trial, its value, and the share of the line's trials at or below it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CdfPoint {
    /// In the shown unit: ms for a time, a count for a count.
    pub value: f64,
    pub fraction: f64,
    /// The trial's number within its line, counted from 0 (its seed is `first_seed + trial`).
    pub trial: u64,
}

impl Outcome {
    pub fn from_json(text: &str) -> Result<Outcome, String> {
        serde_json::from_str(text)
            .map_err(|error| format!("the experiment's result is unreadable: {error}"))
    }

    /// A line's measured trials, fastest first, each with the share of *all* the line's trials at
    /// or below it: censored trials and trials with nothing to crash keep the curve below 1, so a
    /// line that often fails to elect visibly never reaches the top.
    pub fn cdf(&self, line: usize) -> Vec<CdfPoint> {
        let of_line: Vec<&Row> = self.rows.iter().filter(|row| row.line == line).collect();
        let count = of_line.len().max(1) as f64;
        let mut measured: Vec<(u64, u64)> = of_line
            .iter()
            .filter_map(|row| {
                row.measured()
                    .map(|value| (value, row.seed.wrapping_sub(self.first_seed)))
            })
            .collect();
        measured.sort_unstable();
        measured
            .iter()
            .enumerate()
            .map(|(rank, &(value, trial))| CdfPoint {
                value: value as f64 / 1_000.0,
                fraction: (rank + 1) as f64 / count,
                trial,
            })
            .collect()
    }

    /// The smallest and the largest value any line measured (shown unit), for the chart's axis.
    pub fn value_range(&self) -> (f64, f64) {
        let values = || self.rows.iter().filter_map(Row::measured);
        let shown =
            |value: Option<u64>, none: f64| value.map_or(none, |value| value as f64 / 1_000.0);
        (shown(values().min(), 1.0), shown(values().max(), 1.0))
    }

    /// The trial of `line` whose measured value is nearest `value` (the median's, the worst's).
    pub fn trial_near(&self, line: usize, value: f64) -> Option<CdfPoint> {
        self.cdf(line).into_iter().min_by(|a, b| {
            let distance = |point: &CdfPoint| (point.value - value).abs();
            distance(a).total_cmp(&distance(b))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome() -> Outcome {
        let row = |line, seed, measured_us: Option<u64>| Row {
            line,
            seed,
            from_us: 0,
            outcome: if measured_us.is_some() {
                "elected"
            } else {
                "no_leader_within_bound"
            }
            .into(),
            measured_us,
            measured_thousandths: None,
        };
        let summary = Summary {
            unit: Unit::Time,
            trials: 2,
            measured: 2,
            censored: 0,
            no_leader_to_crash: 0,
            median: None,
            p90: None,
            mean: None,
            worst: None,
        };
        let line = |value: &str| Line {
            value: value.into(),
            heartbeat_ms: 75,
            summary: summary.clone(),
        };
        Outcome {
            title: "t".into(),
            measure: "election_after_crash".into(),
            unit: Unit::Time,
            action: None,
            checkpoint: None,
            key: "election_timeout_ms".into(),
            trials_per_line: 3,
            first_seed: 10,
            bound_ms: 1_000,
            lines: vec![line("150-155"), line("150-200")],
            rows: vec![
                row(0, 10, Some(300_000)),
                row(0, 11, Some(100_000)),
                row(0, 12, None),
                row(1, 10, Some(150_000)),
                row(1, 11, Some(160_000)),
                row(1, 12, Some(170_000)),
            ],
        }
    }

    #[test]
    fn a_censored_trial_keeps_its_line_below_the_top() {
        let cdf = outcome().cdf(0);
        assert_eq!(cdf.len(), 2);
        assert_eq!((cdf[0].value, cdf[0].trial), (100.0, 1));
        assert!((cdf[1].fraction - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(outcome().cdf(1).last().unwrap().fraction, 1.0);
    }

    #[test]
    fn the_trial_nearest_a_time_is_found() {
        let outcome = outcome();
        assert_eq!(outcome.trial_near(0, 120.0).unwrap().trial, 1);
        assert_eq!(outcome.trial_near(1, 171.0).unwrap().trial, 2);
        assert_eq!(outcome.value_range(), (100.0, 300.0));
    }

    #[test]
    fn a_count_result_reads_with_its_unit_and_values() {
        let text = r#"{"title":"t","measure":"messages_per_commit","unit":"count","key":"persist_ms",
            "trials_per_line":1,"first_seed":1,"bound_ms":10,"lines":[{"value":"0-0","heartbeat_ms":75,
            "summary":{"unit":"count","trials":1,"measured":1,"censored":0,"no_leader_to_crash":0,
            "median":14.1,"p90":14.1,"mean_measured":14.1,"worst_measured":14.1}}],
            "rows":[{"line":0,"seed":1,"from_us":5,"outcome":"measured","measured_thousandths":14100}]}"#;
        let outcome = Outcome::from_json(text).expect("reads");
        assert_eq!(outcome.unit, Unit::Count);
        assert_eq!(outcome.lines[0].summary.median, Some(14.1));
        assert_eq!(outcome.cdf(0)[0].value, 14.1);
    }

    #[test]
    fn an_unreadable_result_is_said() {
        assert!(Outcome::from_json("{")
            .unwrap_err()
            .starts_with("the experiment's result is unreadable"));
    }
}
