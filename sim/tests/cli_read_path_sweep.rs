//! `quorumlab sweep --linearizability [--read-path P]` as a user runs it: a verdict block per read
//! path and per history model, refused histories failing their seeds with a reproduce command that
//! names the path, the lock service's histories reported per model and under no read path, and clear
//! errors for flags that do not apply.

use serde_json::Value;
use std::process::{Command, Output};

fn quorumlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn report(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

#[test]
fn a_safe_path_passes_and_an_unsafe_one_fails_with_its_read_path_in_the_reproduce_command() {
    let sweep = |read_path: &str| {
        quorumlab(&[
            "sweep",
            "--profile",
            "reads",
            "--seeds",
            "6",
            "--linearizability",
            "--read-path",
            read_path,
        ])
    };
    let safe = sweep("read_index");
    assert_eq!(safe.status.code(), Some(0));
    let safe = report(&safe);
    let row = &safe["linearizability"]["read_index"];
    assert_eq!(row["seeds_checked"], 6);
    assert_eq!(row["not_linearizable"], 0);
    assert_eq!(row["undecided"], 0);
    assert_eq!(safe["linearizability"].as_object().unwrap().len(), 1);

    let unsafe_run = sweep("follower");
    assert_eq!(unsafe_run.status.code(), Some(1));
    let unsafe_report = report(&unsafe_run);
    let row = &unsafe_report["linearizability"]["follower"];
    let refused = row["not_linearizable"].as_u64().unwrap();
    assert!(refused > 0, "{row}");
    assert_eq!(
        row["first_not_linearizable_seeds"]
            .as_array()
            .unwrap()
            .len() as u64,
        refused
    );
    assert_eq!(
        unsafe_report["failing_seeds_per_invariant"]["Linearizable history"],
        refused
    );
    let reproduce = unsafe_report["reproduce"].as_str().unwrap();
    assert!(
        reproduce.contains("--profile reads --read-path follower"),
        "{reproduce}"
    );
}

#[test]
fn without_the_flag_no_history_is_checked_and_a_drawn_sweep_splits_by_path() {
    let plain = report(&quorumlab(&["sweep", "--chaos", "--seeds", "3"]));
    assert!(plain.get("linearizability").is_none());
    let drawn = report(&quorumlab(&[
        "sweep",
        "--chaos",
        "--seeds",
        "40",
        "--linearizability",
    ]));
    let rows = drawn["linearizability"].as_object().unwrap();
    let checked: u64 = rows
        .values()
        .map(|row| row["seeds_checked"].as_u64().unwrap())
        .sum();
    assert_eq!(checked, 40);
    assert!(
        rows.contains_key("log") && rows.contains_key("lease"),
        "{rows:?}"
    );
}

#[test]
fn flags_that_do_not_apply_are_refused() {
    let refused = |args: &[&str], fragment: &str| {
        let output = quorumlab(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(fragment), "{stderr}");
    };
    refused(
        &["sweep", "--seeds", "1", "--read-path", "quorum"],
        "--read-path: unknown read path `quorum`",
    );
    refused(
        &[
            "sweep",
            "--protocol",
            "redis-lock",
            "--seeds",
            "1",
            "--linearizability",
        ],
        "redis-lock has none",
    );
    refused(
        &[
            "sweep",
            "--protocol",
            "lock-service",
            "--seeds",
            "1",
            "--read-path",
            "lease",
        ],
        "--read-path applies to a plain Raft sweep",
    );
    refused(
        &[
            "sweep",
            "--variant",
            "liar",
            "--seeds",
            "1",
            "--linearizability",
        ],
        "does not apply to a Raft sweep with a liar",
    );
}

/// A lock-service sweep aimed at holders (`--profile holders`): `variant`'s report.
fn lock_sweep(variant: &str) -> (Option<i32>, Value) {
    let output = quorumlab(&[
        "sweep",
        "--protocol",
        "lock-service",
        "--variant",
        variant,
        "--profile",
        "holders",
        "--seeds",
        "4",
        "--linearizability",
    ]);
    (output.status.code(), report(&output))
}

/// A lease without fencing lets a paused holder's late write land over its successor's: the fenced
/// store's history is refused in the seeds, while the lock grants stay linearizable (the service
/// granted one holder at a time; only the store forgot to check). With fencing no history is refused.
/// Neither is filed under a read path: the workers never read through one.
#[test]
fn the_lock_service_reports_its_histories_per_model_and_fencing_keeps_them_linearizable() {
    let (code, unfenced) = lock_sweep("no-fencing");
    assert_eq!(code, Some(1));
    assert!(unfenced.get("linearizability").is_none(), "{unfenced}");
    let store = &unfenced["history_models"]["fenced store"];
    assert_eq!(store["seeds_checked"], 4);
    let refused = store["not_linearizable"].as_u64().unwrap();
    assert!(refused > 0, "{store}");
    assert_eq!(
        store["first_not_linearizable_seeds"]
            .as_array()
            .unwrap()
            .len() as u64,
        refused
    );
    assert_eq!(
        unfenced["failing_seeds_per_invariant"]["Linearizable history"],
        refused
    );
    let grants = &unfenced["history_models"]["lock"];
    assert_eq!(
        (&grants["seeds_checked"], &grants["not_linearizable"]),
        (&Value::from(4), &Value::from(0))
    );

    let (code, fenced) = lock_sweep("fencing");
    assert_eq!(code, Some(0), "{fenced}");
    for model in ["fenced store", "lock"] {
        let row = &fenced["history_models"][model];
        assert_eq!(row["seeds_checked"], 4, "{model}: {row}");
        assert_eq!(row["not_linearizable"], 0, "{model}: {row}");
        assert_eq!(row["undecided"], 0, "{model}: {row}");
        assert_eq!(row["linearizable"], 4, "{model}: {row}");
    }
}

#[test]
fn a_raft_sweep_reports_its_one_model_beside_its_read_paths() {
    let output = quorumlab(&["sweep", "--seeds", "3", "--linearizability"]);
    let raft = report(&output);
    let models = raft["history_models"].as_object().unwrap();
    assert_eq!(models.keys().collect::<Vec<_>>(), ["key-value store"]);
    assert_eq!(models["key-value store"]["seeds_checked"], 3);
    let by_path: u64 = raft["linearizability"]
        .as_object()
        .unwrap()
        .values()
        .map(|row| row["seeds_checked"].as_u64().unwrap())
        .sum();
    assert_eq!(by_path, 3, "every seed under the read path it drew");
}
