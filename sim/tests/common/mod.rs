//! Helpers shared by the scenario-driven integration tests.
#![allow(dead_code)]

use quorumlab_sim::runner::RunReport;
use quorumlab_sim::scenario::{parse_scenario, Scenario};

/// Parses `sim/scenarios/<name>`, panicking with the parser's own message if it is bad.
pub fn load(name: &str) -> Scenario {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("scenario file");
    parse_scenario(&text, name).unwrap_or_else(|error| panic!("{error}"))
}

/// How many violations of `invariant` a run reported.
pub fn count(report: &RunReport, invariant: &str) -> u64 {
    report
        .world
        .violation_counts
        .get(invariant)
        .copied()
        .unwrap_or(0)
}
