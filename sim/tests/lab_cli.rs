//! `quorumlab grade ROLE FILE`: the verdict as JSON and the exit code (0 pass, 1 a property broke,
//! 2 bad input with a short error naming the place).

use std::path::PathBuf;
use std::process::{Command, Output};

fn grade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .arg("grade")
        .args(args)
        .output()
        .expect("the CLI runs")
}

fn solution(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "src", "lab", "solutions", name]
        .iter()
        .collect();
    path.to_string_lossy().into_owned()
}

fn written(name: &str, text: &str) -> String {
    let path =
        std::env::temp_dir().join(format!("quorumlab-lab-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn our_answer_passes_with_exit_zero_and_a_json_verdict() {
    let output = grade(&["release", &solution("release.rhai"), "--seeds", "20"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(verdict["passed"], true);
    assert_eq!(verdict["role"], "release");
    assert_eq!(verdict["checks"][2]["status"], "bound_reached");
}

#[test]
fn a_wrong_answer_fails_with_exit_one_naming_the_property() {
    let output = grade(&["release", &solution("release-no-owner-check.rhai")]);
    assert_eq!(output.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(verdict["broken"]["property"], "Release By Owner");
    assert!(verdict["broken"]["hints"]["fix"]
        .as_str()
        .unwrap()
        .contains("value"));
    assert!(verdict["broken"]["counterexample"]["scenario_toml"]
        .as_str()
        .unwrap()
        .contains("protocol"));
}

#[test]
fn bad_input_exits_two_with_a_specific_error() {
    let unknown = grade(&["lock", &solution("release.rhai")]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown role `lock`"));
    let missing = grade(&["release", "/nonexistent/script.rhai"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
    let file = written(
        "syntax.rhai",
        "fn release(request) {\n  request.value ==\n}\n",
    );
    let syntax = grade(&["release", &file]);
    assert_eq!(syntax.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&syntax.stderr);
    assert!(stderr.contains(&format!("{file}:3:1:")), "{stderr}");
    assert!(syntax.stdout.is_empty());
    let usage = grade(&["release"]);
    assert_eq!(usage.status.code(), Some(2));
}
