//! The `quorumlab` binary as a user runs it: JSON on stdout, exit codes, precise errors on stderr.

use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions};
use quorumlab_sim::scenario::parse_scenario;
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

/// Writes `text` to a fresh file under Cargo's per-test temporary directory.
fn temp_file(name: &str, text: &str) -> String {
    let path: PathBuf = [env!("CARGO_TARGET_TMPDIR"), name].iter().collect();
    std::fs::write(&path, text).expect("temp file");
    path.display().to_string()
}

fn stdout_json(output: &Output) -> Value {
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

fn assert_bad_input(output: &Output, expected_fragments: &[&str]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(output.stdout.is_empty(), "nothing on stdout for bad input");
    for fragment in expected_fragments {
        assert!(
            stderr.contains(fragment),
            "stderr lacks {fragment:?}: {stderr}"
        );
    }
}

#[test]
fn run_prints_a_complete_report() {
    let report = stdout_json(&quorumlab(&["run", &example("leader-crash.toml")]));
    assert_eq!(report["title"], "Leader crash and re-election");
    assert_eq!(report["protocol"], "raft");
    assert_eq!(report["seed"], 1);
    assert_eq!(report["nodes"], 5);
    assert_eq!(report["end_ms"], 4000);
    assert!(report["events_processed"].as_u64().unwrap() > 0);
    let leaders = report["leaders"].as_array().expect("leaders list");
    assert!(leaders.len() >= 2, "a crash and a re-election: {leaders:?}");
    for leader in leaders {
        assert!(
            leader["term"].is_u64()
                && leader["node"].is_string()
                && leader["elected_at_ms"].is_u64()
        );
    }
    let nodes = report["final"].as_object().expect("final object");
    assert_eq!(
        nodes.keys().cloned().collect::<Vec<_>>(),
        ["n1", "n2", "n3", "n4", "n5"]
    );
    for node in nodes.values() {
        for field in ["status", "role", "term", "commit_index", "log_len"] {
            assert!(!node[field].is_null(), "missing {field} in {node}");
        }
    }
    for field in ["submitted", "committed", "failed", "unknown"] {
        assert!(report["requests"][field].is_u64(), "requests.{field}");
    }
    assert_eq!(report["violations"], Value::Array(vec![]));
    assert_eq!(report["trace_hash"].as_str().unwrap().len(), 16);
    assert!(report["skipped_steps"].is_array());
}

#[test]
fn run_is_deterministic_and_seed_overrides_the_file() {
    let file = example("lossy-network.toml");
    let first = quorumlab(&["run", &file]);
    let second = quorumlab(&["run", &file]);
    assert_eq!(first.stdout, second.stdout);
    let reseeded = stdout_json(&quorumlab(&["run", &file, "--seed", "99"]));
    assert_eq!(reseeded["seed"], 99);
    assert_ne!(reseeded["trace_hash"], stdout_json(&first)["trace_hash"]);
}

#[test]
fn duration_override_ends_the_run_early_but_never_cuts_steps() {
    let file = example("leader-crash.toml");
    let shorter = stdout_json(&quorumlab(&["run", &file, "--duration-ms", "3000"]));
    assert_eq!(shorter["end_ms"], 3000);
    assert_bad_input(
        &quorumlab(&["run", &file, "--duration-ms", "1100"]),
        &["--duration-ms 1100", "step 2"],
    );
}

#[test]
fn trace_option_writes_one_json_object_per_line() {
    let trace_path: PathBuf = [env!("CARGO_TARGET_TMPDIR"), "paused-leader-trace.jsonl"]
        .iter()
        .collect();
    let trace = trace_path.display().to_string();
    stdout_json(&quorumlab(&[
        "run",
        &example("paused-leader.toml"),
        "--trace",
        &trace,
    ]));
    let text = std::fs::read_to_string(&trace_path).expect("trace written");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() > 100,
        "a 4-second run has many events, got {}",
        lines.len()
    );
    for line in lines {
        serde_json::from_str::<Value>(line).unwrap_or_else(|error| panic!("{error}: {line}"));
    }
}

#[test]
fn bad_scenarios_exit_2_naming_file_line_and_key() {
    let header = "protocol = \"raft\"\nnodes = 5\nduration_ms = 1000\n[[step]]\nat_ms = 10\n";
    let out_of_range = temp_file(
        "node-out-of-range.toml",
        &format!("{header}do = \"crash\"\ntarget = \"n9\"\n"),
    );
    assert_bad_input(
        &quorumlab(&["run", &out_of_range]),
        &[
            &format!("{out_of_range}:7:10:"),
            "step 1 key `target`",
            "n1..n5",
        ],
    );
    let unknown_action = temp_file(
        "unknown-action.toml",
        &format!("{header}do = \"explode\"\n"),
    );
    assert_bad_input(
        &quorumlab(&["run", &unknown_action]),
        &[":6:6:", "key `do`", "unknown action `explode`"],
    );
    let missing = temp_file(
        "missing-argument.toml",
        &format!("{header}do = \"partition\"\n"),
    );
    assert_bad_input(
        &quorumlab(&["run", &missing]),
        &[":4:1:", "key `groups`", "missing"],
    );
    let negative = temp_file(
        "negative.toml",
        "protocol = \"raft\"\nnodes = 5\nduration_ms = -1\n",
    );
    assert_bad_input(
        &quorumlab(&["run", &negative]),
        &[":3:15:", "key `duration_ms`", "negative"],
    );
    let malformed = temp_file("malformed.toml", "protocol = \"raft\nnodes = 5\n");
    assert_bad_input(&quorumlab(&["run", &malformed]), &[":1:", "malformed TOML"]);
    assert_bad_input(
        &quorumlab(&["run", "/no/such/scenario.toml"]),
        &["/no/such/scenario.toml", "cannot read"],
    );
}

#[test]
fn bad_flags_and_commands_exit_2() {
    let file = example("leader-crash.toml");
    assert_bad_input(&quorumlab(&["run", &file, "--sed", "3"]), &["--sed"]);
    assert_bad_input(
        &quorumlab(&["run", &file, "--seed", "three"]),
        &["--seed", "`three`"],
    );
    assert_bad_input(&quorumlab(&["run"]), &["missing scenario FILE"]);
    assert_bad_input(
        &quorumlab(&["launch"]),
        &["unknown command `launch`", "usage"],
    );
    assert_bad_input(&quorumlab(&[]), &["missing command"]);
    assert_bad_input(
        &quorumlab(&["sweep", "--protocol", "multi-paxos", "--seeds", "1"]),
        &["unknown protocol `multi-paxos`; did you mean `paxos`?"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--seeds", "2", "--profile", "storm"]),
        &["unknown profile `storm`; nothing close among the 5 profiles"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--seeds", "2", "--profle", "mixed"]),
        &["unknown option `--profle`; did you mean `--profile`?"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--seeds", "2", "--nodes", "60"]),
        &["--nodes 60"],
    );
    assert_bad_input(&quorumlab(&["bench", "--seconds", "0"]), &["--seconds 0"]);
}

#[test]
fn sweep_reports_per_invariant_and_exits_0_when_clean() {
    let report = stdout_json(&quorumlab(&[
        "sweep",
        "--protocol",
        "raft",
        "--seeds",
        "4",
        "--chaos",
        "--first-seed",
        "10",
    ]));
    assert_eq!(report["seeds"], 4);
    assert_eq!(report["first_seed"], 10);
    assert_eq!(report["profile"], "mixed");
    assert_eq!(report["failing_seed_count"], 0);
    assert!(report["violations_per_invariant"]
        .as_object()
        .unwrap()
        .is_empty());
    assert!(report["first_failing_seed"].is_null() && report["reproduce"].is_null());
}

#[test]
fn emitted_scenario_is_the_chaos_schedule_and_runs() {
    let output = quorumlab(&["sweep", "--emit-scenario", "4", "--nodes", "3", "--chaos"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).expect("utf-8");
    let parsed = parse_scenario(&text, "emitted.toml").unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        parsed,
        chaos_scenario(
            4,
            &ChaosOptions {
                node_count: 3,
                ..ChaosOptions::default()
            }
        )
    );
    let file = temp_file("emitted-seed-4.toml", &text);
    let report = stdout_json(&quorumlab(&["run", &file]));
    assert_eq!(report["seed"], 4);
}

#[test]
fn bench_reports_throughput() {
    let results = stdout_json(&quorumlab(&["bench", "--nodes", "5", "--seconds", "2"]));
    let results = results.as_array().expect("one result per cluster size");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["nodes"], 5);
    assert!(results[0]["events_processed"].as_u64().unwrap() > 0);
    assert!(results[0]["requests_committed"].as_u64().unwrap() > 0);
}

#[test]
fn bench_runs_the_bare_event_loop() {
    let results = stdout_json(&quorumlab(&["bench", "--bare-loop", "--events", "1000"]));
    assert_eq!(results[0]["workload"], "bare_loop");
    assert_eq!(results[0]["events_processed"], 1000);
    let checksum = quorumlab_sim::bench::bare_event_loop(1000);
    assert_eq!(results[0]["checksum"], format!("{checksum:016x}"));
    assert_bad_input(
        &quorumlab(&["bench", "--bare-loop", "--nodes", "5"]),
        &["--bare-loop takes --events"],
    );
}

#[test]
fn sweep_summary_does_not_depend_on_the_number_of_threads() {
    let args = [
        "sweep",
        "--seeds",
        "6",
        "--nodes",
        "3",
        "--profile",
        "leader-churn",
    ];
    let one = quorumlab(&[&args[..], &["--jobs", "1"]].concat());
    let three = quorumlab(&[&args[..], &["--jobs", "3"]].concat());
    stdout_json(&one);
    assert_eq!(one.stdout, three.stdout);
    assert_bad_input(
        &quorumlab(&[&args[..], &["--jobs", "0"]].concat()),
        &["--jobs"],
    );
}

#[test]
fn check_validates_every_file_and_lists_every_mistake() {
    let good = example("split-vote.toml");
    let output = quorumlab(&["check", &good, &example("every-action.toml")]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!("{good}: ok (5 nodes, 1 steps)")),
        "{stdout}"
    );
    let typo = temp_file(
        "check-typo.toml",
        "protocol = \"raft\"\nnodes = 3\nduration_ms = 100\nsead = 2\n",
    );
    let bad_node = temp_file("check-node.toml", "protocol = \"raft\"\nnodes = 3\nduration_ms = 100\n[[step]]\nat_ms = 1\ndo = \"crash\"\ntarget = \"n4\"\n");
    let output = quorumlab(&["check", &typo, &good, &bad_node]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stdout).contains(&format!("{good}: ok")));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("{typo}:4:1: key `sead`")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{bad_node}:7:10: step 1 key `target`")),
        "{stderr}"
    );
}

/// A trace file written by the library, replayed by the binary: same fingerprint, exit 0; a file whose
/// fingerprint is wrong exits 1; a broken file is bad input naming its line.
///
/// The file lacks the action lines of the scenario's scripted steps (a request at 1 000 ms and a crash
/// at 1 200 ms), as a hand-written or edited file may: the replay applies them as a run does, the way
/// the app does (issue 17: the command used to skip them and exit 1).
#[test]
fn replay_reproduces_a_trace_file_and_reports_divergence() {
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::history::RecordedAction;
    use quorumlab_sim::runner::ScenarioRun;
    use quorumlab_sim::time::SimTime;
    use quorumlab_sim::trace_file::write_trace_file;

    let text = std::fs::read_to_string(example("leader-crash.toml")).unwrap();
    let scenario = parse_scenario(&text, "leader-crash.toml").unwrap();
    assert!(scenario.steps.iter().any(|step| step.at_ms < 1_500));
    let mut run = ScenarioRun::new(scenario.clone()).unwrap();
    run.advance_to(SimTime(700_250));
    let crash = Action::Crash {
        target: NodeTarget::Leader,
    };
    let actions = vec![RecordedAction {
        at: run.world().now(),
        after_events: run.world().events_processed(),
        action: crash.clone(),
    }];
    run.world_mut().apply(&crash);
    run.advance_to(SimTime(1_500_000));
    let world = run.world();
    let file_text = write_trace_file(&scenario, &actions, world);
    let report = stdout_json(&quorumlab(&["replay", &temp_file("run.jsonl", &file_text)]));
    assert_eq!(
        report["trace_hash"],
        format!("{:016x}", world.trace_hash()),
        "the CLI computes the app's fingerprint, scripted steps applied"
    );

    let wrong_hash = file_text.replace(&format!("{:016x}", world.trace_hash()), "0000000000000000");
    let diverged = quorumlab(&["replay", &temp_file("wrong.jsonl", &wrong_hash)]);
    assert_eq!(diverged.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&diverged.stderr).contains("did not reproduce"));

    let broken = file_text.replacen("\"do\":\"crash\"", "\"do\":\"smash\"", 1);
    let output = quorumlab(&["replay", &temp_file("broken.jsonl", &broken)]);
    assert_bad_input(&output, &["line 2", "`do`", "smash"]);
}
