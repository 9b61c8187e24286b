//! The breadth-first search itself: level k holds the schedules of k steps, each walked from its
//! last step to the horizon, choice point by choice point.
//!
//! Schedules are kept as an arena of recipes (a parent, one step, its catalogue key), never as worlds,
//! so memory grows with the number of schedules, which the state budget bounds, and not with the size
//! of a world. A walk that reaches a state already visited (same digest, same budget used, same
//! choices allowed) stops there: the earlier visit already offered everything from it. How a level's
//! schedules are reached without replaying each from the start is in `walk.rs`.

use super::goal::{Goal, Met};
use super::progress::Progress;
use super::report::{Bound, ExploreReport, Outcome, COVERS};
use super::request::ExploreRequest;
use super::shrink::{fault_count, Judge, ShrinkReport};
use super::symmetry::{decide, Reducer, SymmetryVerdict};
use super::walk::{Recipe, Used};
use crate::engine::world::World;
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::{Scenario, Step};
use rustc_hash::FxHashSet;

/// The search's memory: every schedule made so far, the visited states and the counts.
pub(super) struct Search<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) request: &'a ExploreRequest,
    pub(super) goal: &'a Goal,
    pub(super) horizon_ms: u64,
    /// The first choice point (`ExploreRequest::first_choice_ms`): before it the root walk only
    /// asks the goal, as a replay does, and offers nothing.
    pub(super) first_choice_ms: u64,
    pub(super) recipes: Vec<Recipe>,
    /// The schedules of one step: what the scenario's own walk offered.
    pub(super) root_children: (usize, usize),
    /// Where the level being walked ends in the arena (the next level's schedules come after).
    level_end: usize,
    pub(super) visited: FxHashSet<u64>,
    /// The canonical digest, when node symmetry is reduced (`symmetry.rs`).
    pub(super) symmetry: Option<Reducer>,
    /// What the report says about symmetry, when it was asked for.
    symmetry_said: Option<SymmetryVerdict>,
    pub(super) states: u64,
    pub(super) duplicates: u64,
    /// A level's children were cut short by the state budget.
    pub(super) truncated: bool,
    /// Told after every walk; see [`explore_watched`].
    observer: &'a mut dyn FnMut(&Progress),
    /// Done to every world the search builds, before its first event ([`explore_prepared`]).
    pub(super) prepare: Prepare<'a>,
    progress: Progress,
}

/// What ended one walk early.
pub(super) enum Stop {
    Found {
        recipe: Option<usize>,
        met: Met,
        seen_by_ms: u64,
    },
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
    explore_prepared(scenario, request, &|_| {}, observer)
}

/// Something done to each world the search builds before it runs (the lab hands it a learner's
/// roles), so the search, its shrinking and its replays all run the same world.
pub type Prepare<'a> = &'a dyn Fn(&mut World);

/// [`explore_watched`] on worlds that `prepare` has set up.
pub fn explore_prepared(
    scenario: &Scenario,
    request: &ExploreRequest,
    prepare: Prepare<'_>,
    observer: &mut dyn FnMut(&Progress),
) -> Result<ExploreReport, String> {
    request.validate(scenario)?;
    let goal = request.goal(scenario)?;
    ScenarioRun::new(scenario.clone())?;
    let (symmetry, symmetry_said) = decide(scenario, request, &goal);
    let mut search = Search {
        scenario,
        request,
        goal: &goal,
        horizon_ms: request.horizon_ms(scenario),
        first_choice_ms: request.first_choice_ms(scenario),
        recipes: Vec::new(),
        root_children: (0, 0),
        level_end: 0,
        visited: FxHashSet::default(),
        symmetry,
        symmetry_said,
        states: 0,
        duplicates: 0,
        truncated: false,
        observer,
        prepare,
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
        let mut complete_depth = None;
        for depth in 0..=self.request.max_depth {
            let whole_level = !self.truncated;
            let made_before = self.recipes.len();
            self.level_end = made_before;
            let root = self.root_branch()?;
            let stop = if depth == 0 {
                let stop = self.walk(None, root, 0)?;
                self.tell(None, 0, 0);
                stop
            } else {
                self.descend(None, root, 0, depth)?
            };
            match stop {
                None => {}
                Some(Stop::Found {
                    recipe,
                    met,
                    seen_by_ms,
                }) => return Ok(Err((self.steps_of(recipe), met, seen_by_ms))),
                Some(Stop::StatesSpent) => {
                    return Ok(Ok(Outcome::BoundReached {
                        bound: Bound::States,
                        complete_depth,
                    }))
                }
            }
            if whole_level {
                complete_depth = Some(depth);
            }
            if self.recipes.len() == made_before {
                break;
            }
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

    /// Passes the counts on to the observer after the walk of `recipe` at `depth`, the schedule at
    /// `place` in the arena (the frontier is the rest of its level and the next level so far).
    pub(super) fn tell(&mut self, recipe: Option<usize>, depth: u32, place: usize) {
        let used = recipe.map_or(Used::default(), |index| self.recipes[index].used);
        let rest_of_level = self.level_end.saturating_sub(place + 1);
        let next_level = self.recipes.len() - self.level_end;
        self.progress = Progress {
            states: self.states,
            duplicates: self.duplicates,
            depth,
            frontier: (rest_of_level + next_level) as u64,
            faults_in_use: self.progress.faults_in_use.max(used.total()),
        };
        (self.observer)(&self.progress);
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
                prepare: self.prepare,
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
        if request.max_byzantine > 0 && outcome.schedule().is_none() {
            let liars = request.max_byzantine;
            summary.push_str(&format!("; at most {liars} Byzantine node(s) offered"));
        }
        if let Some(said) = &self.symmetry_said {
            summary.push_str(&said.summary_note());
        }
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
            covers: self
                .symmetry_said
                .as_ref()
                .map_or(COVERS.to_string(), |said| said.covers(COVERS)),
            memory_bytes: self.memory_bytes(),
        }
    }
}

impl Search<'_> {
    /// The arena's and the visited set's allocations (a hash set entry is its key and one control
    /// byte), as `ExploreReport::memory_bytes` says.
    fn memory_bytes(&self) -> u64 {
        let arena = self.recipes.capacity() * std::mem::size_of::<Recipe>();
        let visited = self.visited.capacity() * (std::mem::size_of::<u64>() + 1);
        (arena + visited) as u64
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
