use super::*;
use crate::base::ids::NodeId;
use crate::contract::action::{Action, NodeTarget};
use crate::tooling::runner::world_config;
use crate::tooling::scenario::EXAMPLES;

/// A world driven by hand, recording each action where it was applied, as the app's timeline does.
fn run_with_actions(
    scenario: &Scenario,
    script: &[(u64, Action)],
    end_us: u64,
) -> (Vec<RecordedAction>, World) {
    run_fingerprinted(scenario, script, end_us, FingerprintKind::Compact)
}

fn run_fingerprinted(
    scenario: &Scenario,
    script: &[(u64, Action)],
    end_us: u64,
    fingerprint: FingerprintKind,
) -> (Vec<RecordedAction>, World) {
    let mut world = World::with_fingerprint(world_config(scenario), fingerprint).unwrap();
    let mut actions = Vec::new();
    for (at_us, action) in script {
        world.run_until(SimTime(*at_us));
        actions.push(RecordedAction {
            at: world.now(),
            after_events: world.events_processed(),
            action: action.clone(),
        });
        world.apply(action);
    }
    world.run_until(SimTime(end_us));
    (actions, world)
}

fn raft_file() -> (String, World) {
    raft_file_fingerprinted(FingerprintKind::Compact)
}

fn raft_file_fingerprinted(fingerprint: FingerprintKind) -> (String, World) {
    let scenario = Scenario::new("Trace file test", 5, 5_000);
    let script = [
        (
            800_600,
            Action::Crash {
                target: NodeTarget::Leader,
            },
        ),
        (
            1_200_000,
            Action::Cut {
                from: NodeTarget::Node(NodeId(0)),
                to: NodeTarget::Node(NodeId(2)),
                both: false,
            },
        ),
        (1_300_000, Action::DropRate { ppm: 50_000 }),
    ];
    let (actions, world) = run_fingerprinted(&scenario, &script, 2_000_000, fingerprint);
    (write_trace_file(&scenario, &actions, &world), world)
}

fn error_of(text: &str) -> TraceFileError {
    parse_trace_file(text).expect_err("the file should be refused")
}

/// The exported text with line `number` (1-based) replaced.
fn with_line(text: &str, number: usize, replacement: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[number - 1] = replacement;
    lines.join("\n") + "\n"
}

#[test]
fn a_client_request_survives_the_round_trip() {
    // Version 1 wrote a request's `kind = "put"` beside the line's own `kind`, so it never read back.
    let scenario = Scenario::new("Trace file with requests", 3, 3_000);
    let put = Action::Request {
        count: 2,
        target: NodeTarget::Leader,
        kind: crate::contract::action::RequestKind::Put,
    };
    let get = Action::Request {
        count: 1,
        target: NodeTarget::Node(NodeId(1)),
        kind: crate::contract::action::RequestKind::Get,
    };
    let (actions, world) = run_with_actions(
        &scenario,
        &[(900_000, put.clone()), (1_100_000, get.clone())],
        1_500_000,
    );
    let text = write_trace_file(&scenario, &actions, &world);
    let file = parse_trace_file(&text).unwrap_or_else(|error| panic!("{error}\n{text}"));
    assert_eq!(
        file.actions
            .iter()
            .map(|recorded| recorded.action.clone())
            .collect::<Vec<_>>(),
        vec![put, get]
    );
    assert_eq!(replay(&file).unwrap().trace_hash(), world.trace_hash());
}

#[test]
fn a_version_1_file_with_flat_actions_still_reads() {
    // Version 1 files carry the JSON FNV-1a fingerprint, as version 2 files do.
    let (text, world) = raft_file_fingerprinted(FingerprintKind::JsonFnv);
    assert!(text.starts_with(&format!(
        "{{\"kind\":\"header\",\"format\":\"{TRACE_FILE_FORMAT}\",\"version\":2,"
    )));
    // Version 1's spelling of the same file: the action's fields beside the line's keys.
    let flat: String = text
        .lines()
        .map(|line| {
            let line = line.replace("\"version\":2", "\"version\":1");
            match line.find(",\"action\":{") {
                Some(start) if line.starts_with("{\"kind\":\"action\"") => {
                    format!(
                        "{},{}",
                        &line[..start],
                        &line[start + ",\"action\":{".len()..line.len() - 1]
                    )
                }
                _ => line,
            }
        })
        .map(|line| line + "\n")
        .collect();
    assert!(flat.contains("\"after_events\":"), "{flat}");
    assert!(flat
        .lines()
        .filter(|line| line.starts_with("{\"kind\":\"action\""))
        .all(|line| !line.contains("\"action\":{")));
    let file = parse_trace_file(&flat).unwrap_or_else(|error| panic!("{error}\n{flat}"));
    assert_eq!(file.actions.len(), 3);
    assert_eq!(file.fingerprint, FingerprintKind::JsonFnv);
    assert_eq!(replay(&file).unwrap().trace_hash(), world.trace_hash());
}

/// Written by the build before the compact fingerprint (header, actions, the first 30 event lines of
/// its export, and its end line), so it carries that build's JSON FNV-1a fingerprint.
const OLD_BUILD_VERSION_2_FILE: &str =
    include_str!("../../../tests/fixtures/trace-v2-every-action.jsonl");

#[test]
fn a_version_2_file_from_the_old_build_still_proves_its_replay() {
    let file = parse_trace_file(OLD_BUILD_VERSION_2_FILE).unwrap();
    assert_eq!(file.fingerprint, FingerprintKind::JsonFnv);
    assert!(file.actions.len() > 10, "the file has every kind of action");
    let replayed = replay(&file).unwrap();
    assert_eq!(replayed.events_processed(), file.events);
    assert_eq!(replayed.trace_hash(), file.trace_hash);
    // The same run under today's fingerprint: the same events, a different print.
    let compact = crate::tooling::replay::replay_to(
        &file.scenario,
        &file.actions,
        file.position,
        MAX_REPLAY_EVENTS,
    )
    .unwrap();
    assert_eq!(compact.world.events_processed(), file.events);
    assert_ne!(compact.world.trace_hash(), file.trace_hash);
}

#[test]
fn a_version_2_file_with_a_changed_fingerprint_does_not_prove_its_replay() {
    let file = parse_trace_file(OLD_BUILD_VERSION_2_FILE).unwrap();
    let tampered = TraceFile {
        trace_hash: file.trace_hash ^ 1,
        ..file
    };
    assert_ne!(replay(&tampered).unwrap().trace_hash(), tampered.trace_hash);
}

#[test]
fn new_files_are_version_3_with_the_compact_fingerprint() {
    let (text, world) = raft_file();
    assert!(text.starts_with(&format!(
        "{{\"kind\":\"header\",\"format\":\"{TRACE_FILE_FORMAT}\",\"version\":3,"
    )));
    let file = parse_trace_file(&text).unwrap();
    assert_eq!(file.fingerprint, FingerprintKind::Compact);
    assert_eq!(replay(&file).unwrap().trace_hash(), world.trace_hash());
}

#[test]
fn a_written_file_reads_back_and_replays_to_the_same_hash() {
    let (text, world) = raft_file();
    let file = parse_trace_file(&text).unwrap();
    assert_eq!(file.actions.len(), 3);
    assert_eq!(file.actions[0].at, SimTime(800_600), "microseconds survive");
    assert_eq!(file.position, world.now());
    assert_eq!(file.events, world.events_processed());
    assert_eq!(file.trace_hash, world.trace_hash());
    let replayed = replay(&file).unwrap();
    assert_eq!(replayed.trace_hash(), world.trace_hash());
    assert_eq!(replayed.events_processed(), world.events_processed());
}

#[test]
fn a_different_action_replays_to_a_different_hash() {
    let (text, world) = raft_file();
    let changed = text.replace("\"rate\":0.05", "\"rate\":0.5");
    assert_ne!(changed, text);
    let replayed = replay(&parse_trace_file(&changed).unwrap()).unwrap();
    assert_ne!(replayed.trace_hash(), world.trace_hash());
}

#[test]
fn lines_are_header_actions_events_end() {
    let (text, world) = raft_file();
    let kinds: Vec<String> = text
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(kinds[0], "header");
    assert_eq!(kinds[1..4], ["action", "action", "action"]);
    assert_eq!(kinds.last().unwrap(), "end");
    let events = kinds.iter().filter(|kind| *kind == "event").count();
    assert_eq!(events, world.trace().records().count());
    assert!(text
        .lines()
        .nth(1)
        .unwrap()
        .contains("\"do\":\"crash\",\"target\":\"leader\""));
}

#[test]
fn coordination_actions_use_actor_names_and_replay() {
    let (_, toml_text) = EXAMPLES
        .iter()
        .find(|(name, _)| *name == "fencing-pause.toml")
        .expect("the fencing example");
    let scenario = parse_scenario(toml_text, "example").unwrap();
    let worker = NodeId(scenario.node_count as u16);
    let script = [(
        300_000,
        Action::Pause {
            target: NodeTarget::Node(worker),
            duration_ms: Some(400),
        },
    )];
    let (actions, world) = run_with_actions(&scenario, &script, 900_000);
    let text = write_trace_file(&scenario, &actions, &world);
    assert!(
        text.contains("\"do\":\"pause\",\"target\":\"A\""),
        "{}",
        text.lines().nth(1).unwrap()
    );
    let file = parse_trace_file(&text).unwrap();
    assert_eq!(file.actions, actions);
    assert_eq!(replay(&file).unwrap().trace_hash(), world.trace_hash());
}

#[test]
fn crlf_line_ends_are_accepted() {
    let (text, _) = raft_file();
    assert!(parse_trace_file(&text.replace('\n', "\r\n")).is_ok());
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_reading() {
    let error = error_of(&" ".repeat(MAX_TRACE_FILE_BYTES + 1));
    assert_eq!(error.line, 0);
    assert!(error.problem.contains("at most"), "{error}");
}

#[test]
fn structural_errors_name_their_line() {
    let (text, _) = raft_file();
    let line_count = text.lines().count();
    let cases: Vec<(String, usize, Option<&str>, &str)> = vec![
        (String::new(), 1, None, "empty"),
        (with_line(&text, 2, ""), 2, None, "blank line"),
        (
            with_line(&text, 2, "{\"kind\":"),
            2,
            None,
            "not a JSON object",
        ),
        (with_line(&text, 2, "[1,2]"), 2, None, "not a JSON object"),
        (
            with_line(&text, 2, "{\"at_us\":1}"),
            2,
            Some("kind"),
            "missing",
        ),
        (
            with_line(&text, 2, "{\"kind\":7}"),
            2,
            Some("kind"),
            "expected a string",
        ),
        (
            with_line(&text, 1, "{\"kind\":\"action\"}"),
            1,
            Some("kind"),
            "first line",
        ),
        (
            with_line(&text, 2, text.lines().next().unwrap()),
            2,
            Some("kind"),
            "second header",
        ),
        (
            with_line(&text, 2, "{\"kind\":\"note\"}"),
            2,
            Some("kind"),
            "\"note\"",
        ),
        (
            text.lines()
                .take(line_count - 1)
                .collect::<Vec<_>>()
                .join("\n"),
            line_count - 1,
            None,
            "end line",
        ),
        (
            format!("{text}{}\n", text.lines().nth(1).unwrap()),
            line_count + 1,
            None,
            "follow the end",
        ),
    ];
    for (file, line, field, words) in cases {
        let error = error_of(&file);
        assert_eq!(error.line, line, "{error}");
        assert_eq!(error.field.as_deref(), field, "{error}");
        assert!(
            error.to_string().contains(words),
            "`{error}` should mention {words}"
        );
    }
}

#[test]
fn header_errors_name_the_field() {
    let header = |format: &str, version: &str, scenario: &str| {
        format!("{{\"kind\":\"header\",\"format\":{format},\"version\":{version},\"scenario\":{scenario}}}")
    };
    let good_scenario =
        Value::String("protocol = \"raft\"\nnodes = 3\nduration_ms = 1000\n".into()).to_string();
    let cases = [
        (header("\"other\"", "1", &good_scenario), "format", "quorumlab-trace"),
        (header("\"quorumlab-trace\"", "4", &good_scenario), "version", "version 4"),
        (header("\"quorumlab-trace\"", "\"1\"", &good_scenario), "version", "whole number"),
        (header("\"quorumlab-trace\"", "1", "3"), "scenario", "TOML string"),
        (
            header("\"quorumlab-trace\"", "1", "\"protocol = \\\"raft\\\"\\nnodes = 99\\nduration_ms = 1000\\n\""),
            "scenario",
            "nodes",
        ),
        (
            format!("{{\"kind\":\"header\",\"format\":\"quorumlab-trace\",\"version\":1,\"scenario\":{good_scenario},\"extra\":1}}"),
            "extra",
            "not a key of this line; nothing close among the 4 keys (listed in sim/TRACE_FILES.md)",
        ),
        (
            format!("{{\"kind\":\"header\",\"format\":\"quorumlab-trace\",\"versoin\":1,\"scenario\":{good_scenario}}}"),
            "versoin",
            "not a key of this line; did you mean `version`?",
        ),
    ];
    for (line, field, words) in cases {
        let error = error_of(&format!("{line}\n"));
        assert_eq!(
            (error.line, error.field.as_deref()),
            (1, Some(field)),
            "{error}"
        );
        assert!(
            error.to_string().contains(words),
            "`{error}` should mention {words}"
        );
    }
}

#[test]
fn action_errors_name_the_line_and_field() {
    let (text, _) = raft_file();
    let action = |rest: &str| {
        format!("{{\"kind\":\"action\",\"at_us\":900000,\"after_events\":999999,\"action\":{{{rest}}}}}")
    };
    let cases = [
        (action("\"do\":\"explode\""), Some("do"), "explode"),
        (
            action("\"do\":\"crash\",\"target\":\"n9\""),
            Some("target"),
            "n9",
        ),
        (
            action("\"do\":\"crash\",\"taget\":\"n1\""),
            Some("taget"),
            "target",
        ),
        (action("\"do\":\"crash\""), Some("target"), "missing"),
        (
            action("\"do\":\"crash\",\"target\":{\"n\":1}"),
            Some("target"),
            "an object",
        ),
        (
            action("\"do\":\"crash\",\"target\":null"),
            Some("target"),
            "null",
        ),
        (
            action("\"do\":\"drop_rate\",\"rate\":2.5"),
            Some("rate"),
            "2.5",
        ),
        (
            "{\"kind\":\"action\",\"at_us\":100,\"after_events\":999999,\"action\":{\"do\":\"heal\"}}"
                .to_string(),
            Some("at_us"),
            "time order",
        ),
        (
            "{\"kind\":\"action\",\"at_us\":900000,\"after_events\":1,\"action\":{\"do\":\"heal\"}}".to_string(),
            Some("after_events"),
            "only grow",
        ),
        (
            "{\"kind\":\"action\",\"at_us\":3600000001,\"after_events\":999999,\"action\":{\"do\":\"heal\"}}"
                .to_string(),
            Some("at_us"),
            "one hour",
        ),
        (
            "{\"kind\":\"action\",\"at_us\":-1,\"after_events\":999999,\"action\":{\"do\":\"heal\"}}"
                .to_string(),
            Some("at_us"),
            "whole number",
        ),
    ];
    for (replacement, field, words) in cases {
        // Line 3 is the second action: it must come after the first one (line 2).
        let error = error_of(&with_line(&text, 3, &replacement));
        assert_eq!((error.line, error.field.as_deref()), (3, field), "{error}");
        assert!(
            error.to_string().contains(words),
            "`{error}` should mention {words}"
        );
    }
}

#[test]
fn an_action_after_an_event_line_is_refused() {
    let (text, _) = raft_file();
    let mut lines: Vec<&str> = text.lines().collect();
    let action = lines.remove(1);
    lines.insert(5, action);
    let error = error_of(&(lines.join("\n") + "\n"));
    assert_eq!(error.line, 6, "{error}");
    assert!(error.problem.contains("before event lines"), "{error}");
}

#[test]
fn event_and_end_errors_name_the_field() {
    let (text, _) = raft_file();
    let last = text.lines().count();
    let event = error_of(&with_line(&text, 5, "{\"kind\":\"event\",\"record\":[1]}"));
    assert_eq!(
        (event.line, event.field.as_deref()),
        (5, Some("record")),
        "{event}"
    );
    let cases = [
        ("{\"kind\":\"end\",\"position_us\":1,\"events\":1,\"trace_hash\":\"XYZ\"}", "trace_hash"),
        ("{\"kind\":\"end\",\"position_us\":1,\"events\":1,\"trace_hash\":\"00000000000000AB\"}", "trace_hash"),
        ("{\"kind\":\"end\",\"events\":1,\"trace_hash\":\"0000000000000000\"}", "position_us"),
        ("{\"kind\":\"end\",\"position_us\":1,\"events\":1.5,\"trace_hash\":\"0000000000000000\"}", "events"),
    ];
    for (replacement, field) in cases {
        let error = error_of(&with_line(&text, last, replacement));
        assert_eq!(
            (error.line, error.field.as_deref()),
            (last, Some(field)),
            "{error}"
        );
    }
}

#[test]
fn too_many_actions_are_refused_at_the_first_one_too_many() {
    let (text, _) = raft_file();
    let header = text.lines().next().unwrap();
    let mut file = format!("{header}\n");
    for _ in 0..=MAX_TRACE_FILE_ACTIONS {
        file.push_str(
            "{\"kind\":\"action\",\"at_us\":1,\"after_events\":0,\"action\":{\"do\":\"heal\"}}\n",
        );
    }
    let error = error_of(&file);
    assert_eq!(error.line, MAX_TRACE_FILE_ACTIONS + 2, "{error}");
    assert!(error.problem.contains("at most"), "{error}");
}

/// Found by the fuzzer: a line's unknown kind, a wrong value and serde_json's own words quoted the
/// input whole (34 000 characters once) and with its control characters raw.
#[test]
fn errors_quote_the_input_short_and_escaped() {
    let (text, _) = raft_file();
    let long_kind = format!("{{\"kind\":\"event{}\u{7}\"}}", "9".repeat(100_000));
    let long_number = format!(
        "{{\"kind\":\"end\",\"position_us\":[{}]}}",
        "1,".repeat(50_000) + "1"
    );
    let long_string = format!("[\"{}\"]", "x".repeat(100_000));
    for replacement in [long_kind, long_number, long_string] {
        let error = error_of(&with_line(&text, 2, &replacement)).to_string();
        assert!(error.chars().count() < 300, "{} characters", error.len());
        assert!(!error.chars().any(char::is_control), "{error:?}");
    }
}
