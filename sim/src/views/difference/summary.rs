//! The line that says how two runs differ so far: the first moment where their stories part, each
//! side's version of it, and the tallies that differ.

use crate::views::difference::moments::{Moment, MomentLog, Tally};

/// How two runs compare up to now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// One line, e.g. "left: StaleToken refused at 2.31 s · right: lost update at 2.31 s".
    pub line: String,
    /// Tallies that differ, each "name: left | right" ("messages sent: 812 | 340").
    pub tallies: Vec<String>,
    /// When the stories first parted (µs), if they have.
    pub parted_at_us: Option<u64>,
}

impl Difference {
    /// True while both runs have told the same moments with the same tallies.
    pub fn is_none(&self) -> bool {
        self.parted_at_us.is_none() && self.tallies.is_empty()
    }
}

/// Compares two runs' moments and tallies.
pub fn differ(left: &MomentLog, right: &MomentLog) -> Difference {
    let tallies = tally_differences(left.tally(), right.tally());
    let (left_moments, right_moments) = (left.moments(), right.moments());
    let parted = (0..left_moments.len().max(right_moments.len()))
        .find(|&index| left_moments.get(index) != right_moments.get(index));
    let Some(index) = parted else {
        let line = if tallies.is_empty() {
            format!("No difference so far: {}", same_moments(left_moments.len()))
        } else {
            "The same moments on both sides so far; only the counts differ".to_string()
        };
        return Difference {
            line,
            tallies,
            parted_at_us: None,
        };
    };
    let (left_moment, right_moment) = (left_moments.get(index), right_moments.get(index));
    let parted_at_us = [left_moment, right_moment]
        .into_iter()
        .flatten()
        .map(|moment| moment.at_us)
        .min();
    Difference {
        line: format!(
            "left: {} · right: {}",
            told(left_moment),
            told(right_moment)
        ),
        tallies,
        parted_at_us,
    }
}

/// What two runs that agree so far have both told, with the count in words that fit it.
fn same_moments(count: usize) -> String {
    match count {
        0 => "neither run has shown anything notable yet".to_string(),
        1 => "both runs agree so far: the same one notable moment".to_string(),
        many => format!("both runs agree so far: the same {many} notable moments"),
    }
}

fn told(moment: Option<&Moment>) -> String {
    match moment {
        Some(moment) => format!("{} at {}", moment.what, seconds(moment.at_us)),
        None => "nothing yet".to_string(),
    }
}

/// Simulated time as seconds with two decimals ("2.31 s").
pub fn seconds(at_us: u64) -> String {
    let hundredths = at_us / 10_000;
    format!("{}.{:02} s", hundredths / 100, hundredths % 100)
}

fn tally_differences(left: Tally, right: Tally) -> Vec<String> {
    [
        ("violations", left.violations, right.violations),
        ("writes refused", left.writes_refused, right.writes_refused),
        (
            "writes accepted",
            left.writes_accepted,
            right.writes_accepted,
        ),
        ("elections", left.elections, right.elections),
        ("messages sent", left.messages_sent, right.messages_sent),
    ]
    .into_iter()
    .filter(|(_, left, right)| left != right)
    .map(|(name, left, right)| format!("{name}: {left} | {right}"))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_have_two_decimals() {
        assert_eq!(seconds(2_315_000), "2.31 s");
        assert_eq!(seconds(50_000), "0.05 s");
        assert_eq!(seconds(12_000_000), "12.00 s");
    }

    #[test]
    fn two_empty_logs_do_not_differ() {
        let difference = differ(&MomentLog::new(), &MomentLog::new());
        assert!(difference.is_none());
        assert!(difference.line.starts_with("No difference"));
        assert!(
            !difference.line.contains("0 moments"),
            "{}",
            difference.line
        );
    }

    #[test]
    fn one_moment_is_counted_in_the_singular() {
        assert_eq!(
            same_moments(1),
            "both runs agree so far: the same one notable moment"
        );
        assert_eq!(
            same_moments(3),
            "both runs agree so far: the same 3 notable moments"
        );
        assert!(!same_moments(0).contains("moments"));
    }
}
