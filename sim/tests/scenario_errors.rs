//! Bad scenario files: every class of mistake is reported with the right line, column, step and key.
//! Good files: defaults, and export back to TOML that parses to the same scenario.

use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions};
use quorumlab_sim::config::Timing;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::scenario::{
    parse_scenario, to_toml_string, Scenario, ScenarioError, ScenarioErrorKind, ACTION_NAMES,
    EXAMPLES,
};

const HEADER: &str = "protocol = \"raft\"\nnodes = 5\nduration_ms = 5000\n";

fn error_of(text: &str) -> ScenarioError {
    match parse_scenario(text, "bad.toml") {
        Ok(scenario) => panic!("expected an error, parsed {scenario:?}"),
        Err(error) => error,
    }
}

/// A file made of the standard header plus one step with the given body lines (the step header is line 4).
fn one_step(body: &str) -> String {
    format!("{HEADER}[[step]]\n{body}")
}

fn assert_place(
    error: &ScenarioError,
    line: u32,
    column: u32,
    step: Option<usize>,
    key: Option<&str>,
) {
    assert_eq!((error.line, error.column), (line, column), "{error}");
    assert_eq!(error.step, step, "{error}");
    assert_eq!(error.key.as_deref(), key, "{error}");
    assert!(
        error
            .to_string()
            .starts_with(&format!("bad.toml:{line}:{column}: ")),
        "{error}"
    );
}

#[test]
fn malformed_toml_points_at_the_broken_spot() {
    let error = error_of("protocol = \"raft\"\nnodes = \n");
    assert!(
        matches!(error.kind, ScenarioErrorKind::MalformedToml { .. }),
        "{error}"
    );
    assert_eq!(error.line, 2, "{error}");
}

#[test]
fn unknown_top_level_key_is_a_typo_not_ignored() {
    let error = error_of(&format!("{HEADER}sead = 4\n"));
    assert_place(&error, 4, 1, None, Some("sead"));
    assert!(
        matches!(error.kind, ScenarioErrorKind::UnknownKey { ref key, ref allowed } if &**key == "sead" && allowed.contains(&"seed"))
    );
    assert!(
        error
            .to_string()
            .ends_with("unknown key; did you mean `seed`?"),
        "{error}"
    );
}

#[test]
fn unknown_timing_key_is_named_with_its_table() {
    let error = error_of(&format!(
        "{HEADER}[timing]\nheartbeat_ms = 50\nprevote = true\n"
    ));
    assert_place(&error, 6, 1, None, Some("timing.prevote"));
}

#[test]
fn misspelled_step_argument_is_rejected() {
    let error = error_of(&one_step("at_ms = 10\ndo = \"crash\"\ntaget = \"n2\"\n"));
    assert_place(&error, 7, 1, Some(1), Some("taget"));
}

#[test]
fn argument_of_another_action_is_rejected() {
    let error = error_of(&one_step("at_ms = 10\ndo = \"heal\"\ntarget = \"n2\"\n"));
    assert_place(&error, 7, 1, Some(1), Some("target"));
}

#[test]
fn unknown_action_suggests_the_closest_ones_never_the_list() {
    let error = error_of(&one_step("at_ms = 10\ndo = \"crsh\"\n"));
    assert_place(&error, 6, 6, Some(1), Some("do"));
    assert_eq!(
        error.kind,
        ScenarioErrorKind::UnknownAction {
            action: "crsh".into()
        }
    );
    assert!(
        error
            .to_string()
            .ends_with("unknown action `crsh`; did you mean `crash`?"),
        "{error}"
    );
    let far = error_of(&one_step("at_ms = 10\ndo = \"explode\"\n")).to_string();
    assert!(
        far.ends_with(&format!(
            "unknown action `explode`; nothing close among the {} actions (listed in \
             sim/SCENARIOS.md, \"Steps\")",
            ACTION_NAMES.len()
        )),
        "{far}"
    );
}

#[test]
fn missing_argument_points_at_the_step_header() {
    let error = error_of(&one_step("at_ms = 10\ndo = \"crash\"\n"));
    assert_place(&error, 4, 1, Some(1), Some("target"));
    assert!(
        matches!(error.kind, ScenarioErrorKind::MissingKey { ref needed_by } if needed_by.contains("crash"))
    );
}

#[test]
fn missing_top_level_key() {
    let error = error_of("protocol = \"raft\"\nnodes = 3\n");
    assert_eq!(error.key.as_deref(), Some("duration_ms"));
    assert!(
        matches!(error.kind, ScenarioErrorKind::MissingKey { .. }),
        "{error}"
    );
}

#[test]
fn node_out_of_range_names_the_cluster_size() {
    let text = format!("{HEADER}\n[[step]]\nat_ms = 1\ndo = \"heal\"\n\n[[step]]\nat_ms = 2\ndo = \"crash\"\ntarget = \"n9\"\n");
    let error = error_of(&text);
    assert_place(&error, 12, 10, Some(2), Some("target"));
    assert_eq!(
        error.kind,
        ScenarioErrorKind::NodeOutOfRange {
            node: "n9".into(),
            node_count: 5
        }
    );
    assert!(error
        .to_string()
        .ends_with("step 2 key `target`: node `n9` is out of range (this cluster has n1..n5)"));
}

#[test]
fn malformed_node_name() {
    let error = error_of(&one_step(
        "at_ms = 10\ndo = \"crash\"\ntarget = \"node3\"\n",
    ));
    assert_place(&error, 7, 10, Some(1), Some("target"));
    assert!(
        matches!(
            error.kind,
            ScenarioErrorKind::BadNodeName {
                leader_allowed: true,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn partitions_name_nodes_not_the_leader_and_not_twice() {
    let leader = error_of(&one_step(
        "at_ms = 1\ndo = \"partition\"\ngroups = [[\"leader\"], [\"n2\"]]\n",
    ));
    assert_place(&leader, 7, 12, Some(1), Some("groups"));
    assert!(matches!(
        leader.kind,
        ScenarioErrorKind::BadNodeName {
            leader_allowed: false,
            ..
        }
    ));
    let twice = error_of(&one_step(
        "at_ms = 1\ndo = \"partition\"\ngroups = [[\"n1\", \"n2\"], [\"n2\"]]\n",
    ));
    assert_place(&twice, 7, 26, Some(1), Some("groups"));
    assert_eq!(
        twice.kind,
        ScenarioErrorKind::DuplicateNode { node: "n2".into() }
    );
    let empty = error_of(&one_step(
        "at_ms = 1\ndo = \"partition\"\ngroups = [[\"n1\"], []]\n",
    ));
    assert!(
        matches!(empty.kind, ScenarioErrorKind::WrongLength { found: 0, .. }),
        "{empty}"
    );
}

#[test]
fn negative_durations_are_rejected() {
    let run = error_of("protocol = \"raft\"\nnodes = 5\nduration_ms = -5\n");
    assert_place(&run, 3, 15, None, Some("duration_ms"));
    assert_eq!(
        run.kind,
        ScenarioErrorKind::Negative {
            value: -5,
            expected: "1 to 3600000".into()
        }
    );
    let pause = error_of(&one_step(
        "at_ms = 10\ndo = \"pause\"\ntarget = \"n1\"\nduration_ms = -100\n",
    ));
    assert_place(&pause, 8, 15, Some(1), Some("duration_ms"));
    assert_eq!(
        pause.kind,
        ScenarioErrorKind::Negative {
            value: -100,
            expected: "1 to 3600000".into()
        }
    );
}

#[test]
fn step_after_the_end_of_the_run() {
    let error = error_of(&one_step("at_ms = 9000\ndo = \"heal\"\n"));
    assert_place(&error, 5, 9, Some(1), Some("at_ms"));
    assert_eq!(
        error.kind,
        ScenarioErrorKind::StepAfterDuration {
            at_ms: 9000,
            duration_ms: 5000
        }
    );
}

#[test]
fn steps_must_be_in_time_order() {
    let text = format!(
        "{HEADER}[[step]]\nat_ms = 500\ndo = \"heal\"\n[[step]]\nat_ms = 300\ndo = \"heal\"\n"
    );
    let error = error_of(&text);
    assert_place(&error, 8, 9, Some(2), Some("at_ms"));
    assert_eq!(
        error.kind,
        ScenarioErrorKind::StepOutOfOrder {
            at_ms: 300,
            previous_at_ms: 500
        }
    );
}

#[test]
fn timing_range_with_min_above_max() {
    let error = error_of(&format!(
        "{HEADER}[timing]\nelection_timeout_ms = [300, 150]\n"
    ));
    assert_place(&error, 5, 23, None, Some("timing.election_timeout_ms"));
    assert_eq!(
        error.kind,
        ScenarioErrorKind::InvertedRange { min: 300, max: 150 }
    );
    let short = error_of(&format!("{HEADER}[timing]\nnetwork_delay_ms = [5]\n"));
    assert!(
        matches!(short.kind, ScenarioErrorKind::WrongLength { found: 1, .. }),
        "{short}"
    );
}

#[test]
fn wrong_types_say_what_was_expected() {
    let error = error_of("protocol = \"raft\"\nnodes = \"five\"\nduration_ms = 100\n");
    assert_place(&error, 2, 9, None, Some("nodes"));
    assert_eq!(
        error.kind,
        ScenarioErrorKind::WrongType {
            expected: "a whole number",
            found: "string"
        }
    );
    let flag = error_of(&format!("{HEADER}[timing]\npre_vote = \"yes\"\n"));
    assert!(
        matches!(
            flag.kind,
            ScenarioErrorKind::WrongType {
                found: "string",
                ..
            }
        ),
        "{flag}"
    );
}

#[test]
fn unknown_protocol_is_answered_with_the_closest_names() {
    let error = error_of("protocol = \"multi-paxos\"\nnodes = 3\nduration_ms = 100\n");
    assert_place(&error, 1, 12, None, Some("protocol"));
    assert!(
        error.to_string().ends_with("did you mean `paxos`?"),
        "{error}"
    );
    let dashed = error_of("protocol = \"lock_service\"\nnodes = 3\nduration_ms = 100\n");
    assert!(
        dashed.to_string().ends_with("did you mean `lock-service`?"),
        "{dashed}"
    );
    let far = error_of("protocol = \"gossip\"\nnodes = 3\nduration_ms = 100\n");
    assert!(
        far.to_string().ends_with("(listed in sim/SCENARIOS.md)"),
        "{far}"
    );
    assert!(!far.to_string().contains("`raft`"), "no list: {far}");
}

#[test]
fn numbers_outside_their_bounds() {
    let no_nodes = error_of("protocol = \"raft\"\nnodes = 0\nduration_ms = 100\n");
    assert!(
        matches!(no_nodes.kind, ScenarioErrorKind::OutOfRange { .. }),
        "{no_nodes}"
    );
    let too_many = error_of("protocol = \"raft\"\nnodes = 52\nduration_ms = 100\n");
    assert!(too_many.to_string().contains("1 to 51"), "{too_many}");
    let rate = error_of(&format!("{HEADER}[timing]\ndrop_rate = 1.5\n"));
    assert_place(&rate, 5, 13, None, Some("timing.drop_rate"));
    let drift = error_of(&one_step(
        "at_ms = 1\ndo = \"clock_drift\"\ntarget = \"n1\"\nppm = -1000000\n",
    ));
    assert_place(&drift, 8, 7, Some(1), Some("ppm"));
    let kind = error_of(&one_step(
        "at_ms = 1\ndo = \"request\"\ncount = 1\nkind = \"delete\"\n",
    ));
    assert_place(&kind, 8, 8, Some(1), Some("kind"));
}

#[test]
fn cutting_a_node_from_itself() {
    let error = error_of(&one_step(
        "at_ms = 1\ndo = \"cut\"\nfrom = \"n2\"\nto = \"n2\"\n",
    ));
    assert_place(&error, 8, 6, Some(1), Some("to"));
    assert_eq!(
        error.kind,
        ScenarioErrorKind::CutToItself { node: "n2".into() }
    );
}

#[test]
fn a_minimal_file_gets_the_documented_defaults() {
    let scenario = parse_scenario(HEADER, "minimal.toml").expect("minimal file parses");
    assert_eq!(scenario.title, "Untitled scenario");
    assert_eq!(scenario.seed, 1);
    assert_eq!(scenario.timing, Timing::default());
    assert!(!scenario.raft.pre_vote && !scenario.raft.check_quorum && !scenario.raft.lease_reads());
    assert!(scenario.steps.is_empty());
}

#[test]
fn step_arguments_default_as_documented() {
    let text = one_step("at_ms = 10\ndo = \"request\"\ncount = 2\n[[step]]\nat_ms = 10\ndo = \"cut\"\nfrom = \"leader\"\nto = \"n3\"\n");
    let scenario = parse_scenario(&text, "defaults.toml").expect("parses");
    let request = Action::Request {
        count: 2,
        target: NodeTarget::Leader,
        kind: RequestKind::Put,
    };
    assert_eq!(scenario.steps[0].action, request);
    let cut = Action::Cut {
        from: NodeTarget::Leader,
        to: NodeTarget::Node(NodeId(2)),
        both: false,
    };
    assert_eq!(scenario.steps[1].action, cut);
}

#[test]
fn rates_become_parts_per_million() {
    let text = format!("{HEADER}[timing]\ndrop_rate = 0.05\nduplicate_rate = 1\n");
    let scenario = parse_scenario(&text, "rates.toml").expect("parses");
    assert_eq!(scenario.timing.drop_ppm, 50_000);
    assert_eq!(scenario.timing.duplicate_ppm, 1_000_000);
}

fn assert_round_trips(scenario: &Scenario) {
    let text = to_toml_string(scenario);
    let parsed =
        parse_scenario(&text, "exported.toml").unwrap_or_else(|error| panic!("{error}\n{text}"));
    assert_eq!(&parsed, scenario, "exported text:\n{text}");
}

#[test]
fn every_example_file_round_trips_through_export() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let mut count = 0;
    for entry in std::fs::read_dir(directory).expect("scenarios folder") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("readable");
        let scenario = parse_scenario(&text, &path.display().to_string())
            .unwrap_or_else(|error| panic!("{error}"));
        assert_round_trips(&scenario);
        count += 1;
    }
    assert!(
        count >= 8,
        "expected the example folder, found {count} files"
    );
}

#[test]
fn chaos_schedules_round_trip_through_export() {
    for seed in 0..200 {
        for node_count in [1, 3, 5] {
            assert_round_trips(&chaos_scenario(
                seed,
                &ChaosOptions {
                    node_count,
                    ..ChaosOptions::default()
                },
            ));
        }
    }
}

#[test]
fn awkward_titles_and_extreme_values_round_trip() {
    let mut scenario = Scenario::new(
        "Quotes \" backslash \\ tab\t newline\n and ünïcode",
        51,
        3_600_000,
    );
    scenario.seed = u64::MAX;
    scenario.timing.drop_ppm = 1;
    scenario.timing.duplicate_ppm = 999_999;
    scenario.steps.push(quorumlab_sim::scenario::Step {
        at_ms: 3_600_000,
        action: Action::ClockJump {
            target: NodeTarget::Node(NodeId(50)),
            by_ms: -3_600_000,
        },
    });
    assert_round_trips(&scenario);
}

#[test]
fn compiled_in_examples_match_the_folder_and_parse() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let mut on_disk: Vec<String> = std::fs::read_dir(directory)
        .expect("scenarios folder")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .to_string()
        })
        .collect();
    on_disk.sort();
    let mut compiled: Vec<String> = EXAMPLES.iter().map(|(name, _)| name.to_string()).collect();
    compiled.sort();
    assert_eq!(
        compiled, on_disk,
        "update sim/src/tooling/scenario/examples.rs"
    );
    for (name, text) in EXAMPLES {
        parse_scenario(text, name).unwrap_or_else(|error| panic!("{error}"));
    }
}

#[test]
fn errors_quote_user_text_short_and_escaped() {
    // A 100 000-character action name used to come back whole: a 100 KB error line.
    let long = "x".repeat(100_000);
    let message = error_of(&one_step(&format!("at_ms = 1\ndo = \"{long}\""))).to_string();
    assert!(
        message.len() < 400,
        "{} bytes: {}",
        message.len(),
        &message[..200]
    );
    assert!(message.contains("… (100000 characters)"), "{message}");
    // Control characters are shown escaped, never printed raw into a terminal or a page.
    let message = error_of(&one_step("at_ms = 1\ndo = \"cr\\u001b[2Jash\"")).to_string();
    assert!(message.contains("cr\\u{1b}[2Jash"), "{message}");
    assert!(!message.contains('\u{1b}'), "{message:?}");
    // A key is user text too.
    let key = "k".repeat(5_000);
    let message = error_of(&format!("{HEADER}{key} = 1\n")).to_string();
    assert!(message.len() < 600, "{} bytes", message.len());
}

#[test]
fn a_number_past_u64_names_the_keys_own_range() {
    let text = HEADER.replace("duration_ms = 5000", "duration_ms = 18446744073709551616");
    let message = error_of(&text).to_string();
    assert!(
        message.contains("18446744073709551616 is out of range: expected 1 to 3600000"),
        "{message}"
    );
}
