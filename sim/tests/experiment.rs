//! Experiment files (`quorumlab experiment`): they read, refuse bad input with one short line naming
//! the key, run deterministically, count censored trials, and every trial reopens as its own run.

use quorumlab_sim::experiment::{
    parse_experiment, run_trial, to_csv, trial_scenario, Experiment, Outcome,
};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;
use std::process::Command;

const CLUSTER: &str = "protocol = \"raft\"\nnodes = 5\nduration_ms = 1000\n\n[timing]\n\
network_delay_ms = [1, 2]\npersist_ms = [2, 4]\ntimer_jitter_us = 1000\n";

const FILE: &str =
    "title = \"small\"\nscenario = \"cluster.toml\"\nmeasure = \"election_after_crash\"\n\
trials = 12\nbound_ms = 5000\n\n[crash]\nsettle_ms = 300\nwrites = 2\n\n[sweep]\n\
key = \"election_timeout_ms\"\nvalues = [[150, 200], [12, 24]]\nheartbeat = \"half_min\"\n";

fn experiment(text: &str) -> Result<Experiment, String> {
    let cluster = parse_scenario(CLUSTER, "cluster.toml").expect("the cluster parses");
    parse_experiment(text, "small.toml")?.with_scenario(cluster)
}

#[test]
fn an_experiment_runs_the_same_twice_and_summarises_each_line() {
    let small = experiment(FILE).expect("valid");
    let first = small.run(|_| {}).expect("runs");
    let again = small.run(|_| {}).expect("runs");
    assert_eq!(first, again);
    assert_eq!(first.rows.len(), 24);
    assert_eq!(first.lines.len(), 2);
    assert_eq!(first.lines[0].value, "150-200");
    assert_eq!(first.lines[0].heartbeat_ms, 75);
    assert_eq!(first.lines[1].heartbeat_ms, 6);
    for line in &first.lines {
        let summary = &line.summary;
        assert_eq!(summary.trials, 12);
        assert_eq!(
            summary.measured + summary.censored + summary.no_leader_to_crash,
            12
        );
        assert!(summary.measured > 0);
        let median = summary.median.expect("a median");
        assert!(median <= summary.worst.unwrap());
    }
    // Short timeouts elect faster than long ones.
    assert!(first.lines[1].summary.median < first.lines[0].summary.median);
    let csv = to_csv(&first);
    assert!(csv.starts_with("election_timeout_ms,seed,from_ms,outcome,measured_ms\n"));
    assert_eq!(csv.lines().count(), 25);
}

#[test]
fn a_trial_reopens_as_its_own_run_with_the_same_crash_and_next_leader() {
    let small = experiment(FILE).expect("valid");
    let row = run_trial(&small, 0, 3).expect("runs");
    assert_eq!(row.outcome, Outcome::Elected);
    let scenario = trial_scenario(&small, 0, 3).expect("a scenario");
    let crash = scenario.steps.last().expect("the crash step").clone();
    assert_eq!(crash.at_ms * 1_000, row.from_us);
    let mut run = ScenarioRun::new(scenario).expect("a valid scenario");
    run.run_to_end();
    let report = run.report();
    assert!(report.skipped_steps.is_empty());
    let measured_ms = row.measured.unwrap() / 1_000;
    let next = report
        .world
        .leaders
        .iter()
        .find(|leader| leader.elected_at_ms * 1_000 >= row.from_us)
        .expect("a leader after the crash");
    assert_eq!(next.elected_at_ms, crash.at_ms + measured_ms);
}

#[test]
fn a_bound_too_short_for_any_election_censors_every_trial() {
    let text = FILE
        .replace("bound_ms = 5000", "bound_ms = 50")
        .replace("settle_ms = 300", "settle_ms = 300\nfirst_leader_ms = 5000");
    let tight = experiment(&text).expect("valid");
    let result = tight.run(|_| {}).expect("runs");
    let first_line = &result.lines[0].summary;
    assert_eq!(
        first_line.measured, 0,
        "a 150 ms timeout reset at most a heartbeat (75 ms) before the crash cannot elect within 50 ms"
    );
    assert_eq!(first_line.censored + first_line.no_leader_to_crash, 12);
    assert!(first_line.censored > 0);
    assert_eq!(first_line.median, None);
}

#[test]
fn bad_files_are_refused_in_one_short_line_naming_the_key() {
    let cases = [
        ("trials = 12", "trails = 12", "trails"),
        ("trials = 12", "trials = 0", "trials"),
        ("trials = 12", "trials = 10001", "trials"),
        ("[[150, 200], [12, 24]]", "[[200, 150]]", "min above max"),
        ("[[150, 200], [12, 24]]", "[[150]]", "two numbers"),
        ("[[150, 200], [12, 24]]", "[]", "values"),
        ("\"election_after_crash\"", "\"downtime\"", "measure"),
        (
            "key = \"election_timeout_ms\"",
            "key = \"election_ms\"",
            "key",
        ),
        (
            "heartbeat = \"half_min\"",
            "heartbeat = \"half\"",
            "heartbeat",
        ),
        ("bound_ms = 5000", "bound_ms = 0", "bound_ms"),
        ("bound_ms = 5000", "bound_ms = \"long\"", "bound_ms"),
        ("[crash]\nsettle_ms = 300\nwrites = 2\n", "", "[crash]"),
        ("writes = 2", "writes = 5000", "writes"),
        ("writes = 2", "first_leader_ms = 0", "first_leader_ms"),
    ];
    for (good, bad, named) in cases {
        assert!(FILE.contains(good), "{good}");
        let error = experiment(&FILE.replacen(good, bad, 1)).expect_err(bad);
        assert!(error.contains(named), "{bad}: {error}");
        assert!(error.starts_with("small.toml"), "{error}");
        assert!(error.len() < 200 && !error.contains('\n'), "{error}");
    }
}

#[test]
fn values_the_scenario_cannot_take_and_worlds_without_a_leader_are_refused() {
    let persist = FILE
        .replace("key = \"election_timeout_ms\"", "key = \"persist_ms\"")
        .replace("heartbeat = \"half_min\"\n", "")
        .replace("[[150, 200], [12, 24]]", "[[0, 0], [5, 20000]]");
    let error = experiment(&persist).expect_err("a disk of 20 s");
    assert!(
        error.contains("persist_ms") && error.contains("5-20000"),
        "{error}"
    );
    let half_min =
        persist.replace("[[0, 0], [5, 20000]]", "[[1, 2]]") + "heartbeat = \"half_min\"\n";
    let error = experiment(&half_min).expect_err("half_min on persist");
    assert!(error.contains("half_min"), "{error}");
    let redis = parse_scenario(
        "protocol = \"redis-lock\"\nnodes = 1\nduration_ms = 1000\n",
        "redis.toml",
    )
    .expect("parses");
    let error = parse_experiment(FILE, "small.toml")
        .unwrap()
        .with_scenario(redis)
        .expect_err("no leader");
    assert!(error.contains("elects no leader"), "{error}");
}

#[test]
fn the_command_writes_json_and_csv_and_refuses_a_missing_scenario() {
    let folder = std::env::temp_dir().join(format!("quorumlab-experiment-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("cluster.toml"), CLUSTER).unwrap();
    let file = folder.join("small.toml");
    std::fs::write(&file, FILE.replace("trials = 12", "trials = 3")).unwrap();
    let csv = folder.join("rows.csv");
    let output = Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args([
            "experiment",
            file.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["rows"].as_array().unwrap().len(), 6);
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 7);
    std::fs::remove_file(folder.join("cluster.toml")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_quorumlab"))
        .args(["experiment", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cluster.toml") && stderr.contains("cannot read"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

const COMMIT_FILE: &str =
    "scenario = \"cluster.toml\"\nmeasure = \"commit_latency\"\ntrials = 10\nbound_ms = 5000\n\n\
[sweep]\nkey = \"persist_ms\"\nvalues = [[0, 0], [30, 30]]\n";

#[test]
fn commit_latency_grows_with_the_disk_and_its_trial_replays_the_write() {
    let commits = experiment(COMMIT_FILE).expect("valid");
    let result = commits.run(|_| {}).expect("runs");
    let median = |line: usize| result.lines[line].summary.median.expect("a median");
    // A write waits for a majority's disks (the leader's own write runs alongside): 30 ms a write
    // adds about 30 ms to every commit. (Before a heartbeat's reply waited for a write still in
    // progress, followers acknowledged entries they had not finished writing: 7 ms here.)
    assert!(
        median(1) >= median(0) + 25.0,
        "{} vs {}",
        median(1),
        median(0)
    );
    assert!(result
        .rows
        .iter()
        .all(|row| row.outcome == Outcome::Acknowledged));
    let row = run_trial(&commits, 1, 2).expect("runs");
    let scenario = trial_scenario(&commits, 1, 2).expect("a scenario");
    let write = scenario.steps.last().expect("the write step");
    assert_eq!(write.at_ms * 1_000, row.from_us);
    assert!(matches!(
        write.action,
        quorumlab_sim::action::Action::Request { count: 1, .. }
    ));
    let mut replay = ScenarioRun::new(scenario).expect("the trial replays");
    replay.run_to_end();
    assert_eq!(replay.world().clients().counts.committed, 1);
}

#[test]
fn leaderless_time_counts_the_first_election_and_every_stretch_after() {
    let file = "scenario = \"cluster.toml\"\nmeasure = \"leaderless_time\"\ntrials = 5\nbound_ms = 3000\n\n\
[sweep]\nkey = \"election_timeout_ms\"\nvalues = [[150, 300]]\n";
    let leaderless = experiment(file).expect("valid");
    let first_file = file.replace("leaderless_time", "first_election");
    let first = experiment(&first_file).expect("valid");
    for trial in 0..5 {
        let total = run_trial(&leaderless, 0, trial).expect("runs");
        let to_first = run_trial(&first, 0, trial).expect("runs");
        assert_eq!(total.outcome, Outcome::Measured);
        // A calm cluster is leaderless only until its first leader.
        assert_eq!(total.measured, to_first.measured, "trial {trial}");
    }
    let with_crash = format!("{file}\n[crash]\nsettle_ms = 300\n");
    let refused = experiment(&with_crash).unwrap_err();
    assert!(
        refused.contains("measure \"leaderless_time\" takes no [crash] table"),
        "{refused}"
    );
}
