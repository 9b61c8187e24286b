use super::*;
use quorumlab_sim::action::{Action, NodeTarget};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::scenario::{parse_scenario, Scenario, EXAMPLES};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::trace_file::{replay_checked, ReplayCheck};

/// A run with user actions, one mid-millisecond, then time travel back (leaving a recorded future).
fn session_with_history() -> Session {
    let mut session = Session::new(Scenario::new("Trace export", 5, 10_000)).unwrap();
    session.advance_to(SimTime(800_600));
    session.apply(&Action::Crash {
        target: NodeTarget::Leader,
    });
    session.advance_to(SimTime::from_ms(1_400));
    session.apply(&Action::ClockJump {
        target: NodeTarget::Node(NodeId(2)),
        by_ms: 250,
    });
    session.advance_to(SimTime::from_ms(2_500));
    session.seek(SimTime::from_ms(2_000));
    session
}

#[test]
fn an_exported_trace_imports_to_the_same_run() {
    let session = session_with_history();
    let text = trace_file_text(&session);
    assert!(looks_like_trace_file(&text));
    let imported = import_trace(&text).unwrap();
    assert_eq!(imported.world().trace_hash(), session.world().trace_hash());
    assert_eq!(imported.now(), session.now());
    assert_eq!(imported.actions(), session.actions());
    assert_eq!(imported.scenario(), session.scenario());
}

#[test]
fn a_coordination_run_round_trips() {
    let (_, text) = EXAMPLES
        .iter()
        .find(|(name, _)| *name == "fencing-pause.toml")
        .unwrap();
    let mut session = Session::new(parse_scenario(text, "example").unwrap()).unwrap();
    session.advance_to(SimTime::from_ms(1_500));
    let exported = trace_file_text(&session);
    let imported = import_trace(&exported).unwrap();
    assert_eq!(imported.world().trace_hash(), session.world().trace_hash());
}

/// A file the build before the compact fingerprint exported (kept by the engine's tests).
const OLD_BUILD_VERSION_2_FILE: &str =
    include_str!("../../../sim/tests/fixtures/trace-v2-every-action.jsonl");

#[test]
fn a_version_2_file_from_the_old_build_imports_and_exports_as_version_3() {
    let imported = import_trace(OLD_BUILD_VERSION_2_FILE).unwrap();
    let exported = trace_file_text(&imported);
    assert!(exported.contains("\"version\":3,"), "{}", &exported[..120]);
    let again = import_trace(&exported).unwrap();
    assert_eq!(again.world().trace_hash(), imported.world().trace_hash());
    assert_eq!(again.actions(), imported.actions());
}

#[test]
fn a_version_2_file_with_an_edited_fingerprint_is_refused() {
    let edited = OLD_BUILD_VERSION_2_FILE.replacen("\"trace_hash\":\"e", "\"trace_hash\":\"f", 1);
    assert_ne!(edited, OLD_BUILD_VERSION_2_FILE);
    match import_trace(&edited).err() {
        Some(TraceImportError::Diverged { .. }) => {}
        other => panic!("expected a divergence, got {other:?}"),
    }
}

/// Issue 17: a file that lacks a scripted step's action line opens as the run it came from — the
/// one replay path puts the step back where a run applies it — and `quorumlab replay`'s check of the
/// same file agrees.
#[test]
fn a_missing_scripted_step_line_is_applied_by_the_app_and_the_command_alike() {
    let (_, text) = EXAMPLES
        .iter()
        .find(|(name, _)| *name == "leader-crash.toml")
        .unwrap();
    let mut session = Session::new(parse_scenario(text, "example").unwrap()).unwrap();
    session.advance_to(SimTime::from_ms(1_500));
    let exported = trace_file_text(&session);
    let crash_line = exported
        .lines()
        .find(|line| line.contains("\"do\":\"crash\""))
        .expect("the scripted crash at 1 200 ms is exported");
    let edited = exported.replacen(&format!("{crash_line}\n"), "", 1);
    assert_ne!(edited, exported);
    let imported = import_trace(&edited).unwrap();
    assert_eq!(imported.world().trace_hash(), session.world().trace_hash());
    assert_eq!(
        imported.actions(),
        session.actions(),
        "the step is back in the log at the point it was applied"
    );
    let file = parse_trace_file(&edited).unwrap();
    match replay_checked(&file) {
        ReplayCheck::Reproduced(world) => {
            assert_eq!(world.trace_hash(), session.world().trace_hash())
        }
        other => panic!("the command did not reproduce the run: {other:?}"),
    }
}

#[test]
fn an_edited_action_is_caught_by_the_fingerprint() {
    let text = trace_file_text(&session_with_history());
    let edited = text.replacen("\"by_ms\":250", "\"by_ms\":-250", 1);
    assert_ne!(edited, text);
    match import_trace(&edited).err() {
        Some(TraceImportError::Diverged { .. }) => {}
        other => panic!("expected a divergence, got {other:?}"),
    }
}

#[test]
fn a_format_error_names_the_line() {
    let text = trace_file_text(&session_with_history());
    let broken = text.replacen("\"target\":\"leader\"", "\"target\":\"n7\"", 1);
    let error = import_trace(&broken).err().expect("refused");
    assert!(matches!(error, TraceImportError::Invalid(_)), "{error:?}");
    assert!(error.to_string().starts_with("line 2, `target`"), "{error}");
}

#[test]
fn link_limits_apply_to_trace_files() {
    let text = trace_file_text(&session_with_history());
    // A heartbeat of 1 ms for an hour: the format allows it, but replaying it would take too long.
    let heavy = text
        .replacen("heartbeat_ms = 50", "heartbeat_ms = 1", 1)
        .replacen("\"position_us\":2000000", "\"position_us\":3600000000", 1);
    assert_ne!(heavy, text, "the edits must apply");
    match import_trace(&heavy).err() {
        Some(TraceImportError::Limits(ShareError::TooLongToReplay { .. })) => {}
        other => panic!("expected the replay limit, got {other:?}"),
    }
}

#[test]
fn scenario_text_is_not_mistaken_for_a_trace() {
    assert!(!looks_like_trace_file("protocol = \"raft\"\nnodes = 3\n"));
    assert!(looks_like_trace_file("  \n{\"kind\":\"header\"}"));
}
