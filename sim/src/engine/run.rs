//! A run that can advance, be acted on and be observed: the one thing every driver of runs needs.
//!
//! Two kinds exist. The headless [`World`] only goes forward; the app's [`Timeline`] goes forward and
//! back, replaying a recorded future when it moves forward again. Drivers (a scenario's scripted steps,
//! a lesson, a comparison of two runs) are written once over this trait, so the CLI, the tests, the
//! sweeps and the app run a scenario the same way by construction rather than by agreement.
//!
//! A run also keeps the log of the actions it was given, in time order, because that log decides which
//! scripted steps are already done: a step pairs off with a recorded action of the same instant and
//! the same action ([`ActionLog`]), which is what lets a timeline play its recorded future without
//! applying a step twice.

use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::engine::history::{RecordedAction, Timeline};
use crate::engine::world::{ActionOutcome, World};

/// The actions a run was given, in time order: instant and action of each.
pub trait ActionLog {
    fn len(&self) -> usize;
    fn at(&self, index: usize) -> SimTime;
    fn action(&self, index: usize) -> &Action;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl ActionLog for [RecordedAction] {
    fn len(&self) -> usize {
        <[RecordedAction]>::len(self)
    }

    fn at(&self, index: usize) -> SimTime {
        self[index].at
    }

    fn action(&self, index: usize) -> &Action {
        &self[index].action
    }
}

impl ActionLog for [(SimTime, Action)] {
    fn len(&self) -> usize {
        <[(SimTime, Action)]>::len(self)
    }

    fn at(&self, index: usize) -> SimTime {
        self[index].0
    }

    fn action(&self, index: usize) -> &Action {
        &self[index].1
    }
}

pub trait Run {
    /// How this run keeps its log of actions.
    type Log: ActionLog + ?Sized;

    /// The world as of now.
    fn world(&self) -> &World;
    /// Runs every event due by `until`, and any recorded action on the way.
    fn run_until(&mut self, until: SimTime);
    /// Applies `action` now and records it in the log.
    fn apply(&mut self, action: &Action) -> ActionOutcome;
    /// Every action recorded so far, in time order (a timeline's recorded future included).
    fn log(&self) -> &Self::Log;

    fn now(&self) -> SimTime {
        self.world().now()
    }
}

impl Run for World {
    type Log = [(SimTime, Action)];

    fn world(&self) -> &World {
        self
    }

    fn run_until(&mut self, until: SimTime) {
        World::run_until(self, until)
    }

    fn apply(&mut self, action: &Action) -> ActionOutcome {
        World::apply(self, action)
    }

    fn log(&self) -> &Self::Log {
        self.action_log()
    }
}

impl Run for Timeline {
    type Log = [RecordedAction];

    fn world(&self) -> &World {
        Timeline::world(self)
    }

    fn run_until(&mut self, until: SimTime) {
        Timeline::run_until(self, until)
    }

    fn apply(&mut self, action: &Action) -> ActionOutcome {
        Timeline::apply(self, action)
    }

    fn log(&self) -> &Self::Log {
        self.actions()
    }
}

/// Whether the action a step names at `at` is in `log`, counting `twins_before` identical steps of the
/// same instant that come earlier in the script: steps and recorded actions of one instant and one
/// action pair off in order, so two identical steps at one instant need two records.
pub fn recorded_in<L: ActionLog + ?Sized>(
    log: &L,
    at: SimTime,
    action: &Action,
    twins_before: usize,
) -> bool {
    // The log is in time order: find the first record of `at` by bisection.
    let (mut low, mut high) = (0, log.len());
    while low < high {
        let middle = low + (high - low) / 2;
        if log.at(middle) < at {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    let records = (low..log.len())
        .take_while(|&index| log.at(index) == at)
        .filter(|&index| log.action(index) == action)
        .count();
    twins_before < records
}
