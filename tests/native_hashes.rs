//! The native half of the determinism contract (issue 3): every example scenario, run natively, gives
//! exactly the trace hash recorded in `tests/fixtures/expected-hashes.txt`. The browser half,
//! `web_determinism.rs`, checks the wasm build against the same file.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{
    every_scenario, fixture_behaviour_version, parse_fixture, render_fixture, run, Expected,
    FIXTURE_PATH, REGENERATE, SCENARIOS,
};
use quorumlab_sim::behaviour::BEHAVIOUR_VERSION;
use std::path::Path;

fn repo_path(relative: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

#[test]
fn every_example_scenario_is_compiled_in() {
    let mut on_disk: Vec<String> = std::fs::read_dir(repo_path("sim/scenarios"))
        .expect("sim/scenarios exists")
        .map(|entry| {
            entry
                .expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".toml"))
        .collect();
    on_disk.sort();
    let listed: Vec<String> = SCENARIOS.iter().map(|(name, _)| name.to_string()).collect();
    assert_eq!(
        listed, on_disk,
        "list every sim/scenarios/*.toml in tests/common/mod.rs SCENARIOS (sorted)"
    );
}

#[test]
fn native_trace_hashes_match_the_fixture() {
    let actual: Vec<Expected> = every_scenario()
        .iter()
        .map(|(name, text)| run(name, text))
        .collect();
    let path = repo_path(FIXTURE_PATH);
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    let expected = parse_fixture(&recorded);
    if std::env::var_os("QUORUMLAB_BLESS").is_some() {
        refuse_changed_runs_without_a_new_behaviour_version(&recorded, &expected, &actual);
        std::fs::write(&path, render_fixture(&actual)).expect("write the fixture");
        return;
    }
    assert_eq!(
        fixture_behaviour_version(&recorded),
        Some(BEHAVIOUR_VERSION),
        "{FIXTURE_PATH} was made with another BEHAVIOUR_VERSION than the engine's: regenerate it with \
         `{REGENERATE}`"
    );
    let differences: Vec<String> = actual
        .iter()
        .filter(|run| !expected.contains(run))
        .map(|run| {
            let was = expected.iter().find(|entry| entry.name == run.name);
            format!(
                "  {} native: {}; fixture: {}",
                run.name,
                run.line(),
                was.map_or("(missing)".to_string(), Expected::line)
            )
        })
        .collect();
    assert!(
        differences.is_empty() && expected.len() == actual.len(),
        "{FIXTURE_PATH} disagrees with the native run:\n{}\n\
         If the engine changed on purpose, regenerate it with `{REGENERATE}` and commit it \
         (the browser test then checks wasm against the new hashes).",
        differences.join("\n")
    );
}

/// Share links carry the behaviour version so that an old link replayed into a different run is said
/// to be one: a run that changed under the same version would be shown silently. New scenarios need no
/// bump; a changed hash of a scenario the fixture already had does.
fn refuse_changed_runs_without_a_new_behaviour_version(
    recorded: &str,
    expected: &[Expected],
    actual: &[Expected],
) {
    if fixture_behaviour_version(recorded) != Some(BEHAVIOUR_VERSION) {
        return;
    }
    let changed: Vec<&str> = actual
        .iter()
        .filter(|run| {
            expected
                .iter()
                .any(|was| was.name == run.name && was.trace_hash != run.trace_hash)
        })
        .map(|run| run.name.as_str())
        .collect();
    assert!(
        changed.is_empty(),
        "these runs changed: {}. Bump BEHAVIOUR_VERSION in sim/src/tooling/behaviour.rs (now \
         {BEHAVIOUR_VERSION}), then bless again: links made before will then say they replay differently.",
        changed.join(", ")
    );
}
