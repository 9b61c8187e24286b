//! The search reaches each schedule by branching one live run (`explore/walk.rs`) instead of
//! replaying it from the scenario's start. These searches were run with the replay-from-start search
//! (commit 0b253b9) and their counts and results pinned here: the branching search must visit the
//! same states in the same order, so every count, bound and schedule is the same. They cover every
//! budget kind, clock faults, two and three levels, a horizon off the grain, a grain other than 50 ms,
//! goals with memory (examples found at depth 2), and the state and depth bounds. Each found
//! schedule must also replay from the start to what the search met, at the same choice point.

use quorumlab_sim::explore::goal::replay_goal;
use quorumlab_sim::explore::{explore, ExploreRequest, Outcome};
use quorumlab_sim::scenario::{parse_scenario, Scenario};

fn without_steps(file: &str) -> Scenario {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut scenario = parse_scenario(&text, file).unwrap();
    scenario.steps.clear();
    scenario
}

fn unshrunk(request: ExploreRequest) -> ExploreRequest {
    ExploreRequest {
        shrink: false,
        ..request
    }
}

/// File, request, and what the replay-from-start search reported: states, duplicates, and the
/// outcome in short (`bound` and last complete depth, or what was met and the schedule).
fn cases() -> Vec<(&'static str, ExploreRequest, (u64, u64, &'static str))> {
    let every_budget = ExploreRequest {
        max_depth: 2,
        max_faults: 1,
        max_drops: 1,
        max_holds: 1,
        max_duplicates: 1,
        max_states: 20_000,
        pause_ms: vec![2_000],
        horizon_ms: Some(1_500),
        ..ExploreRequest::default()
    };
    let clocks = ExploreRequest {
        max_depth: 3,
        max_faults: 3,
        max_states: 30_000,
        pause_ms: vec![500],
        isolate: false,
        horizon_ms: Some(1_200),
        drift_ppm: vec![500],
        jump_ms: vec![-3],
        ..ExploreRequest::default()
    };
    let crashes = ExploreRequest {
        example: Some("no_leader_for_ms(700)".into()),
        max_depth: 2,
        max_states: 30_000,
        pause_ms: vec![],
        isolate: false,
        horizon_ms: Some(1_500),
        ..ExploreRequest::default()
    };
    let off_grain = ExploreRequest {
        max_drops: 1,
        max_states: 40_000,
        grain_ms: 40,
        pause_ms: vec![700],
        horizon_ms: Some(1_230),
        ..ExploreRequest::default()
    };
    let leader = ExploreRequest {
        example: Some("leader_changed".into()),
        max_depth: 3,
        max_faults: 3,
        max_states: 40_000,
        pause_ms: vec![],
        horizon_ms: Some(1_030),
        ..ExploreRequest::default()
    };
    let whole = ExploreRequest {
        max_states: 200_000,
        pause_ms: vec![300],
        horizon_ms: Some(400),
        ..ExploreRequest::default()
    };
    let lost_update = ExploreRequest {
        max_states: 50_000,
        pause_ms: vec![1_000, 2_000],
        horizon_ms: Some(3_000),
        ..ExploreRequest::default()
    };
    vec![
        ("fencing-pause.toml", every_budget, (20_000, 1_056, "States 1")),
        ("fencing-pause.toml", clocks, (30_000, 258, "States 1")),
        (
            "leader-crash.toml",
            crashes,
            (3_382, 39, "no_leader_for_ms(700) 1500: 0 crash n1, 800 crash n4"),
        ),
        ("fencing-pause.toml", off_grain, (40_000, 1_362, "States 1")),
        (
            "leader-crash.toml",
            leader,
            (389, 40, "leader_changed 500: 250 crash n4"),
        ),
        ("fencing-pause.toml", whole, (25_262, 2_727, "Depth 2")),
        (
            "no-fencing-pause.toml",
            lost_update,
            (
                6_338,
                32,
                "Mutual Exclusion 1500: 250 Pause { target: Node(NodeId(3)), duration_ms: Some(1000) }",
            ),
        ),
    ]
}

/// The outcome in the short form of [`cases`].
fn short(outcome: &Outcome) -> String {
    let steps = |schedule: &[quorumlab_sim::scenario::Step]| {
        let steps: Vec<String> = schedule
            .iter()
            .map(|step| match &step.action {
                quorumlab_sim::action::Action::Crash {
                    target: quorumlab_sim::action::NodeTarget::Node(node),
                } => format!("{} crash n{}", step.at_ms, node.0 + 1),
                other => format!("{} {other:?}", step.at_ms),
            })
            .collect();
        steps.join(", ")
    };
    match outcome {
        Outcome::BoundReached {
            bound,
            complete_depth,
        } => format!("{bound:?} {}", complete_depth.unwrap_or(99)),
        Outcome::Found {
            invariant,
            seen_by_ms,
            schedule,
            ..
        } => format!("{invariant} {seen_by_ms}: {}", steps(schedule)),
        Outcome::Example {
            checkpoint,
            seen_by_ms,
            schedule,
            ..
        } => format!("{checkpoint} {seen_by_ms}: {}", steps(schedule)),
    }
}

#[test]
fn branching_runs_visit_what_replaying_from_the_start_visited() {
    for (file, request, (states, duplicates, outcome)) in cases() {
        let scenario = without_steps(file);
        let request = unshrunk(request);
        let report = explore(&scenario, &request).unwrap();
        let got = (report.states, report.duplicates, short(&report.outcome));
        assert_eq!(got, (states, duplicates, outcome.to_string()), "{file}");
        let (Outcome::Found { seen_by_ms, .. } | Outcome::Example { seen_by_ms, .. }) =
            report.outcome
        else {
            continue;
        };
        let goal = request.goal(&scenario).unwrap();
        let schedule = report.outcome.schedule().unwrap();
        let horizon_ms = request.horizon_ms(&scenario);
        let replayed = replay_goal(&scenario, schedule, &goal, request.grain_ms, horizon_ms);
        let (_, replay_ms) = replayed.unwrap().expect("the schedule replays to its goal");
        assert_eq!(replay_ms, seen_by_ms, "{file}");
    }
}
