//! What a search is looking for: a broken invariant (a violation), or a state where a lesson
//! checkpoint holds (an example: "a stale token refused", "two clients believe they hold the lock").
//!
//! Both are judged on a live world at each choice point, through a [`GoalWatch`] made at the
//! scenario's start. An invariant needs no memory (the checkers keep it). A checkpoint may: many are
//! about change since their step began ("the leader changed"), so its evaluator is started at the
//! scenario's start and asked at every choice point of a walk, the prefix a schedule shares with its
//! parent included, exactly as a replay asks it. Its memory is not part of the state digest, so two
//! walks that merge keep the first one's memory; the report's `covers` line says so.

use crate::base::time::SimTime;
use crate::engine::world::World;
use crate::tooling::lesson::{checkpoint_names, parse_checkpoint, Checkpoint, CheckpointEvaluator};
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::fields::NodeNames;
use crate::tooling::scenario::{Scenario, Step};
use crate::tooling::suggest::did_you_mean;

use super::search::{merged, Prepare};

/// A violation of one invariant (or of any, `None`), or an example of a checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    Invariant(Option<String>),
    /// The checkpoint as written (`stale_write_refused`) and parsed.
    Example(String, Checkpoint),
}

/// What was met, and why (for an example, the checkpoint's own sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Met {
    /// The invariant broken, or the checkpoint as written.
    pub name: String,
    pub why: String,
}

/// A goal being watched along one run (cloned with the run where a search branches).
#[derive(Clone)]
pub struct GoalWatch<'g> {
    goal: &'g Goal,
    evaluator: Option<CheckpointEvaluator>,
}

impl Goal {
    /// Parses an example's checkpoint against `scenario`'s node names; an unknown name is refused
    /// with every valid one listed.
    pub fn example(text: &str, scenario: &Scenario) -> Result<Goal, String> {
        let names = NodeNames::of_scenario(scenario);
        let name = text.split('(').next().unwrap_or("").trim();
        if !checkpoint_names().any(|known| known == name) {
            let hint = did_you_mean(name, checkpoint_names(), "checkpoint", "this message");
            let valid: Vec<&str> = checkpoint_names().collect();
            return Err(format!(
                "unknown checkpoint {name:?}: {hint} (valid checkpoints: {})",
                valid.join(", ")
            ));
        }
        let checkpoint = parse_checkpoint(text, &names)
            .map_err(|error| format!("checkpoint {text:?}: {error}"))?;
        Ok(Goal::Example(text.trim().to_string(), checkpoint))
    }

    /// The same goal narrowed to what was met: a shrunk schedule must break the *same* invariant.
    pub fn narrowed_to(&self, met: &Met) -> Goal {
        match self {
            Goal::Invariant(_) => Goal::Invariant(Some(met.name.clone())),
            example => example.clone(),
        }
    }

    /// Whether the goal must be asked at every choice point from the start (it remembers).
    pub fn remembers(&self) -> bool {
        matches!(self, Goal::Example(..))
    }

    pub fn is_example(&self) -> bool {
        self.remembers()
    }

    /// Starts watching on `world` as it is now.
    pub fn watch(&self, world: &World) -> GoalWatch<'_> {
        let evaluator = match self {
            Goal::Example(_, checkpoint) => {
                Some(CheckpointEvaluator::begin(checkpoint.clone(), world))
            }
            Goal::Invariant(_) => None,
        };
        GoalWatch {
            goal: self,
            evaluator,
        }
    }
}

impl GoalWatch<'_> {
    /// What `world` meets now, if anything.
    pub fn met(&mut self, world: &World) -> Option<Met> {
        match (self.goal, &mut self.evaluator) {
            (Goal::Example(text, _), Some(evaluator)) => {
                let verdict = evaluator.check(world);
                verdict.satisfied.then(|| Met {
                    name: text.clone(),
                    why: verdict.explanation,
                })
            }
            (Goal::Invariant(wanted), _) => broken(world, wanted.as_deref()),
            (Goal::Example(..), None) => None,
        }
    }
}

/// The invariant `world` has broken, if it is the one wanted (the first by name when any will do).
fn broken(world: &World, wanted: Option<&str>) -> Option<Met> {
    let counts = world.checkers().violation_counts();
    let name = match wanted {
        Some(name) => counts
            .get(name)
            .filter(|&&count| count > 0)
            .map(|_| name.to_string()),
        None => counts
            .iter()
            .find(|(_, &count)| count > 0)
            .map(|(name, _)| name.clone()),
    }?;
    let why = format!("{name} was violated");
    Some(Met { name, why })
}

/// Replays `scenario` with `schedule` added, as an ordinary scenario run, asking `goal` at every
/// choice point (multiples of `grain_ms`) up to `horizon_ms`: what was met and the first choice point
/// at which it was. This is how a shrunk schedule is judged, and how a test checks a result.
pub fn replay_goal(
    scenario: &Scenario,
    schedule: &[Step],
    goal: &Goal,
    grain_ms: u64,
    horizon_ms: u64,
) -> Result<Option<(Met, u64)>, String> {
    replay_goal_prepared(scenario, schedule, goal, (grain_ms, horizon_ms), &|_| {})
}

/// [`replay_goal`] on a world `prepare` has set up (as [`super::search::explore_prepared`] does);
/// `(grain_ms, horizon_ms)` as there.
pub fn replay_goal_prepared(
    scenario: &Scenario,
    schedule: &[Step],
    goal: &Goal,
    (grain_ms, horizon_ms): (u64, u64),
    prepare: Prepare<'_>,
) -> Result<Option<(Met, u64)>, String> {
    let mut run = ScenarioRun::new(merged(scenario, schedule))?;
    prepare(run.world_mut());
    let mut watch = goal.watch(run.world());
    let mut at_ms = 0;
    loop {
        run.advance_to(SimTime::from_ms(at_ms));
        if let Some(met) = watch.met(run.world()) {
            return Ok(Some((met, at_ms)));
        }
        if at_ms >= horizon_ms {
            return Ok(None);
        }
        at_ms = (at_ms + grain_ms).min(horizon_ms);
    }
}
