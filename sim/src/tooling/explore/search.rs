//! The breadth-first search itself: level k holds the schedules of k steps, each rebuilt from the
//! scenario's start and walked to the horizon, choice point by choice point.
//!
//! Schedules are kept as an arena of recipes (a parent, one step, its catalogue key), never as worlds,
//! so memory grows with the number of schedules, which the state budget bounds, and not with the size
//! of a world. A walk that reaches a state already visited (same digest, same budget used, same
//! choices allowed) stops there: the earlier visit already offered everything from it.

use super::choices::{choices, Allowance, ChoiceKind};
use super::goal::{Goal, GoalWatch, Met};
use super::progress::Progress;
use super::report::{Bound, ExploreReport, Outcome, COVERS};
use super::request::ExploreRequest;
use super::shrink::{fault_count, Judge, ShrinkReport};
use crate::base::state_hash::digest_of;
use crate::base::time::SimTime;
use crate::engine::world::World;
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{Scenario, Step};
use rustc_hash::FxHashSet;

/// One schedule: its last step and where the rest of it is.
struct Recipe {
    parent: Option<usize>,
    step: Step,
    key: u64,
    /// Budget used so far: faults, drops and holds.
    used: Used,
}

/// How much of each budget a schedule has used.
#[derive(Clone, Copy, Debug, Default, Hash)]
struct Used {
    faults: u32,
    drops: u32,
    holds: u32,
    duplicates: u32,
}

impl Used {
    fn after(self, kind: ChoiceKind) -> Used {
        let mut used = self;
        match kind {
            ChoiceKind::Fault => used.faults += 1,
            ChoiceKind::Drop => used.drops += 1,
            ChoiceKind::Hold => used.holds += 1,
            ChoiceKind::Duplicate => used.duplicates += 1,
        }
        used
    }
}

/// The search's memory: every schedule made so far, the visited states and the counts.
struct Search<'a> {
    scenario: &'a Scenario,
    request: &'a ExploreRequest,
    goal: &'a Goal,
    horizon_ms: u64,
    recipes: Vec<Recipe>,
    visited: FxHashSet<u64>,
    states: u64,
    duplicates: u64,
    /// A level's children were cut short by the state budget.
    truncated: bool,
    /// Told after every walk; see [`explore_watched`].
    observer: &'a mut dyn FnMut(&Progress),
    progress: Progress,
}

/// What ended one walk early.
enum Stop {
    Found { met: Met, seen_by_ms: u64 },
    StatesSpent,
}

/// Searches `scenario` (its own steps kept) for the shortest schedule that breaks the request's
/// invariant (or reaches an example of its checkpoint), within the request's bounds, and shrinks what
/// it finds unless asked not to.
pub fn explore(scenario: &Scenario, request: &ExploreRequest) -> Result<ExploreReport, String> {
    explore_watched(scenario, request, &mut |_| {})
}

/// [`explore`], telling `observer` what it has done after every schedule it walks (the page's worker
/// passes that on a few times a second). The report is the same as [`explore`]'s.
pub fn explore_watched(
    scenario: &Scenario,
    request: &ExploreRequest,
    observer: &mut dyn FnMut(&Progress),
) -> Result<ExploreReport, String> {
    request.validate(scenario)?;
    let goal = request.goal(scenario)?;
    ScenarioRun::new(scenario.clone())?;
    let mut search = Search {
        scenario,
        request,
        goal: &goal,
        horizon_ms: request.horizon_ms(scenario),
        recipes: Vec::new(),
        visited: FxHashSet::default(),
        states: 0,
        duplicates: 0,
        truncated: false,
        observer,
        progress: Progress::default(),
    };
    let found = search.levels()?;
    let (outcome, shrink) = match found {
        Ok(outcome) => (outcome, None),
        Err((schedule, met, seen_by_ms)) => search.finish(schedule, met, seen_by_ms)?,
    };
    Ok(search.report(outcome, shrink))
}

/// A schedule found, what it met and the choice point by which it did.
type Found = (Vec<Step>, Met, u64);

impl Search<'_> {
    /// Walks level after level. A level whose children did not all fit in the budget is still
    /// walked as far as they go (a find there is still a shortest one, the level before was whole),
    /// but no later level counts as complete.
    fn levels(&mut self) -> Result<Result<Outcome, Found>, String> {
        let mut level: Vec<Option<usize>> = vec![None];
        let mut complete_depth = None;
        for depth in 0..=self.request.max_depth {
            let whole_level = !self.truncated;
            let mut next = Vec::new();
            for (walked, &recipe) in level.iter().enumerate() {
                let outcome = self.walk(recipe, depth < self.request.max_depth, &mut next)?;
                self.tell(
                    recipe,
                    depth,
                    (level.len() - walked - 1 + next.len()) as u64,
                );
                match outcome {
                    None => {}
                    Some(Stop::Found { met, seen_by_ms }) => {
                        return Ok(Err((self.steps_of(recipe), met, seen_by_ms)))
                    }
                    Some(Stop::StatesSpent) => {
                        return Ok(Ok(Outcome::BoundReached {
                            bound: Bound::States,
                            complete_depth,
                        }))
                    }
                }
            }
            if whole_level {
                complete_depth = Some(depth);
            }
            if next.is_empty() {
                break;
            }
            level = next.into_iter().map(Some).collect();
        }
        let bound = if self.truncated {
            Bound::Frontier
        } else {
            Bound::Depth
        };
        Ok(Ok(Outcome::BoundReached {
            bound,
            complete_depth,
        }))
    }

    /// Passes the counts on to the observer after a walk of `recipe` at `depth`.
    fn tell(&mut self, recipe: Option<usize>, depth: u32, frontier: u64) {
        let used = recipe.map_or(Used::default(), |index| self.recipes[index].used);
        let in_use = used.faults + used.drops + used.holds + used.duplicates;
        self.progress = Progress {
            states: self.states,
            duplicates: self.duplicates,
            depth,
            frontier,
            faults_in_use: self.progress.faults_in_use.max(in_use),
        };
        (self.observer)(&self.progress);
    }

    /// Walks one schedule from its last step to the horizon; children go to `next`.
    fn walk(
        &mut self,
        recipe: Option<usize>,
        extend: bool,
        next: &mut Vec<usize>,
    ) -> Result<Option<Stop>, String> {
        let steps = self.steps_of(recipe);
        let mut run = ScenarioRun::new(merged(self.scenario, &steps))?;
        let (used, start_ms, start_key) = match recipe.map(|index| &self.recipes[index]) {
            Some(last) => (last.used, last.step.at_ms, last.key + 1),
            None => (Used::default(), 0, 0),
        };
        let mut watch = self.goal.watch(run.world());
        if self.goal.remembers() {
            self.watch_prefix(&mut run, &mut watch, start_ms);
        }
        let mut at_ms = start_ms;
        loop {
            run.advance_to(SimTime::from_ms(at_ms));
            if let Some(met) = watch.met(run.world()) {
                return Ok(Some(Stop::Found {
                    met,
                    seen_by_ms: at_ms,
                }));
            }
            let min_key = if at_ms == start_ms { start_key } else { 0 };
            let key = digest_of(&(run.world().state_digest(), used, min_key));
            if !self.visited.insert(key) {
                self.duplicates += 1;
                return Ok(None);
            }
            self.states += 1;
            if self.states >= self.request.max_states {
                return Ok(Some(Stop::StatesSpent));
            }
            if extend {
                self.offer(recipe, run.world(), at_ms, min_key, next);
            }
            if at_ms >= self.horizon_ms {
                return Ok(None);
            }
            at_ms = (at_ms + self.request.grain_ms).min(self.horizon_ms);
        }
    }

    /// Asks a goal with memory at every choice point before `start_ms`, as a replay does (the parent's
    /// walk met nothing there, so this only brings the memory up to date).
    fn watch_prefix(&self, run: &mut ScenarioRun, watch: &mut GoalWatch<'_>, start_ms: u64) {
        let mut at_ms = 0;
        while at_ms < start_ms {
            run.advance_to(SimTime::from_ms(at_ms));
            watch.met(run.world());
            at_ms += self.request.grain_ms;
        }
    }

    /// Adds a child schedule for every choice `world` offers at `at_ms`.
    fn offer(
        &mut self,
        parent: Option<usize>,
        world: &World,
        at_ms: u64,
        min_key: u64,
        next: &mut Vec<usize>,
    ) {
        let used = parent.map_or(Used::default(), |index| self.recipes[index].used);
        let allowance = Allowance {
            faults_left: self.request.max_faults.saturating_sub(used.faults),
            drops_left: self.request.max_drops.saturating_sub(used.drops),
            holds_left: self.request.max_holds.saturating_sub(used.holds),
            duplicates_left: self.request.max_duplicates.saturating_sub(used.duplicates),
            min_key,
        };
        for choice in choices(world, self.request, allowance) {
            // The frontier is bounded by the state budget too, so memory stays bounded.
            if self.recipes.len() as u64 >= self.request.max_states {
                self.truncated = true;
                return;
            }
            next.push(self.recipes.len());
            self.recipes.push(Recipe {
                parent,
                step: Step {
                    at_ms,
                    action: choice.action,
                },
                key: choice.key,
                used: used.after(choice.kind),
            });
        }
    }

    /// The steps of a schedule, in time order.
    fn steps_of(&self, recipe: Option<usize>) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut cursor = recipe;
        while let Some(index) = cursor {
            steps.push(self.recipes[index].step.clone());
            cursor = self.recipes[index].parent;
        }
        steps.reverse();
        steps
    }

    /// Shrinks what was found (unless the request says not to) and says it as an outcome.
    fn finish(
        &self,
        schedule: Vec<Step>,
        met: Met,
        seen_by_ms: u64,
    ) -> Result<(Outcome, Option<ShrinkReport>), String> {
        let (schedule, met, seen_by_ms, shrink) = if self.request.shrink {
            let judge = Judge {
                scenario: self.scenario,
                goal: &self.goal.narrowed_to(&met),
                grain_ms: self.request.grain_ms,
                horizon_ms: self.horizon_ms,
                max_attempts: self.request.max_shrink_attempts,
            };
            let shrunk = judge.shrink(schedule)?;
            let report = Some(shrunk.report);
            (shrunk.schedule, shrunk.met, shrunk.seen_by_ms, report)
        } else {
            (schedule, met, seen_by_ms, None)
        };
        let faults = fault_count(&schedule);
        let outcome = match self.goal {
            Goal::Example(..) => Outcome::Example {
                checkpoint: met.name,
                why: met.why,
                seen_by_ms,
                schedule,
                faults,
            },
            Goal::Invariant(_) => Outcome::Found {
                invariant: met.name,
                seen_by_ms,
                schedule,
                faults,
            },
        };
        Ok((outcome, shrink))
    }

    fn report(&self, outcome: Outcome, shrink: Option<ShrinkReport>) -> ExploreReport {
        let request = self.request;
        let bounds = (request.max_depth, request.max_faults, request.max_states);
        let sought = match self.goal.is_example() {
            true => "example",
            false => "counterexample",
        };
        let mut summary = outcome.summary(sought, self.states, bounds, self.horizon_ms);
        if let Some(shrink) = &shrink {
            summary.push_str(&format!(
                "; shrunk from {} step(s) and {} fault(s)",
                shrink.original_steps, shrink.original_faults
            ));
        }
        ExploreReport {
            outcome,
            states: self.states,
            duplicates: self.duplicates,
            horizon_ms: self.horizon_ms,
            grain_ms: request.grain_ms,
            shrink,
            summary,
            covers: COVERS.to_string(),
        }
    }
}

/// `scenario` with `found` added: each found step after the scenario's own steps at the same instant,
/// as the walk applied it. This is the scenario that replays a result.
pub fn merged(scenario: &Scenario, found: &[Step]) -> Scenario {
    let mut merged = scenario.clone();
    for step in found {
        let place = merged
            .steps
            .iter()
            .position(|own| own.at_ms > step.at_ms)
            .unwrap_or(merged.steps.len());
        merged.steps.insert(place, step.clone());
    }
    merged
}
