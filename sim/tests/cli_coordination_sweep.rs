//! `quorumlab sweep --protocol lock-service|redis-lock|redlock|scheduler|zookeeper|work-queue`: the
//! coordination chaos worlds swept from the command line, with a tally per invariant, the first failing
//! seed and a reproduce command that recreates exactly that run.

use quorumlab_sim::chaos::locks::{lock_chaos_scenario, LockChaosOptions};
use quorumlab_sim::checker::{EXCLUSIVE_BELIEF, RELEASE_BY_OWNER, SINGLE_LEASE_HOLDER};
use quorumlab_sim::registry;
use quorumlab_sim::runner::run_scenario;
use quorumlab_sim::scenario::parse_scenario;
use quorumlab_sim::sweep::{lock_chaos_options, lock_sweep_scenario, run_lock_seed};
use serde_json::Value;
use std::process::{Command, Output};

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

/// Each protocol in the configuration it is claimed safe in: no seed fails. Redis-style locks make a
/// narrower claim (no two clients believe they hold the lock; only the owner releases), since their
/// store cannot fence: a paused client may still write late, which the next test shows.
#[test]
fn every_coordination_protocol_sweeps_clean_in_its_safe_configuration() {
    for protocol in registry::names().filter(|name| *name != "raft") {
        for chaos in [false, true] {
            let mut args = vec![
                "sweep",
                "--protocol",
                protocol,
                "--seeds",
                "4",
                "--jobs",
                "2",
            ];
            if chaos {
                args.push("--chaos");
            }
            let output = quorumlab(&args);
            let report = json(&output);
            assert_eq!(report["protocol"], *protocol);
            assert_eq!(report["seeds"], 4);
            assert_eq!(report["profile"], if chaos { "mixed" } else { "calm" });
            assert!(report["events_processed"].as_u64().unwrap() > 0);
            let claimed_safe = registry::by_name(protocol)
                .unwrap()
                .sweep
                .default_variant()
                .safe;
            if !claimed_safe {
                let violations = report["violations_per_invariant"].as_object().unwrap();
                for invariant in [EXCLUSIVE_BELIEF, RELEASE_BY_OWNER, SINGLE_LEASE_HOLDER] {
                    assert!(!violations.contains_key(invariant), "{protocol}: {report}");
                }
            } else {
                assert_eq!(output.status.code(), Some(0), "{protocol}: {report}");
                assert_eq!(report["failing_seed_count"], 0, "{protocol}: {report}");
                assert!(report["reproduce"].is_null());
            }
        }
    }
}

#[test]
fn an_unfenced_redis_store_takes_a_late_write_from_a_paused_client() {
    let output = quorumlab(&[
        "sweep",
        "--protocol",
        "redis-lock",
        "--seeds",
        "1",
        "--first-seed",
        "26",
        "--chaos",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let report = json(&output);
    assert_eq!(report["first_failing_seed"], 26);
    assert!(
        report["violations_per_invariant"]["Mutual Exclusion"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert!(report["violations_per_invariant"]
        .get(EXCLUSIVE_BELIEF)
        .is_none());
    let reproduce = report["reproduce"].as_str().unwrap();
    assert!(
        reproduce.starts_with(
            "quorumlab sweep --protocol redis-lock --emit-scenario 26 --nodes 1 --profile mixed > "
        ),
        "{reproduce}"
    );
}

#[test]
fn an_unsafe_variant_names_the_broken_invariants_and_reproduces_the_first_failing_seed() {
    let output = quorumlab(&[
        "sweep",
        "--protocol",
        "lock-service",
        "--variant",
        "no-fencing",
        "--seeds",
        "12",
        "--chaos",
    ]);
    assert_eq!(output.status.code(), Some(1), "a failing seed exits 1");
    let report = json(&output);
    assert!(report["failing_seed_count"].as_u64().unwrap() > 0);
    assert!(
        report["violations_per_invariant"]["Mutual Exclusion"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert!(
        report["failing_seeds_per_invariant"]["Mutual Exclusion"]
            .as_u64()
            .unwrap()
            > 0
    );
    let seed = report["first_failing_seed"].as_u64().unwrap();
    assert_eq!(report["failing_seeds"][0], seed);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("seed {seed} failed")), "{stderr}");

    // The reproduce command: emit the seed's scenario, run it, same violations and trace hash.
    let reproduce = report["reproduce"].as_str().unwrap();
    assert!(reproduce.contains("--variant no-fencing"), "{reproduce}");
    assert_eq!(
        argument_after(reproduce, "--emit-scenario"),
        seed.to_string()
    );
    let emit_args: Vec<&str> = reproduce
        .split(" > ")
        .next()
        .unwrap()
        .split_whitespace()
        .skip(1)
        .collect();
    let emitted = quorumlab(&emit_args);
    assert_eq!(emitted.status.code(), Some(0));
    let text = String::from_utf8(emitted.stdout).unwrap();
    let scenario = parse_scenario(&text, "emitted.toml").unwrap_or_else(|error| panic!("{error}"));
    let options = LockChaosOptions {
        variant: "no-fencing",
        ..lock_chaos_options("lock-service", true).unwrap()
    };
    let outcome = run_lock_seed(seed, &options).unwrap();
    let rerun = run_scenario(&scenario).unwrap();
    assert_eq!(rerun.world.trace_hash, outcome.trace_hash);
    assert!(rerun.world.violation_counts["Mutual Exclusion"] > 0);
}

/// `--emit-scenario` writes each protocol's chaos scenario as a file that runs to the very same trace.
#[test]
fn emitted_coordination_scenarios_rerun_to_the_same_trace_hash() {
    let every_variant = registry::ENTRIES.iter().flat_map(|entry| {
        let default = entry.sweep.default_variant().name;
        entry.sweep.variants.iter().filter_map(move |variant| {
            let options = LockChaosOptions::new(entry.kind, variant.name)?;
            let flags: Vec<&str> = if variant.name == default {
                Vec::new()
            } else {
                vec!["--variant", variant.name]
            };
            Some((entry.name, options, flags))
        })
    });
    for (protocol, options, flags) in every_variant {
        let mut args = vec![
            "sweep",
            "--protocol",
            protocol,
            "--emit-scenario",
            "7",
            "--chaos",
        ];
        args.extend(&flags);
        let output = quorumlab(&args);
        assert_eq!(output.status.code(), Some(0), "{protocol} {flags:?}");
        let text = String::from_utf8(output.stdout).unwrap();
        let scenario = parse_scenario(&text, "emitted.toml")
            .unwrap_or_else(|error| panic!("{protocol} {flags:?}: {error}"));
        assert_eq!(scenario.protocol_name(), protocol);
        assert_eq!(
            scenario,
            lock_sweep_scenario(7, &options).unwrap(),
            "{protocol} {flags:?}: the file is the sweep's scenario"
        );
        // That is the generator's schedule, step for step: it draws nothing a file cannot say.
        let generated = lock_chaos_scenario(7, &options);
        assert_eq!(scenario.timing, generated.timing, "{protocol} {flags:?}");
        assert_eq!(scenario.steps, generated.steps, "{protocol} {flags:?}");
        // The file reruns the sweep's own run of that seed.
        assert_eq!(
            run_scenario(&scenario).unwrap().world.trace_hash,
            run_lock_seed(7, &options).unwrap().trace_hash,
            "{protocol} {flags:?}"
        );
        let mut sweep_args = vec![
            "sweep",
            "--protocol",
            protocol,
            "--seeds",
            "1",
            "--first-seed",
            "7",
            "--chaos",
        ];
        sweep_args.extend(&flags);
        let report = json(&quorumlab(&sweep_args));
        assert_eq!(report["seeds"], 1, "{protocol} {flags:?}");
    }
}

#[test]
fn coordination_sweep_flags_are_checked() {
    assert_bad_input(
        &quorumlab(&[
            "sweep",
            "--protocol",
            "redis-lock",
            "--nodes",
            "3",
            "--seeds",
            "1",
        ]),
        &["--nodes 3", "exactly 1 server"],
    );
    assert_bad_input(
        &quorumlab(&[
            "sweep",
            "--protocol",
            "lock-service",
            "--nodes",
            "46",
            "--seeds",
            "1",
        ]),
        &["--nodes 46", "1 to 45"],
    );
    assert_bad_input(
        &quorumlab(&[
            "sweep",
            "--protocol",
            "redlock",
            "--variant",
            "no-fencing",
            "--seeds",
            "1",
        ]),
        &[
            "redlock has no variant `no-fencing`",
            "expected `honest-servers` or `server-time-faults`",
        ],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--variant", "no-fencing", "--seeds", "1"]),
        &["raft has no variant `no-fencing`"],
    );
    assert_bad_input(
        &quorumlab(&[
            "sweep",
            "--protocol",
            "zookeeper",
            "--variant",
            "mob",
            "--seeds",
            "1",
        ]),
        &["`mob`", "expected `sequential` or `herd`"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--all", "--protocol", "raft"]),
        &["--protocol does not apply to --all"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--all", "--world", "multi-paxos", "--seeds", "1"]),
        &["--world multi-paxos is not a registered world; did you mean `paxos`?"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--world", "raft", "--seeds", "1"]),
        &["--world only applies to --all"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--holder-seeds", "5", "--seeds", "1"]),
        &["--holder-seeds only applies to --all"],
    );
    assert_bad_input(
        &quorumlab(&[
            "sweep",
            "--protocol",
            "scheduler",
            "--profile",
            "leader-churn",
            "--seeds",
            "1",
        ]),
        &["leader-churn", "expected `calm`, `mixed` or `holders`"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--protocol", "multi-paxos", "--seeds", "1"]),
        &["unknown protocol `multi-paxos`; did you mean `paxos`?"],
    );
    assert_bad_input(
        &quorumlab(&["sweep", "--protocol", "lock_servce", "--seeds", "1"]),
        &["unknown protocol `lock_servce`; did you mean `lock-service`?"],
    );
}

/// A table row without its seeds/s column, the one figure that depends on the machine.
fn row_without_rate(line: &str) -> String {
    let cells: Vec<&str> = line.split('|').collect();
    // The holder table has one column more than the chaos table, before its rate.
    let rate_column = if cells.len() == 11 { 8 } else { 7 };
    cells
        .iter()
        .enumerate()
        .filter(|(index, _)| *index != rate_column)
        .map(|(_, cell)| *cell)
        .collect::<Vec<_>>()
        .join("|")
}

/// The rows of `world` in a `sweep --all` table, rates dropped.
fn world_rows(output: &Output, world: &str) -> Vec<String> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .filter(|line| line.starts_with(&format!("| {world} |")))
        .map(row_without_rate)
        .collect()
}

#[test]
fn a_world_swept_alone_prints_the_rows_it_has_in_the_whole_sweep() {
    let counts = ["--seeds", "3", "--raft-seeds", "3", "--holder-seeds", "3"];
    let whole = quorumlab(&[&["sweep", "--all"][..], &counts[..]].concat());
    assert!(
        whole.status.code().is_some(),
        "stderr: {}",
        String::from_utf8_lossy(&whole.stderr)
    );
    for world in ["raft", "lock-service", "zookeeper"] {
        let alone = quorumlab(&[&["sweep", "--all", "--world", world][..], &counts[..]].concat());
        let rows = world_rows(&alone, world);
        assert!(!rows.is_empty(), "{world} printed no rows alone");
        assert_eq!(
            rows,
            world_rows(&whole, world),
            "{world}'s rows differ alone"
        );
        let stdout = String::from_utf8_lossy(&alone.stdout);
        let other_rows = stdout
            .lines()
            .filter(|line| line.starts_with("| ") && !line.starts_with(&format!("| {world} |")))
            .filter(|line| !line.starts_with("| world |") && !line.starts_with("| ---"))
            .count();
        assert_eq!(
            other_rows, 0,
            "{world} alone printed other worlds: {stdout}"
        );
    }
}
