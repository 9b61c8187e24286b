//! The measures beyond a crash: an election after pausing or isolating the leader, messages per
//! committed entry (a count, not a time), and a lesson checkpoint's time to tick. Each refuses bad
//! input in one line, runs deterministically, and each trial replays as its own scenario.

use quorumlab_sim::action::Action;
use quorumlab_sim::experiment::{
    parse_experiment, run_trial, to_csv, trial_scenario, Experiment, Outcome, Unit,
};
use quorumlab_sim::runner::ScenarioRun;
use quorumlab_sim::scenario::parse_scenario;

const CLUSTER: &str = "protocol = \"raft\"\nnodes = 5\nduration_ms = 1000\n\n[timing]\n\
network_delay_ms = [1, 2]\npersist_ms = [2, 4]\ntimer_jitter_us = 1000\n";

const ACTION_FILE: &str =
    "scenario = \"cluster.toml\"\nmeasure = \"election_after_action\"\ntrials = 8\n\
bound_ms = 5000\n\n[action]\nkind = \"pause\"\nsettle_ms = 300\nwrites = 2\n\n[sweep]\n\
key = \"election_timeout_ms\"\nvalues = [[150, 300]]\nheartbeat = \"half_min\"\n";

const MESSAGES_FILE: &str =
    "scenario = \"cluster.toml\"\nmeasure = \"messages_per_commit\"\ntrials = 6\n\
bound_ms = 5000\nwrites = 1\n\n[sweep]\nkey = \"persist_ms\"\nvalues = [[0, 0], [2, 4]]\n";

const CHECKPOINT_FILE: &str =
    "scenario = \"cluster.toml\"\nmeasure = \"checkpoint_time\"\ncheckpoint = \"term_at_least(1)\"\n\
trials = 6\nbound_ms = 5000\n\n[sweep]\nkey = \"election_timeout_ms\"\nvalues = [[150, 300]]\n";

fn experiment(text: &str) -> Result<Experiment, String> {
    let cluster = parse_scenario(CLUSTER, "cluster.toml").expect("the cluster parses");
    parse_experiment(text, "small.toml")?.with_scenario(cluster)
}

/// Replays trial `trial` of line 0 as a scenario and returns the first leader elected at or after
/// `from_ms` in a term above every term before it, with the scenario's last step.
fn replayed_leader_after(experiment: &Experiment, trial: u64, from_ms: u64) -> (u64, Action) {
    let scenario = trial_scenario(experiment, 0, trial).expect("a scenario");
    let action = scenario
        .steps
        .last()
        .expect("the action step")
        .action
        .clone();
    let mut run = ScenarioRun::new(scenario).expect("a valid scenario");
    run.run_to_end();
    let report = run.report();
    assert!(
        report.skipped_steps.is_empty(),
        "{:?}",
        report.skipped_steps
    );
    let before = report
        .world
        .leaders
        .iter()
        .filter(|leader| leader.elected_at_ms < from_ms);
    let struck_term = before
        .map(|leader| leader.term)
        .max()
        .expect("a first leader");
    let next = report
        .world
        .leaders
        .iter()
        .find(|leader| leader.elected_at_ms >= from_ms && leader.term > struck_term)
        .expect("a new leader");
    (next.elected_at_ms, action)
}

#[test]
fn pausing_or_isolating_the_leader_measures_the_next_leader_and_replays() {
    for kind in ["pause", "isolate"] {
        let file = ACTION_FILE.replace("\"pause\"", &format!("\"{kind}\""));
        let struck = experiment(&file).expect("valid");
        let result = struck.run(|_| {}).expect("runs");
        assert_eq!(result.action, Some(kind));
        assert_eq!(
            result.lines[0].summary.measured, 8,
            "{kind}: every trial elects"
        );
        let row = run_trial(&struck, 0, 2).expect("runs");
        assert_eq!(row.outcome, Outcome::Elected);
        let from_ms = row.from_us / 1_000;
        let (elected_ms, action) = replayed_leader_after(&struck, 2, from_ms);
        let expected = match kind {
            "pause" => matches!(
                action,
                Action::Pause {
                    duration_ms: None,
                    ..
                }
            ),
            _ => matches!(action, Action::Isolate { .. }),
        };
        assert!(expected, "{kind}: {action:?}");
        assert_eq!(
            elected_ms,
            from_ms + row.measured.unwrap() / 1_000,
            "{kind}"
        );
    }
}

#[test]
fn a_pause_shorter_than_the_election_timeout_elects_no_one_and_is_censored() {
    let short = ACTION_FILE.replace("settle_ms = 300", "settle_ms = 300\nresume_after_ms = 40");
    let result = experiment(&short)
        .expect("valid")
        .run(|_| {})
        .expect("runs");
    let summary = &result.lines[0].summary;
    assert_eq!((summary.measured, summary.censored), (0, 8), "{summary:?}");
    let long = ACTION_FILE.replace("settle_ms = 300", "settle_ms = 300\nresume_after_ms = 2000");
    let result = experiment(&long).expect("valid").run(|_| {}).expect("runs");
    assert_eq!(result.lines[0].summary.measured, 8);
    let healed = long.replace("\"pause\"", "\"isolate\"");
    let scenario = trial_scenario(&experiment(&healed).unwrap(), 0, 0).unwrap();
    let (isolate, heal) = (
        &scenario.steps[scenario.steps.len() - 2],
        scenario.steps.last().unwrap(),
    );
    assert!(matches!(isolate.action, Action::Isolate { .. }));
    assert_eq!(
        (heal.action.clone(), heal.at_ms),
        (Action::Heal, isolate.at_ms + 2000)
    );
}

#[test]
fn messages_per_commit_is_a_count_with_its_own_names() {
    let messages = experiment(MESSAGES_FILE).expect("valid");
    let result = messages.run(|_| {}).expect("runs");
    assert_eq!(result.unit, Unit::Count);
    for row in &result.rows {
        assert_eq!(row.outcome, Outcome::Measured);
        // One write to five servers: an append to each of four followers and its reply at least.
        let per_commit = row.measured.expect("measured");
        assert!((8_000..100_000).contains(&per_commit), "{row:?}");
    }
    assert_eq!(
        result,
        messages.run(|_| {}).expect("runs again"),
        "deterministic"
    );
    let json = serde_json::to_string(&result).unwrap();
    assert!(json.contains("\"unit\":\"count\"") && json.contains("\"measured_thousandths\""));
    assert!(
        !json.contains("measured_us") && !json.contains("median_ms"),
        "{json}"
    );
    let csv = to_csv(&result);
    assert!(
        csv.starts_with("persist_ms,seed,from_ms,outcome,measured_count\n"),
        "{csv}"
    );
    let scenario = trial_scenario(&messages, 1, 0).expect("a scenario");
    let writes = scenario.steps.last().expect("the writes");
    assert!(matches!(writes.action, Action::Request { count: 1, .. }));
    let ten = experiment(&MESSAGES_FILE.replace("writes = 1", "writes = 10")).unwrap();
    let scenario = trial_scenario(&ten, 0, 0).unwrap();
    assert!(matches!(
        scenario.steps.last().unwrap().action,
        Action::Request { count: 10, .. }
    ));
}

#[test]
fn a_checkpoint_ticks_when_its_condition_first_holds() {
    let ticks = experiment(CHECKPOINT_FILE).expect("valid");
    let first = experiment(
        &CHECKPOINT_FILE
            .replace("checkpoint_time", "first_election")
            .replace("checkpoint = \"term_at_least(1)\"\n", ""),
    )
    .expect("valid");
    for trial in 0..6 {
        let ticked = run_trial(&ticks, 0, trial).expect("runs");
        let elected = run_trial(&first, 0, trial).expect("runs");
        assert_eq!(ticked.outcome, Outcome::Measured);
        // A term of 1 begins with the first candidacy, at or before the first leader.
        assert!(ticked.measured <= elected.measured, "trial {trial}");
        assert!(ticked.measured > Some(100_000), "no term before a timeout");
    }
    let never = CHECKPOINT_FILE.replace("term_at_least(1)", "term_at_least(40)");
    let result = experiment(&never).unwrap().run(|_| {}).unwrap();
    assert_eq!(result.lines[0].summary.censored, 6);
    assert_eq!(result.checkpoint.as_deref(), Some("term_at_least(40)"));
}

#[test]
fn bad_values_for_the_new_measures_are_refused_in_one_line() {
    let cases = [
        (
            ACTION_FILE,
            "\"pause\"",
            "\"explode\"",
            "crash, pause, isolate",
        ),
        (
            ACTION_FILE,
            "writes = 2",
            "resume_after_ms = 0",
            "resume_after_ms = 0",
        ),
        (
            ACTION_FILE,
            "\"pause\"\n",
            "\"crash\"\nresume_after_ms = 5\n",
            "not undone",
        ),
        (
            ACTION_FILE,
            "[action]\nkind = \"pause\"\n",
            "[crash]\n",
            "needs an [action] table",
        ),
        (
            ACTION_FILE,
            "\"election_after_action\"",
            "\"election_after_crash\"",
            "[crash]",
        ),
        (
            MESSAGES_FILE,
            "writes = 1",
            "writes = 0",
            "writes = 0: 1 to 1000",
        ),
        (
            MESSAGES_FILE,
            "writes = 1",
            "writes = 1\ncheckpoint = \"leader_changed\"",
            "takes no checkpoint",
        ),
        (
            CHECKPOINT_FILE,
            "checkpoint = \"term_at_least(1)\"\n",
            "",
            "needs checkpoint",
        ),
        (
            CHECKPOINT_FILE,
            "trials = 6",
            "trials = 6\nwrites = 3",
            "takes no writes",
        ),
        (
            CHECKPOINT_FILE,
            "term_at_least(1)",
            "term_at_least(x)",
            "term_at_least(x)",
        ),
    ];
    for (file, good, bad, named) in cases {
        assert!(file.contains(good), "{good}");
        let error = experiment(&file.replacen(good, bad, 1)).expect_err(bad);
        assert!(error.contains(named), "{bad}: {error}");
        assert!(
            error.starts_with("small.toml") && !error.contains('\n'),
            "{error}"
        );
    }
    let unknown = CHECKPOINT_FILE.replace("term_at_least(1)", "leader_chnaged");
    let error = experiment(&unknown).expect_err("unknown");
    assert!(
        error.contains("unknown checkpoint `leader_chnaged`"),
        "{error}"
    );
    assert!(
        error.contains("the checkpoints are leader_changed, term_at_least"),
        "{error}"
    );
}

#[test]
fn a_checkpoint_experiment_may_watch_a_world_that_elects_no_leader() {
    let locks = parse_scenario(
        "protocol = \"redis-lock\"\nnodes = 1\nduration_ms = 1000\n",
        "redis.toml",
    )
    .expect("parses");
    let file = CHECKPOINT_FILE
        .replace("term_at_least(1)", "partitioned")
        .replace(
            "key = \"election_timeout_ms\"\nvalues = [[150, 300]]",
            "key = \"network_delay_ms\"\nvalues = [[1, 2]]",
        );
    let experiment = parse_experiment(&file, "small.toml")
        .unwrap()
        .with_scenario(locks)
        .expect("a checkpoint needs no leader");
    let result = experiment.run(|_| {}).expect("runs");
    assert_eq!(result.lines[0].summary.censored, 6, "nothing cuts a link");
}
