//! The native half of "native = wasm over 1,000 chaos seeds per world" (issue 17): every registry
//! world's digest of the trace hashes of seeds 1 to 1,000 of its short chaos runs
//! (`quorumlab_sim::chaos_digest`), run natively, equals the one recorded in
//! `tests/fixtures/chaos-digests.txt`. The browser half, `web_determinism.rs`, checks the wasm build
//! against the same file.
#![cfg(not(target_arch = "wasm32"))]

use quorumlab_sim::chaos_digest::{every_world_digest, parse_digests, WorldDigest, DIGEST_SEEDS};
use std::path::Path;

const FIXTURE_PATH: &str = "tests/fixtures/chaos-digests.txt";
const REGENERATE: &str = "QUORUMLAB_BLESS=1 cargo test -p quorumlab --test native_chaos_digests";

fn fixture_text(digests: &[WorldDigest]) -> String {
    let mut text = format!(
        "# FNV-1a digest of the trace hashes of chaos seeds 1-{DIGEST_SEEDS} per registry world (the default sweep\n\
         # configuration, mixed profile, short runs: quorumlab_sim::chaos_digest), from a native run: WORLD DIGEST SEEDS.\n\
         # tests/native_chaos_digests.rs checks them natively, tests/web_determinism.rs in the browser (wasm32).\n\
         # Regenerate after a deliberate engine change: {REGENERATE}\n"
    );
    for digest in digests {
        text.push_str(&digest.line());
        text.push('\n');
    }
    text
}

#[test]
fn native_chaos_digests_match_the_fixture() {
    let actual = every_world_digest(DIGEST_SEEDS).expect("every chaos seed runs");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE_PATH);
    if std::env::var_os("QUORUMLAB_BLESS").is_some() {
        std::fs::write(&path, fixture_text(&actual)).expect("write the fixture");
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    let expected =
        parse_digests(&recorded).unwrap_or_else(|error| panic!("{FIXTURE_PATH}: {error}"));
    assert_eq!(
        expected,
        actual,
        "{FIXTURE_PATH} disagrees with the native run. If the engine changed on purpose, regenerate it \
         with `{REGENERATE}` and commit it (the browser test then checks wasm against the new digests)."
    );
}
