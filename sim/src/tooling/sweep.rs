//! Seed sweeps: run many chaos scenarios and tally what the checkers found.
//!
//! Each seed is judged twice, as TigerBeetle's VOPR does: *safety* (the world's checkers report no
//! violation, at any time, faults or not), then *liveness* (after the final heal and quiet period an up
//! node leads in the highest term any up node has reached). A seed that fails either is a failing seed; its
//! scenario can be printed with [`chaos_scenario`] + [`crate::tooling::scenario::to_toml_string`] and
//! re-run alone.

use crate::contract::entry::Progress;
use crate::contract::report::Report;
use crate::engine::linearizable::Budget;
use crate::protocols::zookeeper::CandidatePhase;
use crate::tooling::chaos::holders::holder_run;
use crate::tooling::chaos::locks::{lock_chaos_scenario, LockChaosOptions};
use crate::tooling::chaos::raft_liar::run_watching_the_liar;
use crate::tooling::chaos::{chaos_scenario, ChaosOptions};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{parse_scenario, to_toml_string, Scenario};
use crate::tooling::sweep_history::NOT_LINEARIZABLE;
use crate::tooling::sweep_history::{seed_history, HistoryTally, SeedHistories, SeedHistory};
use crate::worlds::registry;
use std::collections::BTreeMap;

/// Name under which a liveness failure is tallied next to the checkers' invariants.
pub const LIVENESS_AFTER_HEAL: &str = "Liveness after heal";

/// Most failing seeds listed in a summary (all are counted).
pub const MAX_LISTED_FAILING_SEEDS: usize = 20;

/// What one seed's run found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedOutcome {
    pub seed: u64,
    /// Violations per invariant name (the checkers' own counts), plus [`LIVENESS_AFTER_HEAL`] if no
    /// leader emerged after the heal.
    pub violations: BTreeMap<String, u64>,
    pub events_processed: u64,
    pub trace_hash: String,
    /// For a configuration with a liar: whether the liar told a lie the run could catch
    /// (`chaos::raft_liar`). `None` where no liar is judged.
    pub exercised: Option<bool>,
    /// The client history's verdicts (per model, and the read path the seed ran with where its
    /// clients read through one), where the sweep checks histories (`sweep_history`).
    pub history: Option<SeedHistories>,
}

impl SeedOutcome {
    pub fn failed(&self) -> bool {
        !self.violations.is_empty()
    }

    /// Some checker reported a violation (not only a liveness or progress failure).
    pub fn broke_a_checker(&self) -> bool {
        self.violations
            .keys()
            .any(|name| name != LIVENESS_AFTER_HEAL && name != PROGRESS_AFTER_HEAL)
    }
}

/// Runs the chaos scenario for one seed.
pub fn run_seed(seed: u64, options: &ChaosOptions) -> Result<SeedOutcome, String> {
    judge_scenario(chaos_scenario(seed, options))
}

/// Runs any scenario (typically a chaos one, perhaps altered) and judges it as a sweep would.
pub fn judge_scenario(scenario: Scenario) -> Result<SeedOutcome, String> {
    let mut run = ScenarioRun::new(scenario)?;
    run.run_to_end();
    Ok(judge_raft_run(&run))
}

/// [`judge_scenario`], and the run's client history checked within `budget`: a history the checker
/// refuses fails the seed under [`NOT_LINEARIZABLE`]; an undecided one is tallied, and fails nothing.
pub fn judge_scenario_with_history(
    scenario: Scenario,
    budget: Budget,
) -> Result<SeedOutcome, String> {
    let mut run = ScenarioRun::new(scenario)?;
    run.run_to_end();
    let outcome = judge_raft_run(&run);
    with_history(outcome, &run, budget)
}

/// `outcome` with `run`'s client history checked within `budget`: a refused history fails the seed
/// under [`NOT_LINEARIZABLE`], whatever the world.
fn with_history(
    mut outcome: SeedOutcome,
    run: &ScenarioRun,
    budget: Budget,
) -> Result<SeedOutcome, String> {
    let histories = seed_history(run, budget)?;
    if histories.verdict == SeedHistory::NotLinearizable {
        outcome.violations.insert(NOT_LINEARIZABLE.to_string(), 1);
    }
    outcome.history = Some(histories);
    Ok(outcome)
}

/// Judges a finished Raft run as a sweep does (see [`judge_scenario`]).
pub fn judge_raft_run(run: &ScenarioRun) -> SeedOutcome {
    let report = run.world().report();
    let mut violations = report.violation_counts.clone();
    violations.retain(|_, count| *count > 0);
    if !has_settled_leader(run) {
        violations.insert(LIVENESS_AFTER_HEAL.to_string(), 1);
    }
    SeedOutcome {
        seed: run.scenario().seed,
        violations,
        events_processed: report.events_processed,
        trace_hash: report.trace_hash,
        exercised: None,
        history: None,
    }
}

/// An up node leads, and no up node it counts has seen a higher term than it. A server removed from
/// the leader's configuration may be campaigning alone in higher and higher terms (the cluster ignores
/// it, dissertation section 4.2.3): its term says nothing about the cluster's health. Servers without
/// Raft (workers, the store) are always counted, as before.
fn has_settled_leader(run: &ScenarioRun) -> bool {
    use crate::contract::protocol::{Protocol, RoleLabel};
    use crate::engine::world::NodeStatus;
    let world = run.world();
    let nodes = world.nodes();
    let up: Vec<usize> = (0..nodes.len())
        .filter(|index| nodes[*index].status == NodeStatus::Up)
        .collect();
    let term_of = |index: usize| nodes[index].actor.summary().term;
    up.iter()
        .filter(|index| nodes[**index].actor.summary().role == RoleLabel::Leader)
        .any(|leader| {
            let counted = nodes[*leader].actor.as_raft().map(|raft| raft.voters());
            up.iter()
                .filter(|other| {
                    let is_raft = nodes[**other].actor.as_raft().is_some();
                    let outside = counted.is_some_and(|voters| {
                        !voters.contains(crate::base::ids::NodeId(**other as u16))
                    });
                    !(is_raft && outside)
                })
                .all(|other| term_of(*other) <= term_of(*leader))
        })
}

/// The tally of a sweep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepSummary {
    pub seeds_run: u64,
    pub events_processed: u64,
    /// Total violations per invariant over all seeds.
    pub violations_per_invariant: BTreeMap<String, u64>,
    /// Seeds that violated each invariant.
    pub failing_seeds_per_invariant: BTreeMap<String, u64>,
    pub failing_seed_count: u64,
    /// The first [`MAX_LISTED_FAILING_SEEDS`] failing seeds, in the order run.
    pub failing_seeds: Vec<u64>,
    /// Seeds with at least one checker violation (liveness and progress aside).
    unsafe_seeds: u64,
    /// Seeds whose liar told a lie, and of those the ones that broke a checker.
    exercised_seeds: u64,
    caught_exercised_seeds: u64,
    /// The client histories' verdicts per read path, where the sweep checked them.
    pub histories: HistoryTally,
}

impl SweepSummary {
    pub fn add(&mut self, outcome: &SeedOutcome) {
        self.seeds_run += 1;
        self.events_processed += outcome.events_processed;
        for (invariant, count) in &outcome.violations {
            *self
                .violations_per_invariant
                .entry(invariant.clone())
                .or_insert(0) += count;
            *self
                .failing_seeds_per_invariant
                .entry(invariant.clone())
                .or_insert(0) += 1;
        }
        if outcome.broke_a_checker() {
            self.unsafe_seeds += 1;
        }
        if outcome.exercised == Some(true) {
            self.exercised_seeds += 1;
            if outcome.broke_a_checker() {
                self.caught_exercised_seeds += 1;
            }
        }
        if let Some(histories) = &outcome.history {
            self.histories.add(outcome.seed, histories);
        }
        if outcome.failed() {
            self.failing_seed_count += 1;
            if self.failing_seeds.len() < MAX_LISTED_FAILING_SEEDS {
                self.failing_seeds.push(outcome.seed);
            }
        }
    }

    /// Adds a later stretch of seeds' tally (`later` ran after every seed of `self`).
    pub fn merge(&mut self, later: SweepSummary) {
        self.seeds_run += later.seeds_run;
        self.events_processed += later.events_processed;
        for (invariant, count) in later.violations_per_invariant {
            *self.violations_per_invariant.entry(invariant).or_insert(0) += count;
        }
        for (invariant, count) in later.failing_seeds_per_invariant {
            *self
                .failing_seeds_per_invariant
                .entry(invariant)
                .or_insert(0) += count;
        }
        self.failing_seed_count += later.failing_seed_count;
        self.unsafe_seeds += later.unsafe_seeds;
        self.exercised_seeds += later.exercised_seeds;
        self.caught_exercised_seeds += later.caught_exercised_seeds;
        self.histories.merge(later.histories);
        self.failing_seeds.extend(later.failing_seeds);
        self.failing_seeds.truncate(MAX_LISTED_FAILING_SEEDS);
    }

    /// Seeds that broke a checker (every failing seed but those failing only for want of progress).
    pub fn unsafe_seed_count(&self) -> u64 {
        self.unsafe_seeds
    }

    /// Seeds whose liar told a lie (see [`SeedOutcome::exercised`]).
    pub fn exercised_seed_count(&self) -> u64 {
        self.exercised_seeds
    }

    /// Seeds whose liar told a lie and some checker caught it.
    pub fn caught_exercised_seed_count(&self) -> u64 {
        self.caught_exercised_seeds
    }

    pub fn first_failing_seed(&self) -> Option<u64> {
        self.failing_seeds.first().copied()
    }
}

/// Runs `seed_count` consecutive seeds from `first_seed`, telling `on_seed` about each as it finishes.
pub fn sweep(
    first_seed: u64,
    seed_count: u64,
    options: &ChaosOptions,
    mut on_seed: impl FnMut(&SeedOutcome),
) -> Result<SweepSummary, String> {
    let mut summary = SweepSummary::default();
    for offset in 0..seed_count {
        let outcome = run_seed(first_seed.wrapping_add(offset), options)?;
        on_seed(&outcome);
        summary.add(&outcome);
    }
    Ok(summary)
}

/// Name under which a coordination world that did no work after the heal is tallied.
pub const PROGRESS_AFTER_HEAL: &str = "Progress after heal";

/// The chaos options of coordination protocol `protocol` in its default sweep variant (the one it is
/// claimed safe in, where it has one: see each entry's sweep plan); without `chaos` the fault window is
/// empty, the workload alone, a baseline. `None` for plain Raft or an unknown name.
pub fn lock_chaos_options(protocol: &str, chaos: bool) -> Option<LockChaosOptions> {
    let entry = registry::by_name(protocol)?;
    let options = LockChaosOptions::default_for(entry.kind)?;
    Some(if chaos {
        options
    } else {
        LockChaosOptions {
            fault_window_ms: 0,
            ..options
        }
    })
}

/// The coordination chaos scenario for one seed, exactly as a scenario file carries it: written out
/// and read back, so settings a file cannot hold for this protocol (the generator draws a keep-alive
/// interval even for Redis-style locks, which send none) take the value a file gives them. A sweep
/// runs this scenario, and `--emit-scenario` prints it: the printed file reruns the very same run.
pub fn lock_sweep_scenario(seed: u64, options: &LockChaosOptions) -> Result<Scenario, String> {
    let scenario = lock_chaos_scenario(seed, options);
    let text = to_toml_string(&scenario);
    parse_scenario(&text, &format!("chaos seed {seed}")).map_err(|error| error.to_string())
}

/// Runs the coordination chaos scenario for one seed and judges it: safety (no checker violation at
/// any time) and progress after the heal (see [`judge_lock_scenario`]).
pub fn run_lock_seed(seed: u64, options: &LockChaosOptions) -> Result<SeedOutcome, String> {
    judge_lock_scenario(lock_sweep_scenario(seed, options)?, options.fault_window_ms)
}

/// Runs the holder-aimed profile (`chaos::holders`) for one seed and judges it as a coordination seed.
pub fn run_holder_seed(seed: u64, options: &LockChaosOptions) -> Result<SeedOutcome, String> {
    let finished = holder_run(seed, options)?;
    Ok(judge_lock_run(&finished.run, options.fault_window_ms))
}

/// A coordination seed of either kind of profile (`holders`: [`run_holder_seed`], else
/// [`run_lock_seed`]), its client history checked within `budget` too where one is given, as
/// `judge_scenario_with_history` checks a Raft seed's.
pub fn run_coordination_seed(
    seed: u64,
    options: &LockChaosOptions,
    holders: bool,
    history_budget: Option<Budget>,
) -> Result<SeedOutcome, String> {
    let run = if holders {
        holder_run(seed, options)?.run
    } else {
        let mut run = ScenarioRun::new(lock_sweep_scenario(seed, options)?)?;
        run.run_to_end();
        run
    };
    let outcome = judge_lock_run(&run, options.fault_window_ms);
    match history_budget {
        Some(budget) => with_history(outcome, &run, budget),
        None => Ok(outcome),
    }
}

/// Whether a coordination world did its work after `heal_ms`, as its sweep plan's [`Progress`] asks.
fn progressed(run: &ScenarioRun, report: &Report, heal_ms: u64) -> bool {
    let world = run.world();
    match world.config().protocol.entry().sweep.progress {
        Progress::StoreWrite => report.resource.as_ref().is_some_and(|resource| {
            resource
                .accepted
                .iter()
                .any(|access| access.write.is_some() && access.at_ms > heal_ms)
        }),
        Progress::Invoicing => {
            let Some(minute_ms) = world
                .config()
                .protocol
                .invoicing()
                .map(|billing| billing.minute_ms)
            else {
                return false;
            };
            let minute_ms = minute_ms.max(1);
            let (heal_minute, last_minute) = (heal_ms / minute_ms, report.end_ms / minute_ms);
            report.invoices.as_ref().is_some_and(|invoices| {
                (heal_minute + 1..last_minute)
                    .any(|minute| !invoices.missed_minutes.contains(&minute))
            })
        }
        Progress::OneLeader => world.view().coordination.is_some_and(|view| {
            view.candidates()
                .iter()
                .filter(|candidate| candidate.phase == CandidatePhase::Leading)
                .count()
                == 1
        }),
        // Every proposer and every learner actor knows the chosen value once the faults are over.
        Progress::ValueChosen => world.nodes().iter().all(|slot| {
            let proposer_knows = slot.actor.as_proposer().map(|proposer| proposer.learned());
            let learner_knows = slot
                .actor
                .as_paxos_learner()
                .map(|learner| learner.learned());
            proposer_knows
                .or(learner_knows)
                .is_none_or(|learned| learned.is_some())
        }),
        Progress::ResultsTaken => world
            .nodes()
            .iter()
            .filter_map(|slot| slot.actor.as_pbft_client())
            .all(|client| {
                client
                    .last_result_local_us
                    .is_some_and(|local_us| local_us > heal_ms * 1_000)
            }),
        Progress::RaftLeader => has_settled_leader(run),
        Progress::SafetyOnly => true,
    }
}

/// Judges a coordination run as a sweep does. Besides the checkers' violations, a seed fails with
/// [`PROGRESS_AFTER_HEAL`] when, after `heal_ms`, the world did none of its work: no write accepted
/// by the store (lock service, work queue), no minute invoiced after the heal's minute (scheduler), or
/// not exactly one candidate leading at the end (ZooKeeper recipe). Redis-style locks are judged on
/// safety alone.
pub fn judge_lock_scenario(scenario: Scenario, heal_ms: u64) -> Result<SeedOutcome, String> {
    let mut run = ScenarioRun::new(scenario)?;
    run.run_to_end();
    Ok(judge_lock_run(&run, heal_ms))
}

/// Judges a finished coordination run (see [`judge_lock_scenario`]).
pub fn judge_lock_run(run: &ScenarioRun, heal_ms: u64) -> SeedOutcome {
    let report = run.world().report();
    let mut violations = report.violation_counts.clone();
    violations.retain(|_, count| *count > 0);
    if !progressed(run, &report, heal_ms) {
        violations.insert(PROGRESS_AFTER_HEAL.to_string(), 1);
    }
    SeedOutcome {
        seed: run.scenario().seed,
        violations,
        events_processed: report.events_processed,
        trace_hash: report.trace_hash,
        exercised: None,
        history: None,
    }
}

/// Runs a liar scenario (`chaos::raft_liar`) and judges it as a Raft sweep does, noting whether the
/// liar told a lie honest Raft never tells, so a sweep can count the seeds that exercised it.
pub fn judge_liar_scenario(scenario: Scenario) -> Result<SeedOutcome, String> {
    let (run, lied) = run_watching_the_liar(scenario)?;
    let mut outcome = judge_raft_run(&run);
    outcome.exercised = Some(lied);
    Ok(outcome)
}
