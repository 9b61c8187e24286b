//! Every way a link can be wrong, each with the error that names it. Most malformed links are built
//! by encoding a run without validation (as a hand-made link would be) or by writing raw bytes behind a
//! correct checksum, so the test reaches the check it is about rather than the checksum.

use super::*;
use quorumlab_sim::scenario::Invalid;

#[test]
fn only_run_fragments_are_share_links() {
    assert!(is_share_fragment("#/run/v1/abc"));
    assert!(!is_share_fragment(""));
    assert!(!is_share_fragment("#lesson-2"));
    assert_eq!(decode_error("#lesson-2"), ShareError::NotAShareLink);
}

#[test]
fn an_unknown_version_is_named() {
    let fragment = encode_fragment(&sample_run())
        .unwrap()
        .replace("/v4/", "/v9/");
    assert_eq!(
        decode_error(&fragment),
        ShareError::UnsupportedVersion { found: "v9".into() }
    );
    assert_eq!(
        decode_error("#/run/"),
        ShareError::UnsupportedVersion {
            found: String::new()
        }
    );
}

#[test]
fn payload_characters_lengths_and_size_are_checked() {
    assert_eq!(
        decode_error("#/run/v1/AAAA%AA"),
        ShareError::BadCharacter {
            character: '%',
            position: 4
        }
    );
    assert_eq!(
        decode_error("#/run/v1/AAAAA"),
        ShareError::BadLength { length: 5 }
    );
    let huge = format!("#/run/v1/{}", "A".repeat(MAX_PAYLOAD_CHARS + 4));
    assert!(matches!(decode_error(&huge), ShareError::TooLong { .. }));
    assert_eq!(
        decode_error("#/run/v1/"),
        ShareError::Damaged,
        "empty payload"
    );
}

#[test]
fn a_cut_or_edited_link_fails_its_checksum() {
    let fragment = encode_fragment(&sample_run()).unwrap();
    let cut = &fragment[..fragment.len() - 8];
    assert!(matches!(
        decode_error(cut),
        ShareError::Damaged | ShareError::BadLength { .. }
    ));
    let mut edited = fragment.clone().into_bytes();
    let middle = edited.len() / 2;
    edited[middle] = if edited[middle] == b'A' { b'B' } else { b'A' };
    assert_eq!(
        decode_error(&String::from_utf8(edited).unwrap()),
        ShareError::Damaged
    );
}

#[test]
fn a_body_that_ends_early_or_runs_on_is_refused() {
    let fragment = fragment_of_body(|writer| {
        writer.text("t");
        writer.unsigned(0);
        writer.unsigned(5);
    });
    assert_eq!(
        decode_error(&fragment),
        ShareError::Truncated {
            field: "seed".into()
        }
    );

    let body = recorded_links::Recorded::named("v2 raft").body();
    let fragment = fragment_of_body(|writer| {
        writer.raw(&body);
        writer.unsigned(0);
    });
    assert_eq!(
        decode_error(&fragment),
        ShareError::TrailingBytes { count: 1 }
    );
}

#[test]
fn malformed_numbers_text_and_codes_are_refused() {
    let overlong = fragment_of_body(|writer| writer.raw(&[0x81, 0x00]));
    assert_eq!(
        decode_error(&overlong),
        ShareError::BadNumber {
            field: "title".into()
        }
    );
    let bad_utf8 = fragment_of_body(|writer| writer.raw(&[2, 0xc3, 0x28]));
    assert_eq!(
        decode_error(&bad_utf8),
        ShareError::BadText {
            field: "title".into()
        }
    );
    let protocol = fragment_of_body(|writer| {
        writer.text("t");
        writer.unsigned(7);
    });
    assert_eq!(
        decode_error(&protocol),
        ShareError::UnknownCode {
            field: "protocol".into(),
            code: 7
        }
    );
}

/// A valid v2 settings block for 3 nodes and no steps, then `rest`.
fn fragment_with_actions(rest: impl FnOnce(&mut Writer)) -> String {
    fragment_of_body(|writer| {
        writer.settings(3, true, true);
        rest(writer);
    })
}

#[test]
fn unknown_action_kinds_and_flags_name_the_action() {
    let fragment = fragment_with_actions(|writer| {
        writer.unsigned(1);
        writer.unsigned(10);
        writer.unsigned(2);
        writer.unsigned(42);
    });
    assert_eq!(
        decode_error(&fragment),
        ShareError::UnknownCode {
            field: "action 1 kind".into(),
            code: 42
        }
    );
    let bad_flag = fragment_with_actions(|writer| {
        for value in [1, 10, 2, 6, 1, 2, 5] {
            writer.unsigned(value);
        }
    });
    assert_eq!(
        decode_error(&bad_flag),
        ShareError::UnknownCode {
            field: "action 1 both".into(),
            code: 5
        }
    );
}

#[test]
fn nodes_outside_the_cluster_are_refused() {
    // One crash of n9 at 10 µs, then the position: the reader takes any node some cluster could
    // have, validation then finds this one has three.
    let fragment = fragment_with_actions(|writer| {
        for value in [1, 10, 2, 0, 9, 10] {
            writer.unsigned(value);
        }
    });
    let error = decode_error(&fragment);
    assert_eq!(
        error,
        ShareError::Invalid(Invalid::NodeOutOfRange {
            field: "action 1 target".into(),
            node: 9,
            node_count: 3
        })
    );
    assert_eq!(
        error.to_string(),
        "action 1 target: node n9 does not exist (this cluster has n1..n3)"
    );
    let mut run = sample_run();
    run.actions[5].action = Action::Partition {
        groups: vec![vec![NodeId(0), NodeId(7)]],
    };
    assert!(matches!(
        decode_error(&unchecked_fragment(&run)),
        ShareError::Invalid(Invalid::NodeOutOfRange { node: 8, .. })
    ));
}

#[test]
fn a_legacy_node_past_the_largest_cluster_is_refused_while_reading() {
    let fragment = fragment_with_actions(|writer| {
        for value in [1, 10, 2, 0, 70_000] {
            writer.unsigned(value);
        }
    });
    assert_eq!(
        decode_error(&fragment).to_string(),
        "action 1 target is n70000; expected a node of at most n51"
    );
}

#[test]
fn cluster_size_must_be_one_to_fifty_one() {
    for node_count in [0, 52] {
        let mut run = sample_run();
        run.scenario.node_count = node_count;
        run.scenario.steps.clear();
        run.actions.clear();
        let error = decode_error(&unchecked_fragment(&run));
        assert!(
            matches!(&error, ShareError::Invalid(Invalid::OutOfRange { field, .. }) if field == "nodes"),
            "{error}"
        );
    }
}

fn refused_setting(change: impl FnOnce(&mut SharedRun)) -> ShareError {
    let mut run = sample_run();
    change(&mut run);
    let fragment = unchecked_fragment(&run);
    let error = decode_error(&fragment);
    assert_eq!(
        encode_fragment(&run),
        Err(error.clone()),
        "encoding checks the same"
    );
    error
}

#[test]
fn settings_outside_the_scenario_limits_are_refused() {
    let field_of = |error: ShareError| match error {
        ShareError::Invalid(Invalid::OutOfRange { field, .. }) => field,
        other => panic!("expected OutOfRange, got {other}"),
    };
    assert_eq!(
        field_of(refused_setting(|run| run.scenario.duration_ms = 0)),
        "duration_ms"
    );
    assert_eq!(
        field_of(refused_setting(|run| run.scenario.duration_ms = 3_600_001)),
        "duration_ms"
    );
    assert_eq!(
        field_of(refused_setting(
            |run| run.scenario.timing.heartbeat_ms = 600_001
        )),
        "heartbeat_ms"
    );
    assert_eq!(
        field_of(refused_setting(|run| run
            .scenario
            .timing
            .election_timeout_ms = (0, 5))),
        "election_timeout_ms min"
    );
    assert_eq!(
        field_of(refused_setting(
            |run| run.scenario.timing.duplicate_ppm = 1_000_001
        )),
        "duplicate rate (ppm)"
    );
    assert_eq!(
        field_of(refused_setting(|run| run
            .scenario
            .timing
            .client_timeout_ms = 0)),
        "client_timeout_ms"
    );
    assert_eq!(
        refused_setting(|run| run.scenario.timing.network_delay_ms = (20, 10)),
        ShareError::Invalid(Invalid::InvertedRange {
            field: "network_delay_ms".into(),
            min: 20,
            max: 10
        })
    );
}

#[test]
fn action_arguments_outside_the_scenario_limits_are_refused() {
    let error = refused_setting(|run| {
        run.actions[0].action = Action::ClockJump {
            target: node(1),
            by_ms: 3_600_001,
        }
    });
    assert!(
        matches!(&error, ShareError::Invalid(Invalid::OutOfRange { field, .. }) if field == "action 1 by_ms")
    );
    let error = refused_setting(|run| {
        run.actions[0].action = Action::ClockDrift {
            target: node(1),
            ppm: -1_000_000,
        }
    });
    assert!(
        matches!(&error, ShareError::Invalid(Invalid::OutOfRange { field, .. }) if field == "action 1 ppm")
    );
    let error = refused_setting(|run| {
        run.actions[0].action = Action::Request {
            count: 0,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        }
    });
    assert!(
        matches!(&error, ShareError::Invalid(Invalid::OutOfRange { field, .. }) if field == "action 1 count")
    );
    let error = refused_setting(|run| run.actions[0].action = Action::DropRate { ppm: 2_000_000 });
    assert!(matches!(
        &error,
        ShareError::Invalid(Invalid::OutOfRange { .. })
    ));
    let error = refused_setting(|run| {
        run.scenario.steps[1].action = Action::Pause {
            target: node(1),
            duration_ms: Some(3_600_001),
        }
    });
    assert!(
        matches!(&error, ShareError::Invalid(Invalid::OutOfRange { field, .. }) if field == "step 2 duration_ms")
    );
}

#[test]
fn partitions_and_cuts_must_make_sense() {
    assert_eq!(
        refused_setting(|run| {
            run.actions[0].action = Action::Partition {
                groups: vec![vec![NodeId(1)], vec![NodeId(1)]],
            }
        }),
        ShareError::Invalid(Invalid::DuplicateNode {
            field: "action 1 groups".into(),
            node: 2
        })
    );
    assert!(matches!(
        refused_setting(|run| run.actions[0].action = Action::Partition {
            groups: vec![vec![]]
        }),
        ShareError::Invalid(Invalid::OutOfRange { .. })
    ));
    assert_eq!(
        refused_setting(|run| {
            run.actions[0].action = Action::Cut {
                from: node(2),
                to: node(2),
                both: false,
            }
        }),
        ShareError::Invalid(Invalid::CutToItself {
            field: "action 1 to".into(),
            node: 2
        })
    );
}

#[test]
fn steps_must_fall_inside_the_run() {
    let error = refused_setting(|run| run.scenario.steps[2].at_ms = 600_001);
    assert!(
        matches!(&error, ShareError::Invalid(Invalid::OutOfRange { field, .. }) if field == "step 3 at_ms")
    );
}

#[test]
fn times_past_one_simulated_hour_are_refused() {
    let error = refused_setting(|run| run.position = SimTime(MAX_SHARED_TIME.0 + 1));
    assert!(
        matches!(&error, ShareError::Invalid(Invalid::OutOfRange { field, .. }) if field == "position")
    );
    let error = refused_setting(|run| {
        let last = run.actions.len() - 1;
        run.actions[last].at = SimTime(MAX_SHARED_TIME.0 + 1);
    });
    let last_time = format!("action {} time", sample_run().actions.len());
    assert!(
        matches!(&error, ShareError::Invalid(Invalid::OutOfRange { field, .. }) if *field == last_time)
    );
}

#[test]
fn too_many_actions_or_too_long_a_title_are_refused() {
    let error = refused_setting(|run| {
        let template = run.actions[0].clone();
        run.actions = vec![template; MAX_SHARED_ACTIONS + 1];
    });
    assert!(matches!(
        error,
        ShareError::Invalid(Invalid::TooMany {
            count: 5_001,
            max: 5_000,
            ..
        })
    ));
    let error = refused_setting(|run| run.scenario.title = "x".repeat(201));
    assert!(matches!(
        error,
        ShareError::Invalid(Invalid::TooMany {
            count: 201,
            max: 200,
            ..
        })
    ));
}

#[test]
fn actions_out_of_order_cannot_be_shared() {
    let mut run = sample_run();
    run.actions.swap(1, 2);
    let error = encode_fragment(&run).unwrap_err();
    assert!(
        matches!(&error, ShareError::Invalid(Invalid::OutOfOrder { field, .. }) if field == "action 3 time (µs)")
    );
    let mut run = sample_run();
    run.actions[3].after_events = 0;
    assert!(matches!(
        encode_fragment(&run),
        Err(ShareError::Invalid(Invalid::OutOfOrder { .. }))
    ));
}

#[test]
fn the_test_only_unsafe_option_is_never_shared() {
    let mut run = sample_run();
    run.scenario.raft.unsafe_commit_previous_term = true;
    assert_eq!(
        encode_fragment(&run),
        Err(ShareError::NotShareable {
            setting: "unsafe_commit_previous_term"
        })
    );
}

/// Found by the fuzzer (issue 17): a forged link, a generated scenario with floods of requests, took
/// more than 30 s to open — ten million events checked, then as many again for the session. The
/// budget now stops the replay after 400 000, and says so.
#[test]
fn a_forged_heavy_link_stops_at_the_replay_budget() {
    let link = "#/run/v4/CUdlbmVyYXRlZAEC3AOsAmQyrAKxBgwBAQAAB_auqOWB74T16wGp8YcBlgGsAhoFDwAA6AcAAAABAQABAyiY15szAAeWwMQeAAUAyPCHGgALAgAAj-feMAAHrZbdNAALCwAAqYq0JAADAQaI_ZwoAAscAQgB4PLxDgALZAAA1dbyHwALDgEEAL75wSoAB6P24w8ACwQAAYfp5iEABQCjn_IlAAtkAAC127oNAAEA7KKKEAALZAEGAJSslggABQED0ZqqIAACAQcB0Qisqf0XAAvoBwEDAIPy1x8ACJfgDO-N3yoAB6WBoCgAAgAA4emqEAAL6AcBBgDOnsEDAAsJAAHZgaYIAAvoBwEFAPqClggAB7WLuCoAC-gHAQAAlPKPLQAJANMY8J-0GwAL6AcBAwD-h5cmAAuQTgAAvK6wKAALZAECALXmqiEAAAEJ6ZrPFwALEwEJANGmmwgAAQEGrrmNMQAL6AcBCQDs3tAJAAvoBwAAts7mGgABAQDmyNoBAAvoBwAA5vkUAAvoBwEAAP2VEQAJAQDeHNzt0wEAC5BOAQQA-rShoggA_uyNJg";
    let run = decode_fragment(link).unwrap();
    let position = run.position;
    match open(run) {
        Err(ShareError::ReplayStopped { limit, stopped_at }) => {
            assert_eq!(limit, super::super::replay::MAX_REPLAY_EVENTS);
            assert!(stopped_at < position);
        }
        Err(other) => panic!("expected the budget to stop it, got {other}"),
        Ok(_) => panic!("the forged link opened"),
    }
}

/// Found by the fuzzer: a link's errors quoted control characters raw (a newline, a bell).
#[test]
fn control_characters_in_a_link_are_shown_escaped() {
    for link in ["#/run/\u{7}", "#/run/v4/ab\ncd", "#/run/v4\u{0}/abc"] {
        let error = decode_fragment(link).unwrap_err().to_string();
        assert!(!error.chars().any(char::is_control), "{error:?}");
        assert!(error.contains("\\u{") || error.contains("\\n"), "{error:?}");
    }
}

/// Found by the fuzzer: a lesson id with a control character in it was quoted raw.
#[test]
fn a_lesson_id_is_quoted_escaped() {
    let session = Session::new(quorumlab_sim::scenario::Scenario::new("lesson", 3, 1_000)).unwrap();
    let mut run = super::super::replay::capture(&session);
    run.lesson = Some(SharedLesson {
        id: "exactly-o\rce".to_string(),
        step: 0,
        step_began: SimTime::ZERO,
    });
    let error = validate::run(&run).unwrap_err().to_string();
    assert!(!error.chars().any(char::is_control), "{error:?}");
    assert!(error.contains("exactly-o\\rce"), "{error:?}");
}
