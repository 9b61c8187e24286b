//! `quorumlab verify`: completion codes checked from the command line, as JSON, for a whole class.

use quorumlab_sim::completion::{encode, CompletionCode, LessonRunRecord, StepRecord};
use quorumlab_sim::history::Timeline;
use quorumlab_sim::lesson::{parse_lessons, LessonDriver};
use quorumlab_sim::runner::{world_config, ScenarioRun};
use quorumlab_sim::time::SimTime;
use quorumlab_sim::World;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// A code for the leader-election lesson with its first step shown ("show me") and nothing after.
fn shown_first_step_code(claim_second: bool) -> String {
    let lesson = parse_lessons()
        .unwrap()
        .into_iter()
        .find(|lesson| lesson.id == "leader-election")
        .unwrap();
    let world = World::new(world_config(&lesson.scenario)).unwrap();
    let mut run = ScenarioRun::on(lesson.scenario.clone(), Timeline::new(world, 250, 64));
    run.advance_to(SimTime::from_ms(lesson.start_ms));
    let began = run.world().now();
    let mut driver = LessonDriver::start(lesson.clone(), run.world());
    assert!(driver.play_solution(&mut run).satisfied);
    let mut steps = vec![StepRecord::default(); lesson.steps.len()];
    steps[0] = StepRecord {
        show_me: true,
        claimed_met: true,
        ticked_us: None,
    };
    steps[1].claimed_met = claim_second;
    let record = LessonRunRecord::new(
        0,
        lesson.scenario.seed,
        began,
        run.world().now(),
        run.run().actions(),
    );
    encode(&CompletionCode::new(&lesson, steps, vec![record]))
}

fn quorumlab(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().expect("binary ends")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

#[test]
fn a_class_of_codes_prints_each_codes_steps_as_json() {
    let good = shown_first_step_code(false);
    let altered = shown_first_step_code(true);
    let output = quorumlab(&["verify", &good, &altered], "");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = json(&output);
    let codes = report["codes"].as_array().unwrap();
    assert_eq!(codes.len(), 2);
    assert_eq!(codes[0]["lesson_id"], "leader-election");
    assert_eq!(codes[0]["met"], 1);
    assert_eq!(codes[0]["steps"][0]["status"], "met");
    assert_eq!(codes[0]["steps"][0]["how"], "show_me");
    assert_eq!(codes[0]["steps"][1]["status"], "not_met");
    assert_eq!(codes[0]["mismatches"], 0);
    // The second claims step 2, which its run never met.
    assert_eq!(codes[1]["mismatches"], 1);
    assert!(codes[1]["steps"][1]["mismatch"]
        .as_str()
        .unwrap()
        .contains("claimed but not met"));
}

#[test]
fn codes_on_standard_input_and_a_malformed_one_exit_1() {
    let good = shown_first_step_code(false);
    let output = quorumlab(&["verify"], &format!("{good}\n  QLC1.broken\n"));
    assert_eq!(output.status.code(), Some(1));
    let report = json(&output);
    let codes = report["codes"].as_array().unwrap();
    assert_eq!(codes[0]["malformed"], false);
    assert_eq!(codes[0]["met"], 1);
    assert_eq!(codes[1]["malformed"], true);
    assert!(codes[1]["error"].as_str().unwrap().contains("damaged"));
}

#[test]
fn no_codes_is_bad_input() {
    let output = quorumlab(&["verify"], " \n");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no codes"));
    let missing = quorumlab(&["verify", "--file", "/nonexistent/codes.txt"], "");
    assert_eq!(missing.status.code(), Some(2));
}
