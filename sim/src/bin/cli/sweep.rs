//! `quorumlab sweep`: many seeds of randomized faults, a tally per invariant, and the command that
//! reproduces the first failing seed. `--emit-scenario SEED` prints that seed's schedule as scenario TOML.
//! `--protocol raft` (the default) sweeps Raft's chaos profiles; any other registry entry sweeps its chaos
//! world (`chaos::locks`) in one of the configurations its sweep plan lists (`--variant`), under the
//! calm, mixed or holder-aimed profile. `--all` sweeps every registry entry (`sweep_table`).
//! Raft takes two more variants besides its plan's: `--variant direct` with `--profile membership` runs
//! every seed with `[raft] membership = "direct"`, the unsafe hand-edited configurations, which the
//! checkers must catch; `--variant liar` makes one server lie or equivocate in every seed
//! (`chaos::raft_liar`), on any Raft profile or on the aimed one (`--profile holders`), and reports how
//! many seeds the liar really lied in and how many of those the checkers caught.
//! `--read-path log|read_index|lease|follower` runs every Raft seed with that read path instead of the
//! one it draws, and `--linearizability` checks each seed's client history (`sweep_history`) and
//! reports, per read path, the seeds checked, not linearizable (with the first of them) and undecided,
//! and the same per history model; on the lock service it checks the fenced store's and the lock
//! grants' histories, reported per model only (`sweep_coordination`).

use super::args::{FlagSpec, ParsedArgs};
use super::parallel::sweep_on_threads;
pub use super::sweep_coordination::coordination_reproduce;
use super::sweep_coordination::{check_histories_flag, coordination_report};
use super::sweep_history_rows::{history_rows, model_rows, HistoryRow};
use super::Outcome;
use quorumlab_sim::chaos::holders::holder_run;
use quorumlab_sim::chaos::locks::{LockChaosOptions, LockProfile};
use quorumlab_sim::chaos::raft_liar::{LiarSchedule, AIMED_PROFILE_NAME, RAFT_LIAR_VARIANT};
use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use quorumlab_sim::config::{MembershipMode, ReadPath};
use quorumlab_sim::ids::MAX_NODES;
use quorumlab_sim::registry::{self, Entry};
use quorumlab_sim::scenario::{shown, to_toml_string, Scenario};
use quorumlab_sim::suggest::did_you_mean;
use quorumlab_sim::sweep::{judge_liar_scenario, judge_scenario_with_history};
use quorumlab_sim::sweep::{
    judge_scenario, lock_sweep_scenario, run_coordination_seed, SweepSummary,
};
use quorumlab_sim::sweep_history::SWEEP_BUDGET;
use quorumlab_sim::{ProtocolConfig, ProtocolKind};
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
        "variant",
        "raft-seeds",
        "holder-seeds",
        "world",
        "read-path",
    ],
    switches: &["chaos", "all", "linearizability"],
};

const DEFAULT_NODES: usize = 5;

/// Raft's variant beyond its sweep plan's: membership changes by hand-edited configurations.
const RAFT_DIRECT_VARIANT: &str = "direct";

/// Most servers a coordination sweep may ask for: its workers (at most 5) and the store count toward
/// the node limit too.
const MAX_COORDINATION_SERVERS: usize = MAX_NODES - 6;

/// The JSON printed by a sweep.
#[derive(Serialize)]
pub(super) struct SweepReport {
    pub(super) protocol: &'static str,
    pub(super) nodes: usize,
    pub(super) profile: &'static str,
    /// The configuration swept, when it is not the default one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) variant: Option<&'static str>,
    pub(super) first_seed: u64,
    pub(super) seeds: u64,
    pub(super) events_processed: u64,
    pub(super) violations_per_invariant: BTreeMap<String, u64>,
    pub(super) failing_seeds_per_invariant: BTreeMap<String, u64>,
    pub(super) failing_seed_count: u64,
    pub(super) failing_seeds: Vec<u64>,
    pub(super) first_failing_seed: Option<u64>,
    pub(super) reproduce: Option<String>,
    /// With a liar: seeds in which it told a lie, and of those the ones a checker caught.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) exercised_seeds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) caught_exercised_seeds: Option<u64>,
    /// With `--linearizability`, where the world's clients read through a read path (plain Raft):
    /// each read path's client-history verdicts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) linearizability: Option<BTreeMap<&'static str, HistoryRow>>,
    /// With `--linearizability`: each history model's verdicts on its own part of the histories
    /// (Raft's "key-value store"; the lock service's "fenced store" and "lock").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) history_models: Option<BTreeMap<&'static str, HistoryRow>>,
}

pub fn sweep_command(args: &[String]) -> Outcome {
    match sweep_or_emit(args) {
        Ok(outcome) => outcome,
        Err(message) => Outcome::BadInput(message),
    }
}

/// What a sweep runs: Raft's chaos profiles, or one coordination protocol's chaos world.
enum Target {
    Raft {
        options: ChaosOptions,
        membership: MembershipMode,
        /// `--linearizability`: check every seed's client history.
        histories: bool,
    },
    RaftLiar(LiarSchedule),
    Coordination {
        name: &'static str,
        options: LockChaosOptions,
        profile: LockProfile,
        /// `--linearizability`: check every seed's client history against the world's models.
        histories: bool,
    },
}

fn sweep_or_emit(args: &[String]) -> Result<Outcome, String> {
    let parsed = FLAGS.parse(args)?;
    parsed.no_positionals()?;
    if parsed.switch("all") {
        return super::sweep_table::sweep_all(&parsed, jobs(&parsed)?);
    }
    for flag in ["raft-seeds", "holder-seeds", "world"] {
        if parsed.text(flag).is_some() {
            return Err(format!("--{flag} only applies to --all"));
        }
    }
    let target = target(&parsed)?;
    if let Some(seed) = parsed.number::<u64>("emit-scenario")? {
        if parsed.text("seeds").is_some() || parsed.text("first-seed").is_some() {
            return Err(
                "--emit-scenario prints one seed's scenario: drop --seeds and --first-seed".into(),
            );
        }
        let scenario = match &target {
            Target::Raft {
                options,
                membership,
                ..
            } => raft_scenario(seed, options, *membership),
            Target::RaftLiar(schedule) => schedule.scenario(seed),
            Target::Coordination {
                options, profile, ..
            } => match profile {
                LockProfile::Holders => holder_run(seed, options)?.scenario,
                _ => lock_sweep_scenario(seed, options)?,
            },
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
    let jobs = jobs(&parsed)?;
    let report = match &target {
        Target::Raft {
            options,
            membership,
            histories,
        } => {
            let run = |seed| {
                let scenario = raft_scenario(seed, options, *membership);
                if *histories {
                    judge_scenario_with_history(scenario, SWEEP_BUDGET)
                } else {
                    judge_scenario(scenario)
                }
            };
            let summary = sweep_on_threads(first_seed, seed_count, run, jobs)?;
            let rows = histories.then(|| history_rows(&summary));
            let model_rows = histories.then(|| model_rows(&summary));
            SweepReport {
                linearizability: rows,
                history_models: model_rows,
                ..sweep_report(first_seed, options, *membership, summary)
            }
        }
        Target::RaftLiar(schedule) => {
            let run = |seed| judge_liar_scenario(schedule.scenario(seed));
            let summary = sweep_on_threads(first_seed, seed_count, run, jobs)?;
            liar_report(first_seed, schedule, summary)
        }
        Target::Coordination {
            name,
            options,
            profile,
            histories,
        } => {
            let holders = *profile == LockProfile::Holders;
            let budget = histories.then_some(SWEEP_BUDGET);
            let run = |seed| run_coordination_seed(seed, options, holders, budget);
            let summary = sweep_on_threads(first_seed, seed_count, run, jobs)?;
            let model_rows = histories.then(|| model_rows(&summary));
            SweepReport {
                history_models: model_rows,
                ..coordination_report(name, first_seed, options, *profile, summary)
            }
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

/// `--jobs N`, or every core.
pub fn jobs(parsed: &ParsedArgs) -> Result<usize, String> {
    match parsed.number::<usize>("jobs")? {
        Some(0) => Err("--jobs must be at least 1".into()),
        Some(jobs) => Ok(jobs),
        None => Ok(std::thread::available_parallelism().map_or(1, |cores| cores.get())),
    }
}

fn target(parsed: &ParsedArgs) -> Result<Target, String> {
    let name = parsed.text("protocol").unwrap_or("raft");
    let Some(entry) = registry::by_name(name) else {
        return Err(format!(
            "--protocol: unknown protocol `{}`; {}",
            shown(name),
            did_you_mean(name, registry::names(), "protocol", "sim/SCENARIOS.md")
        ));
    };
    let variant = parsed
        .text("variant")
        .unwrap_or(entry.sweep.default_variant().name);
    let plain_raft_only = is_plain_raft(entry) && variant != RAFT_LIAR_VARIANT;
    if parsed.text("read-path").is_some() && !plain_raft_only {
        return Err(
            "--read-path applies to a plain Raft sweep (its clients read and write a key-value store)"
                .into(),
        );
    }
    check_histories_flag(parsed, entry, plain_raft_only)?;
    if is_plain_raft(entry) && variant == RAFT_LIAR_VARIANT {
        return liar_schedule(parsed).map(Target::RaftLiar);
    }
    if is_plain_raft(entry) {
        let mut options = chaos_options(parsed)?;
        options.read_path = read_path_flag(parsed)?;
        let membership = raft_membership(entry, variant, options.profile)?;
        return Ok(Target::Raft {
            options,
            membership,
            histories: parsed.switch("linearizability"),
        });
    }
    let options = LockChaosOptions::new(entry.kind, variant)
        .ok_or_else(|| unknown_variant(entry, variant))?;
    let profile = coordination_profile_flag(parsed, entry.name)?;
    Ok(Target::Coordination {
        name: entry.name,
        options: coordination_options(parsed, options, profile)?,
        profile,
        histories: parsed.switch("linearizability"),
    })
}

/// `--read-path NAME`: every seed's read path, instead of the one it draws.
fn read_path_flag(parsed: &ParsedArgs) -> Result<Option<ReadPath>, String> {
    let Some(name) = parsed.text("read-path") else {
        return Ok(None);
    };
    ReadPath::from_name(name).map(Some).ok_or_else(|| {
        format!(
            "--read-path: unknown read path `{}`; {}",
            shown(name),
            did_you_mean(
                name,
                ReadPath::NAMES.iter().copied(),
                "read path",
                "sim/SCENARIOS.md"
            )
        )
    })
}

/// How a Raft sweep's servers join and leave: its plan's variant goes through the log, `direct`
/// edits configurations by hand, which only the membership profile exercises.
fn raft_membership(
    entry: &Entry,
    variant: &str,
    profile: ChaosProfile,
) -> Result<MembershipMode, String> {
    if variant == RAFT_DIRECT_VARIANT {
        if profile != ChaosProfile::Membership {
            return Err(format!(
                "--variant {RAFT_DIRECT_VARIANT} changes how servers join and leave, and only \
                 --profile membership adds and removes servers (this sweep has --profile {})",
                profile.name()
            ));
        }
        return Ok(MembershipMode::Direct);
    }
    if entry.sweep.variant(variant).is_none() {
        return Err(unknown_variant(entry, variant));
    }
    Ok(MembershipMode::Log)
}

/// A world without actors (plain Raft), swept by the Raft chaos profiles rather than a coordination
/// world's.
fn is_plain_raft(entry: &Entry) -> bool {
    LockChaosOptions::default_for(entry.kind).is_none()
}

/// The world Raft's chaos profiles build: a scenario's default one, plain Raft. Asked of the config
/// rather than named, so that only the world's folder and the registry name it.
fn plain_raft() -> ProtocolKind {
    ProtocolConfig::default().kind()
}

/// One Raft chaos seed's scenario, its servers joining and leaving as `membership` says.
fn raft_scenario(seed: u64, options: &ChaosOptions, membership: MembershipMode) -> Scenario {
    let mut scenario = chaos_scenario(seed, options);
    scenario.raft.membership = membership;
    scenario
}

fn unknown_variant(entry: &Entry, variant: &str) -> String {
    let mut names: Vec<&str> = entry
        .sweep
        .variants
        .iter()
        .map(|known| known.name)
        .collect();
    if is_plain_raft(entry) {
        names.extend([RAFT_DIRECT_VARIANT, RAFT_LIAR_VARIANT]);
    }
    format!(
        "--variant: {} has no variant `{}`; {}",
        entry.name,
        shown(variant),
        did_you_mean(
            variant,
            names,
            "variant",
            "sim/SCENARIOS.md, \"Coordination sweeps\""
        )
    )
}

/// `--profile calm|mixed|holders` for a coordination world (`--chaos` means mixed).
fn coordination_profile_flag(parsed: &ParsedArgs, name: &str) -> Result<LockProfile, String> {
    let Some(profile_name) = parsed.text("profile") else {
        return Ok(if parsed.switch("chaos") {
            LockProfile::Mixed
        } else {
            LockProfile::Calm
        });
    };
    let profile = LockProfile::from_name(profile_name).ok_or_else(|| {
        format!(
            "--profile {} is not a {name} profile; {}",
            shown(profile_name),
            did_you_mean(
                profile_name,
                LockProfile::NAMES.iter().copied(),
                "profile",
                "sim/SCENARIOS.md, \"Coordination sweeps\""
            )
        )
    })?;
    if profile == LockProfile::Calm && parsed.switch("chaos") {
        return Err("--chaos contradicts --profile calm".into());
    }
    Ok(profile)
}

/// The chaos world of a coordination protocol, with `--nodes` servers (calm: no fault window).
fn coordination_options(
    parsed: &ParsedArgs,
    mut options: LockChaosOptions,
    profile: LockProfile,
) -> Result<LockChaosOptions, String> {
    if profile == LockProfile::Calm {
        options.fault_window_ms = 0;
    }
    if let Some(servers) = parsed.number::<usize>("nodes")? {
        if options.server_count() == 1 && servers != 1 {
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
    Ok(options)
}

/// The schedule of a Raft sweep with a liar: `--profile holders` is the aimed one, any other profile
/// is Raft's own with the liar added.
fn liar_schedule(parsed: &ParsedArgs) -> Result<LiarSchedule, String> {
    if parsed.text("profile") != Some(AIMED_PROFILE_NAME) {
        return chaos_options(parsed).map(LiarSchedule::Chaos);
    }
    let options = ChaosOptions {
        profile: ChaosProfile::Calm,
        ..chaos_options_with(parsed, ChaosProfile::Calm)?
    };
    Ok(LiarSchedule::Aimed(options))
}

fn chaos_options(parsed: &ParsedArgs) -> Result<ChaosOptions, String> {
    chaos_options_with(parsed, chaos_profile(parsed)?)
}

fn chaos_options_with(parsed: &ParsedArgs, profile: ChaosProfile) -> Result<ChaosOptions, String> {
    let node_count = parsed.number::<usize>("nodes")?.unwrap_or(DEFAULT_NODES);
    if !(1..=MAX_NODES).contains(&node_count) {
        return Err(format!(
            "--nodes {node_count} is out of range: expected 1 to {MAX_NODES}"
        ));
    }
    Ok(ChaosOptions {
        node_count,
        profile,
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
            "--profile: unknown profile `{}`; {}",
            shown(name),
            did_you_mean(
                name,
                ChaosProfile::NAMES.iter().copied(),
                "profile",
                "sim/SCENARIOS.md, \"Chaos profiles\""
            )
        )
    })?;
    if profile == ChaosProfile::Calm && parsed.switch("chaos") {
        return Err("--chaos contradicts --profile calm".into());
    }
    Ok(profile)
}

fn sweep_report(
    first_seed: u64,
    options: &ChaosOptions,
    membership: MembershipMode,
    summary: SweepSummary,
) -> SweepReport {
    let first_failing_seed = summary.first_failing_seed();
    SweepReport {
        protocol: plain_raft().name(),
        nodes: options.node_count,
        profile: options.profile.name(),
        variant: (membership == MembershipMode::Direct).then_some(RAFT_DIRECT_VARIANT),
        first_seed,
        seeds: summary.seeds_run,
        events_processed: summary.events_processed,
        violations_per_invariant: summary.violations_per_invariant,
        failing_seeds_per_invariant: summary.failing_seeds_per_invariant,
        failing_seed_count: summary.failing_seed_count,
        failing_seeds: summary.failing_seeds,
        first_failing_seed,
        reproduce: first_failing_seed.map(|seed| raft_reproduce(seed, options, membership)),
        exercised_seeds: None,
        caught_exercised_seeds: None,
        linearizability: None,
        history_models: None,
    }
}

fn liar_report(first_seed: u64, schedule: &LiarSchedule, summary: SweepSummary) -> SweepReport {
    let options = schedule.options();
    let first_failing_seed = summary.first_failing_seed();
    let flags = format!(" --variant {RAFT_LIAR_VARIANT}");
    let reproduce = first_failing_seed.map(|seed| {
        let file = format!("sweep-seed-{seed}.toml");
        format!(
            "quorumlab sweep --protocol raft --emit-scenario {seed} --nodes {} --profile {}{flags} > {file} && quorumlab run {file}",
            options.node_count,
            schedule.profile_name(),
        )
    });
    SweepReport {
        protocol: plain_raft().name(),
        nodes: options.node_count,
        profile: schedule.profile_name(),
        variant: Some(RAFT_LIAR_VARIANT),
        first_seed,
        seeds: summary.seeds_run,
        events_processed: summary.events_processed,
        exercised_seeds: Some(summary.exercised_seed_count()),
        caught_exercised_seeds: Some(summary.caught_exercised_seed_count()),
        violations_per_invariant: summary.violations_per_invariant,
        failing_seeds_per_invariant: summary.failing_seeds_per_invariant,
        failing_seed_count: summary.failing_seed_count,
        failing_seeds: summary.failing_seeds,
        first_failing_seed,
        reproduce,
        linearizability: None,
        history_models: None,
    }
}

/// The shell commands that write the failing seed's scenario to a file and run it.
pub fn reproduce_command(protocol: ProtocolKind, seed: u64, options: &ChaosOptions) -> String {
    reproduce_with_flags(protocol, seed, options, "")
}

/// [`reproduce_command`] for a Raft sweep, naming the direct variant when it ran.
fn raft_reproduce(seed: u64, options: &ChaosOptions, membership: MembershipMode) -> String {
    let mut flags = match membership {
        MembershipMode::Log => String::new(),
        MembershipMode::Direct => format!(" --variant {RAFT_DIRECT_VARIANT}"),
    };
    if let Some(read_path) = options.read_path {
        flags.push_str(&format!(" --read-path {}", read_path.name()));
    }
    reproduce_with_flags(plain_raft(), seed, options, &flags)
}

fn reproduce_with_flags(
    protocol: ProtocolKind,
    seed: u64,
    options: &ChaosOptions,
    extra_flags: &str,
) -> String {
    let profile = options.profile.name();
    let file = format!("sweep-seed-{seed}.toml");
    format!(
        "quorumlab sweep --protocol {} --emit-scenario {seed} --nodes {} --profile {profile}{extra_flags} > {file} && quorumlab run {file}",
        protocol.name(),
        options.node_count
    )
}
