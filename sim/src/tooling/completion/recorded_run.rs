//! A run that replays a recorded log and nothing else, for the lesson driver to follow while checking
//! a code.
//!
//! It differs from a [`Timeline`](crate::engine::history::Timeline) replaying the same log in one
//! way, so the driver judges the replay at the very states the page judged: a recorded action waits
//! at its instant until it is asked for. Running to an instant stops just before the actions recorded
//! there (at their place among the instant's events), because on the page a step judged at that
//! instant was judged before them (the frame ended there, or the step before ticked there and the
//! next step's "show me" followed). The actions are then applied when the driver performs the same
//! action (a "show me" action: [`Run::apply`] pairs it with the recorded one and never adds one, so
//! a step marked "show me" whose log lacks the script gains nothing from the mark), when the checker
//! asks ([`RecordedRun::apply_recorded_now`], for a click judged at once while the page was paused),
//! or when the run goes on past the instant.

use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::engine::history::RecordedAction;
use crate::engine::run::Run;
use crate::engine::world::{ActionOutcome, World};

pub struct RecordedRun {
    world: World,
    log: Vec<RecordedAction>,
    /// The recorded actions replayed so far.
    applied: usize,
}

impl RecordedRun {
    /// `world` at its start, to replay `log` (in recorded order).
    pub fn new(world: World, log: Vec<RecordedAction>) -> RecordedRun {
        RecordedRun {
            world,
            log,
            applied: 0,
        }
    }

    /// Applies every recorded action still waiting at this instant.
    pub fn apply_recorded_now(&mut self) {
        let now = self.world.now();
        while self
            .log
            .get(self.applied)
            .is_some_and(|next| next.at == now)
        {
            self.apply_next();
        }
    }

    fn apply_next(&mut self) {
        let recorded = &self.log[self.applied];
        self.world
            .fast_forward_to(recorded.after_events, recorded.at);
        self.world.apply(&recorded.action);
        self.applied += 1;
    }
}

impl Run for RecordedRun {
    type Log = [RecordedAction];

    fn world(&self) -> &World {
        &self.world
    }

    fn run_until(&mut self, until: SimTime) {
        while self
            .log
            .get(self.applied)
            .is_some_and(|next| next.at < until)
        {
            self.apply_next();
        }
        match self.log.get(self.applied).filter(|next| next.at == until) {
            // Up to the action's place among the instant's events, and no further.
            Some(next) => self.world.fast_forward_to(next.after_events, until),
            None => self.world.run_until(until),
        }
    }

    fn apply(&mut self, action: &Action) -> ActionOutcome {
        let now = self.world.now();
        let waiting = (self.applied..self.log.len())
            .take_while(|&index| self.log[index].at == now)
            .find(|&index| self.log[index].action == *action);
        let Some(index) = waiting else {
            return ActionOutcome::Skipped {
                reason: "not in the recorded run".to_string(),
            };
        };
        while self.applied <= index {
            self.apply_next();
        }
        ActionOutcome::Applied
    }

    fn log(&self) -> &Self::Log {
        &self.log
    }
}
