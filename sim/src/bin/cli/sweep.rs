//! `quorumlab sweep`: many seeds of randomized faults, a tally per invariant, and the command that
//! reproduces the first failing seed. `--emit-scenario SEED` prints that seed's schedule as scenario TOML.

use super::args::{FlagSpec, ParsedArgs};
use super::parallel::sweep_on_threads;
use super::Outcome;
use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use quorumlab_sim::ids::MAX_NODES;
use quorumlab_sim::scenario::{to_toml_string, ScenarioProtocol};
use quorumlab_sim::sweep::SweepSummary;
use serde::Serialize;
use std::collections::BTreeMap;

const FLAGS: FlagSpec = FlagSpec {
    with_value: &[
        "protocol",
        "seeds",
        "nodes",
        "first-seed",
        "emit-scenario",
        "profile",
        "jobs",
    ],
    switches: &["chaos"],
};

const DEFAULT_NODES: usize = 5;

/// The JSON printed by a sweep.
#[derive(Serialize)]
struct SweepReport {
    protocol: &'static str,
    nodes: usize,
    profile: &'static str,
    first_seed: u64,
    seeds: u64,
    events_processed: u64,
    violations_per_invariant: BTreeMap<String, u64>,
    failing_seeds_per_invariant: BTreeMap<String, u64>,
    failing_seed_count: u64,
    failing_seeds: Vec<u64>,
    first_failing_seed: Option<u64>,
    reproduce: Option<String>,
}

pub fn sweep_command(args: &[String]) -> Outcome {
    match sweep_or_emit(args) {
        Ok(outcome) => outcome,
        Err(message) => Outcome::BadInput(message),
    }
}

fn sweep_or_emit(args: &[String]) -> Result<Outcome, String> {
    let parsed = FLAGS.parse(args)?;
    parsed.no_positionals()?;
    let protocol = parsed.text("protocol").unwrap_or("raft");
    let protocol = ScenarioProtocol::from_name(protocol).ok_or_else(|| {
        format!(
            "--protocol: unknown protocol `{protocol}`; supported: {}",
            ScenarioProtocol::SUPPORTED.join(", ")
        )
    })?;
    let options = chaos_options(&parsed)?;
    if let Some(seed) = parsed.number::<u64>("emit-scenario")? {
        if parsed.text("seeds").is_some() || parsed.text("first-seed").is_some() {
            return Err(
                "--emit-scenario prints one seed's scenario: drop --seeds and --first-seed".into(),
            );
        }
        print!("{}", to_toml_string(&chaos_scenario(seed, &options)));
        return Ok(Outcome::Success);
    }
    let seed_count = parsed
        .number::<u64>("seeds")?
        .ok_or("--seeds N is required (or --emit-scenario SEED)")?;
    if seed_count == 0 {
        return Err("--seeds must be at least 1".into());
    }
    let first_seed = parsed.number::<u64>("first-seed")?.unwrap_or(1);
    let jobs = match parsed.number::<usize>("jobs")? {
        Some(0) => return Err("--jobs must be at least 1".into()),
        Some(jobs) => jobs,
        None => std::thread::available_parallelism().map_or(1, |cores| cores.get()),
    };
    let summary = sweep_on_threads(first_seed, seed_count, &options, jobs)?;
    let report = sweep_report(protocol, first_seed, &options, summary);
    let failed = report.failing_seed_count > 0;
    println!(
        "{}",
        serde_json::to_string_pretty(&report).expect("sweep reports serialize")
    );
    Ok(if failed {
        Outcome::Failures
    } else {
        Outcome::Success
    })
}

fn chaos_options(parsed: &ParsedArgs) -> Result<ChaosOptions, String> {
    let node_count = parsed.number::<usize>("nodes")?.unwrap_or(DEFAULT_NODES);
    if !(1..=MAX_NODES).contains(&node_count) {
        return Err(format!(
            "--nodes {node_count} is out of range: expected 1 to {MAX_NODES}"
        ));
    }
    Ok(ChaosOptions {
        node_count,
        profile: chaos_profile(parsed)?,
        ..ChaosOptions::default()
    })
}

/// `--profile NAME` if given; otherwise `--chaos` means `mixed` and no flag means `calm`.
fn chaos_profile(parsed: &ParsedArgs) -> Result<ChaosProfile, String> {
    let Some(name) = parsed.text("profile") else {
        return Ok(if parsed.switch("chaos") {
            ChaosProfile::Mixed
        } else {
            ChaosProfile::Calm
        });
    };
    let profile = ChaosProfile::from_name(name).ok_or_else(|| {
        format!(
            "--profile: unknown profile `{name}`; expected one of {}",
            ChaosProfile::NAMES.join(", ")
        )
    })?;
    if profile == ChaosProfile::Calm && parsed.switch("chaos") {
        return Err("--chaos contradicts --profile calm".into());
    }
    Ok(profile)
}

fn sweep_report(
    protocol: ScenarioProtocol,
    first_seed: u64,
    options: &ChaosOptions,
    summary: SweepSummary,
) -> SweepReport {
    let first_failing_seed = summary.first_failing_seed();
    SweepReport {
        protocol: protocol.name(),
        nodes: options.node_count,
        profile: options.profile.name(),
        first_seed,
        seeds: summary.seeds_run,
        events_processed: summary.events_processed,
        violations_per_invariant: summary.violations_per_invariant,
        failing_seeds_per_invariant: summary.failing_seeds_per_invariant,
        failing_seed_count: summary.failing_seed_count,
        failing_seeds: summary.failing_seeds,
        first_failing_seed,
        reproduce: first_failing_seed.map(|seed| reproduce_command(protocol, seed, options)),
    }
}

/// The shell commands that write the failing seed's scenario to a file and run it.
fn reproduce_command(protocol: ScenarioProtocol, seed: u64, options: &ChaosOptions) -> String {
    let profile = options.profile.name();
    let file = format!("sweep-seed-{seed}.toml");
    format!(
        "quorumlab sweep --protocol {} --emit-scenario {seed} --nodes {} --profile {profile} > {file} && quorumlab run {file}",
        protocol.name(),
        options.node_count
    )
}
