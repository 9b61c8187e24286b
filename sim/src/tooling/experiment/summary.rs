//! One line's numbers: how many trials elected, how many did not within the bound, and the median,
//! mean and worst of the measured times.
//!
//! Censored trials (no leader within the bound) are not dropped from the median: they count as
//! longer than any measured trial, so the median is the true median of all trials whenever fewer
//! than half are censored, and unknown (`None`, "beyond the bound") otherwise. The mean and the worst
//! case can only be taken over the trials that elected, and are named so. Trials with no leader to
//! crash measured nothing and are only counted.

use super::measure::Unit;
use super::trial::{Outcome, TrialRow};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

/// A line's numbers, each in the shown unit (ms for a time, a count for a count). Written with the
/// names of its unit (`median_ms` for a time, `median` for a count) and read back under either.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Summary {
    #[serde(default)]
    pub unit: Unit,
    pub trials: u64,
    /// Trials that measured something (for a time: elected, acknowledged or measured).
    #[serde(rename(deserialize = "elected"), alias = "measured")]
    pub measured: u64,
    /// No leader within the bound (or no acknowledgement): censored.
    pub censored: u64,
    /// No leader at the crash instant: nothing measured.
    pub no_leader_to_crash: u64,
    /// Of every measured trial, censored ones counting as longest; `None` if the middle is censored.
    #[serde(rename(deserialize = "median_ms"), alias = "median")]
    pub median: Option<f64>,
    /// The 90th percentile, in the same way.
    #[serde(rename(deserialize = "p90_ms"), alias = "p90")]
    pub p90: Option<f64>,
    /// Over the measured trials only.
    #[serde(rename(deserialize = "mean_elected_ms"), alias = "mean_measured")]
    pub mean: Option<f64>,
    /// Over the measured trials only.
    #[serde(rename(deserialize = "worst_elected_ms"), alias = "worst_measured")]
    pub worst: Option<f64>,
}

impl Serialize for Summary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let time = self.unit.is_time();
        let mut out = serializer.serialize_struct("Summary", 9)?;
        if !time {
            out.serialize_field("unit", &self.unit)?;
        }
        out.serialize_field("trials", &self.trials)?;
        out.serialize_field(if time { "elected" } else { "measured" }, &self.measured)?;
        out.serialize_field("censored", &self.censored)?;
        out.serialize_field("no_leader_to_crash", &self.no_leader_to_crash)?;
        out.serialize_field(if time { "median_ms" } else { "median" }, &self.median)?;
        out.serialize_field(if time { "p90_ms" } else { "p90" }, &self.p90)?;
        let mean = if time {
            "mean_elected_ms"
        } else {
            "mean_measured"
        };
        out.serialize_field(mean, &self.mean)?;
        let worst = if time {
            "worst_elected_ms"
        } else {
            "worst_measured"
        };
        out.serialize_field(worst, &self.worst)?;
        out.end()
    }
}

impl Summary {
    pub fn of(unit: Unit, rows: &[&TrialRow]) -> Summary {
        let mut measured: Vec<u64> = rows.iter().filter_map(|row| row.measured).collect();
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
            measured.get(rank as usize - 1).map(|value| shown(*value))
        };
        let median = if ranked > 0 && ranked.is_multiple_of(2) {
            // An even count: the average of the two middle trials, unknown if the upper is censored.
            let upper = (ranked / 2) as usize;
            measured
                .get(upper)
                .map(|high| shown((measured[upper - 1] + high) / 2))
        } else {
            percentile(500)
        };
        Summary {
            unit,
            trials: rows.len() as u64,
            measured: elected,
            censored,
            no_leader_to_crash: count(Outcome::NoLeaderToCrash) as u64,
            median,
            p90: percentile(900),
            mean: (elected > 0).then(|| shown(measured.iter().sum::<u64>() / elected)),
            worst: measured.last().map(|value| shown(*value)),
        }
    }
}

/// A row's value in the shown unit: microseconds as milliseconds, thousandths as a count (exact:
/// three decimals at most).
fn shown(thousandths: u64) -> f64 {
    thousandths as f64 / 1_000.0
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
            measured: measured_ms.map(|ms| ms * 1_000),
            unit: Unit::Time,
        }
    }

    fn summary(rows: &[TrialRow]) -> Summary {
        Summary::of(Unit::Time, &rows.iter().collect::<Vec<_>>())
    }

    #[test]
    fn the_median_mean_and_worst_of_measured_trials() {
        let rows: Vec<TrialRow> = [40, 10, 30, 20]
            .into_iter()
            .map(|ms| row(Outcome::Elected, Some(ms)))
            .collect();
        let found = summary(&rows);
        assert_eq!(found.median, Some(25.0));
        assert_eq!(found.mean, Some(25.0));
        assert_eq!(found.worst, Some(40.0));
        assert_eq!(found.p90, Some(40.0));
        assert_eq!((found.measured, found.censored), (4, 0));
    }

    #[test]
    fn censored_trials_count_as_longest_and_can_hide_the_median() {
        let mut rows = vec![
            row(Outcome::Elected, Some(10)),
            row(Outcome::Elected, Some(20)),
            row(Outcome::NoLeaderWithinBound, None),
        ];
        let found = summary(&rows);
        assert_eq!(found.median, Some(20.0), "the middle of three is measured");
        assert_eq!(found.worst, Some(20.0));
        assert_eq!(found.censored, 1);
        rows.push(row(Outcome::NoLeaderWithinBound, None));
        assert_eq!(summary(&rows).median, None, "half censored: unknown");
    }

    #[test]
    fn a_trial_with_no_leader_to_crash_is_counted_and_measures_nothing() {
        let rows = vec![
            row(Outcome::Elected, Some(10)),
            row(Outcome::NoLeaderToCrash, None),
        ];
        let found = summary(&rows);
        assert_eq!(found.no_leader_to_crash, 1);
        assert_eq!(found.median, Some(10.0));
        assert_eq!(found.trials, 2);
    }

    #[test]
    fn a_time_is_written_with_its_old_names_and_a_count_with_its_own() {
        let rows = vec![row(Outcome::Measured, Some(12))];
        let time = summary(&rows);
        let written = serde_json::to_string(&time).unwrap();
        assert!(
            written.starts_with("{\"trials\":1,\"elected\":1,"),
            "{written}"
        );
        assert!(written.contains("\"median_ms\":12.0"), "{written}");
        let count = Summary::of(Unit::Count, &rows.iter().collect::<Vec<_>>());
        let written = serde_json::to_string(&count).unwrap();
        assert!(written.starts_with("{\"unit\":\"count\",\"trials\":1,\"measured\":1,"));
        assert!(
            written.contains("\"median\":12.0") && !written.contains("_ms"),
            "{written}"
        );
        let read: Summary = serde_json::from_str(&written).unwrap();
        assert_eq!(read, count, "a count reads back as a count");
        let read: Summary = serde_json::from_str(&serde_json::to_string(&time).unwrap()).unwrap();
        assert_eq!(read, time);
    }
}
