//! Running a [`Scenario`] on a [`World`]: the scripted steps are applied as the simulated clock reaches
//! them, and the result is one [`RunReport`]. The CLI, the scenario tests, the sweeps and the app all go
//! through here, so a scenario means the same thing everywhere.
//!
//! A step at `at_ms` is applied after every event due at or before that time; steps sharing a time are
//! applied in file order. A step the world cannot apply (no leader to target, restarting an up node) is
//! recorded in `skipped_steps`, never fatal: chaos schedules and lessons rely on that.

use crate::base::time::SimTime;
use crate::contract::report::{MessagePrice, Report};
use crate::engine::fingerprint::FingerprintKind;
use crate::engine::run::{recorded_in, ActionLog, Run};
use crate::engine::world::{ActionOutcome, World, WorldConfig};
use crate::tooling::scenario::{Scenario, Step};
use serde::{Deserialize, Serialize};

/// A step the world declined, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedStep {
    /// 1-based, as in scenario errors: the n-th `[[step]]` of the file.
    pub step: usize,
    pub at_ms: u64,
    pub reason: String,
}

/// What `quorumlab run` prints: the scenario's identity, the world's report, and the skipped steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunReport {
    pub title: String,
    pub protocol: String,
    pub seed: u64,
    pub nodes: usize,
    #[serde(flatten)]
    pub world: Report,
    pub skipped_steps: Vec<SkippedStep>,
    /// PBFT runs: the price of a Raft cluster as large, for comparison with the run's own `price`:
    /// a run the engine makes with the same seed, one write at a time at the PBFT client's interval,
    /// counted from its first write (`views::price::raft_baseline`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raft_baseline: Option<MessagePrice>,
}

/// A scenario in progress on a run of kind `R`: the headless [`World`] (the CLI, tests, sweeps) or the
/// app's [`Timeline`](crate::engine::history::Timeline), which can also travel back. The app advances it
/// frame by frame; the CLI runs it to the end at once. Either way its steps fall due by one rule,
/// [`ScenarioRun::next_due_step`].
#[derive(Clone, Debug)]
pub struct ScenarioRun<R = World> {
    scenario: Scenario,
    run: R,
    skipped_steps: Vec<SkippedStep>,
    /// Whether the steps are in time order (every parsed scenario's are), so the next due step can
    /// be found by bisection rather than by a scan from the first step: a scan made each applied step
    /// cost the whole script, quadratic in a long one (10,000 steps: 62% of a run's time).
    steps_in_time_order: bool,
}

impl ScenarioRun {
    /// A run of `scenario` at time zero; refused if the scenario breaks the format's rules
    /// ([`Scenario::validate`]) or the world refuses its configuration.
    pub fn new(scenario: Scenario) -> Result<ScenarioRun, String> {
        ScenarioRun::with_fingerprint(scenario, FingerprintKind::Compact)
    }

    /// As [`ScenarioRun::new`], the run's fingerprint computed by `fingerprint`.
    pub fn with_fingerprint(
        scenario: Scenario,
        fingerprint: FingerprintKind,
    ) -> Result<ScenarioRun, String> {
        scenario.validate().map_err(|invalid| invalid.to_string())?;
        let world = World::with_fingerprint(world_config(&scenario), fingerprint)?;
        Ok(ScenarioRun::on(scenario, world))
    }

    /// For actions that are not in the script (a click in the app). They go straight to the world, which
    /// records them in its action log, so the run stays reproducible from that log.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.run
    }
}

impl<R: Run> ScenarioRun<R> {
    /// `scenario` driven on `run`, which must be at the scenario's start or be a record of it (a
    /// timeline rebuilt from a share link): steps its log already holds are not applied again.
    pub fn on(scenario: Scenario, run: R) -> ScenarioRun<R> {
        ScenarioRun {
            steps_in_time_order: in_time_order(&scenario),
            scenario,
            run,
            skipped_steps: Vec::new(),
        }
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Follows `scenario` from now on (the app's schedule edits): the caller keeps its steps up to now
    /// as they were, since the past is fixed.
    pub fn set_scenario(&mut self, scenario: Scenario) {
        self.steps_in_time_order = in_time_order(&scenario);
        self.scenario = scenario;
    }

    pub fn world(&self) -> &World {
        self.run.world()
    }

    /// The run itself, for what only its kind can do (a timeline's seek and branch).
    pub fn run(&self) -> &R {
        &self.run
    }

    pub fn run_mut(&mut self) -> &mut R {
        &mut self.run
    }

    /// The next scripted step not yet applied, with its 1-based index.
    pub fn next_step(&self) -> Option<(usize, &Step)> {
        self.next_due_step(SimTime(u64::MAX))
            .map(|index| (index + 1, &self.scenario.steps[index]))
    }

    /// The first scripted step due by `until` that this run has not applied. A step counts as applied
    /// once the clock has passed its time, or when a recorded action pairs off with it
    /// ([`step_in_log`]): also ahead of `now`, in a timeline's recorded future that playing forward
    /// will replay (applying it again would run it twice and discard that future).
    pub fn next_due_step(&self, until: SimTime) -> Option<usize> {
        let now = self.run.now();
        let steps = &self.scenario.steps;
        let at = |index: usize| SimTime::from_ms(steps[index].at_ms);
        let (first, end) = if self.steps_in_time_order {
            (
                steps.partition_point(|step| SimTime::from_ms(step.at_ms) < now),
                steps.partition_point(|step| SimTime::from_ms(step.at_ms) <= until),
            )
        } else {
            (0, steps.len())
        };
        (first..end.max(first)).find(|&index| {
            at(index) <= until
                && at(index) >= now
                && !step_recorded(steps, index, self.run.log(), self.steps_in_time_order)
        })
    }

    pub fn skipped_steps(&self) -> &[SkippedStep] {
        &self.skipped_steps
    }

    pub fn end_time(&self) -> SimTime {
        SimTime::from_ms(self.scenario.duration_ms)
    }

    pub fn is_finished(&self) -> bool {
        self.run.now() >= self.end_time()
    }

    /// Runs up to `until` (never past the end of the scenario), applying due steps on the way.
    pub fn advance_to(&mut self, until: SimTime) {
        self.advance_past_end_to(until.min(self.end_time()));
    }

    /// Runs up to `until`, past the scenario's end if asked (the app's playground keeps going), applying
    /// due steps on the way. A step the run declines is recorded in `skipped_steps`.
    pub fn advance_past_end_to(&mut self, until: SimTime) {
        // Each pass applies one step, which its log then records: at most one pass per step.
        for _ in 0..=self.scenario.steps.len() {
            let Some(index) = self.next_due_step(until) else {
                break;
            };
            let step = self.scenario.steps[index].clone();
            self.run.run_until(SimTime::from_ms(step.at_ms));
            if let ActionOutcome::Skipped { reason } = self.run.apply(&step.action) {
                self.skipped_steps.push(SkippedStep {
                    step: index + 1,
                    at_ms: step.at_ms,
                    reason,
                });
            }
        }
        self.run.run_until(until);
    }

    pub fn run_to_end(&mut self) {
        self.advance_to(self.end_time());
    }

    /// The report as of now (the final one once the run is finished).
    pub fn report(&self) -> RunReport {
        RunReport {
            title: self.scenario.title.clone(),
            protocol: self.scenario.protocol_name().to_string(),
            seed: self.scenario.seed,
            nodes: self.scenario.node_count,
            world: self.run.world().report(),
            skipped_steps: self.skipped_steps.clone(),
            raft_baseline: raft_baseline(&self.scenario),
        }
    }
}

fn in_time_order(scenario: &Scenario) -> bool {
    scenario
        .steps
        .windows(2)
        .all(|pair| pair[0].at_ms <= pair[1].at_ms)
}

/// Whether scripted step `index` of `steps` is in `log`. Steps and recorded actions with the same
/// time and action pair off in order, so two identical steps at one instant need two records.
pub fn step_in_log<L: ActionLog + ?Sized>(steps: &[Step], index: usize, log: &L) -> bool {
    step_recorded(steps, index, log, false)
}

/// [`step_in_log`], told whether `steps` are in time order: then a step's twins sit just before it,
/// and a long script is not scanned from its start for each step.
fn step_recorded<L: ActionLog + ?Sized>(
    steps: &[Step],
    index: usize,
    log: &L,
    in_time_order: bool,
) -> bool {
    let step = &steps[index];
    let twin = |earlier: &&Step| earlier.at_ms == step.at_ms && earlier.action == step.action;
    let twins_before = if in_time_order {
        steps[..index]
            .iter()
            .rev()
            .take_while(|earlier| earlier.at_ms == step.at_ms)
            .filter(twin)
            .count()
    } else {
        steps[..index].iter().filter(twin).count()
    };
    recorded_in(
        log,
        SimTime::from_ms(step.at_ms),
        &step.action,
        twins_before,
    )
}

/// The plain Raft run a scenario is compared with, where its world asks for one (PBFT).
fn raft_baseline(scenario: &Scenario) -> Option<MessagePrice> {
    let protocol = &scenario.protocol;
    let interval_ms = protocol.entry().parts.raft_baseline_interval_ms(protocol)?;
    // `node_count` counts the servers; the clients come on top.
    let servers = scenario.node_count;
    let cost = crate::views::price::raft_baseline(servers, scenario.seed, interval_ms)?;
    Some(MessagePrice::new(
        "raft",
        cost.messages,
        cost.heartbeats,
        cost.committed,
    ))
}

/// The world a scenario asks for.
pub fn world_config(scenario: &Scenario) -> WorldConfig {
    WorldConfig {
        protocol: scenario.protocol.clone(),
        node_count: scenario.actor_count(),
        seed: scenario.seed,
        timing: scenario.timing.clone(),
        raft: scenario.raft.clone(),
    }
}

/// Runs `scenario` from start to end and returns its report. Fails only if the world rejects the
/// configuration, which a scenario that passed validation never causes.
pub fn run_scenario(scenario: &Scenario) -> Result<RunReport, String> {
    run_scenario_with_fingerprint(scenario, FingerprintKind::Compact)
}

/// As [`run_scenario`], the run's fingerprint computed by `fingerprint`.
pub fn run_scenario_with_fingerprint(
    scenario: &Scenario,
    fingerprint: FingerprintKind,
) -> Result<RunReport, String> {
    let mut run = ScenarioRun::with_fingerprint(scenario.clone(), fingerprint)?;
    run.run_to_end();
    Ok(run.report())
}
