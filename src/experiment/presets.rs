//! The experiments the page offers ready-made: the Raft paper's Figure 16 setups (the same files the
//! CLI runs, built in as text) and "this run's world", which sweeps the playground's own scenario.
//!
//! A preset only fills the form (`form::ExperimentForm`); the learner may change the values, the
//! trials and what is measured before running, and the form writes the experiment file the worker
//! reads. So a preset is never a second way of running anything.

use super::form::{ExperimentForm, MeasureChoice};
use quorumlab_sim::experiment::SweepKey;

/// The cluster of the paper's measurements: five servers, a disk write of 5–7 ms before each reply.
pub const PAPER_CLUSTER_TOML: &str =
    include_str!("../../sim/experiments/raft-figure16/cluster.toml");

/// The leases lesson's cluster: CheckQuorum, PreVote and lease reads on, as production clusters run.
pub const LEASE_CLUSTER_TOML: &str = include_str!("../../lessons/scenarios/lease-five.toml");

/// One ready-made experiment.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Its address: `#/experiment/<id>`.
    pub id: &'static str,
    pub title: &'static str,
    /// One sentence: what it asks.
    pub question: &'static str,
    /// The scenario it starts from; `None` is the playground's own run.
    pub scenario_toml: Option<&'static str>,
    pub form: fn() -> ExperimentForm,
}

fn paper_form(title: &str, values: &str, trials: u64, bound_ms: u64) -> ExperimentForm {
    ExperimentForm {
        title: title.to_string(),
        measure: MeasureChoice::ElectionAfterCrash,
        key: SweepKey::ElectionTimeout,
        values_text: values.to_string(),
        trials,
        bound_ms,
        first_seed: 1,
        checkpoint: String::new(),
    }
}

/// Every preset, in the order the menu lists them.
pub const PRESETS: &[Preset] = &[
    Preset {
        id: "randomness",
        title: "5 ms or 50 ms of randomness?",
        question: "How long is the cluster without a leader after the leader crashes, with 5 ms and with 50 ms of randomness in the election timeout?",
        scenario_toml: Some(PAPER_CLUSTER_TOML),
        form: || paper_form("Randomness in the election timeout", "150-155, 150-200", 200, 30_000),
    },
    Preset {
        id: "figure16-top",
        title: "Raft paper, Figure 16 (top)",
        question: "How much randomness does the election timeout need? Downtime after a leader crash, for ranges 150–151 to 150–300 ms.",
        scenario_toml: Some(PAPER_CLUSTER_TOML),
        form: || paper_form("Figure 16 (top)", "150-151, 150-155, 150-175, 150-200, 150-300", 1_000, 30_000),
    },
    Preset {
        id: "figure16-bottom",
        title: "Raft paper, Figure 16 (bottom)",
        question: "How short may the election timeout be? Downtime after a leader crash, for 12–24 ms up to 150–300 ms.",
        scenario_toml: Some(PAPER_CLUSTER_TOML),
        form: || paper_form("Figure 16 (bottom)", "12-24, 25-50, 50-100, 100-200, 150-300", 1_000, 30_000),
    },
    Preset {
        id: "lease-failover",
        title: "Failover gap with leader leases",
        question: "With lease reads on, how long is the cluster without a leader after the leader crashes, for election timeouts of 150–300 ms and of 300–600 ms?",
        scenario_toml: Some(LEASE_CLUSTER_TOML),
        form: || paper_form("Failover gap with leases", "150-300, 300-600", 200, 30_000),
    },
    Preset {
        id: "disk-commit",
        title: "Disk speed and commit latency",
        question: "How long does a write take to be acknowledged when every disk write takes 0, 5–7 or 30 ms?",
        scenario_toml: Some(PAPER_CLUSTER_TOML),
        form: || ExperimentForm {
            title: "Disk speed and commit latency".to_string(),
            measure: MeasureChoice::CommitLatency,
            key: SweepKey::Persist,
            values_text: "0-0, 5-7, 30-30".to_string(),
            trials: 200,
            bound_ms: 10_000,
            first_seed: 1,
            checkpoint: String::new(),
        },
    },
    Preset {
        id: "pause-leader",
        title: "A paused leader",
        question: "A paused leader still believes it leads: how long until the others elect a new one, with 5 ms and with 50 ms of randomness in the election timeout?",
        scenario_toml: Some(PAPER_CLUSTER_TOML),
        form: || ExperimentForm {
            measure: MeasureChoice::PauseLeader,
            ..paper_form("A paused leader", "150-155, 150-200", 200, 30_000)
        },
    },
    Preset {
        id: "isolate-leader",
        title: "A leader cut off",
        question: "The leader is cut off from every other server but keeps running: how long until the others elect a new one, for election timeouts of 150–300 ms and of 300–600 ms?",
        scenario_toml: Some(PAPER_CLUSTER_TOML),
        form: || ExperimentForm {
            measure: MeasureChoice::IsolateLeader,
            ..paper_form("A leader cut off", "150-300, 300-600", 200, 30_000)
        },
    },
    Preset {
        id: "messages-per-commit",
        title: "Messages per committed write",
        question: "Ten writes go to the leader at once: how many messages do the servers send per write committed, with a heartbeat every 10, 25 or 75 ms?",
        scenario_toml: Some(PAPER_CLUSTER_TOML),
        form: || ExperimentForm {
            title: "Messages per committed write".to_string(),
            measure: MeasureChoice::MessagesPerCommit,
            key: SweepKey::Heartbeat,
            values_text: "10, 25, 75".to_string(),
            trials: 200,
            bound_ms: 10_000,
            first_seed: 1,
            checkpoint: String::new(),
        },
    },
    Preset {
        id: "split-vote",
        title: "When does the vote split?",
        question: "How long until a lesson's split_vote checkpoint ticks (a term with two candidates and no winner, then a leader), for 1 ms, 5 ms and 50 ms of randomness? Trials where it never ticks stay below the top.",
        scenario_toml: Some(PAPER_CLUSTER_TOML),
        form: || ExperimentForm {
            title: "When does the vote split?".to_string(),
            measure: MeasureChoice::CheckpointTime,
            key: SweepKey::ElectionTimeout,
            values_text: "150-151, 150-155, 150-200".to_string(),
            trials: 200,
            bound_ms: 10_000,
            first_seed: 1,
            checkpoint: "split_vote".to_string(),
        },
    },
    Preset {
        id: "this-run",
        title: "This run's world",
        question: "The playground's own settings, repeated over many seeds: sweep one of its timings.",
        scenario_toml: None,
        form: || ExperimentForm {
            title: "This run's world".to_string(),
            measure: MeasureChoice::ElectionAfterCrash,
            key: SweepKey::ElectionTimeout,
            values_text: String::new(),
            trials: 200,
            bound_ms: 30_000,
            first_seed: 1,
            checkpoint: String::new(),
        },
    },
];

/// The preset an address or a menu names.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|preset| preset.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::work::read;

    #[test]
    fn every_built_in_preset_writes_an_experiment_the_worker_accepts() {
        for preset in PRESETS {
            let Some(scenario) = preset.scenario_toml else {
                continue;
            };
            let text = (preset.form)()
                .experiment_toml()
                .unwrap_or_else(|error| panic!("{}: {error}", preset.id));
            let experiment =
                read(&text, scenario).unwrap_or_else(|error| panic!("{}: {error}", preset.id));
            assert!(
                experiment.values.len() >= 2,
                "{} sweeps at least two values",
                preset.id
            );
        }
    }

    #[test]
    fn preset_ids_are_unique_and_found() {
        for preset_entry in PRESETS {
            assert_eq!(
                preset(preset_entry.id).map(|found| found.title),
                Some(preset_entry.title)
            );
        }
        assert!(preset("figure17").is_none());
    }
}
