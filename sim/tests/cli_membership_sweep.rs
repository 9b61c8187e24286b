//! `quorumlab sweep --profile membership --variant direct`: the unsafe hand-edited configurations swept
//! from the command line. The sweep must report failing seeds for Election Safety or Configuration
//! Agreement, with a reproduce command that recreates the direct mode; the same seeds through the log
//! fail none. A variant Raft does not have is refused, naming it and the ones it has.

use quorumlab_sim::chaos::{chaos_scenario, ChaosOptions, ChaosProfile};
use quorumlab_sim::checker::{CONFIGURATION_AGREEMENT, ELECTION_SAFETY};
use quorumlab_sim::config::MembershipMode;
use quorumlab_sim::scenario::parse_scenario;
use serde_json::Value;
use std::process::{Command, Output};

/// Seeds each sweep here runs: enough for the direct mode to be caught, few enough for a debug build.
const SEEDS: &str = "6";

fn quorumlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "{error}; stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn assert_bad_input(output: &Output, fragments: &[&str]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(output.stdout.is_empty());
    for fragment in fragments {
        assert!(
            stderr.contains(fragment),
            "stderr lacks {fragment:?}: {stderr}"
        );
    }
}

/// The argument after `flag` in a reproduce command.
fn argument_after<'a>(command: &'a str, flag: &str) -> &'a str {
    let words: Vec<&str> = command.split_whitespace().collect();
    let index = words.iter().position(|word| *word == flag).unwrap();
    words[index + 1]
}

#[test]
fn the_direct_variant_is_caught_and_its_reproduce_command_recreates_it() {
    let output = quorumlab(&[
        "sweep",
        "--seeds",
        SEEDS,
        "--profile",
        "membership",
        "--variant",
        "direct",
        "--jobs",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(1), "failing seeds exit 1");
    let report = json(&output);
    assert_eq!(report["protocol"], "raft");
    assert_eq!(report["profile"], "membership");
    assert_eq!(report["variant"], "direct");
    assert!(report["failing_seed_count"].as_u64().unwrap() > 0);
    let per_invariant = report["failing_seeds_per_invariant"].as_object().unwrap();
    assert!(
        [ELECTION_SAFETY, CONFIGURATION_AGREEMENT]
            .iter()
            .any(|invariant| per_invariant.contains_key(*invariant)),
        "{report}"
    );
    let reproduce = report["reproduce"].as_str().unwrap();
    assert_eq!(argument_after(reproduce, "--variant"), "direct");
    let seed = argument_after(reproduce, "--emit-scenario");
    let emitted = quorumlab(&[
        "sweep",
        "--emit-scenario",
        seed,
        "--nodes",
        "5",
        "--profile",
        "membership",
        "--variant",
        "direct",
    ]);
    assert_eq!(emitted.status.code(), Some(0));
    let text = String::from_utf8(emitted.stdout).expect("utf-8");
    let scenario = parse_scenario(&text, "emitted.toml").unwrap_or_else(|error| panic!("{error}"));
    let options = ChaosOptions {
        profile: ChaosProfile::Membership,
        ..ChaosOptions::default()
    };
    let mut expected = chaos_scenario(seed.parse().unwrap(), &options);
    expected.raft.membership = MembershipMode::Direct;
    assert_eq!(scenario, expected);
}

#[test]
fn the_same_seeds_through_the_log_fail_nothing() {
    let output = quorumlab(&[
        "sweep",
        "--seeds",
        SEEDS,
        "--profile",
        "membership",
        "--variant",
        "default",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let report = json(&output);
    assert!(report.get("variant").is_none(), "{report}");
    assert_eq!(report["failing_seed_count"], 0, "{report}");
}

#[test]
fn a_variant_raft_does_not_have_is_refused_naming_it() {
    assert_bad_input(
        &quorumlab(&[
            "sweep",
            "--seeds",
            "2",
            "--profile",
            "membership",
            "--variant",
            "hand-edited",
        ]),
        &[
            "--variant",
            "`hand-edited`",
            "expected `default`, `direct` or `liar`",
        ],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--seeds", "2", "--chaos", "--variant", "direct"]),
        &[
            "--variant direct",
            "--profile membership",
            "--profile mixed",
        ],
    );
    assert_bad_input(
        &quorumlab(&[
            "sweep",
            "--protocol",
            "paxos",
            "--seeds",
            "2",
            "--variant",
            "direct",
        ]),
        &["paxos has no variant `direct`", "durable"],
    );
}
