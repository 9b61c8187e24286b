//! The breadth-first search itself: level k holds the schedules of k steps, each rebuilt from the
//! scenario's start and walked to the horizon, choice point by choice point.
//!
//! Schedules are kept as an arena of recipes (a parent, one step, its catalogue key), never as worlds,
//! so memory grows with the number of schedules, which the state budget bounds, and not with the size
//! of a world. A walk that reaches a state already visited (same digest, same budget used, same
//! choices allowed) stops there: the earlier visit already offered everything from it.

use super::choices::{choices, Allowance, ChoiceKind};
use super::report::{Bound, ExploreReport, Outcome, COVERS};
use super::request::ExploreRequest;
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
}

impl Used {
    fn after(self, kind: ChoiceKind) -> Used {
        let mut used = self;
        match kind {
            ChoiceKind::Fault => used.faults += 1,
            ChoiceKind::Drop => used.drops += 1,
            ChoiceKind::Hold => used.holds += 1,
        }
        used
    }
}

/// The search's memory: every schedule made so far, the visited states and the counts.
struct Search<'a> {
    scenario: &'a Scenario,
    request: &'a ExploreRequest,
    horizon_ms: u64,
    recipes: Vec<Recipe>,
    visited: FxHashSet<u64>,
    states: u64,
    duplicates: u64,
    /// A level's children were cut short by the state budget.
    truncated: bool,
}

/// What ended one walk early.
enum Stop {
    Found { invariant: String, seen_by_ms: u64 },
    StatesSpent,
}

/// Searches `scenario` (its own steps kept) for the shortest schedule that breaks the request's
/// invariant, within the request's bounds.
pub fn explore(scenario: &Scenario, request: &ExploreRequest) -> Result<ExploreReport, String> {
    request.validate(scenario)?;
    ScenarioRun::new(scenario.clone())?;
    let mut search = Search {
        scenario,
        request,
        horizon_ms: request.horizon_ms(scenario),
        recipes: Vec::new(),
        visited: FxHashSet::default(),
        states: 0,
        duplicates: 0,
        truncated: false,
    };
    let outcome = search.levels()?;
    Ok(search.report(outcome))
}

impl Search<'_> {
    /// Walks level after level. A level whose children did not all fit in the budget is still
    /// walked as far as they go (a find there is still a shortest one, the level before was whole),
    /// but no later level counts as complete.
    fn levels(&mut self) -> Result<Outcome, String> {
        let mut level: Vec<Option<usize>> = vec![None];
        let mut complete_depth = None;
        for depth in 0..=self.request.max_depth {
            let whole_level = !self.truncated;
            let mut next = Vec::new();
            for &recipe in &level {
                match self.walk(recipe, depth < self.request.max_depth, &mut next)? {
                    None => {}
                    Some(Stop::Found {
                        invariant,
                        seen_by_ms,
                    }) => return Ok(self.found(recipe, invariant, seen_by_ms)),
                    Some(Stop::StatesSpent) => {
                        return Ok(Outcome::BoundReached {
                            bound: Bound::States,
                            complete_depth,
                        })
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
        Ok(Outcome::BoundReached {
            bound,
            complete_depth,
        })
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
        let mut at_ms = start_ms;
        loop {
            run.advance_to(SimTime::from_ms(at_ms));
            if let Some(invariant) = self.broken(run.world()) {
                return Ok(Some(Stop::Found {
                    invariant,
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
            min_key,
        };
        for choice in choices(world, &self.request.pause_ms, allowance) {
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

    /// The invariant the world has broken, if it is one the request is after (the first by name
    /// when any will do).
    fn broken(&self, world: &World) -> Option<String> {
        let counts = world.checkers().violation_counts();
        match &self.request.invariant {
            Some(name) => counts
                .get(name)
                .filter(|&&count| count > 0)
                .map(|_| name.clone()),
            None => counts
                .iter()
                .find(|(_, &count)| count > 0)
                .map(|(name, _)| name.clone()),
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

    fn found(&self, recipe: Option<usize>, invariant: String, seen_by_ms: u64) -> Outcome {
        let faults = recipe.map_or(0, |index| self.recipes[index].used.faults);
        Outcome::Found {
            invariant,
            seen_by_ms,
            schedule: self.steps_of(recipe),
            faults,
        }
    }

    fn report(&self, outcome: Outcome) -> ExploreReport {
        let request = self.request;
        let bounds = (request.max_depth, request.max_faults, request.max_states);
        let summary = outcome.summary(self.states, bounds, self.horizon_ms);
        ExploreReport {
            outcome,
            states: self.states,
            duplicates: self.duplicates,
            horizon_ms: self.horizon_ms,
            grain_ms: request.grain_ms,
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
