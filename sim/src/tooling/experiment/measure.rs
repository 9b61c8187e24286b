//! What an experiment measures, and in what unit.
//!
//! Most measures are a time, kept in microseconds and shown in milliseconds. `messages_per_commit`
//! is a count: messages per committed entry, kept in thousandths of a message and shown as a
//! number with three decimals. Both are integers in a row (no floats in a row, so a result is the
//! same on every machine) scaled by a thousand from what is shown, so a summary is taken the same
//! way for either; only the names in the output, the CSV's column and the chart's axis differ
//! ([`Unit`]).

use serde::{Deserialize, Serialize};

/// What a trial measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// From the crash of the leader to the next leader.
    ElectionAfterCrash,
    /// From an action on the leader (`[action] kind`: crash, pause, isolate) to a leader of a later
    /// term than the struck one's.
    ElectionAfterAction,
    /// From time zero to the first leader.
    FirstElection,
    /// From time zero to `bound_ms`, the total time no up node led (the scenario's own faults included).
    LeaderlessTime,
    /// One write sent to the first leader once settled: from its submission to its acknowledgement.
    CommitLatency,
    /// `writes` writes sent at once to the settled leader: every message sent by every node from
    /// their submission until the last is answered, divided by the writes committed.
    MessagesPerCommit,
    /// From time zero to the first instant a named lesson checkpoint holds.
    CheckpointTime,
}

impl Measure {
    pub const ALL: [Measure; 7] = [
        Measure::ElectionAfterCrash,
        Measure::ElectionAfterAction,
        Measure::FirstElection,
        Measure::LeaderlessTime,
        Measure::CommitLatency,
        Measure::MessagesPerCommit,
        Measure::CheckpointTime,
    ];
    pub const NAMES: &'static [&'static str] = &[
        "election_after_crash",
        "election_after_action",
        "first_election",
        "leaderless_time",
        "commit_latency",
        "messages_per_commit",
        "checkpoint_time",
    ];

    pub fn name(self) -> &'static str {
        match self {
            Measure::ElectionAfterCrash => "election_after_crash",
            Measure::ElectionAfterAction => "election_after_action",
            Measure::FirstElection => "first_election",
            Measure::LeaderlessTime => "leaderless_time",
            Measure::CommitLatency => "commit_latency",
            Measure::MessagesPerCommit => "messages_per_commit",
            Measure::CheckpointTime => "checkpoint_time",
        }
    }

    pub fn from_name(name: &str) -> Option<Measure> {
        Measure::ALL
            .into_iter()
            .find(|measure| measure.name() == name)
    }

    pub fn unit(self) -> Unit {
        match self {
            Measure::MessagesPerCommit => Unit::Count,
            _ => Unit::Time,
        }
    }

    /// Whether a trial strikes the leader (and the file needs a `[crash]` or `[action]` table).
    pub fn strikes_leader(self) -> bool {
        matches!(
            self,
            Measure::ElectionAfterCrash | Measure::ElectionAfterAction
        )
    }
}

/// The unit of a measured value. A row holds the value times 1,000 as a whole number: microseconds
/// for a time (shown in ms), thousandths for a count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    #[default]
    Time,
    Count,
}

impl Unit {
    pub fn is_time(&self) -> bool {
        *self == Unit::Time
    }

    /// The CSV column of a row's value.
    pub fn csv_column(self) -> &'static str {
        match self {
            Unit::Time => "measured_ms",
            Unit::Count => "measured_count",
        }
    }
}

/// What a trial does to the leader once its window opens (`election_after_action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderAction {
    /// It stops, losing volatile state; it does not come back within the trial.
    Crash,
    /// It freezes (a stop-the-world pause) and, with `resume_after_ms`, wakes up that much later.
    Pause,
    /// Every link to and from it is cut; with `resume_after_ms`, every link is healed that much later.
    Isolate,
}

impl LeaderAction {
    pub const NAMES: &'static [&'static str] = &["crash", "pause", "isolate"];

    pub fn name(self) -> &'static str {
        match self {
            LeaderAction::Crash => "crash",
            LeaderAction::Pause => "pause",
            LeaderAction::Isolate => "isolate",
        }
    }

    pub fn from_name(name: &str) -> Option<LeaderAction> {
        [
            LeaderAction::Crash,
            LeaderAction::Pause,
            LeaderAction::Isolate,
        ]
        .into_iter()
        .find(|action| action.name() == name)
    }
}
