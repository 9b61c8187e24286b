//! The experiments the page runs in its worker give, natively, exactly the results recorded in
//! `tests/fixtures/experiment-*.json`; `e2e/experiment.test.mjs` downloads the same experiments'
//! results from the browser's worker (wasm) and compares them with the same files. Together they
//! show an experiment's rows are the same natively and in wasm, to the microsecond (and, for a
//! count, to the thousandth of a message).

use quorumlab::experiment::form::ExperimentForm;
use quorumlab::experiment::presets::preset;
use quorumlab::experiment::work::read;
use quorumlab_sim::experiment::ExperimentResult;
use std::path::PathBuf;

const REGENERATE: &str = "QUORUMLAB_BLESS=1 cargo test -p quorumlab --test native_experiment";

/// A preset cut to 20 trials per value (the e2e test does the same through the form), run natively
/// and compared with (or, blessed, written to) its fixture.
fn run_small_preset(preset_id: &str, fixture_name: &str) -> ExperimentResult {
    let chosen = preset(preset_id).expect("the preset exists");
    let form = ExperimentForm {
        trials: 20,
        ..(chosen.form)()
    };
    let scenario = chosen.scenario_toml.expect("a built-in scenario");
    let experiment_toml = form.experiment_toml().expect("a valid form");
    let experiment = read(&experiment_toml, scenario).expect("the experiment reads");
    let result = experiment.run(|_| {}).expect("every trial runs");
    let json = serde_json::to_string(&result).expect("results serialize");
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/{fixture_name}"));
    if std::env::var_os("QUORUMLAB_BLESS").is_some() {
        std::fs::write(&fixture, format!("{json}\n")).expect("the fixture is writable");
        return result;
    }
    let recorded = std::fs::read_to_string(&fixture).unwrap_or_else(|error| {
        panic!("{}: {error}; write it with {REGENERATE}", fixture.display())
    });
    assert!(
        recorded.trim_end() == json,
        "{preset_id}: the experiment's result changed; if the engine's behaviour changed on purpose, {REGENERATE}"
    );
    result
}

#[test]
fn the_randomness_experiment_gives_the_recorded_result_natively() {
    let result = run_small_preset("randomness", "experiment-randomness-20.json");
    // The recorded file must describe a real distribution, not an empty one.
    assert_eq!(result.rows.len(), 40);
    let median = |line: usize| result.lines[line].summary.median.expect("a median");
    assert!(
        median(0) > 2.0 * median(1),
        "5 ms of randomness is slower than 50 ms"
    );
}

#[test]
fn the_messages_per_commit_experiment_gives_the_recorded_count_natively() {
    let result = run_small_preset("messages-per-commit", "experiment-messages-20.json");
    assert_eq!(result.rows.len(), 60);
    assert!(result.rows.iter().all(|row| row.measured.is_some()));
    let median = |line: usize| result.lines[line].summary.median.expect("a median");
    // Every write costs at least an append to each of four followers and its reply; a heartbeat
    // every 10 ms adds messages to the window the writes wait in.
    assert!(median(2) >= 8.0, "{}", median(2));
    assert!(median(0) > median(2), "{} vs {}", median(0), median(2));
}
