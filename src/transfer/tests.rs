use super::*;
use crate::session::Session;
use crate::share::replay::capture;
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::scenario::ScenarioErrorKind;

fn crash_leader() -> Action {
    Action::Crash {
        target: NodeTarget::Leader,
    }
}

/// A run with one scripted step (already fired) and two user actions, one mid-millisecond.
fn session_with_actions() -> Session {
    let mut scenario = Scenario::new("Crash & recover: demo", 5, 5_000);
    scenario.steps.push(Step {
        at_ms: 300,
        action: Action::Heal,
    });
    let mut session = Session::new(scenario).unwrap();
    session.advance_to(SimTime(800_600));
    session.apply(&crash_leader());
    session.advance_to(SimTime::from_ms(1_200));
    session.apply(&Action::Request {
        count: 2,
        target: NodeTarget::Node(NodeId(1)),
        kind: RequestKind::Get,
    });
    session.advance_to(SimTime::from_ms(1_500));
    session
}

#[test]
fn user_actions_become_steps_at_whole_milliseconds() {
    let export = scenario_with_recorded_steps(&capture(&session_with_actions()));
    assert_eq!(export.user_steps, 2);
    assert_eq!(export.left_out, 0);
    let times: Vec<u64> = export
        .scenario
        .steps
        .iter()
        .map(|step| step.at_ms)
        .collect();
    assert_eq!(
        times,
        vec![300, 800, 1_200],
        "the scripted step is not repeated"
    );
    assert_eq!(export.scenario.steps[1].action, crash_leader());
}

#[test]
fn an_exported_file_parses_back_to_the_same_scenario() {
    let export = scenario_with_recorded_steps(&capture(&session_with_actions()));
    let text = scenario_file_text(&export);
    assert!(text.starts_with("# Exported from Quorum Lab."));
    assert_eq!(
        import_scenario(&text, "demo.toml").unwrap(),
        export.scenario
    );
}

#[test]
fn an_exported_file_replays_the_same_actions_headless() {
    let export = scenario_with_recorded_steps(&capture(&session_with_actions()));
    let mut rerun = Session::new(export.scenario.clone()).unwrap();
    rerun.advance_to(SimTime::from_ms(1_500));
    let applied: Vec<&Action> = rerun
        .actions()
        .iter()
        .map(|recorded| &recorded.action)
        .collect();
    let expected: Vec<&Action> = export
        .scenario
        .steps
        .iter()
        .map(|step| &step.action)
        .collect();
    assert_eq!(applied, expected);
}

#[test]
fn actions_past_the_duration_extend_it() {
    let mut session = Session::new(Scenario::new("short", 3, 1_000)).unwrap();
    session.advance_to(SimTime::from_ms(2_500));
    session.apply(&Action::Heal);
    let export = scenario_with_recorded_steps(&capture(&session));
    assert_eq!(export.scenario.duration_ms, 2_500);
    assert!(import_scenario(&scenario_file_text(&export), "short.toml").is_ok());
}

#[test]
fn actions_no_step_can_express_are_counted_not_written() {
    let mut run = capture(&Session::new(Scenario::new("late", 3, 1_000)).unwrap());
    run.actions.push(RecordedAction {
        at: SimTime::from_ms(MAX_DURATION_MS + 1),
        after_events: 0,
        action: Action::Heal,
    });
    let export = scenario_with_recorded_steps(&run);
    assert_eq!((export.user_steps, export.left_out), (0, 1));
    assert!(export.scenario.steps.is_empty());
}

#[test]
fn import_errors_name_the_line_and_key() {
    let text = "protocol = \"raft\"\nnodes = 3\nduration_ms = 1000\n\n[[step]]\nat_ms = 10\ndo = \"crash\"\ntarget = \"n7\"\n";
    let error = import_scenario(text, "mine.toml").unwrap_err();
    let ImportError::Invalid(details) = &error else {
        panic!("expected a validation error, got {error}");
    };
    assert_eq!((details.line, details.column), (8, 10));
    assert!(matches!(
        details.kind,
        ScenarioErrorKind::NodeOutOfRange { .. }
    ));
    assert_eq!(
        error.to_string(),
        "mine.toml:8:10: step 1 key `target`: node `n7` is out of range (this cluster has n1..n3)"
    );
}

#[test]
fn malformed_or_huge_files_are_refused() {
    assert!(matches!(
        import_scenario("nodes = = 3", "bad.toml"),
        Err(ImportError::Invalid(_))
    ));
    let huge = "#".repeat(MAX_IMPORT_BYTES + 1);
    assert_eq!(
        import_scenario(&huge, "huge.toml"),
        Err(ImportError::TooLarge {
            bytes: MAX_IMPORT_BYTES + 1,
            max: MAX_IMPORT_BYTES
        })
    );
}

#[test]
fn file_names_come_from_titles() {
    assert_eq!(
        file_stem("Five-node Raft cluster"),
        "five-node-raft-cluster"
    );
    assert_eq!(file_stem("Crash & recover: demo"), "crash-recover-demo");
    assert_eq!(file_stem("«»"), "quorum-lab");
}
