//! The browser half of the determinism contract (issue 3): "a browser test compares the wasm hash with
//! the native one for the same scenario". Each example scenario runs here, compiled to wasm32, in
//! headless Chromium; its trace hash must equal the native hash recorded in
//! `tests/fixtures/expected-hashes.txt` (which `native_hashes.rs` keeps honest). At scale (issue 17):
//! each registry world's digest of 1,000 short chaos seeds' trace hashes must equal the native one
//! recorded in `tests/fixtures/chaos-digests.txt` (kept honest by `native_chaos_digests.rs`).
#![cfg(target_arch = "wasm32")]

mod common;

use common::{every_scenario, parse_fixture, run, REGENERATE};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const FIXTURE: &str = include_str!("fixtures/expected-hashes.txt");
const CHAOS_DIGESTS: &str = include_str!("fixtures/chaos-digests.txt");

#[wasm_bindgen_test]
fn wasm_trace_hashes_equal_the_native_ones() {
    let expected = parse_fixture(FIXTURE);
    let names: Vec<&str> = expected.iter().map(|entry| entry.name.as_str()).collect();
    let scenarios = every_scenario();
    let compiled: Vec<&str> = scenarios.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names, compiled,
        "the fixture covers exactly the compiled-in scenarios ({REGENERATE})"
    );
    for ((name, text), native) in scenarios.iter().zip(&expected) {
        let wasm = run(name, text);
        assert_eq!(
            wasm, *native,
            "{name}: wasm32 run differs from the native run recorded in the fixture"
        );
    }
}

#[wasm_bindgen_test]
fn wasm_chaos_digests_equal_the_native_ones() {
    use quorumlab_sim::chaos_digest::{every_world_digest, parse_digests, DIGEST_SEEDS};
    let expected = parse_digests(CHAOS_DIGESTS).expect("the fixture parses");
    let wasm = every_world_digest(DIGEST_SEEDS).expect("every chaos seed runs");
    assert_eq!(
        wasm, expected,
        "wasm32 chaos digests differ from the native ones recorded in tests/fixtures/chaos-digests.txt"
    );
}

/// The guided lab (issue 36): a learner's script gives the same run in wasm as natively. The store's
/// wrong answer without a token check, on the fenced lock service's holder-aimed chaos seed 1; the
/// hash is the one `sim/tests/lab_determinism.rs` pins natively.
#[wasm_bindgen_test]
fn wasm_learner_script_run_equals_the_native_one() {
    use quorumlab_sim::chaos::holders::holder_run_prepared;
    use quorumlab_sim::chaos::locks::LockChaosOptions;
    use quorumlab_sim::config::ProtocolKind;
    use quorumlab_sim::contract::roles::Roles;
    use quorumlab_sim::lab::{RoleKind, ScriptRole};
    let source = RoleKind::StoreWrite.wrong_answers()[0].source;
    let role = ScriptRole::new(RoleKind::StoreWrite, source).expect("the script reads");
    let roles = Roles {
        store_write: Some(std::sync::Arc::new(role)),
        ..Roles::default()
    };
    let options = LockChaosOptions::new(ProtocolKind::LockService, "fencing").expect("a variant");
    let finished = holder_run_prepared(1, &options, &|world| {
        world.install_roles(&roles);
    })
    .expect("the seed runs");
    let hash = format!("{:016x}", finished.run.world().trace_hash());
    assert_eq!(
        hash, "c50b3e6b2595897c",
        "wasm32 differs from the native pinned run"
    );
}
