//! Experiments: one scenario run over many seeds, one setting swept over several values, and one
//! quantity measured in every run, so a claim such as "5 ms of randomness in the election timeout is
//! enough" can be shown as a distribution rather than asserted from a single run.
//!
//! An experiment file (`experiment/file.rs`, documented in `sim/EXPERIMENTS.md`) names a scenario
//! file, what to measure, the setting to sweep with its values (each value is one *line*), how many
//! trials each line gets and how long a trial may wait. Every trial is an ordinary scenario run
//! (`runner::ScenarioRun`): the base scenario with the line's value written in, the trial's seed, and
//! for a measurement after a crash the steps that write to and crash the leader, at instants the first
//! election and the trial's seed place. So a trial is a scenario anyone can write out and run again
//! (`trial_scenario`), and an experiment's rows are the same on every machine and in wasm.
//!
//! Why the crash is placed after the first leader rather than at a fixed instant: with identical
//! timeouts (150–150 ms) a first leader may take seconds, and a crash at a fixed time would find
//! none in most trials; measured from the crash, only the election after it counts, as in the paper.
//!
//! What is measured (`Measure`, in `measure.rs` with its `Unit`: a time in µs, or a count):
//! - `election_after_crash`: from the crash of the leader to the first instant an up node leads
//!   again, read event by event, so microseconds count;
//! - `election_after_action`: the same after a crash, a pause or an isolation of the leader (the
//!   `[action]` table), to a leader of a later term (`leader_action.rs`);
//! - `first_election`: from time zero to the first leader;
//! - `leaderless_time`: from time zero to `bound_ms`, the total time no up node led, the scenario's
//!   own faults included (`other_measures`);
//! - `commit_latency`: one write sent to the first leader [`COMMIT_SETTLE_MS`] after it was elected,
//!   from its submission to its acknowledgement; a write not acknowledged within `bound_ms` (refused,
//!   timed out, or still waiting) is censored;
//! - `messages_per_commit` (a count): `writes` writes sent at once to the settled leader; every
//!   message sent until the last is answered, per write committed (`other_measures.rs`);
//! - `checkpoint_time`: from time zero to the first instant a lesson checkpoint holds
//!   (`checkpoint_measure.rs`).
//!
//! Bounds, each said in the output when reached: at most [`MAX_TRIALS`] trials per line and
//! [`MAX_TOTAL_TRIALS`] in all (the rows are kept in memory: a row is a few dozen bytes), and a
//! trial waits at most `bound_ms` (at most [`MAX_BOUND_MS`]) for its leader; a trial that reaches
//! it is *censored*: counted, listed, and kept out of the median and mean, which then describe only
//! the trials that elected (the summary says how many did not). A trial whose cluster elected no
//! first leader within `bound_ms`, or had none at the crash instant, measured nothing and is counted
//! apart.

mod checkpoint_measure;
mod file;
mod leader_action;
mod measure;
mod other_measures;
mod output;
mod summary;
mod trial;

pub use file::{parse_experiment, ExperimentFile};
pub use measure::{LeaderAction, Measure, Unit};
pub use output::{to_csv, ExperimentResult, LineResult};
pub use summary::Summary;
pub use trial::{line_scenario, run_trial, trial_scenario, Outcome, TrialRow};

use crate::tooling::lesson::Checkpoint;
use crate::tooling::scenario::Scenario;

/// How long after the first leader a `commit_latency` or `messages_per_commit` trial sends its
/// writes: the new leader's first heartbeats have settled the followers by then.
pub const COMMIT_SETTLE_MS: u64 = 500;

/// Most trials one line may ask for.
pub const MAX_TRIALS: u64 = 10_000;
/// Most trials an experiment may run over all its lines (its rows stay in memory).
pub const MAX_TOTAL_TRIALS: u64 = 100_000;
/// Most lines (swept values) in one experiment.
pub const MAX_LINES: usize = 32;
/// Longest a trial may wait for its leader after the crash (or from the start).
pub const MAX_BOUND_MS: u64 = 600_000;

/// The `[timing]` setting an experiment sweeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepKey {
    ElectionTimeout,
    NetworkDelay,
    Persist,
    Heartbeat,
}

impl SweepKey {
    pub const NAMES: &'static [&'static str] = &[
        "election_timeout_ms",
        "network_delay_ms",
        "persist_ms",
        "heartbeat_ms",
    ];

    pub fn name(self) -> &'static str {
        match self {
            SweepKey::ElectionTimeout => "election_timeout_ms",
            SweepKey::NetworkDelay => "network_delay_ms",
            SweepKey::Persist => "persist_ms",
            SweepKey::Heartbeat => "heartbeat_ms",
        }
    }

    pub fn from_name(name: &str) -> Option<SweepKey> {
        [
            SweepKey::ElectionTimeout,
            SweepKey::NetworkDelay,
            SweepKey::Persist,
            SweepKey::Heartbeat,
        ]
        .into_iter()
        .find(|key| key.name() == name)
    }

    /// Whether the setting is a `[min, max]` range (otherwise one number, written `[n, n]`).
    pub fn is_range(self) -> bool {
        self != SweepKey::Heartbeat
    }
}

/// When the leader is struck (crashed, paused or cut off, `action`): `settle_ms` after the first
/// leader was elected, the window opens (and `writes` client writes go to the leader, so the action
/// may catch them half replicated and leave the servers' logs of different lengths); the action falls
/// at an offset the trial's seed draws uniformly in `0..spread_ms` after that (the paper's "uniformly
/// within a heartbeat interval"). The file's `[crash]` table is this plan with `action` a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrashPlan {
    pub action: LeaderAction,
    /// A pause or an isolation is lifted this long after it began; `None`: never within the trial.
    pub resume_after_ms: Option<u64>,
    /// How long a trial waits for its first leader (by default `bound_ms`).
    pub first_leader_ms: Option<u64>,
    pub settle_ms: u64,
    /// `None`: the line's heartbeat interval.
    pub spread_ms: Option<u64>,
    pub writes: u32,
}

/// A parsed and checked experiment with its scenario: everything needed to run any trial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Experiment {
    pub title: String,
    pub scenario: Scenario,
    pub measure: Measure,
    pub crash: Option<CrashPlan>,
    pub bound_ms: u64,
    pub trials: u64,
    pub first_seed: u64,
    pub key: SweepKey,
    /// One line per value, in file order.
    pub values: Vec<(u64, u64)>,
    /// Each line's heartbeat is half its minimum election timeout (the paper's setting).
    pub heartbeat_half_min: bool,
    /// `messages_per_commit`: the client writes sent at once to the settled leader (else 0).
    pub writes: u32,
    /// `checkpoint_time`: the checkpoint watched from time zero, as written and as read.
    pub checkpoint: Option<(String, Checkpoint)>,
}

impl Experiment {
    /// The value of line `line` as the files write it: `150-155`, or `75` for a single number.
    pub fn value_text(&self, line: usize) -> String {
        let (min, max) = self.values[line];
        if self.key.is_range() {
            format!("{min}-{max}")
        } else {
            min.to_string()
        }
    }

    /// Every row of the experiment, line by line and trial by trial, `on_row` told of each as it
    /// is done (a progress bar, a cancel check by the caller between calls).
    pub fn run(&self, mut on_row: impl FnMut(&TrialRow)) -> Result<ExperimentResult, String> {
        let mut rows = Vec::with_capacity(self.values.len() * self.trials as usize);
        for line in 0..self.values.len() {
            for trial in 0..self.trials {
                let row = run_trial(self, line, trial)?;
                on_row(&row);
                rows.push(row);
            }
        }
        Ok(ExperimentResult::new(self, rows))
    }
}
