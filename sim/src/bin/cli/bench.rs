//! `quorumlab bench [--nodes N] [--seconds S]`: how fast the engine simulates Raft under steady client
//! load. Reported, never asserted: wall-clock numbers depend on the machine.

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::MAX_NODES;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{Scenario, Step};
use serde::Serialize;
use std::time::Instant;

const FLAGS: FlagSpec = FlagSpec {
    with_value: &["nodes", "seconds"],
    switches: &[],
};

/// Cluster sizes measured when `--nodes` is not given: the usual size and the largest.
const DEFAULT_NODE_COUNTS: &[usize] = &[5, MAX_NODES];
const DEFAULT_SIMULATED_SECONDS: u64 = 30;
const MAX_SIMULATED_SECONDS: u64 = 3_600;
/// Steady load: one put to the leader every this many simulated ms (100 requests per second).
const REQUEST_EVERY_MS: u64 = 10;

#[derive(Serialize)]
struct BenchResult {
    nodes: usize,
    simulated_seconds: u64,
    wall_seconds: f64,
    events_processed: u64,
    events_per_second: f64,
    simulated_seconds_per_wall_second: f64,
    requests_submitted: u64,
    requests_committed: u64,
}

pub fn bench_command(args: &[String]) -> Outcome {
    match bench(args) {
        Ok(()) => Outcome::Success,
        Err(message) => Outcome::BadInput(message),
    }
}

fn bench(args: &[String]) -> Result<(), String> {
    let parsed = FLAGS.parse(args)?;
    parsed.no_positionals()?;
    let node_counts = match parsed.number::<usize>("nodes")? {
        Some(count) if (1..=MAX_NODES).contains(&count) => vec![count],
        Some(count) => {
            return Err(format!(
                "--nodes {count} is out of range: expected 1 to {MAX_NODES}"
            ))
        }
        None => DEFAULT_NODE_COUNTS.to_vec(),
    };
    let seconds = parsed
        .number::<u64>("seconds")?
        .unwrap_or(DEFAULT_SIMULATED_SECONDS);
    if !(1..=MAX_SIMULATED_SECONDS).contains(&seconds) {
        return Err(format!(
            "--seconds {seconds} is out of range: expected 1 to {MAX_SIMULATED_SECONDS}"
        ));
    }
    let results: Vec<BenchResult> = node_counts
        .iter()
        .map(|count| measure(*count, seconds))
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&results).expect("bench results serialize")
    );
    Ok(())
}

/// A cluster under steady put load for `seconds` of simulated time.
fn steady_load_scenario(node_count: usize, seconds: u64) -> Scenario {
    let duration_ms = seconds * 1_000;
    let mut scenario = Scenario::new("Benchmark: steady client load", node_count, duration_ms);
    let request = Action::Request {
        count: 1,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    };
    scenario.steps = (1..duration_ms / REQUEST_EVERY_MS)
        .map(|tick| Step {
            at_ms: tick * REQUEST_EVERY_MS,
            action: request.clone(),
        })
        .collect();
    scenario
}

fn measure(node_count: usize, seconds: u64) -> BenchResult {
    let mut run = ScenarioRun::new(steady_load_scenario(node_count, seconds))
        .expect("benchmark scenario is valid");
    let started = Instant::now();
    run.run_to_end();
    let wall_seconds = started.elapsed().as_secs_f64().max(1e-9);
    let report = run.world().report();
    BenchResult {
        nodes: node_count,
        simulated_seconds: seconds,
        wall_seconds,
        events_processed: report.events_processed,
        events_per_second: report.events_processed as f64 / wall_seconds,
        simulated_seconds_per_wall_second: seconds as f64 / wall_seconds,
        requests_submitted: report.requests.submitted,
        requests_committed: report.requests.committed,
    }
}
