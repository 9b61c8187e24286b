//! `quorumlab sweep`: many seeds of randomized faults, a tally per invariant, and the command that
//! reproduces the first failing seed. `--emit-scenario SEED` prints that seed's schedule as scenario TOML.
//! `--protocol raft` (the default) sweeps Raft's chaos profiles; a coordination protocol (`lock-service`,
//! `redis-lock`, `redlock`, `scheduler`, `zookeeper`, `work-queue`) sweeps its chaos world
//! (`chaos::locks`), with a few switches that pick its unsafe or alternative variant.

use super::args::{FlagSpec, ParsedArgs};
use super::parallel::sweep_on_threads;
use super::Outcome;
use quorumlab_sim::chaos::locks::{LockChaosOptions, LockKind};
use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use quorumlab_sim::config::ZkRecipe;
use quorumlab_sim::ids::MAX_NODES;
use quorumlab_sim::registry;
use quorumlab_sim::scenario::to_toml_string;
use quorumlab_sim::sweep::{
    lock_chaos_options, lock_sweep_scenario, run_lock_seed, run_seed, SweepSummary,
};
use quorumlab_sim::ProtocolKind;
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
        "recipe",
    ],
    switches: &["chaos", "no-fencing", "global-lock", "server-time-faults"],
};

const DEFAULT_NODES: usize = 5;

/// Most servers a coordination sweep may ask for: its workers (at most 5) and the store count toward
/// the node limit too.
const MAX_COORDINATION_SERVERS: usize = MAX_NODES - 6;

/// The switches that choose a coordination variant, with the one protocol each applies to.
const VARIANT_SWITCHES: &[(&str, &[&str])] = &[
    ("no-fencing", &["lock-service"]),
    ("global-lock", &["work-queue"]),
    ("server-time-faults", &["redis-lock", "redlock"]),
];

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

/// What a sweep runs: Raft's chaos profiles, or one coordination protocol's chaos world.
enum Target {
    Raft(ChaosOptions),
    Coordination {
        name: &'static str,
        options: LockChaosOptions,
    },
}

fn sweep_or_emit(args: &[String]) -> Result<Outcome, String> {
    let parsed = FLAGS.parse(args)?;
    parsed.no_positionals()?;
    let target = target(&parsed)?;
    if let Some(seed) = parsed.number::<u64>("emit-scenario")? {
        if parsed.text("seeds").is_some() || parsed.text("first-seed").is_some() {
            return Err(
                "--emit-scenario prints one seed's scenario: drop --seeds and --first-seed".into(),
            );
        }
        let scenario = match &target {
            Target::Raft(options) => chaos_scenario(seed, options),
            Target::Coordination { options, .. } => lock_sweep_scenario(seed, options)?,
        };
        print!("{}", to_toml_string(&scenario));
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
    let report = match &target {
        Target::Raft(options) => {
            let summary =
                sweep_on_threads(first_seed, seed_count, |seed| run_seed(seed, options), jobs)?;
            sweep_report(ProtocolKind::Raft, first_seed, options, summary)
        }
        Target::Coordination { name, options } => {
            let run = |seed| run_lock_seed(seed, options);
            let summary = sweep_on_threads(first_seed, seed_count, run, jobs)?;
            coordination_report(name, first_seed, options, summary)
        }
    };
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

fn target(parsed: &ParsedArgs) -> Result<Target, String> {
    let name = parsed.text("protocol").unwrap_or("raft");
    let Some(entry) = registry::by_name(name) else {
        let supported: Vec<&str> = registry::names().collect();
        return Err(format!(
            "--protocol: unknown protocol `{name}`; supported: {}",
            supported.join(", ")
        ));
    };
    if entry.kind != ProtocolKind::Raft {
        return Ok(Target::Coordination {
            name: entry.name,
            options: coordination_options(parsed, entry.name)?,
        });
    }
    for (switch, protocols) in VARIANT_SWITCHES {
        if parsed.switch(switch) {
            return Err(only_for(switch, protocols));
        }
    }
    if parsed.text("recipe").is_some() {
        return Err(only_for("recipe", &["zookeeper"]));
    }
    Ok(Target::Raft(chaos_options(parsed)?))
}

fn only_for(flag: &str, protocols: &[&str]) -> String {
    format!(
        "--{flag} only applies to --protocol {}",
        protocols.join(" or --protocol ")
    )
}

/// The chaos world of coordination protocol `name`, with `--nodes` servers and the variant switches.
fn coordination_options(parsed: &ParsedArgs, name: &str) -> Result<LockChaosOptions, String> {
    let chaos = match chaos_profile(parsed)? {
        ChaosProfile::Calm => false,
        ChaosProfile::Mixed => true,
        other => {
            return Err(format!(
                "--profile {} is a Raft profile; a {name} sweep takes calm or mixed (--chaos)",
                other.name()
            ))
        }
    };
    let mut options = lock_chaos_options(name, chaos).expect("a coordination protocol");
    if let Some(servers) = parsed.number::<usize>("nodes")? {
        if name == "redis-lock" && servers != 1 {
            return Err(format!(
                "--nodes {servers} is out of range: a single Redis lock has exactly 1 server"
            ));
        }
        if !(1..=MAX_COORDINATION_SERVERS).contains(&servers) {
            return Err(format!(
                "--nodes {servers} is out of range: expected 1 to {MAX_COORDINATION_SERVERS} servers \
                 (the workers and the store count toward the {MAX_NODES}-node limit)"
            ));
        }
        options.servers = servers;
    }
    for (switch, protocols) in VARIANT_SWITCHES {
        if parsed.switch(switch) && !protocols.contains(&name) {
            return Err(only_for(switch, protocols));
        }
    }
    if parsed.switch("no-fencing") {
        options.fencing = false;
    }
    if parsed.switch("server-time-faults") {
        options.server_time_faults = true;
    }
    if parsed.switch("global-lock") {
        options.kind = LockKind::WorkQueue { partitioned: false };
    }
    if let Some(recipe) = parsed.text("recipe") {
        if name != "zookeeper" {
            return Err(only_for("recipe", &["zookeeper"]));
        }
        let recipe = match recipe {
            "herd" => ZkRecipe::Herd,
            "sequential" => ZkRecipe::Sequential,
            other => {
                return Err(format!(
                    "--recipe: unknown recipe `{other}`; expected herd or sequential"
                ))
            }
        };
        options.kind = LockKind::Zookeeper(recipe);
    }
    Ok(options)
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
    protocol: ProtocolKind,
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

fn coordination_report(
    name: &'static str,
    first_seed: u64,
    options: &LockChaosOptions,
    summary: SweepSummary,
) -> SweepReport {
    let first_failing_seed = summary.first_failing_seed();
    SweepReport {
        protocol: name,
        nodes: options.servers,
        profile: coordination_profile(options),
        first_seed,
        seeds: summary.seeds_run,
        events_processed: summary.events_processed,
        violations_per_invariant: summary.violations_per_invariant,
        failing_seeds_per_invariant: summary.failing_seeds_per_invariant,
        failing_seed_count: summary.failing_seed_count,
        failing_seeds: summary.failing_seeds,
        first_failing_seed,
        reproduce: first_failing_seed.map(|seed| coordination_reproduce(name, seed, options)),
    }
}

fn coordination_profile(options: &LockChaosOptions) -> &'static str {
    if options.fault_window_ms == 0 {
        ChaosProfile::Calm.name()
    } else {
        ChaosProfile::Mixed.name()
    }
}

/// The flags that recreate `options` for protocol `name` (beside `--nodes` and `--profile`).
fn variant_flags(options: &LockChaosOptions) -> String {
    let mut flags = String::new();
    if !options.fencing {
        flags.push_str(" --no-fencing");
    }
    match options.kind {
        LockKind::Redis | LockKind::Redlock if options.server_time_faults => {
            flags.push_str(" --server-time-faults");
        }
        LockKind::WorkQueue { partitioned: false } => flags.push_str(" --global-lock"),
        LockKind::Zookeeper(ZkRecipe::Herd) => flags.push_str(" --recipe herd"),
        _ => {}
    }
    flags
}

/// The shell commands that write a coordination sweep's failing seed to a file and run it.
fn coordination_reproduce(name: &str, seed: u64, options: &LockChaosOptions) -> String {
    let file = format!("sweep-{name}-seed-{seed}.toml");
    format!(
        "quorumlab sweep --protocol {name} --emit-scenario {seed} --nodes {} --profile {}{} > {file} && quorumlab run {file}",
        options.servers,
        coordination_profile(options),
        variant_flags(options)
    )
}

/// The shell commands that write the failing seed's scenario to a file and run it.
fn reproduce_command(protocol: ProtocolKind, seed: u64, options: &ChaosOptions) -> String {
    let profile = options.profile.name();
    let file = format!("sweep-seed-{seed}.toml");
    format!(
        "quorumlab sweep --protocol {} --emit-scenario {seed} --nodes {} --profile {profile} > {file} && quorumlab run {file}",
        protocol.name(),
        options.node_count
    )
}
