//! The coordination half of `quorumlab sweep`: a lock world's report, its reproduce command, and
//! whether `--linearizability` applies. A lock world's clients never read through one of Raft's read
//! paths, so its histories are reported per model ("fenced store", "lock") and never under a read
//! path; a world whose folder gives no history model has nothing to check, and says so.

use super::args::ParsedArgs;
use super::sweep::SweepReport;
use quorumlab_sim::chaos::locks::{LockChaosOptions, LockProfile};
use quorumlab_sim::registry::{self, Entry};
use quorumlab_sim::sweep::SweepSummary;

/// `--linearizability` applies where the world's folder names models for its clients' histories, and
/// not to a Raft sweep with a liar (`plain_raft_only` false on plain Raft), whose seeds are judged by
/// the liar's catch.
pub(super) fn check_histories_flag(
    parsed: &ParsedArgs,
    entry: &Entry,
    plain_raft_only: bool,
) -> Result<(), String> {
    if !parsed.switch("linearizability") || plain_raft_only {
        return Ok(());
    }
    if LockChaosOptions::default_for(entry.kind).is_none() {
        return Err("--linearizability does not apply to a Raft sweep with a liar".into());
    }
    if !has_history_models(entry) {
        let worlds: Vec<&str> = registry::names()
            .filter(|name| registry::by_name(name).is_some_and(has_history_models))
            .collect();
        return Err(format!(
            "--linearizability applies to a world whose clients' histories have a model ({}); {} has none",
            worlds.join(", "),
            entry.name
        ));
    }
    Ok(())
}

fn has_history_models(entry: &Entry) -> bool {
    !entry.parts.history_models(&(entry.defaults)()).is_empty()
}

pub(super) fn coordination_report(
    name: &'static str,
    first_seed: u64,
    options: &LockChaosOptions,
    profile: LockProfile,
    summary: SweepSummary,
) -> SweepReport {
    let first_failing_seed = summary.first_failing_seed();
    SweepReport {
        protocol: name,
        nodes: options.server_count(),
        profile: profile.name(),
        variant: (options.variant != options.entry().sweep.default_variant().name)
            .then_some(options.variant),
        first_seed,
        seeds: summary.seeds_run,
        events_processed: summary.events_processed,
        violations_per_invariant: summary.violations_per_invariant,
        failing_seeds_per_invariant: summary.failing_seeds_per_invariant,
        failing_seed_count: summary.failing_seed_count,
        failing_seeds: summary.failing_seeds,
        first_failing_seed,
        reproduce: first_failing_seed
            .map(|seed| coordination_reproduce(name, seed, options, profile)),
        exercised_seeds: None,
        caught_exercised_seeds: None,
        linearizability: None,
        history_models: None,
    }
}

/// The shell commands that write a coordination sweep's failing seed to a file and run it.
pub fn coordination_reproduce(
    name: &str,
    seed: u64,
    options: &LockChaosOptions,
    profile: LockProfile,
) -> String {
    let file = format!("sweep-{name}-seed-{seed}.toml");
    let default_variant = options.entry().sweep.default_variant().name;
    let variant = if options.variant == default_variant {
        String::new()
    } else {
        format!(" --variant {}", options.variant)
    };
    format!(
        "quorumlab sweep --protocol {name} --emit-scenario {seed} --nodes {} --profile {}{variant} > {file} && quorumlab run {file}",
        options.server_count(),
        profile.name(),
    )
}
