//! The runner's scripted steps: twins at one instant each applied once, steps out of time order read
//! in script order, and a long script applied without scanning it from the start for every step.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{Scenario, Step};
use quorumlab_sim::time::SimTime;

fn request() -> Action {
    Action::Request {
        count: 1,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    }
}

fn crash(node: u16) -> Action {
    Action::Crash {
        target: NodeTarget::Node(NodeId(node)),
    }
}

fn step(at_ms: u64, action: Action) -> Step {
    Step { at_ms, action }
}

fn scenario(steps: Vec<Step>) -> Scenario {
    let mut scenario = Scenario::new("steps", 3, 2_000);
    scenario.steps = steps;
    scenario
}

/// Every action the world recorded, in order.
fn applied(run: &ScenarioRun) -> Vec<(u64, Action)> {
    run.world()
        .action_log()
        .iter()
        .map(|(at, action)| (at.as_micros() / 1_000, action.clone()))
        .collect()
}

#[test]
fn twins_at_one_instant_are_each_applied_once() {
    let steps = vec![
        step(600, request()),
        step(600, request()),
        step(700, crash(1)),
        step(700, request()),
    ];
    let mut run = ScenarioRun::new(scenario(steps)).unwrap();
    run.advance_to(SimTime::from_ms(650));
    assert_eq!(applied(&run), vec![(600, request()), (600, request())]);
    assert_eq!(run.next_step().map(|(number, _)| number), Some(3));
    run.advance_to(SimTime::from_ms(800));
    assert_eq!(applied(&run).len(), 4);
    assert_eq!(run.next_step(), None);
}

#[test]
fn steps_out_of_time_order_are_read_in_script_order() {
    // A script built in code (not parsed) may be out of order; the runner then takes the first
    // unapplied step in script order that is still ahead, as it always has, rather than a bisection
    // that assumes time order.
    let mut run = ScenarioRun::new(scenario(Vec::new())).unwrap();
    run.set_scenario(scenario(vec![
        step(900, crash(2)),
        step(300, request()),
        step(300, request()),
    ]));
    assert_eq!(run.next_step().map(|(number, _)| number), Some(1));
    run.advance_to(SimTime::from_ms(200));
    assert_eq!(run.next_step().map(|(number, _)| number), Some(1));
    run.advance_to(SimTime::from_ms(950));
    assert_eq!(applied(&run), vec![(900, crash(2))]);
}

#[test]
fn a_long_script_is_applied_whole() {
    // 1,900 steps, one every millisecond from 100 ms: each applied exactly once, in order.
    let steps: Vec<Step> = (100..2_000).map(|at_ms| step(at_ms, request())).collect();
    let count = steps.len();
    let mut run = ScenarioRun::new(scenario(steps)).unwrap();
    run.run_to_end();
    let log = applied(&run);
    assert_eq!(log.len(), count);
    assert!(log.windows(2).all(|pair| pair[0].0 < pair[1].0));
    assert!(run.skipped_steps().len() < count);
}
