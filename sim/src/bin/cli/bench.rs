//! `quorumlab bench [--nodes N] [--seconds S]`: how fast the engine simulates Raft under steady client
//! load. `quorumlab bench --bare-loop [--events N]`: how fast a bare event-queue loop runs, the physical
//! reference for one event's cost. Both workloads live in `quorumlab_sim::bench` (the wasm benchmark
//! runs the same ones); this command only times them. Reported, never asserted: wall-clock numbers
//! depend on the machine.

use super::args::FlagSpec;
use super::Outcome;
use quorumlab_sim::bench::{
    bare_event_loop, run_steady_load, BARE_LOOP_PENDING_EVENTS, MAX_STEADY_LOAD_SECONDS,
};
use quorumlab_sim::ids::MAX_NODES;
use serde::Serialize;
use std::time::Instant;

const FLAGS: FlagSpec = FlagSpec {
    with_value: &["nodes", "seconds", "events"],
    switches: &["bare-loop"],
};

/// Cluster sizes measured when `--nodes` is not given: the usual size and the largest.
const DEFAULT_NODE_COUNTS: &[usize] = &[5, MAX_NODES];
const DEFAULT_SIMULATED_SECONDS: u64 = 30;
const DEFAULT_BARE_LOOP_EVENTS: u64 = 20_000_000;
const MAX_BARE_LOOP_EVENTS: u64 = 10_000_000_000;

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

#[derive(Serialize)]
struct BareLoopResult {
    workload: &'static str,
    pending_events: usize,
    events_processed: u64,
    wall_seconds: f64,
    events_per_second: f64,
    checksum: String,
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
    let json = if parsed.switch("bare-loop") {
        if parsed.text("nodes").is_some() || parsed.text("seconds").is_some() {
            return Err("--bare-loop takes --events, not --nodes or --seconds".to_string());
        }
        let events = parsed
            .number::<u64>("events")?
            .unwrap_or(DEFAULT_BARE_LOOP_EVENTS);
        if !(1..=MAX_BARE_LOOP_EVENTS).contains(&events) {
            return Err(format!(
                "--events {events} is out of range: expected 1 to {MAX_BARE_LOOP_EVENTS}"
            ));
        }
        serde_json::to_string_pretty(&[measure_bare_loop(events)])
    } else {
        if parsed.text("events").is_some() {
            return Err("--events goes with --bare-loop".to_string());
        }
        let (node_counts, seconds) = steady_load_settings(&parsed)?;
        let results = node_counts
            .iter()
            .map(|count| measure_steady_load(*count, seconds))
            .collect::<Result<Vec<BenchResult>, String>>()?;
        serde_json::to_string_pretty(&results)
    };
    println!("{}", json.expect("bench results serialize"));
    Ok(())
}

fn steady_load_settings(parsed: &super::args::ParsedArgs) -> Result<(Vec<usize>, u64), String> {
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
    if !(1..=MAX_STEADY_LOAD_SECONDS).contains(&seconds) {
        return Err(format!(
            "--seconds {seconds} is out of range: expected 1 to {MAX_STEADY_LOAD_SECONDS}"
        ));
    }
    Ok((node_counts, seconds))
}

fn measure_steady_load(node_count: usize, seconds: u64) -> Result<BenchResult, String> {
    let started = Instant::now();
    let outcome = run_steady_load(node_count, seconds)?;
    let wall_seconds = started.elapsed().as_secs_f64().max(1e-9);
    Ok(BenchResult {
        nodes: node_count,
        simulated_seconds: seconds,
        wall_seconds,
        events_processed: outcome.events_processed,
        events_per_second: outcome.events_processed as f64 / wall_seconds,
        simulated_seconds_per_wall_second: seconds as f64 / wall_seconds,
        requests_submitted: outcome.requests_submitted,
        requests_committed: outcome.requests_committed,
    })
}

fn measure_bare_loop(events: u64) -> BareLoopResult {
    let started = Instant::now();
    let checksum = bare_event_loop(events);
    let wall_seconds = started.elapsed().as_secs_f64().max(1e-9);
    BareLoopResult {
        workload: "bare_loop",
        pending_events: BARE_LOOP_PENDING_EVENTS,
        events_processed: events,
        wall_seconds,
        events_per_second: events as f64 / wall_seconds,
        // As text: JSON readers (JavaScript among them) lose a u64's low bits.
        checksum: format!("{checksum:016x}"),
    }
}
