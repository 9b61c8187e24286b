//! The experiment the page runs in its worker gives, natively, exactly the result recorded in
//! `tests/fixtures/experiment-randomness-20.json`; `e2e/experiment.test.mjs` downloads the same
//! experiment's result from the browser's worker (wasm) and compares it with the same file. Together
//! they show an experiment's rows are the same natively and in wasm, to the microsecond.

use quorumlab::experiment::form::ExperimentForm;
use quorumlab::experiment::presets::preset;
use quorumlab::experiment::work::read;
use std::path::PathBuf;

const REGENERATE: &str = "QUORUMLAB_BLESS=1 cargo test -p quorumlab --test native_experiment";

/// The "5 ms or 50 ms of randomness?" preset cut to 20 trials per value (the e2e test does the same
/// through the form).
fn small_randomness_experiment() -> (String, &'static str) {
    let chosen = preset("randomness").expect("the preset exists");
    let form = ExperimentForm {
        trials: 20,
        ..(chosen.form)()
    };
    let scenario = chosen.scenario_toml.expect("a built-in scenario");
    (form.experiment_toml().expect("a valid form"), scenario)
}

#[test]
fn the_randomness_experiment_gives_the_recorded_result_natively() {
    let (experiment_toml, scenario_toml) = small_randomness_experiment();
    let experiment = read(&experiment_toml, scenario_toml).expect("the experiment reads");
    let result = experiment.run(|_| {}).expect("every trial runs");
    let json = serde_json::to_string(&result).expect("results serialize");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/experiment-randomness-20.json");
    if std::env::var_os("QUORUMLAB_BLESS").is_some() {
        std::fs::write(&fixture, format!("{json}\n")).expect("the fixture is writable");
        return;
    }
    let recorded = std::fs::read_to_string(&fixture).unwrap_or_else(|error| {
        panic!("{}: {error}; write it with {REGENERATE}", fixture.display())
    });
    assert!(
        recorded.trim_end() == json,
        "the experiment's result changed; if the engine's behaviour changed on purpose, {REGENERATE}"
    );
    // The recorded file must describe a real distribution, not an empty one.
    assert_eq!(result.rows.len(), 40);
    let median = |line: usize| result.lines[line].summary.median.expect("a median");
    assert!(
        median(0) > 2.0 * median(1),
        "5 ms of randomness is slower than 50 ms"
    );
}
