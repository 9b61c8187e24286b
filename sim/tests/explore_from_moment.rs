//! A search started from a moment ("this moment" in the page, `--from-ms` headless) keeps the run so
//! far and only adds steps at or after that moment, and what it finds replays, as an ordinary
//! scenario from time zero, to the same violation at the same choice point.

use quorumlab_sim::explore::goal::replay_goal;
use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::{explore, ExploreRequest, Outcome};
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::scenario::{parse_scenario, Scenario};

const NO_LOST_UPDATES: &str = "No Lost Updates";
/// Off the 50 ms grain on purpose: the first choice point is the next grid point, 1,050 ms.
const PAUSED_AT_MS: u64 = 1_020;

fn without_steps(file: &str) -> Scenario {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut scenario = parse_scenario(&text, file).unwrap();
    scenario.steps.clear();
    scenario
}

fn lost_update_from(from_ms: u64) -> ExploreRequest {
    ExploreRequest {
        invariant: Some(NO_LOST_UPDATES.to_string()),
        max_depth: 1,
        max_faults: 1,
        max_states: 50_000,
        pause_ms: vec![2_000],
        horizon_ms: Some(from_ms + 4_000),
        from_ms,
        ..ExploreRequest::default()
    }
}

fn found(
    report: &quorumlab_sim::explore::ExploreReport,
) -> (u64, Vec<quorumlab_sim::scenario::Step>) {
    match &report.outcome {
        Outcome::Found {
            invariant,
            seen_by_ms,
            schedule,
            ..
        } if invariant == NO_LOST_UPDATES => (*seen_by_ms, schedule.clone()),
        _ => panic!("expected the lost update: {}", report.summary),
    }
}

#[test]
fn a_search_from_a_moment_adds_steps_only_from_then_and_replays_to_the_same_violation() {
    let scenario = without_steps("no-fencing-pause.toml");
    // From the start the same search pauses a holder before the moment: a search that ignored the
    // moment would fail the check below.
    let (_, from_start) = found(&explore(&scenario, &lost_update_from(0)).unwrap());
    assert!(
        from_start.iter().any(|step| step.at_ms < PAUSED_AT_MS),
        "{from_start:?}"
    );

    for shrink in [false, true] {
        let request = ExploreRequest {
            shrink,
            ..lost_update_from(PAUSED_AT_MS)
        };
        let report = explore(&scenario, &request).unwrap();
        let (seen_by_ms, schedule) = found(&report);
        assert!(!schedule.is_empty());
        assert!(
            schedule.iter().all(|step| step.at_ms >= PAUSED_AT_MS),
            "a step before the moment: {schedule:?}"
        );
        let goal = request.goal(&scenario).unwrap();
        let horizon_ms = request.horizon_ms(&scenario);
        let replayed = replay_goal(&scenario, &schedule, &goal, request.grain_ms, horizon_ms);
        let (met, replay_ms) = replayed.unwrap().expect("the schedule replays to its goal");
        assert_eq!(
            (met.name.as_str(), replay_ms),
            (NO_LOST_UPDATES, seen_by_ms)
        );
        let run = run_scenario(&merged(&scenario, &schedule)).unwrap();
        let first = run
            .world
            .violations
            .iter()
            .find(|violation| violation.invariant == NO_LOST_UPDATES)
            .expect("the headless run breaks the same invariant");
        assert!(first.at_ms >= PAUSED_AT_MS && first.at_ms <= seen_by_ms);
    }
}

/// The run so far stays as it was: a step the learner took before the moment is part of the
/// searched scenario, and a goal with memory is asked along it as a replay asks it.
#[test]
fn the_run_so_far_is_kept_and_an_example_from_a_moment_replays_at_the_same_point() {
    let mut scenario = without_steps("leader-crash.toml");
    let text = "[[step]]\nat_ms = 300\ndo = \"request\"\ncount = 2\n";
    let kept = parse_scenario(
        &format!("protocol = \"raft\"\nnodes = 5\nduration_ms = 1000\n{text}"),
        "kept.toml",
    )
    .unwrap();
    scenario.steps = kept.steps;
    let request = ExploreRequest {
        example: Some("leader_changed".into()),
        max_depth: 2,
        max_faults: 2,
        max_states: 40_000,
        pause_ms: vec![],
        horizon_ms: Some(2_000),
        from_ms: 600,
        shrink: false,
        ..ExploreRequest::default()
    };
    assert_eq!(scenario.steps.len(), 1);
    let report = explore(&scenario, &request).unwrap();
    let (Outcome::Example { seen_by_ms, .. } | Outcome::Found { seen_by_ms, .. }) = report.outcome
    else {
        panic!("expected an example: {}", report.summary);
    };
    let schedule = report.outcome.schedule().unwrap();
    assert!(!schedule.is_empty());
    assert!(
        schedule.iter().all(|step| step.at_ms >= 600),
        "{schedule:?}"
    );
    let goal = request.goal(&scenario).unwrap();
    let replayed = replay_goal(&scenario, schedule, &goal, 50, 2_000).unwrap();
    assert_eq!(replayed.map(|(_, at_ms)| at_ms), Some(seen_by_ms));
}

#[test]
fn a_start_past_the_horizon_is_refused() {
    let scenario = without_steps("no-fencing-pause.toml");
    let request = ExploreRequest {
        horizon_ms: Some(1_000),
        ..lost_update_from(2_000)
    };
    let error = explore(&scenario, &request).unwrap_err();
    assert!(error.contains("after its horizon"), "{error}");
}
