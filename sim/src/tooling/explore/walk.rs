//! How the search reaches the schedules of one level without replaying each from the scenario's start.
//!
//! The schedules form a tree: a schedule's children are the schedules its walk offered, one more step
//! each, kept in the arena in the order they were offered (so a schedule's children are contiguous,
//! and the schedules of one level are in the order breadth-first search walks them). To walk level
//! k, the search goes down that tree depth first from the scenario's start with one live run per
//! depth: it plays a schedule forward only as far as the choice point of its next child on the way
//! to level k, clones the run there, applies the child's step and goes down. A schedule at level k is
//! then walked for real: states hashed, the goal asked, children offered. So the schedules of level
//! k are walked in exactly the order, and from exactly the worlds, that replaying each from the start
//! gave (`World` is `Clone`, and a clone continues identically); only the shared prefixes are played
//! once instead of once per schedule. Memory: one run per depth (at most `MAX_DEPTH + 1`), besides
//! the arena and the visited set, which the state budget bounds.
//!
//! A goal with memory (an example's checkpoint) is cloned with its run, before it is asked at the
//! choice point where the run branches: a replay asks it at that instant only after the step.

use super::choices::{choices, Allowance, ChoiceKind};
use super::goal::GoalWatch;
use super::search::{Search, Stop};
use crate::base::state_hash::digest_of;
use crate::base::time::SimTime;
use crate::engine::world::World;
use crate::tooling::runner::ScenarioRun;
use crate::tooling::scenario::Step;

/// Marks a canonical key, so it never stands for the same thing as a plain one.
const SYMMETRIC: u8 = 1;

/// One schedule: its last step and where the rest of it is.
pub(super) struct Recipe {
    pub(super) parent: Option<usize>,
    pub(super) step: Step,
    pub(super) key: u64,
    /// Budget used so far: faults, drops, holds and duplicates.
    pub(super) used: Used,
    /// The deepest level reached by this schedule or any that extends it, so a descent skips
    /// subtrees with nothing at the level it walks.
    pub(super) deepest: u32,
    /// The schedules its walk offered: `children.0..children.1` in the arena.
    pub(super) children: (usize, usize),
}

/// How much of each budget a schedule has used.
#[derive(Clone, Copy, Debug, Default, Hash)]
pub(super) struct Used {
    pub(super) faults: u32,
    pub(super) drops: u32,
    pub(super) holds: u32,
    pub(super) duplicates: u32,
    pub(super) byzantine: u32,
}

impl Used {
    fn after(self, kind: ChoiceKind) -> Used {
        let mut used = self;
        match kind {
            ChoiceKind::Fault => used.faults += 1,
            ChoiceKind::Drop => used.drops += 1,
            ChoiceKind::Hold => used.holds += 1,
            ChoiceKind::Duplicate => used.duplicates += 1,
            ChoiceKind::Byzantine => used.byzantine += 1,
        }
        used
    }

    pub(super) fn total(self) -> u32 {
        self.faults + self.drops + self.holds + self.duplicates + self.byzantine
    }
}

/// A run in progress along one schedule, with the goal's memory.
#[derive(Clone)]
pub(super) struct Branch<'g> {
    run: ScenarioRun,
    watch: GoalWatch<'g>,
    /// The next choice point at which a goal with memory has not been asked yet.
    next_watch_ms: u64,
}

impl<'a> Search<'a> {
    /// The scenario at its start, the goal watching.
    pub(super) fn root_branch(&self) -> Result<Branch<'a>, String> {
        let mut run = ScenarioRun::new(self.scenario.clone())?;
        (self.prepare)(run.world_mut());
        // Only a checkpoint reads the trace; an invariant's checkers never do (and the digest
        // leaves the trace out), so its runs need not record one.
        if !self.goal.remembers() {
            run.world_mut().mute_trace();
        }
        let watch = self.goal.watch(run.world());
        Ok(Branch {
            run,
            watch,
            next_watch_ms: 0,
        })
    }

    /// Goes down from `node` (whose run `branch` is at its start) to every schedule of level
    /// `target` below it, in arena order, and walks each.
    pub(super) fn descend(
        &mut self,
        node: Option<usize>,
        mut branch: Branch<'a>,
        node_depth: u32,
        target: u32,
    ) -> Result<Option<Stop>, String> {
        let (first, end) = self.children_of(node);
        for child in first..end {
            if self.recipes[child].deepest < target {
                continue;
            }
            let at_ms = self.recipes[child].step.at_ms;
            self.bring(&mut branch, at_ms);
            let mut below = branch.clone();
            below
                .run
                .world_mut()
                .apply(&self.recipes[child].step.action);
            let stop = if node_depth + 1 == target {
                let stop = self.walk(Some(child), below, target)?;
                self.tell(Some(child), target, child);
                stop
            } else {
                self.descend(Some(child), below, node_depth + 1, target)?
            };
            if stop.is_some() {
                return Ok(stop);
            }
        }
        Ok(None)
    }

    /// Plays `branch` forward to `at_ms`, asking a goal with memory at every choice point before it,
    /// as a replay of a schedule branching there does.
    fn bring(&self, branch: &mut Branch<'a>, at_ms: u64) {
        if self.goal.remembers() {
            while branch.next_watch_ms < at_ms {
                branch
                    .run
                    .advance_to(SimTime::from_ms(branch.next_watch_ms));
                branch.watch.met(branch.run.world());
                branch.next_watch_ms += self.request.grain_ms;
            }
        }
        branch.run.advance_to(SimTime::from_ms(at_ms));
    }

    fn children_of(&self, node: Option<usize>) -> (usize, usize) {
        match node {
            Some(index) => self.recipes[index].children,
            None => self.root_children,
        }
    }

    /// Walks one schedule of level `depth` from its last step (applied in `branch`) to the horizon,
    /// choice point by choice point; its children go to the arena.
    pub(super) fn walk(
        &mut self,
        recipe: Option<usize>,
        mut branch: Branch<'a>,
        depth: u32,
    ) -> Result<Option<Stop>, String> {
        let first_child = self.recipes.len();
        let stop = self.walk_points(recipe, &mut branch, depth);
        let children = (first_child, self.recipes.len());
        match recipe {
            Some(index) => self.recipes[index].children = children,
            None => self.root_children = children,
        }
        Ok(stop)
    }

    fn walk_points(
        &mut self,
        recipe: Option<usize>,
        branch: &mut Branch<'a>,
        depth: u32,
    ) -> Option<Stop> {
        let extend = depth < self.request.max_depth;
        let (used, start_ms, start_key) = match recipe.map(|index| &self.recipes[index]) {
            Some(last) => (last.used, last.step.at_ms, last.key + 1),
            None => (Used::default(), 0, 0),
        };
        let mut at_ms = start_ms;
        loop {
            branch.run.advance_to(SimTime::from_ms(at_ms));
            if let Some(met) = branch.watch.met(branch.run.world()) {
                let seen_by_ms = at_ms;
                return Some(Stop::Found {
                    recipe,
                    met,
                    seen_by_ms,
                });
            }
            if at_ms < self.first_choice_ms {
                // Before the search's start: the run so far, where the goal is asked but nothing
                // is offered, hashed or counted (only the root walk is ever here).
                at_ms = (at_ms + self.request.grain_ms).min(self.first_choice_ms);
                continue;
            }
            let min_key = if at_ms == start_ms { start_key } else { 0 };
            let key = self.key(branch.run.world(), used, min_key);
            if !self.visited.insert(key) {
                self.duplicates += 1;
                return None;
            }
            self.states += 1;
            if self.states >= self.request.max_states {
                return Some(Stop::StatesSpent);
            }
            if extend {
                self.offer(recipe, depth, branch.run.world(), (at_ms, min_key));
            }
            if at_ms >= self.horizon_ms {
                return None;
            }
            at_ms = (at_ms + self.request.grain_ms).min(self.horizon_ms);
        }
    }

    /// The visited set's key for `world` with `used` spent and catalogue keys from `min_key`: its
    /// canonical digest where symmetry is reduced and the whole catalogue is offered, else its
    /// digest (at the instant of a step only later keys are offered, and keys go by node number).
    fn key(&self, world: &World, used: Used, min_key: u64) -> u64 {
        match &self.symmetry {
            Some(reducer) if min_key == 0 => {
                digest_of(&(reducer.canonical(world), used, min_key, SYMMETRIC))
            }
            _ => digest_of(&(world.state_digest(), used, min_key)),
        }
    }

    /// Adds a child schedule for every choice `world` offers at `at_ms` (keys from `min_key`).
    fn offer(
        &mut self,
        parent: Option<usize>,
        depth: u32,
        world: &World,
        (at_ms, min_key): (u64, u64),
    ) {
        let used = parent.map_or(Used::default(), |index| self.recipes[index].used);
        let allowance = Allowance {
            faults_left: self.request.max_faults.saturating_sub(used.faults),
            drops_left: self.request.max_drops.saturating_sub(used.drops),
            holds_left: self.request.max_holds.saturating_sub(used.holds),
            duplicates_left: self.request.max_duplicates.saturating_sub(used.duplicates),
            byzantine_left: self.request.max_byzantine.saturating_sub(used.byzantine),
            min_key,
        };
        let before = self.recipes.len();
        for choice in choices(world, self.request, allowance) {
            // The frontier is bounded by the state budget too, so memory stays bounded.
            if self.recipes.len() as u64 >= self.request.max_states {
                self.truncated = true;
                break;
            }
            self.recipes.push(Recipe {
                parent,
                step: Step {
                    at_ms,
                    action: choice.action,
                },
                key: choice.key,
                used: used.after(choice.kind),
                deepest: depth + 1,
                children: (0, 0),
            });
        }
        if self.recipes.len() > before {
            self.deepen(parent, depth + 1);
        }
    }

    /// Records that `node` and its ancestors have a schedule at level `depth` below them.
    fn deepen(&mut self, node: Option<usize>, depth: u32) {
        let mut cursor = node;
        while let Some(index) = cursor {
            let recipe = &mut self.recipes[index];
            if recipe.deepest >= depth {
                break;
            }
            recipe.deepest = depth;
            cursor = recipe.parent;
        }
    }

    /// The steps of a schedule, in time order.
    pub(super) fn steps_of(&self, recipe: Option<usize>) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut cursor = recipe;
        while let Some(index) = cursor {
            steps.push(self.recipes[index].step.clone());
            cursor = self.recipes[index].parent;
        }
        steps.reverse();
        steps
    }
}
