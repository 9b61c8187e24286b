//! Helpers shared by the scenario-driven integration tests.
#![allow(dead_code)]

use quorumlab_sim::runner::RunReport;
use quorumlab_sim::scenario::{example_text, parse_scenario, Scenario};

/// Parses the example `name` (`leader-crash.toml` from `sim/scenarios/`, or a world's own,
/// `<world>/<file>.toml`, found through the registry), panicking with the parser's own message if it
/// is bad.
pub fn load(name: &str) -> Scenario {
    let text = example_text(name).unwrap_or_else(|| panic!("no example is called {name}"));
    parse_scenario(text, name).unwrap_or_else(|error| panic!("{error}"))
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
