//! The bounded search ("can it break?"): it must find the lost update of a lock without fencing and
//! its schedule must replay to the same violation; it must not find one with fencing, and must say
//! that a bound was reached; it is deterministic; a bad request is refused with a short reason.

use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::{explore, Bound, ExploreRequest, Outcome};
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::scenario::{parse_scenario, Scenario};

const NO_LOST_UPDATES: &str = "No Lost Updates";

/// A scenario file with its own fault steps removed: the search must find the faults itself.
fn without_steps(file: &str) -> Scenario {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut scenario = parse_scenario(&text, file).unwrap();
    scenario.steps.clear();
    scenario
}

/// One fault, pauses of 2 s only, a 4 s horizon: small enough for a test, enough for the story.
fn lost_update_request() -> ExploreRequest {
    ExploreRequest {
        invariant: Some(NO_LOST_UPDATES.to_string()),
        max_depth: 1,
        max_faults: 1,
        max_states: 50_000,
        pause_ms: vec![2_000],
        horizon_ms: Some(4_000),
        ..ExploreRequest::default()
    }
}

#[test]
fn the_unfenced_lock_breaks_and_the_schedule_replays_to_the_same_violation() {
    let scenario = without_steps("no-fencing-pause.toml");
    let quiet = run_scenario(&scenario).unwrap();
    assert_eq!(quiet.world.violation_counts.get(NO_LOST_UPDATES), None);
    let report = explore(&scenario, &lost_update_request()).unwrap();
    let Outcome::Found {
        invariant,
        seen_by_ms,
        schedule,
        faults,
    } = &report.outcome
    else {
        panic!("expected a counterexample: {}", report.summary);
    };
    assert_eq!(invariant, NO_LOST_UPDATES);
    assert_eq!((schedule.len(), *faults), (1, 1));
    let replay = run_scenario(&merged(&scenario, schedule)).unwrap();
    let first = replay
        .world
        .violations
        .iter()
        .find(|violation| violation.invariant == NO_LOST_UPDATES)
        .expect("the replay breaks the same invariant");
    assert!(first.at_ms <= *seen_by_ms, "{} > {seen_by_ms}", first.at_ms);
    assert!(report.summary.contains("broke"));
}

#[test]
fn the_fenced_lock_reaches_its_bound_and_is_not_called_safe() {
    let scenario = without_steps("fencing-pause.toml");
    let report = explore(&scenario, &lost_update_request()).unwrap();
    assert_eq!(
        report.outcome,
        Outcome::BoundReached {
            bound: Bound::Depth,
            complete_depth: Some(1),
        },
        "{}",
        report.summary
    );
    assert!(report.states > 100, "{} states", report.states);
    let per_state = report.memory_bytes / report.states;
    assert!((8..1_000).contains(&per_state), "{per_state} bytes a state");
    assert!(report.summary.contains("no counterexample within 1 step"));
    assert!(!report.summary.to_lowercase().contains("safe"));
}

#[test]
fn a_small_state_budget_is_reported_as_the_bound_reached() {
    let scenario = without_steps("fencing-pause.toml");
    let request = ExploreRequest {
        max_states: 40,
        ..lost_update_request()
    };
    let report = explore(&scenario, &request).unwrap();
    assert!(matches!(
        report.outcome,
        Outcome::BoundReached {
            bound: Bound::States,
            ..
        }
    ));
    assert!(report.states <= 40, "{} states", report.states);
}

#[test]
fn a_budget_too_small_for_the_depth_names_the_last_complete_level() {
    let scenario = without_steps("fencing-pause.toml");
    let request = ExploreRequest {
        max_depth: 2,
        max_faults: 2,
        max_states: 600,
        ..lost_update_request()
    };
    let report = explore(&scenario, &request).unwrap();
    let Outcome::BoundReached {
        bound,
        complete_depth,
    } = report.outcome
    else {
        panic!("{}", report.summary);
    };
    assert_ne!(bound, Bound::Depth, "{}", report.summary);
    assert_eq!(complete_depth, Some(0), "{}", report.summary);
    assert!(report.summary.contains("nothing more is proven"));
}

#[test]
fn the_same_search_gives_the_same_report() {
    let scenario = without_steps("no-fencing-pause.toml");
    let request = lost_update_request();
    let first = explore(&scenario, &request).unwrap();
    let second = explore(&scenario, &request).unwrap();
    assert_eq!(first, second);
}

#[test]
fn a_bad_request_is_refused_with_a_short_reason() {
    let scenario = without_steps("no-fencing-pause.toml");
    let unknown = ExploreRequest {
        invariant: Some("No Lost Update".to_string()),
        ..ExploreRequest::default()
    };
    let error = explore(&scenario, &unknown).unwrap_err();
    assert!(
        error.contains("unknown invariant \"No Lost Update\""),
        "{error}"
    );
    assert!(error.contains("No Lost Updates"), "{error}");
    let zero = ExploreRequest {
        max_states: 0,
        ..ExploreRequest::default()
    };
    assert_eq!(
        explore(&scenario, &zero).unwrap_err(),
        "the states budget must be at least 1"
    );
    let known = ExploreRequest {
        invariant: Some(NO_LOST_UPDATES.to_string()),
        max_depth: 0,
        ..ExploreRequest::default()
    };
    assert_eq!(
        explore(&scenario, &known).unwrap_err(),
        "the depth budget must be at least 1"
    );
}

#[test]
fn a_watched_search_reports_progress_and_returns_the_same_report() {
    let scenario = without_steps("fencing-pause.toml");
    let request = lost_update_request();
    let mut told = Vec::new();
    let watched = quorumlab_sim::explore::explore_watched(&scenario, &request, &mut |progress| {
        told.push(*progress)
    })
    .unwrap();
    assert_eq!(watched, explore(&scenario, &request).unwrap());
    assert!(told.len() > 10, "{} progress reports", told.len());
    assert!(told.windows(2).all(|pair| pair[0].states <= pair[1].states));
    let last = told.last().unwrap();
    assert_eq!(
        (last.states, last.depth, last.frontier),
        (watched.states, 1, 0)
    );
    assert_eq!(last.faults_in_use, 1);
}
