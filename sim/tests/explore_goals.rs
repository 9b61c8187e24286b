//! What else the bounded search looks for and offers: examples of a lesson checkpoint (found where the
//! design allows them, not found where it does not, replayed by the ordinary runner), duplicated
//! messages within a budget, and clock faults within the world's bounds, where time keeps its
//! meaning: a lease is not broken by drift it allows for, and is broken by a pause past it.

use quorumlab_sim::explore::goal::{replay_goal, Goal};
use quorumlab_sim::explore::request::clock_bounds;
use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::{explore, Bound, ExploreRequest, Outcome};
use quorumlab_sim::scenario::{parse_scenario, to_toml_string, Scenario};

const NO_LOST_UPDATES: &str = "No Lost Updates";

fn without_steps(file: &str) -> Scenario {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut scenario = parse_scenario(&text, file).unwrap();
    scenario.steps.clear();
    scenario
}

/// One step, no node faults at all unless a test adds them, a 4 s horizon.
fn one_step() -> ExploreRequest {
    ExploreRequest {
        max_depth: 1,
        max_faults: 0,
        max_states: 50_000,
        pause_ms: Vec::new(),
        crash: false,
        isolate: false,
        horizon_ms: Some(4_000),
        ..ExploreRequest::default()
    }
}

fn stale_write_example() -> ExploreRequest {
    ExploreRequest {
        example: Some("stale_write_refused".to_string()),
        max_faults: 1,
        pause_ms: vec![2_000],
        ..one_step()
    }
}

#[test]
fn a_fenced_store_gives_an_example_of_a_refused_stale_write_that_replays() {
    let scenario = without_steps("fencing-pause.toml");
    let report = explore(&scenario, &stale_write_example()).unwrap();
    let Outcome::Example {
        checkpoint,
        why,
        seen_by_ms,
        schedule,
        faults,
    } = &report.outcome
    else {
        panic!("expected an example: {}", report.summary);
    };
    assert_eq!(checkpoint, "stale_write_refused");
    assert!(why.contains("stale"), "{why}");
    assert_eq!((schedule.len(), *faults), (1, 1));
    assert!(report
        .summary
        .starts_with("an example of stale_write_refused"));
    let goal = Goal::example("stale_write_refused", &scenario).unwrap();
    let replayed = replay_goal(&scenario, schedule, &goal, 50, 4_000).unwrap();
    assert_eq!(replayed.map(|(_, at_ms)| at_ms), Some(*seen_by_ms));
    let again = explore(&scenario, &stale_write_example()).unwrap();
    assert_eq!(again, report, "the same search gives the same example");
}

#[test]
fn an_unfenced_store_gives_no_example_of_a_refused_stale_write() {
    let scenario = without_steps("no-fencing-pause.toml");
    let report = explore(&scenario, &stale_write_example()).unwrap();
    assert!(
        matches!(
            report.outcome,
            Outcome::BoundReached {
                bound: Bound::Depth,
                ..
            }
        ),
        "{}",
        report.summary
    );
    assert!(report.summary.starts_with("no example within 1 step"));
}

#[test]
fn an_unknown_checkpoint_is_refused_with_the_valid_ones_listed() {
    let scenario = without_steps("fencing-pause.toml");
    let request = ExploreRequest {
        example: Some("stale_write_refusd".to_string()),
        ..stale_write_example()
    };
    let error = explore(&scenario, &request).unwrap_err();
    assert!(error.contains("unknown checkpoint \"stale_write_refusd\""));
    assert!(
        error.contains("did you mean `stale_write_refused`"),
        "{error}"
    );
    assert!(
        error.contains("valid checkpoints: leader_changed,"),
        "{error}"
    );
    assert!(error.contains("two_values_chosen"), "{error}");
    let both = ExploreRequest {
        invariant: Some(NO_LOST_UPDATES.to_string()),
        ..stale_write_example()
    };
    assert!(explore(&scenario, &both).unwrap_err().contains("not both"));
}

#[test]
fn a_duplicated_store_write_is_found_within_a_duplicate_budget_and_not_without_one() {
    let scenario = without_steps("fencing-pause.toml");
    let example = Some("duplicate_write_ignored".to_string());
    let with_duplicates = ExploreRequest {
        example: example.clone(),
        max_duplicates: 1,
        ..one_step()
    };
    let report = explore(&scenario, &with_duplicates).unwrap();
    assert_eq!(explore(&scenario, &with_duplicates).unwrap(), report);
    let schedule = report.outcome.schedule().expect("an example");
    assert!(
        matches!(
            schedule[0].action,
            quorumlab_sim::action::Action::DuplicateMessage { .. }
        ),
        "{schedule:?}"
    );
    // The duplicate is an ordinary scenario step: written out as TOML and read back unchanged.
    let replay = merged(&scenario, schedule);
    let text = to_toml_string(&replay);
    assert!(text.contains("do = \"duplicate_message\""), "{text}");
    assert_eq!(parse_scenario(&text, "replay.toml").unwrap(), replay);
    let holds_only = ExploreRequest {
        example,
        max_holds: 1,
        ..one_step()
    };
    let report = explore(&scenario, &holds_only).unwrap();
    assert!(report.outcome.schedule().is_none(), "{}", report.summary);
}

/// Every drift and jump the lock service's bounds allow, in both directions, every 100 ms.
fn clock_faults_within_bounds(scenario: &Scenario) -> ExploreRequest {
    let bounds = clock_bounds(scenario);
    ExploreRequest {
        invariant: Some(NO_LOST_UPDATES.to_string()),
        max_faults: 1,
        max_states: 200_000,
        grain_ms: 100,
        drift_ppm: vec![bounds.max_drift_ppm, -bounds.max_drift_ppm],
        jump_ms: vec![bounds.max_jump_ms, -bounds.max_jump_ms],
        ..one_step()
    }
}

#[test]
fn a_lease_is_not_broken_by_drift_within_its_bound_and_is_broken_by_a_long_pause() {
    let scenario = without_steps("no-fencing-pause.toml");
    let drift = explore(&scenario, &clock_faults_within_bounds(&scenario)).unwrap();
    assert_eq!(
        drift.outcome,
        Outcome::BoundReached {
            bound: Bound::Depth,
            complete_depth: Some(1),
        },
        "{}",
        drift.summary
    );
    assert!(drift.states > 1_000, "{} states", drift.states);
    let pause = ExploreRequest {
        pause_ms: vec![2_000],
        drift_ppm: Vec::new(),
        jump_ms: Vec::new(),
        ..clock_faults_within_bounds(&scenario)
    };
    let report = explore(&scenario, &pause).unwrap();
    assert!(
        matches!(report.outcome, Outcome::Found { .. }),
        "{}",
        report.summary
    );
}

#[test]
fn clock_faults_beyond_the_world_bound_are_refused() {
    let scenario = without_steps("no-fencing-pause.toml");
    let bounds = clock_bounds(&scenario);
    let drift = ExploreRequest {
        drift_ppm: vec![bounds.max_drift_ppm + 1],
        ..clock_faults_within_bounds(&scenario)
    };
    let error = explore(&scenario, &drift).unwrap_err();
    assert!(error.contains("outside this world's bound"), "{error}");
    let jump = ExploreRequest {
        jump_ms: vec![-bounds.max_jump_ms - 1],
        ..clock_faults_within_bounds(&scenario)
    };
    assert!(explore(&scenario, &jump).is_err());
    // Redlock states its own allowance, and its bound follows it.
    let redlock = without_steps("redlock-clock-jump.toml");
    assert_eq!(clock_bounds(&redlock).max_jump_ms, 42);
    assert_eq!(clock_bounds(&redlock).max_drift_ppm, 42 * 1_000_000 / 4_000);
}
