//! Shrinking a found schedule: a schedule padded with faults and steps that play no part is cut back
//! to the one pause that breaks the unfenced lock, the shrunk scenario replays to the same violation
//! through the ordinary runner, and a search reports its original and shrunk sizes.

use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::explore::goal::{replay_goal, Goal};
use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::shrink::Judge;
use quorumlab_sim::explore::{explore, ExploreRequest, Outcome};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::scenario::{parse_scenario, Scenario, Step};

const NO_LOST_UPDATES: &str = "No Lost Updates";

fn without_steps(file: &str) -> Scenario {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut scenario = parse_scenario(&text, file).unwrap();
    scenario.steps.clear();
    scenario
}

fn step(at_ms: u64, action: Action) -> Step {
    Step { at_ms, action }
}

fn node(index: u16) -> NodeTarget {
    NodeTarget::Node(NodeId(index))
}

/// The one fault the story needs: worker A (node 3) frozen for 2 s while it holds the lock (the
/// search finds it at 250 ms).
fn the_pause() -> Step {
    step(
        250,
        Action::Pause {
            target: node(3),
            duration_ms: Some(2_000),
        },
    )
}

/// The pause among faults and steps that change nothing about the lost update.
fn padded() -> Vec<Step> {
    vec![
        step(
            0,
            Action::ClockDrift {
                target: node(5),
                ppm: 500,
            },
        ),
        step(2_700, Action::Crash { target: node(2) }),
        step(
            200,
            Action::DuplicateMessage {
                message: 1,
                from: NodeId(0),
                to: NodeId(1),
            },
        ),
        the_pause(),
        step(3_000, Action::Restart { target: node(2) }),
        step(
            3_200,
            Action::ClockJump {
                target: node(0),
                by_ms: 3,
            },
        ),
    ]
}

fn judge<'a>(scenario: &'a Scenario, goal: &'a Goal) -> Judge<'a> {
    Judge {
        scenario,
        goal,
        grain_ms: 50,
        horizon_ms: 4_000,
        max_attempts: 500,
        prepare: &|_| {},
    }
}

#[test]
fn a_padded_schedule_shrinks_to_the_one_pause_and_replays_to_the_same_violation() {
    let scenario = without_steps("no-fencing-pause.toml");
    let goal = Goal::Invariant(Some(NO_LOST_UPDATES.to_string()));
    let padded_met = replay_goal(&scenario, &padded(), &goal, 50, 4_000).unwrap();
    assert!(
        padded_met.is_some(),
        "the padding must not hide the violation"
    );
    let shrunk = judge(&scenario, &goal).shrink(padded()).unwrap();
    assert_eq!(shrunk.schedule, vec![the_pause()]);
    let report = &shrunk.report;
    assert_eq!((report.original_steps, report.original_faults), (6, 5));
    assert_eq!((report.steps, report.faults), (1, 1));
    assert!(!report.bound_reached);
    let replay = run_scenario(&merged(&scenario, &shrunk.schedule)).unwrap();
    let first = replay
        .world
        .violations
        .iter()
        .find(|violation| violation.invariant == NO_LOST_UPDATES)
        .expect("the shrunk scenario breaks the same invariant");
    assert!(first.at_ms <= shrunk.seen_by_ms);
}

#[test]
fn a_schedule_with_nothing_to_remove_stays_and_an_attempt_bound_is_reported() {
    let scenario = without_steps("no-fencing-pause.toml");
    let goal = Goal::Invariant(Some(NO_LOST_UPDATES.to_string()));
    let kept = judge(&scenario, &goal).shrink(vec![the_pause()]).unwrap();
    assert_eq!(kept.schedule, vec![the_pause()]);
    let tight = Judge {
        max_attempts: 2,
        ..judge(&scenario, &goal)
    };
    let cut_short = tight.shrink(padded()).unwrap();
    assert!(cut_short.report.bound_reached);
    assert_eq!(cut_short.report.attempts, 2);
    assert!(cut_short.schedule.len() < padded().len());
    let quiet = judge(&scenario, &goal).shrink(Vec::new());
    assert!(quiet.is_err(), "an empty schedule meets nothing here");
}

#[test]
fn a_search_reports_its_shrink_and_no_shrink_skips_it() {
    let scenario = without_steps("no-fencing-pause.toml");
    let request = ExploreRequest {
        invariant: Some(NO_LOST_UPDATES.to_string()),
        max_depth: 2,
        max_faults: 2,
        max_states: 200_000,
        pause_ms: vec![2_000],
        horizon_ms: Some(4_000),
        ..ExploreRequest::default()
    };
    let report = explore(&scenario, &request).unwrap();
    let shrink = report.shrink.clone().expect("shrunk by default");
    assert!(shrink.faults <= shrink.original_faults);
    assert!(report.summary.contains("shrunk from"), "{}", report.summary);
    let Outcome::Found { schedule, .. } = &report.outcome else {
        panic!("{}", report.summary);
    };
    assert_eq!(schedule.len() as u32, shrink.steps);
    let unshrunk = explore(
        &scenario,
        &ExploreRequest {
            shrink: false,
            ..request
        },
    )
    .unwrap();
    assert_eq!(unshrunk.shrink, None);
}
