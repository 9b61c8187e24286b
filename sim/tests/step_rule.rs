//! Two readings of "a scenario's steps fall due", held equal before one driver replaces both (issue 31,
//! step 0.3).
//!
//! The headless runner (`ScenarioRun::advance_to`) walks the steps with a cursor: each step is applied
//! once, in file order, when the clock reaches it. The app (`Session::advance_to`, over a `Timeline`)
//! pairs steps with the actions already recorded (`replay::step_is_recorded`) and applies only those
//! with no record, so a recorded future is replayed, not doubled. One driver for both (the plan's
//! `Scripted<R>`) must keep one rule; it may keep the pairing rule only if, for every example, the two
//! give the same run. They can differ when an action applied directly equals a step at the same
//! instant: the last test plants exactly that, to show this comparison can fail.

use quorumlab_sim::action::Action;
use quorumlab_sim::history::Timeline;
use quorumlab_sim::replay::step_is_recorded;
use quorumlab_sim::runner::{world_config, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, Scenario, Step, EXAMPLES};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::World;

/// The cursor rule: the headless runner, to the scenario's end.
fn trace_hash_by_cursor(scenario: &Scenario) -> u64 {
    let mut run = ScenarioRun::new(scenario.clone()).expect("an example runs");
    run.run_to_end();
    run.world().trace_hash()
}

/// The pairing rule over a `Timeline`, as the app drives it; `direct` is applied by itself when the
/// clock reaches its instant (before a step of that instant), as a learner's click would be.
fn trace_hash_by_pairing(scenario: &Scenario, mut direct: Option<(SimTime, Action)>) -> u64 {
    let world = World::new(world_config(scenario)).expect("an example's world");
    let mut timeline = Timeline::new(world, 250, 64);
    let end = SimTime::from_ms(scenario.duration_ms);
    let steps: &[Step] = &scenario.steps;
    // Each pass applies one step or the direct action, or ends: bounded by their number.
    for _ in 0..=steps.len() + 1 {
        let now = timeline.now();
        let due = (0..steps.len()).find(|&index| {
            let at = SimTime::from_ms(steps[index].at_ms);
            at <= end && at >= now && !step_is_recorded(steps, index, timeline.actions())
        });
        let due_at = due.map(|index| SimTime::from_ms(steps[index].at_ms));
        if let Some((at, action)) =
            direct.take_if(|(at, _)| due_at.is_none_or(|step_at| *at <= step_at))
        {
            timeline.run_until(at);
            timeline.apply(&action);
            continue;
        }
        let Some(index) = due else { break };
        timeline.run_until(SimTime::from_ms(steps[index].at_ms));
        timeline.apply(&steps[index].action);
    }
    timeline.run_until(end);
    timeline.world().trace_hash()
}

fn examples() -> Vec<(&'static str, Scenario)> {
    EXAMPLES
        .iter()
        .map(|(file, text)| {
            (
                *file,
                parse_scenario(text, file).expect("an example parses"),
            )
        })
        .collect()
}

#[test]
fn both_rules_give_every_example_the_same_run() {
    let examples = examples();
    assert!(examples.len() > 20, "only {} examples", examples.len());
    for (file, scenario) in &examples {
        assert_eq!(
            trace_hash_by_cursor(scenario),
            trace_hash_by_pairing(scenario, None),
            "{file}: the cursor and the pairing rule ran it differently"
        );
    }
}

/// A direct action equal to a step at the step's instant: the pairing rule counts it as the step's
/// record and applies the step no more, the cursor applies the step as well. The runs differ.
#[test]
fn the_rules_differ_when_a_direct_action_equals_a_step_at_its_instant() {
    let (file, scenario) = examples()
        .into_iter()
        .find(|(_, scenario)| {
            scenario
                .steps
                .iter()
                .any(|step| step.at_ms > 0 && matches!(step.action, Action::Crash { .. }))
        })
        .expect("an example crashes a node");
    let step = scenario
        .steps
        .iter()
        .find(|step| step.at_ms > 0 && matches!(step.action, Action::Crash { .. }))
        .unwrap()
        .clone();
    let at = SimTime::from_ms(step.at_ms);
    let paired = trace_hash_by_pairing(&scenario, Some((at, step.action.clone())));
    // The cursor's reading of the same clicks: the direct crash, and the step's crash after it.
    let mut run = ScenarioRun::new(scenario.clone()).unwrap();
    run.advance_to(SimTime(at.as_micros() - 1));
    run.world_mut().run_until(at);
    run.world_mut().apply(&step.action);
    run.run_to_end();
    assert_ne!(
        paired,
        run.world().trace_hash(),
        "{file}: the rules must differ on this run"
    );
    assert_eq!(
        paired,
        trace_hash_by_cursor(&scenario),
        "{file}: paired off, the direct crash stands for the step"
    );
}
