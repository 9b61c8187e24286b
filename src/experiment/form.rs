//! The experiment form: what a learner chooses (what to measure, which timing to sweep over which
//! values, how many seeds) and the experiment file it becomes.
//!
//! The form writes the same TOML an experiment file holds (`sim/EXPERIMENTS.md`) and the worker
//! reads it with the CLI's own parser, so the page can never run an experiment the file format
//! could not describe, and "Download the experiment" gives a file `quorumlab experiment` runs.
//! The swept values are typed as a learner would say them ("150-155, 150-200"); everything
//! else the parser checks again, with the same messages as for a file.

use quorumlab_sim::experiment::{SweepKey, MAX_BOUND_MS, MAX_LINES, MAX_TRIALS};
use std::fmt::Write;

/// What a trial measures, as the form offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeasureChoice {
    /// Crash the leader once elected; time to the next leader.
    ElectionAfterCrash,
    /// Pause the leader once elected (for good); time to a leader of a later term.
    PauseLeader,
    /// Cut the leader off once elected (for good); time to a leader of a later term.
    IsolateLeader,
    /// From the start to the first leader.
    FirstElection,
    /// The total time without a leader over the whole run (its own faults included).
    LeaderlessTime,
    /// One write to the settled leader: from its submission to its acknowledgement.
    CommitLatency,
    /// Ten writes to the settled leader: messages sent until the last is answered, per commit.
    MessagesPerCommit,
    /// From the start until a lesson checkpoint first holds.
    CheckpointTime,
}

/// Writes a `messages_per_commit` experiment from the form sends at once.
pub const FORM_WRITES: u32 = 10;

impl MeasureChoice {
    pub const ALL: [MeasureChoice; 8] = [
        MeasureChoice::ElectionAfterCrash,
        MeasureChoice::PauseLeader,
        MeasureChoice::IsolateLeader,
        MeasureChoice::FirstElection,
        MeasureChoice::LeaderlessTime,
        MeasureChoice::CommitLatency,
        MeasureChoice::MessagesPerCommit,
        MeasureChoice::CheckpointTime,
    ];

    /// The measure the experiment file names.
    pub fn file_name(self) -> &'static str {
        match self {
            MeasureChoice::ElectionAfterCrash => "election_after_crash",
            MeasureChoice::PauseLeader | MeasureChoice::IsolateLeader => "election_after_action",
            MeasureChoice::FirstElection => "first_election",
            MeasureChoice::LeaderlessTime => "leaderless_time",
            MeasureChoice::CommitLatency => "commit_latency",
            MeasureChoice::MessagesPerCommit => "messages_per_commit",
            MeasureChoice::CheckpointTime => "checkpoint_time",
        }
    }

    /// The choice's value in the form's menu (one per choice, unlike `file_name`).
    pub fn id(self) -> &'static str {
        match self {
            MeasureChoice::PauseLeader => "pause_leader",
            MeasureChoice::IsolateLeader => "isolate_leader",
            other => other.file_name(),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            MeasureChoice::ElectionAfterCrash => "Crash → next leader",
            MeasureChoice::PauseLeader => "Pause the leader → new leader",
            MeasureChoice::IsolateLeader => "Cut the leader off → new leader",
            MeasureChoice::FirstElection => "Start → first leader",
            MeasureChoice::LeaderlessTime => "Time without a leader (whole run)",
            MeasureChoice::CommitLatency => "Write → acknowledged",
            MeasureChoice::MessagesPerCommit => "Messages per committed write",
            MeasureChoice::CheckpointTime => "Start → lesson checkpoint ticks",
        }
    }

    /// What the form's bound is called for this measure.
    pub fn bound_label(self) -> &'static str {
        match self {
            MeasureChoice::CommitLatency | MeasureChoice::MessagesPerCommit => {
                "Wait for the answers (ms)"
            }
            MeasureChoice::CheckpointTime => "Wait for the checkpoint (ms)",
            _ => "Wait for a leader (ms)",
        }
    }

    pub fn from_id(id: &str) -> Option<MeasureChoice> {
        MeasureChoice::ALL
            .into_iter()
            .find(|choice| choice.id() == id)
    }
}

/// The sweepable timings, with the words the form shows.
pub fn key_label(key: SweepKey) -> &'static str {
    match key {
        SweepKey::ElectionTimeout => "Election timeout (ms)",
        SweepKey::NetworkDelay => "Network delay, one way (ms)",
        SweepKey::Persist => "Disk write (ms)",
        SweepKey::Heartbeat => "Heartbeat interval (ms)",
    }
}

pub const KEYS: [SweepKey; 4] = [
    SweepKey::ElectionTimeout,
    SweepKey::NetworkDelay,
    SweepKey::Persist,
    SweepKey::Heartbeat,
];

/// Everything the form holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExperimentForm {
    pub title: String,
    pub measure: MeasureChoice,
    pub key: SweepKey,
    /// As typed: "150-155, 150-200" (ranges) or "50, 75" (the heartbeat).
    pub values_text: String,
    pub trials: u64,
    /// How long a trial waits for its leader before it is counted as "none within the bound".
    pub bound_ms: u64,
    pub first_seed: u64,
    /// The checkpoint a `checkpoint_time` experiment watches, as a lesson writes it.
    pub checkpoint: String,
}

impl ExperimentForm {
    /// The values, each `(min, max)`; an error names the piece that is not a value.
    pub fn values(&self) -> Result<Vec<(u64, u64)>, String> {
        let pieces: Vec<&str> = self
            .values_text
            .split([',', ';', '\n'])
            .map(str::trim)
            .filter(|piece| !piece.is_empty())
            .collect();
        if pieces.is_empty() {
            return Err("give at least one value to sweep, such as 150-155".into());
        }
        if pieces.len() > MAX_LINES {
            return Err(format!("{} values: at most {MAX_LINES}", pieces.len()));
        }
        pieces.iter().map(|piece| self.value(piece)).collect()
    }

    fn value(&self, piece: &str) -> Result<(u64, u64), String> {
        let number = |text: &str| {
            text.trim().parse::<u64>().map_err(|_| {
                format!("“{piece}” is not a value: write whole milliseconds, like 150-155")
            })
        };
        match piece.split_once(['-', '–']) {
            Some(_) if !self.key.is_range() => {
                Err(format!("“{piece}”: the heartbeat is one number, like 75"))
            }
            Some((min, max)) => {
                let (min, max) = (number(min)?, number(max)?);
                if min > max {
                    return Err(format!("“{piece}”: the smaller number comes first"));
                }
                Ok((min, max))
            }
            None if self.key.is_range() => number(piece).map(|value| (value, value)),
            None => number(piece).map(|value| (value, value)),
        }
    }

    /// The experiment file this form describes, naming its scenario `scenario.toml`.
    pub fn experiment_toml(&self) -> Result<String, String> {
        if self.trials == 0 || self.trials > MAX_TRIALS {
            return Err(format!("trials per value: 1 to {MAX_TRIALS}"));
        }
        if self.bound_ms == 0 || self.bound_ms > MAX_BOUND_MS {
            return Err(format!("wait for a leader: 1 to {MAX_BOUND_MS} ms"));
        }
        let values = self.values()?;
        let mut out = String::new();
        let _ = writeln!(out, "title = {}", toml_string(&self.title));
        let _ = writeln!(out, "scenario = \"scenario.toml\"");
        let _ = writeln!(out, "measure = \"{}\"", self.measure.file_name());
        let _ = writeln!(out, "trials = {}", self.trials);
        let _ = writeln!(out, "first_seed = {}", self.first_seed);
        let _ = writeln!(out, "bound_ms = {}", self.bound_ms);
        self.write_measure_keys(&mut out)?;
        let listed: Vec<String> = values
            .iter()
            .map(|&(min, max)| match self.key.is_range() {
                true => format!("[{min}, {max}]"),
                false => format!("[{min}]"),
            })
            .collect();
        let _ = writeln!(
            out,
            "\n[sweep]\nkey = \"{}\"\nvalues = [{}]",
            self.key.name(),
            listed.join(", ")
        );
        if self.key == SweepKey::ElectionTimeout {
            // The paper's setting: a heartbeat of half the shortest timeout, whatever the line.
            let _ = writeln!(out, "heartbeat = \"half_min\"");
        }
        Ok(out)
    }
}

impl ExperimentForm {
    /// The keys and tables the measure takes (a crash or an action, the writes, the checkpoint).
    fn write_measure_keys(&self, out: &mut String) -> Result<(), String> {
        let action =
            |kind: &str| format!("\n[action]\nkind = \"{kind}\"\nsettle_ms = 500\nwrites = 2");
        match self.measure {
            MeasureChoice::ElectionAfterCrash => {
                let _ = writeln!(out, "\n[crash]\nsettle_ms = 500\nwrites = 2");
            }
            MeasureChoice::PauseLeader => {
                let _ = writeln!(out, "{}", action("pause"));
            }
            MeasureChoice::IsolateLeader => {
                let _ = writeln!(out, "{}", action("isolate"));
            }
            MeasureChoice::MessagesPerCommit => {
                let _ = writeln!(out, "writes = {FORM_WRITES}");
            }
            MeasureChoice::CheckpointTime => {
                let checkpoint = self.checkpoint.trim();
                if checkpoint.is_empty() {
                    return Err(
                        "name a lesson checkpoint to wait for, such as leader_changed".into(),
                    );
                }
                let _ = writeln!(out, "checkpoint = {}", toml_string(checkpoint));
            }
            _ => {}
        }
        Ok(())
    }
}

/// A TOML basic string: quotes and backslashes escaped, control characters dropped.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for character in text.chars().filter(|character| !character.is_control()) {
        if matches!(character, '"' | '\\') {
            out.push('\\');
        }
        out.push(character);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::experiment::parse_experiment;

    fn form(values: &str) -> ExperimentForm {
        ExperimentForm {
            title: "A \"quoted\" title".into(),
            measure: MeasureChoice::ElectionAfterCrash,
            key: SweepKey::ElectionTimeout,
            values_text: values.into(),
            trials: 50,
            bound_ms: 10_000,
            first_seed: 7,
            checkpoint: String::new(),
        }
    }

    #[test]
    fn values_read_as_a_learner_types_them() {
        assert_eq!(
            form("150-155, 150–200;300").values(),
            Ok(vec![(150, 155), (150, 200), (300, 300)])
        );
    }

    #[test]
    fn bad_values_are_named() {
        assert_eq!(
            form("").values().unwrap_err(),
            "give at least one value to sweep, such as 150-155"
        );
        assert!(form("150-x")
            .values()
            .unwrap_err()
            .contains("“150-x” is not a value"));
        assert!(form("200-150")
            .values()
            .unwrap_err()
            .contains("smaller number comes first"));
        let mut heartbeat = form("50-60");
        heartbeat.key = SweepKey::Heartbeat;
        assert!(heartbeat.values().unwrap_err().contains("one number"));
    }

    #[test]
    fn the_form_writes_a_file_the_cli_parser_reads_back() {
        let text = form("150-155, 150-200").experiment_toml().unwrap();
        let parsed = parse_experiment(&text, "form").expect(&text);
        assert_eq!(parsed.scenario, "scenario.toml");
        assert!(text.contains("values = [[150, 155], [150, 200]]"), "{text}");
        assert!(text.contains("heartbeat = \"half_min\""));
        assert!(text.contains("title = \"A \\\"quoted\\\" title\""));
        let mut first = form("150-155");
        first.measure = MeasureChoice::FirstElection;
        assert!(!first.experiment_toml().unwrap().contains("[crash]"));
    }

    #[test]
    fn every_measure_writes_the_keys_the_parser_wants() {
        for measure in MeasureChoice::ALL {
            let mut chosen = form("150-155");
            chosen.measure = measure;
            chosen.checkpoint = "leader_changed".into();
            let text = chosen.experiment_toml().unwrap();
            let parsed = parse_experiment(&text, "form");
            assert!(
                parsed.is_ok(),
                "{}: {:?}\n{text}",
                measure.id(),
                parsed.err()
            );
            assert_eq!(MeasureChoice::from_id(measure.id()), Some(measure));
        }
        let mut paused = form("150-155");
        paused.measure = MeasureChoice::PauseLeader;
        let text = paused.experiment_toml().unwrap();
        assert!(text.contains("[action]\nkind = \"pause\""), "{text}");
        let mut counted = form("150-155");
        counted.measure = MeasureChoice::MessagesPerCommit;
        assert!(counted
            .experiment_toml()
            .unwrap()
            .contains("\nwrites = 10\n"));
    }

    #[test]
    fn a_checkpoint_experiment_needs_its_checkpoint_named() {
        let mut watched = form("150-155");
        watched.measure = MeasureChoice::CheckpointTime;
        assert!(watched
            .experiment_toml()
            .unwrap_err()
            .starts_with("name a lesson checkpoint"));
        watched.checkpoint = " split_vote ".into();
        assert!(watched
            .experiment_toml()
            .unwrap()
            .contains("checkpoint = \"split_vote\"\n"));
    }

    #[test]
    fn out_of_range_trials_are_refused_before_the_worker() {
        let mut many = form("150-155");
        many.trials = MAX_TRIALS + 1;
        assert!(many
            .experiment_toml()
            .unwrap_err()
            .starts_with("trials per value"));
    }
}
