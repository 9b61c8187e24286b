//! Two runs kept on one clock, whatever kind of run each is: the pieces compare mode needs headless
//! (`pair::ComparedRuns`) and in the app (two sessions on timelines), written once.
//!
//! The two sides share the seed, the length and the node ids (`pair::incomparable`), so "the same
//! instant" and "the same action" mean the same on both; what differs is only the options their
//! scenarios set differently.

use crate::base::time::SimTime;
use crate::contract::action::Action;
use crate::engine::run::{ActionLog, Run};
use crate::tooling::runner::ScenarioRun;

/// The next instant at which either side has an event, not before either side's now: a step of both
/// sides goes there, so neither jumps past something the other would show.
pub fn next_shared_instant(left: &impl Run, right: &impl Run) -> Option<SimTime> {
    let next = |now: SimTime, next: Option<SimTime>| next.map(|next| next.max(now));
    let left_next = next(left.now(), left.world().next_event_time());
    let right_next = next(right.now(), right.world().next_event_time());
    left_next.into_iter().chain(right_next).min()
}

/// Brings `right` forward through every action of `left` (its log, recorded future included) at the
/// same instants, as compare mode would have applied them live. An action `right` already holds at that
/// instant (a scripted step both sides share, applied by `right` itself) is not applied twice: the n-th
/// copy of an action at one instant on the left pairs with the n-th on the right. Bounded by the left's
/// log; `right` ends at the last action's instant (the caller moves it to the left's now).
pub fn replay_beside<L, R>(left: &L, right: &mut ScenarioRun<R>)
where
    L: ActionLog + ?Sized,
    R: Run,
{
    for index in 0..left.len() {
        let (at, action) = (left.at(index), left.action(index));
        right.advance_past_end_to(at);
        let on_left = copies(left, index + 1, at, action);
        let on_right = copies(right.run().log(), right.run().log().len(), at, action);
        if on_right < on_left {
            right.run_mut().apply(action);
        }
    }
}

/// How many of the first `count` entries of `log` are `action` at `at`.
fn copies<L: ActionLog + ?Sized>(log: &L, count: usize, at: SimTime, action: &Action) -> usize {
    (0..count)
        .filter(|&index| log.at(index) == at && log.action(index) == action)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ids::NodeId;
    use crate::contract::action::NodeTarget;
    use crate::engine::world::World;
    use crate::tooling::scenario::{parse_scenario, EXAMPLES};

    fn leader_crash() -> ScenarioRun {
        let (file, text) = EXAMPLES
            .iter()
            .find(|(file, _)| *file == "leader-crash.toml")
            .expect("the example exists");
        ScenarioRun::new(parse_scenario(text, file).unwrap()).unwrap()
    }

    /// The left side: the example's own steps (a request at 1 s, a crash at 1.2 s) and a learner's
    /// click between them, run to 1.5 s.
    fn left_side() -> ScenarioRun {
        let mut left = leader_crash();
        left.advance_to(SimTime::from_ms(1_100));
        let target = NodeTarget::Node(NodeId(2));
        let pause = Action::Pause {
            target,
            duration_ms: Some(200),
        };
        left.world_mut().apply(&pause);
        left.advance_to(SimTime::from_ms(1_500));
        left
    }

    #[test]
    fn a_run_replayed_beside_itself_is_the_same_run() {
        let left = left_side();
        let mut right = leader_crash();
        replay_beside(left.world().action_log(), &mut right);
        right.advance_to(left.world().now());
        assert_eq!(left.world().trace_hash(), right.world().trace_hash());
    }

    /// Planted: handing the right side every action of the left, its own scripted steps included,
    /// applies the shared steps twice, and the runs part.
    #[test]
    fn applying_the_shared_steps_again_would_part_the_runs() {
        let left = left_side();
        let mut right = leader_crash();
        for (at, action) in left.world().action_log() {
            right.advance_to(*at);
            Run::apply(right.world_mut(), action);
        }
        right.advance_to(left.world().now());
        assert_ne!(left.world().trace_hash(), right.world().trace_hash());
    }

    #[test]
    fn the_shared_instant_is_the_sooner_of_the_two_sides_next_events() {
        let left = leader_crash();
        let mut right = leader_crash();
        right.advance_to(SimTime::from_ms(300));
        let sooner = next_shared_instant(left.world(), right.world()).unwrap();
        assert_eq!(Some(sooner), left.world().next_event_time());
        let idle: World =
            World::new(crate::tooling::runner::world_config(left.scenario())).unwrap();
        assert!(
            next_shared_instant(&idle, &idle).is_some(),
            "a fresh cluster has timers due"
        );
    }
}
