//! Keeps the relocations in the app's linked wasm, which the code-splitting step reads.
//!
//! `scripts/build/split-app.mjs` (Trunk's post_build hook) moves each lazily loaded function out of the
//! first module with `tools/wasm-split`, and it can only move code whose references the linker wrote
//! down (`--emit-relocs`). A link argument for one binary, not a RUSTFLAGS entry: every other build (the
//! experiments' worker, the tests, clippy) and every dependency's compiled code stay exactly as they
//! were, so nothing else is rebuilt or grows.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target_arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if target_arch == "wasm32" {
        println!("cargo:rustc-link-arg-bin=quorumlab-app=--emit-relocs");
    }
}
