//! One reading of "a scenario's steps fall due", for headless and live runs alike (issue 31, steps 0.3
//! and B2).
//!
//! `ScenarioRun<R>` drives a scenario on any `Run`: the headless `World` or the app's `Timeline`. A step
//! is due when the clock reaches it and the run's log of actions holds no record that pairs off with it
//! (same instant, same action, twins in order), so a timeline that travelled back replays its recorded
//! future instead of applying a step twice. Before this driver, the headless runner used a cursor over
//! the steps and the app the pairing rule; these tests held the two equal on every example, and now
//! hold the headless and live runs of the one driver equal, including after a trip back in time.

use quorumlab_sim::action::Action;
use quorumlab_sim::history::Timeline;
use quorumlab_sim::runner::{world_config, ScenarioRun};
use quorumlab_sim::scenario::{parse_scenario, Scenario, EXAMPLES};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::World;

fn headless_trace_hash(scenario: &Scenario) -> u64 {
    let mut run = ScenarioRun::new(scenario.clone()).expect("an example runs");
    run.run_to_end();
    run.world().trace_hash()
}

/// The scenario on a timeline, as the app drives it: frames of 16 ms.
fn live_run(scenario: &Scenario) -> ScenarioRun<Timeline> {
    let world = World::new(world_config(scenario)).expect("an example's world");
    ScenarioRun::on(scenario.clone(), Timeline::new(world, 250, 64))
}

fn play_in_frames(run: &mut ScenarioRun<Timeline>, until: SimTime) {
    // Bounded: each pass moves the clock 16 ms closer to `until`.
    while run.world().now() < until {
        let next = run.world().now().plus_ms(16).min(until);
        run.advance_to(next);
    }
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

/// The first example with a crash step after time zero, and that step.
fn example_with_a_crash() -> (&'static str, Scenario, SimTime, Action) {
    examples()
        .into_iter()
        .find_map(|(file, scenario)| {
            let step = scenario
                .steps
                .iter()
                .find(|step| step.at_ms > 0 && matches!(step.action, Action::Crash { .. }))?
                .clone();
            Some((file, scenario, SimTime::from_ms(step.at_ms), step.action))
        })
        .expect("an example crashes a node")
}

#[test]
fn headless_and_live_runs_of_every_example_are_the_same_run() {
    let examples = examples();
    assert!(examples.len() > 20, "only {} examples", examples.len());
    for (file, scenario) in &examples {
        let mut live = live_run(scenario);
        let end = live.end_time();
        play_in_frames(&mut live, end);
        assert_eq!(
            headless_trace_hash(scenario),
            live.world().trace_hash(),
            "{file}: the headless and the live run differ"
        );
    }
}

#[test]
fn a_live_run_sent_back_in_time_replays_its_steps_once() {
    for (file, scenario) in examples() {
        let mut live = live_run(&scenario);
        let end = live.end_time();
        play_in_frames(&mut live, end);
        live.run_mut().seek(SimTime(end.as_micros() / 3));
        play_in_frames(&mut live, end);
        assert_eq!(
            headless_trace_hash(&scenario),
            live.world().trace_hash(),
            "{file}: after a seek back the steps were not replayed exactly once"
        );
        assert!(live.next_step().is_none(), "{file}: a step is still due");
    }
}

/// What the driver guards against, planted: a driver that ignored the log would apply a step the
/// timeline already replays, and the run would no longer be the scenario's. The comparison above
/// would fail on it.
#[test]
fn a_step_applied_again_over_its_recorded_future_changes_the_run() {
    let (file, scenario, at, crash) = example_with_a_crash();
    let mut live = live_run(&scenario);
    let end = live.end_time();
    play_in_frames(&mut live, end);
    live.run_mut().seek(SimTime(at.as_micros() - 1));
    live.run_mut().run_until(at);
    live.run_mut().apply(&crash);
    play_in_frames(&mut live, end);
    assert_ne!(
        headless_trace_hash(&scenario),
        live.world().trace_hash(),
        "{file}: the doubled crash went unnoticed"
    );
}

/// A learner's own action equal to a step at the step's instant pairs off with it: the step is not
/// applied as well, headless or live, and the run is the scenario's own.
#[test]
fn a_direct_action_equal_to_a_step_at_its_instant_stands_for_the_step() {
    let (file, scenario, at, crash) = example_with_a_crash();
    let mut headless = ScenarioRun::new(scenario.clone()).unwrap();
    headless.advance_to(SimTime(at.as_micros() - 1));
    headless.world_mut().run_until(at);
    headless.world_mut().apply(&crash);
    headless.run_to_end();
    let mut live = live_run(&scenario);
    play_in_frames(&mut live, SimTime(at.as_micros() - 1));
    live.run_mut().run_until(at);
    live.run_mut().apply(&crash);
    let end = live.end_time();
    play_in_frames(&mut live, end);
    let untouched = headless_trace_hash(&scenario);
    assert_eq!(headless.world().trace_hash(), untouched, "{file}: headless");
    assert_eq!(live.world().trace_hash(), untouched, "{file}: live");
}
