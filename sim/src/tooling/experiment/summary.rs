//! One line's numbers: how many trials elected, how many did not within the bound, and the median,
//! mean and worst of the measured times.
//!
//! Censored trials (no leader within the bound) are not dropped from the median: they count as
//! longer than any measured trial, so the median is the true median of all trials whenever fewer
//! than half are censored, and unknown (`None`, "beyond the bound") otherwise. The mean and the worst
//! case can only be taken over the trials that elected, and are named so. Trials with no leader to
//! crash measured nothing and are only counted.

use super::trial::{Outcome, TrialRow};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub trials: u64,
    pub elected: u64,
    /// No leader within the bound.
    pub censored: u64,
    /// No leader at the crash instant: nothing measured.
    pub no_leader_to_crash: u64,
    /// Of every measured trial, censored ones counting as longest; `None` if the middle is censored.
    pub median_ms: Option<f64>,
    /// The 90th percentile, in the same way.
    pub p90_ms: Option<f64>,
    pub mean_elected_ms: Option<f64>,
    pub worst_elected_ms: Option<f64>,
}

impl Summary {
    pub fn of(rows: &[&TrialRow]) -> Summary {
        let mut measured: Vec<u64> = rows.iter().filter_map(|row| row.measured_us).collect();
        measured.sort_unstable();
        let count = |outcome: Outcome| rows.iter().filter(|row| row.outcome == outcome).count();
        let censored =
            (count(Outcome::NoLeaderWithinBound) + count(Outcome::NotAcknowledged)) as u64;
        let elected = measured.len() as u64;
        // Measured trials and censored ones: the ranks a percentile is taken over.
        let ranked = elected + censored;
        let percentile = |fraction_per_mille: u64| -> Option<f64> {
            if ranked == 0 {
                return None;
            }
            // Nearest rank, 1-based: ceil(p * n).
            let rank = (fraction_per_mille * ranked).div_ceil(1_000).max(1);
            measured.get(rank as usize - 1).map(|us| ms(*us))
        };
        let median_ms = if ranked > 0 && ranked.is_multiple_of(2) {
            // An even count: the average of the two middle trials, unknown if the upper is censored.
            let upper = (ranked / 2) as usize;
            measured
                .get(upper)
                .map(|high| ms((measured[upper - 1] + high) / 2))
        } else {
            percentile(500)
        };
        Summary {
            trials: rows.len() as u64,
            elected,
            censored,
            no_leader_to_crash: count(Outcome::NoLeaderToCrash) as u64,
            median_ms,
            p90_ms: percentile(900),
            mean_elected_ms: (elected > 0).then(|| ms(measured.iter().sum::<u64>() / elected)),
            worst_elected_ms: measured.last().map(|us| ms(*us)),
        }
    }
}

/// Microseconds as milliseconds (exact: three decimals at most).
fn ms(us: u64) -> f64 {
    us as f64 / 1_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(outcome: Outcome, measured_ms: Option<u64>) -> TrialRow {
        TrialRow {
            line: 0,
            seed: 1,
            from_us: 0,
            outcome,
            measured_us: measured_ms.map(|ms| ms * 1_000),
        }
    }

    fn summary(rows: &[TrialRow]) -> Summary {
        Summary::of(&rows.iter().collect::<Vec<_>>())
    }

    #[test]
    fn the_median_mean_and_worst_of_measured_trials() {
        let rows: Vec<TrialRow> = [40, 10, 30, 20]
            .into_iter()
            .map(|ms| row(Outcome::Elected, Some(ms)))
            .collect();
        let found = summary(&rows);
        assert_eq!(found.median_ms, Some(25.0));
        assert_eq!(found.mean_elected_ms, Some(25.0));
        assert_eq!(found.worst_elected_ms, Some(40.0));
        assert_eq!(found.p90_ms, Some(40.0));
        assert_eq!((found.elected, found.censored), (4, 0));
    }

    #[test]
    fn censored_trials_count_as_longest_and_can_hide_the_median() {
        let mut rows = vec![
            row(Outcome::Elected, Some(10)),
            row(Outcome::Elected, Some(20)),
            row(Outcome::NoLeaderWithinBound, None),
        ];
        let found = summary(&rows);
        assert_eq!(
            found.median_ms,
            Some(20.0),
            "the middle of three is measured"
        );
        assert_eq!(found.worst_elected_ms, Some(20.0));
        assert_eq!(found.censored, 1);
        rows.push(row(Outcome::NoLeaderWithinBound, None));
        assert_eq!(summary(&rows).median_ms, None, "half censored: unknown");
    }

    #[test]
    fn a_trial_with_no_leader_to_crash_is_counted_and_measures_nothing() {
        let rows = vec![
            row(Outcome::Elected, Some(10)),
            row(Outcome::NoLeaderToCrash, None),
        ];
        let found = summary(&rows);
        assert_eq!(found.no_leader_to_crash, 1);
        assert_eq!(found.median_ms, Some(10.0));
        assert_eq!(found.trials, 2);
    }
}
