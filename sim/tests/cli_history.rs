//! `quorumlab run --history`: the history block, only when asked, with the verdict, the counts and,
//! on a refusal, the op that could not be placed.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The skewed-clock lease example with every key written first: request 33 reads key 1 at the old
/// leader (n5 in this seed) after the new leader acknowledged put 17 on key 1.
const STALE_READ: &str = r#"
title = "A stale lease read of a written key"
protocol = "raft"
nodes = 5
seed = 8
duration_ms = 5000

[timing]
check_quorum = true
lease_reads = true

[[step]]
at_ms = 800
do = "request"
count = 16
kind = "put"

[[step]]
at_ms = 1500
do = "isolate"
target = "leader"

[[step]]
at_ms = 1500
do = "clock_jump"
target = "leader"
by_ms = CLOCK_JUMP

[[step]]
at_ms = 1800
do = "request"
count = 16
kind = "put"

[[step]]
at_ms = 2000
do = "request"
count = 1
kind = "get"
target = "n5"
"#;

fn quorumlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stale_read_file(clock_jump_ms: i64) -> String {
    let name = format!("stale-read-{}.toml", clock_jump_ms.unsigned_abs());
    let path: PathBuf = [env!("CARGO_TARGET_TMPDIR"), &name].iter().collect();
    let text = STALE_READ.replace("CLOCK_JUMP", &clock_jump_ms.to_string());
    std::fs::write(&path, text).expect("temp file");
    path.display().to_string()
}

fn example(name: &str) -> String {
    format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn json(output: &Output) -> Value {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    serde_json::from_slice(&output.stdout).expect("one JSON document")
}

#[test]
fn a_stale_read_a_client_saw_is_reported_with_the_op_that_could_not_be_placed() {
    let report = json(&quorumlab(&["run", &stale_read_file(-1_500), "--history"]));
    assert_eq!(report["violation_counts"]["Linearizable Reads"], 1);
    let history = &report["history"];
    assert_eq!(history["verdict"], "not linearizable");
    assert_eq!(history["models"], serde_json::json!(["key-value store"]));
    assert_eq!(history["ops"], 33);
    assert_eq!(history["partitions"], 16);
    assert!(history["explored"].as_u64().unwrap() >= 33);
    let refused = &history["refused"];
    assert_eq!(refused["partition"], 1);
    assert_eq!(refused["stuck"]["index"], 32);
    assert_eq!(refused["stuck"]["what"], "get key 1 → 1");
    assert_eq!(refused["stuck"]["served_by"], "n5");
    let longest: Vec<&str> = refused["longest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|op| op["what"].as_str().unwrap())
        .collect();
    assert_eq!(longest, ["put key 1 = 1", "put key 1 = 17"]);
    let witness: Vec<&str> = refused["witness"]
        .as_array()
        .unwrap()
        .iter()
        .map(|op| op["what"].as_str().unwrap())
        .collect();
    assert_eq!(
        witness,
        ["put key 1 = 1", "put key 1 = 17", "get key 1 → 1"]
    );
    let words = history["words"].as_str().unwrap();
    assert_eq!(
        words,
        "Not linearizable: \"get key 1 → 1\" began after \"put key 1 = 17\" had returned, yet \
         returned the older value of \"put key 1 = 1\". It came after a fault aimed at the leader, \
         n5 then, the node that answered it: n5's clock jumps -1500 ms at 1500 ms."
    );
    let witness_words = refused["witness_words"].as_str().unwrap();
    assert!(words.starts_with(&format!("Not linearizable: {witness_words}")));
}

#[test]
fn with_an_honest_clock_the_same_story_is_linearizable() {
    let report = json(&quorumlab(&["run", &stale_read_file(0), "--history"]));
    assert_eq!(
        report["violation_counts"]["Linearizable Reads"],
        Value::Null
    );
    assert_eq!(report["history"]["verdict"], "linearizable");
    assert_eq!(report["history"]["refused"], Value::Null);
}

#[test]
fn the_block_appears_only_when_asked_and_changes_nothing_else() {
    let file = example("lease-reads-skewed-clock.toml");
    let plain = json(&quorumlab(&["run", &file]));
    let mut asked = json(&quorumlab(&["run", &file, "--history"]));
    assert!(plain.get("history").is_none());
    assert_eq!(
        asked["history"]["verdict"], "linearizable",
        "unwritten keys only"
    );
    asked.as_object_mut().unwrap().remove("history");
    assert_eq!(asked, plain);
}

#[test]
fn a_world_without_a_model_says_so() {
    let report = json(&quorumlab(&[
        "run",
        &example("paxos-duel.toml"),
        "--history",
    ]));
    assert_eq!(report["history"]["verdict"], "nothing judged");
    assert_eq!(report["history"]["models"], serde_json::json!([]));
}

#[test]
fn the_switch_takes_no_value() {
    let output = quorumlab(&["run", &example("leader-crash.toml"), "--history=yes"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--history takes no value"), "{stderr}");
}
