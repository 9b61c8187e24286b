//! `quorumlab explore` as a user runs it: one JSON report, a scenario that `quorumlab run` replays to
//! the same violation, and short errors for bad requests.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn quorumlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn example(name: &str) -> String {
    format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn temp_path(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_TARGET_TMPDIR"), name].iter().collect();
    path.display().to_string()
}

fn stdout_json(output: &Output) -> Value {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

const SMALL: [&str; 10] = [
    "--without-steps",
    "--invariant",
    "No Lost Updates",
    "--depth",
    "1",
    "--pause-ms",
    "2000",
    "--horizon-ms",
    "4000",
    "--states",
];

#[test]
fn a_found_schedule_is_written_as_a_scenario_that_run_replays_to_the_violation() {
    let out = temp_path("explore-no-fencing.toml");
    let file = example("no-fencing-pause.toml");
    let mut args = vec!["explore", file.as_str()];
    args.extend(SMALL);
    args.extend(["50000", "--emit-scenario", out.as_str()]);
    let report = stdout_json(&quorumlab(&args));
    assert_eq!(report["outcome"]["result"], "found");
    assert_eq!(report["outcome"]["invariant"], "No Lost Updates");
    assert_eq!(report["outcome"]["schedule"].as_array().unwrap().len(), 1);
    let replay = stdout_json(&quorumlab(&["run", out.as_str()]));
    assert!(
        replay["violation_counts"]["No Lost Updates"]
            .as_u64()
            .unwrap()
            > 0
    );
}

#[test]
fn no_shrink_reports_no_shrinking_and_an_example_is_emitted_like_a_violation() {
    let file = example("no-fencing-pause.toml");
    let mut args = vec!["explore", file.as_str()];
    args.extend(SMALL);
    args.extend(["50000", "--no-shrink"]);
    let report = stdout_json(&quorumlab(&args));
    assert_eq!(report["outcome"]["result"], "found");
    assert!(report["shrink"].is_null());
    let out = temp_path("explore-example.toml");
    let fenced = example("fencing-pause.toml");
    let args = [
        "explore",
        fenced.as_str(),
        "--without-steps",
        "--example",
        "stale_write_refused",
        "--depth",
        "1",
        "--pause-ms",
        "2000",
        "--horizon-ms",
        "4000",
        "--emit-scenario",
        out.as_str(),
    ];
    let report = stdout_json(&quorumlab(&args));
    assert_eq!(report["outcome"]["result"], "example");
    assert_eq!(report["shrink"]["faults"], 1);
    let replay = stdout_json(&quorumlab(&["run", out.as_str()]));
    let rejected = replay["resource"]["rejected"].as_array().unwrap();
    assert!(
        !rejected.is_empty(),
        "the replay refuses a stale write: {replay}"
    );
}

#[test]
fn the_fenced_lock_reports_the_bound_and_writes_no_scenario() {
    let out = temp_path("explore-fencing.toml");
    let _ = std::fs::remove_file(&out);
    let file = example("fencing-pause.toml");
    let mut args = vec!["explore", file.as_str()];
    args.extend(SMALL);
    args.extend(["50000", "--emit-scenario", out.as_str()]);
    let report = stdout_json(&quorumlab(&args));
    assert_eq!(report["outcome"]["result"], "bound_reached");
    assert_eq!(report["outcome"]["bound"], "depth");
    assert!(report["states"].as_u64().unwrap() > 0);
    assert!(!std::path::Path::new(&out).exists());
}

#[test]
fn bad_requests_exit_2_with_a_short_reason() {
    let file = example("no-fencing-pause.toml");
    for (flags, expected) in [
        (vec!["--invariant", "Nope"], "unknown invariant \"Nope\""),
        (
            vec!["--states", "0"],
            "the states budget must be at least 1",
        ),
        (
            vec!["--pause-ms", "1,x"],
            "--pause-ms: \"x\" is not a whole number",
        ),
        (
            vec!["--example", "two_value_chosen"],
            "did you mean `two_values_chosen` or `value_chosen`?",
        ),
        (
            vec!["--example", "two_value_chosen"],
            "(valid checkpoints: leader_changed,",
        ),
        (
            vec!["--drift-ppm", "5000"],
            "a drift of 5000 ppm is outside this world's bound",
        ),
    ] {
        let mut args = vec!["explore", file.as_str()];
        args.extend(flags);
        let output = quorumlab(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn symmetry_is_asked_by_a_flag_and_the_report_says_what_it_did() {
    let raft = example("leader-crash.toml");
    let args = ["explore", raft.as_str(), "--without-steps", "--depth", "1"];
    let plain = stdout_json(&quorumlab(&[&args[..], &["--states", "2000"]].concat()));
    assert!(plain.get("symmetry").is_none(), "not asked, not said");
    let asked = [&args[..], &["--states", "2000", "--symmetry"]].concat();
    let reduced = stdout_json(&quorumlab(&asked));
    assert_eq!(reduced["symmetry"]["applied"], true);
    assert_eq!(reduced["symmetry"]["servers"], 5);
    assert_eq!(reduced["symmetry"]["permutations"], 120);
    let lock = example("no-fencing-pause.toml");
    let refused = stdout_json(&quorumlab(&[
        "explore",
        lock.as_str(),
        "--depth",
        "1",
        "--states",
        "500",
        "--symmetry",
    ]));
    assert_eq!(refused["symmetry"]["applied"], false);
    let why = refused["symmetry"]["why"].as_str().unwrap();
    assert!(why.contains("plain Raft"), "{why}");
}
