//! Histories in and out (issue 33, item 5): a run's client history exported as Jepsen-style lines
//! reads back to the same ops with the same verdict; bad files are refused with the line and column
//! of the first error, quickly, whatever their size; and `quorumlab history check` prints the verdict.

use quorumlab_sim::client_history::{Op, OpEnd, Unknown};
use quorumlab_sim::history_summary::summarize_imported;
use quorumlab_sim::linearizable::export::export_history;
use quorumlab_sim::linearizable::import::{import_history, MAX_IMPORT_LINES, MAX_LINE_CHARS};
use quorumlab_sim::linearizable::Budget;
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::{example_text, parse_scenario};
use quorumlab_sim::World;
use std::process::Command;
use std::time::Instant;

fn world_of(example: &str) -> World {
    let scenario = parse_scenario(example_text(example).expect("an example"), example).unwrap();
    let mut run = ScenarioRun::new(scenario).unwrap();
    run.run_to_end();
    run.world().clone()
}

/// What an op is once written and read back: the file keeps no failure reason and calls every
/// unknown that has an ending instant a timeout.
fn as_read_back(op: &Op) -> Op {
    let mut op = *op;
    op.end = match op.end {
        OpEnd::Failed(_) => OpEnd::Failed(quorumlab_sim::linearizable::import::IMPORTED_FAILURE),
        OpEnd::Unknown(_) if op.completed.is_some() => OpEnd::Unknown(Unknown::Timeout),
        other => other,
    };
    op
}

/// The ops with their positions renumbered 1, 2, … in order, as a file gives them.
fn renumbered(ops: &[Op]) -> Vec<Op> {
    let mut positions: Vec<u64> = ops
        .iter()
        .flat_map(|op| {
            [
                Some(op.invoked.position),
                op.completed.map(|done| done.position),
            ]
        })
        .flatten()
        .collect();
    positions.sort_unstable();
    let rank = |position: u64| positions.binary_search(&position).unwrap() as u64 + 1;
    ops.iter()
        .map(|op| {
            let mut op = as_read_back(op);
            op.invoked.position = rank(op.invoked.position);
            if let Some(done) = op.completed.as_mut() {
                done.position = rank(done.position);
            }
            op
        })
        .collect()
}

#[test]
fn an_exported_history_reads_back_to_the_same_ops_and_verdict() {
    for (example, verdict) in [
        ("stale-lease-read.toml", "not linearizable"),
        ("lease-reads.toml", "linearizable"),
    ] {
        let world = world_of(example);
        let ops = world.client_log().ops();
        assert!(ops.len() > 10, "{example}: a history worth the name");
        let text = export_history(&ops, &|node| world.node_label(node));
        let imported = import_history(&text).unwrap_or_else(|error| panic!("{example}: {error}"));
        assert_eq!(imported, renumbered(&ops), "{example}: the same ops");
        let name = |node| world.node_label(node);
        assert_eq!(
            export_history(&imported, &name),
            text,
            "{example}: written again alike"
        );
        let check = world.linearizability(Budget::NATIVE).unwrap();
        let summary = summarize_imported(&imported, Budget::NATIVE).unwrap();
        assert_eq!(summary.verdict, verdict, "{example}: {}", summary.words);
        let own = quorumlab_sim::history_summary::summarize(&world, &check);
        assert_eq!(own.verdict, summary.verdict, "{example}");
        assert_eq!(
            own.refused.map(|refused| refused.witness),
            summary.refused.map(|refused| refused.witness)
        );
    }
}

#[test]
fn json_lines_and_jepsen_extras_read_like_edn() {
    let edn = "{:process 0, :type :invoke, :f :write, :value 3}\n\
               {:process :nemesis, :type :info, :f :start, :value nil}\n\
               {:process 0, :type :ok, :f :write, :value 3, :index 2}\n\
               {:process 1, :type :invoke, :f :read, :value nil}\n\
               {:process 1, :type :ok, :f :read, :value 3}\n";
    let json = r#"{"process": 0, "type": "invoke", "f": "write", "value": 3}
{"process": 0, "type": "ok", "f": "write", "value": 3}

{"process": 1, "type": "invoke", "f": "read", "value": null}
{"process": 1, "type": "ok", "f": "read", "value": 3, "error": {"why": ["none"]}}
"#;
    let from_edn = import_history(edn).unwrap();
    assert_eq!(from_edn.len(), 2);
    assert_eq!(from_edn, import_history(json).unwrap());
    assert_eq!(
        summarize_imported(&from_edn, Budget::NATIVE)
            .unwrap()
            .verdict,
        "linearizable"
    );
    let stale = format!("{edn}{{:process 1, :type :invoke, :f :write, :value 4}}\n{{:process 1, :type :ok, :f :write, :value 4}}\n{{:process 2, :type :invoke, :f :read, :value nil}}\n{{:process 2, :type :ok, :f :read, :value 3}}\n");
    let summary = summarize_imported(&import_history(&stale).unwrap(), Budget::NATIVE).unwrap();
    assert_eq!(summary.verdict, "not linearizable", "{}", summary.words);
    assert!(summary.words.contains("older value"), "{}", summary.words);
}

#[test]
fn every_bad_file_names_the_line_and_column_of_its_first_error() {
    let ok_invoke = "{:process 0, :type :invoke, :f :write, :value [1 5], :time 10}";
    let cases: Vec<(String, usize, usize, &str)> = vec![
        ("{:process 0 :type}".into(), 1, 18, "no value"),
        (
            format!("{ok_invoke}\n{{:process 0, :type :invoke, :f :read, :time 20}}"),
            2,
            1,
            "still open",
        ),
        (
            "{:process 3, :type :ok, :f :read, :value 1}".into(),
            1,
            1,
            "never invoked",
        ),
        (
            "{:process 0, :type :maybe, :f :read}".into(),
            1,
            20,
            ":type must be",
        ),
        (
            "{:process 0, :type :invoke, :f :cas, :value [1 2]}".into(),
            1,
            32,
            ":f :cas",
        ),
        (
            "{:process -1, :type :invoke, :f :read}".into(),
            1,
            11,
            "from 0",
        ),
        ("{:type :invoke, :f :read}".into(), 1, 1, "no :process"),
        (
            format!("{ok_invoke}\n{{:process 0, :type :ok, :f :write, :value [1 5], :time 5}}"),
            2,
            1,
            "earlier",
        ),
        (
            format!("{ok_invoke}\n{{:process 1, :type :invoke, :f :read, :value [1 nil]}}"),
            2,
            1,
            "no :time",
        ),
        (
            format!("{ok_invoke}\n{{:process 0, :type :ok, :f :write, :value [2 5], :time 20}}"),
            2,
            1,
            "differs",
        ),
        (
            "{:process 0, :type :invoke, :f :write, :value [1 2 3]}".into(),
            1,
            47,
            "pair",
        ),
        (
            "{:process 0, :type :invoke, :f :write, :value 1.5}".into(),
            1,
            47,
            "whole",
        ),
        (
            "{:process 0, :type :invoke, :f :write}".into(),
            1,
            1,
            "needs the value",
        ),
        (
            format!("\n\n{}", "x".repeat(MAX_LINE_CHARS + 10)),
            3,
            MAX_LINE_CHARS + 1,
            "longer",
        ),
        (
            "{:process 0, :type :invoke, :f :write, :value [1 5] } }".into(),
            1,
            55,
            "after the map",
        ),
    ];
    for (text, line, column, words) in cases {
        let error = import_history(&text).expect_err(&text);
        assert_eq!(
            (error.line, error.column),
            (line, column),
            "{text:?}: {error}"
        );
        assert!(error.message.contains(words), "{text:?}: {error}");
        assert!(error
            .to_string()
            .starts_with(&format!("line {line}, column {column}: ")));
        assert!(error.to_string().len() < 300, "short: {error}");
    }
}

#[test]
fn huge_or_hostile_files_are_refused_quickly() {
    let started = Instant::now();
    let many = "{:process 0, :type :invoke, :f :read}\n".repeat(MAX_IMPORT_LINES + 1);
    let error = import_history(&many).unwrap_err();
    assert_eq!(error.line, 2, "process 0 invokes twice: {error}");
    let lines: String = (0..=MAX_IMPORT_LINES)
        .map(|process| format!("{{:process {process}, :type :invoke, :f :read}}\n"))
        .collect();
    let error = import_history(&lines).unwrap_err();
    assert_eq!(error.line, MAX_IMPORT_LINES + 1, "{error}");
    let deep = format!("{{:value {}1{}}}", "[".repeat(100), "]".repeat(100));
    assert!(import_history(&deep)
        .unwrap_err()
        .message
        .contains("deeper"));
    let huge = " ".repeat(9 * 1024 * 1024);
    assert!(import_history(&huge).unwrap_err().message.contains("bytes"));
    assert!(
        started.elapsed().as_secs() < 20,
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn the_command_line_checks_a_file_and_refuses_a_bad_one() {
    let world = world_of("stale-lease-read.toml");
    let text = export_history(&world.client_log().ops(), &|node| world.node_label(node));
    let directory = std::env::temp_dir().join(format!("quorumlab-history-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let good = directory.join("stale.edn");
    std::fs::write(&good, text).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args(["history", "check", good.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["verdict"], "not linearizable");
    assert_eq!(json["refused"]["stuck"]["served_by"], "n5");
    assert!(json["check_ms"].as_f64().is_some());
    let bad = directory.join("bad.edn");
    std::fs::write(
        &bad,
        "{:process 0, :type :invoke, :f :read}\n{:process 0 :type",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args(["history", "check", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 2, column 18"), "{stderr}");
}
