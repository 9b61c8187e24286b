//! Byzantine faults in the bounded search: where nodes can lie (PBFT replicas), a node made
//! Byzantine is a choice with a budget of its own. PBFT's 3f + 1 replicas survive one liar within the
//! bound; a quorum too small for the liar breaks, and the schedule replays through the ordinary
//! runner to the same violation. A world whose nodes cannot lie refuses the budget.

use quorumlab_sim::action::{Action, ByzantineMode};
use quorumlab_sim::explore::search::merged;
use quorumlab_sim::explore::{explore, Bound, ExploreRequest, Outcome};
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::scenario::{parse_scenario, Scenario};

const HONEST_AGREEMENT: &str = "Honest Agreement";

fn without_steps(file: &str) -> Scenario {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut scenario = parse_scenario(&text, file).unwrap();
    scenario.steps.clear();
    scenario
}

/// One liar in any mode, no other fault, over 3 s.
fn one_liar() -> ExploreRequest {
    ExploreRequest {
        max_depth: 1,
        max_faults: 0,
        max_byzantine: 1,
        max_states: 100_000,
        pause_ms: Vec::new(),
        crash: false,
        isolate: false,
        horizon_ms: Some(3_000),
        ..ExploreRequest::default()
    }
}

#[test]
fn pbft_with_three_f_plus_one_replicas_survives_one_liar_within_the_bound() {
    let report = explore(&without_steps("pbft-normal.toml"), &one_liar()).unwrap();
    assert_eq!(
        report.outcome,
        Outcome::BoundReached {
            bound: Bound::Depth,
            complete_depth: Some(1),
        },
        "{}",
        report.summary
    );
    assert!(report.states > 1_000, "{} states", report.states);
    assert!(report.summary.contains("at most 1 Byzantine node(s)"));
}

#[test]
fn a_quorum_too_small_for_a_liar_breaks_and_the_schedule_replays() {
    let scenario = without_steps("pbft-misconfigured-three.toml");
    let quiet = run_scenario(&scenario).unwrap();
    assert_eq!(quiet.world.violation_counts.get(HONEST_AGREEMENT), None);
    let report = explore(&scenario, &one_liar()).unwrap();
    let Outcome::Found {
        invariant,
        schedule,
        faults,
        seen_by_ms,
    } = &report.outcome
    else {
        panic!("expected a counterexample: {}", report.summary);
    };
    assert_eq!(invariant, HONEST_AGREEMENT);
    assert_eq!((schedule.len(), *faults), (1, 1));
    assert!(matches!(
        schedule[0].action,
        Action::Byzantine {
            mode: ByzantineMode::Equivocate,
            ..
        }
    ));
    let replay = run_scenario(&merged(&scenario, schedule)).unwrap();
    let first = replay
        .world
        .violations
        .iter()
        .find(|violation| violation.invariant == HONEST_AGREEMENT)
        .expect("the replay breaks the same invariant");
    assert!(first.at_ms <= *seen_by_ms);
}

#[test]
fn without_a_byzantine_budget_a_crash_does_not_break_the_small_quorum() {
    let request = ExploreRequest {
        max_byzantine: 0,
        max_faults: 1,
        crash: true,
        ..one_liar()
    };
    let report = explore(&without_steps("pbft-misconfigured-three.toml"), &request).unwrap();
    assert!(report.outcome.schedule().is_none(), "{}", report.summary);
    assert!(report.states > 100, "{} states", report.states);
}

#[test]
fn a_world_whose_nodes_cannot_lie_refuses_a_byzantine_budget() {
    let error = explore(&without_steps("no-fencing-pause.toml"), &one_liar()).unwrap_err();
    assert!(
        error.contains("no node of this world can be made Byzantine"),
        "{error}"
    );
    let honest = ExploreRequest {
        byzantine_modes: vec![ByzantineMode::Honest],
        ..one_liar()
    };
    let error = explore(&without_steps("pbft-normal.toml"), &honest).unwrap_err();
    assert!(error.contains("lying ones"), "{error}");
}
