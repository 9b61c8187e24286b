//! `quorumlab sweep --all`: every registry entry swept in turn, with no list of worlds here to keep up.
//!
//! For each world, first its chaos sweep under the mixed profile in its default configuration (the one
//! it is claimed safe in, where it has one), each seed judged for safety and then liveness; then every
//! configuration its sweep plan lists under the holder-aimed profile, each unsafe one with the fraction
//! of seeds that caught it. Raft's row in that table is its liar (`--variant liar --profile holders`):
//! a liar does not lie in every seed, so its share is of the seeds in which it lied. Progress goes to
//! stderr; two Markdown tables to stdout. Exit 1 when a claim fails: a safe configuration broke a
//! checker, a claimed-safe world failed a seed, or an unsafe one was caught in fewer than
//! [`CATCH_CLAIM_PERCENT`] percent of its holder-aimed seeds.

use super::args::ParsedArgs;
use super::parallel::{sweep_telling, Telling};
use super::sweep::{coordination_reproduce, reproduce_command};
use super::Outcome;
use quorumlab_sim::chaos::locks::{LockChaosOptions, LockProfile};
use quorumlab_sim::chaos::raft_liar::{LiarSchedule, RAFT_LIAR_VARIANT};
use quorumlab_sim::chaos::{ChaosOptions, ChaosProfile};
use quorumlab_sim::registry::{self, Entry};
use quorumlab_sim::scenario::shown;
use quorumlab_sim::suggest::did_you_mean;
use quorumlab_sim::sweep::{
    judge_liar_scenario, run_holder_seed, run_lock_seed, run_seed, SweepSummary,
};
use std::time::Instant;

/// Seeds per coordination world unless `--seeds` says otherwise.
const DEFAULT_SEEDS: u64 = 1_000;
/// Raft's seeds are this many times the coordination worlds' unless `--raft-seeds` says otherwise.
const RAFT_SEED_FACTOR: u64 = 10;
/// Holder-aimed seeds per configuration unless `--holder-seeds` says otherwise.
const DEFAULT_HOLDER_SEEDS: u64 = 1_000;
/// Each unsafe configuration must be caught in at least this share of holder-aimed seeds.
pub const CATCH_CLAIM_PERCENT: u64 = 90;

/// One row of the first table.
struct ChaosRow {
    world: &'static str,
    variant: &'static str,
    claimed_safe: bool,
    summary: SweepSummary,
    seconds: f64,
    reproduce: Option<String>,
}

/// One row of the second table.
struct HolderRow {
    world: &'static str,
    variant: &'static str,
    safe: bool,
    summary: SweepSummary,
    seconds: f64,
    /// A liar's row: its share counts only the seeds in which it lied.
    liar: bool,
}

pub fn sweep_all(parsed: &ParsedArgs, jobs: usize) -> Result<Outcome, String> {
    for flag in ["protocol", "variant", "profile", "nodes", "emit-scenario"] {
        if parsed.text(flag).is_some() {
            return Err(format!(
                "--{flag} does not apply to --all, which sweeps every world"
            ));
        }
    }
    let seeds = positive(parsed, "seeds", DEFAULT_SEEDS)?;
    let raft_seeds = positive(parsed, "raft-seeds", seeds * RAFT_SEED_FACTOR)?;
    let holder_seeds = positive(parsed, "holder-seeds", DEFAULT_HOLDER_SEEDS)?;
    let first_seed = parsed.number::<u64>("first-seed")?.unwrap_or(1);
    let entries = chosen_entries(parsed)?;
    eprintln!(
        "sweeping {} registry entries on {jobs} threads",
        entries.len()
    );
    let mut chaos_rows = Vec::new();
    let mut holder_rows = Vec::new();
    for entry in entries {
        let count = match LockChaosOptions::default_for(entry.kind) {
            Some(_) => seeds,
            None => raft_seeds,
        };
        chaos_rows.push(chaos_row(entry, first_seed, count, jobs)?);
        for variant in entry.sweep.variants {
            if let Some(options) = LockChaosOptions::new(entry.kind, variant.name) {
                holder_rows.push(holder_row(entry, &options, first_seed, holder_seeds, jobs)?);
            }
        }
        if LockChaosOptions::default_for(entry.kind).is_none() {
            holder_rows.push(liar_row(entry, first_seed, holder_seeds, jobs)?);
        }
    }
    print_chaos_table(&chaos_rows);
    println!();
    print_holder_table(&holder_rows);
    let broken = chaos_rows
        .iter()
        .any(|row| row.claimed_safe && row.summary.failing_seed_count > 0)
        || holder_rows.iter().any(|row| !holder_claim_holds(row));
    Ok(if broken {
        Outcome::Failures
    } else {
        Outcome::Success
    })
}

/// Every registry entry, or with `--world NAME` only that one: the full sweep takes hours, and a world
/// swept alone prints the same rows (same seeds, same verdicts) as it does inside the whole sweep, so
/// the sweep can be run a piece at a time and the pieces put together.
fn chosen_entries(parsed: &ParsedArgs) -> Result<Vec<&'static Entry>, String> {
    match parsed.text("world") {
        None => Ok(registry::ENTRIES.iter().collect()),
        Some(name) => registry::by_name(name)
            .map(|entry| vec![entry])
            .ok_or_else(|| {
                format!(
                    "--world {} is not a registered world; {}",
                    shown(name),
                    did_you_mean(name, registry::names(), "world", "sim/SCENARIOS.md")
                )
            }),
    }
}

fn positive(parsed: &ParsedArgs, flag: &str, default: u64) -> Result<u64, String> {
    match parsed.number::<u64>(flag)? {
        Some(0) => Err(format!("--{flag} must be at least 1")),
        Some(count) => Ok(count),
        None => Ok(default),
    }
}

/// The safety-then-liveness sweep of `entry` in its default configuration, mixed profile.
fn chaos_row(
    entry: &'static Entry,
    first: u64,
    count: u64,
    jobs: usize,
) -> Result<ChaosRow, String> {
    let variant = entry.sweep.default_variant();
    let label = format!("{} {} mixed", entry.name, variant.name);
    eprintln!("{label}: {count} seeds");
    let telling = Telling {
        failures: false,
        progress: Some(&label),
    };
    let started = Instant::now();
    let (summary, reproduce) = match LockChaosOptions::default_for(entry.kind) {
        Some(options) => {
            let run = |seed| run_lock_seed(seed, &options);
            let summary = sweep_telling(first, count, run, jobs, telling)?;
            let reproduce = summary
                .first_failing_seed()
                .map(|seed| coordination_reproduce(entry.name, seed, &options, LockProfile::Mixed));
            (summary, reproduce)
        }
        None => {
            let options = ChaosOptions::default();
            let run = |seed| run_seed(seed, &options);
            let summary = sweep_telling(first, count, run, jobs, telling)?;
            let reproduce = summary
                .first_failing_seed()
                .map(|seed| reproduce_command(entry.kind, seed, &options));
            (summary, reproduce)
        }
    };
    Ok(ChaosRow {
        world: entry.name,
        variant: variant.name,
        claimed_safe: variant.safe,
        summary,
        seconds: started.elapsed().as_secs_f64(),
        reproduce,
    })
}

fn holder_row(
    entry: &'static Entry,
    options: &LockChaosOptions,
    first: u64,
    count: u64,
    jobs: usize,
) -> Result<HolderRow, String> {
    let label = format!("{} {} holders", entry.name, options.variant);
    eprintln!("{label}: {count} seeds");
    let telling = Telling {
        failures: false,
        progress: Some(&label),
    };
    let started = Instant::now();
    let run = |seed| run_holder_seed(seed, options);
    let summary = sweep_telling(first, count, run, jobs, telling)?;
    Ok(HolderRow {
        world: entry.name,
        variant: options.variant,
        safe: options.sweep_variant().safe,
        summary,
        seconds: started.elapsed().as_secs_f64(),
        liar: false,
    })
}

/// Raft with one server lying or equivocating, on the schedule aimed at it (`--profile holders`).
fn liar_row(
    entry: &'static Entry,
    first: u64,
    count: u64,
    jobs: usize,
) -> Result<HolderRow, String> {
    let label = format!("{} {RAFT_LIAR_VARIANT} holders", entry.name);
    eprintln!("{label}: {count} seeds");
    let telling = Telling {
        failures: false,
        progress: Some(&label),
    };
    let schedule = LiarSchedule::Aimed(ChaosOptions {
        profile: ChaosProfile::Calm,
        ..ChaosOptions::default()
    });
    let started = Instant::now();
    let run = |seed| judge_liar_scenario(schedule.scenario(seed));
    let summary = sweep_telling(first, count, run, jobs, telling)?;
    Ok(HolderRow {
        world: entry.name,
        variant: RAFT_LIAR_VARIANT,
        safe: false,
        summary,
        seconds: started.elapsed().as_secs_f64(),
        liar: true,
    })
}

/// Seeds caught and the seeds they are counted out of: every seed, or for a liar the ones it lied in.
fn caught_of(row: &HolderRow) -> (u64, u64) {
    if row.liar {
        (
            row.summary.caught_exercised_seed_count(),
            row.summary.exercised_seed_count(),
        )
    } else {
        (row.summary.unsafe_seed_count(), row.summary.seeds_run)
    }
}

/// A safe configuration broke no checker; an unsafe one was caught often enough.
fn holder_claim_holds(row: &HolderRow) -> bool {
    let (caught, out_of) = caught_of(row);
    if row.safe {
        caught == 0
    } else {
        caught * 100 >= CATCH_CLAIM_PERCENT * out_of
    }
}

fn rate(seeds: u64, seconds: f64) -> String {
    format!("{:.0}", seeds as f64 / seconds.max(1e-9))
}

fn invariants(summary: &SweepSummary) -> String {
    let named: Vec<String> = summary
        .failing_seeds_per_invariant
        .iter()
        .map(|(name, seeds)| format!("{name} ({seeds})"))
        .collect();
    if named.is_empty() {
        "none".to_string()
    } else {
        named.join(", ")
    }
}

fn print_chaos_table(rows: &[ChaosRow]) {
    println!("Mixed chaos, safety then liveness, default configuration of every registry entry");
    println!();
    println!("| world | configuration | claimed safe | seeds | failing seeds | failing per invariant | seeds/s | first failing seed |");
    println!("| --- | --- | --- | ---: | ---: | --- | ---: | --- |");
    for row in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            row.world,
            row.variant,
            if row.claimed_safe { "yes" } else { "no" },
            row.summary.seeds_run,
            row.summary.failing_seed_count,
            invariants(&row.summary),
            rate(row.summary.seeds_run, row.seconds),
            row.reproduce
                .as_deref()
                .map_or("-".to_string(), |command| format!("`{command}`")),
        );
    }
}

fn print_holder_table(rows: &[HolderRow]) {
    println!(
        "Holder-aimed profile, every configuration of every world with locks; Raft with a liar on its aimed schedule"
    );
    println!();
    println!("| world | configuration | safe | seeds | seeds caught | caught | progress failures | seeds/s | claim |");
    println!("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |");
    for row in rows {
        let (caught, out_of) = caught_of(row);
        let progress_only = row
            .summary
            .failing_seed_count
            .saturating_sub(row.summary.unsafe_seed_count());
        let percent = 100.0 * caught as f64 / out_of.max(1) as f64;
        let caught = if row.liar {
            format!("{caught} of {out_of} it lied in")
        } else {
            caught.to_string()
        };
        let claim = match (row.safe, holder_claim_holds(row)) {
            (true, true) => "holds: 0 violations".to_string(),
            (true, false) => format!("BROKEN: {}", invariants(&row.summary)),
            (false, true) => format!("holds: caught in ≥ {CATCH_CLAIM_PERCENT}%"),
            (false, false) => format!("BROKEN: caught in < {CATCH_CLAIM_PERCENT}%"),
        };
        println!(
            "| {} | {} | {} | {} | {caught} | {percent:.1}% | {progress_only} | {} | {claim} |",
            row.world,
            row.variant,
            if row.safe { "yes" } else { "no" },
            row.summary.seeds_run,
            rate(row.summary.seeds_run, row.seconds),
        );
    }
}
