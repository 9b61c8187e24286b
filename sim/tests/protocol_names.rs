//! How far each world reaches outside its own folder, counted from the source and held to a ratchet.
//!
//! Issue 31 wants a protocol to live in one folder (`sim/src/protocols/<folder>/`). Today a world is
//! still named by engine, view, tooling and app files around it: a `match` arm on its
//! `ProtocolKind`/`ProtocolConfig` variant, a `crate::protocols::<folder>` import, a
//! `quorumlab_sim::<folder>` path in the app. This test counts, per world, the files outside its folder
//! (in `sim/src` and the app's `src`; comments, `#[cfg(test)]` modules and test files left out) that name it in any
//! of those ways, and compares the count with [`ALLOWED_FILES`]. A count above its row means a new file
//! learnt a world's name: give the world's folder the piece instead. A count below it means the
//! structure work moved a piece home: lower the row to the new count, so it can never creep back.

use std::collections::BTreeMap;
use std::path::Path;

#[path = "support/source.rs"]
mod source;
use source::{code_of, collect_sources, Source};

/// Each world: its `ProtocolKind`/`ProtocolConfig` variant and the folder under `sim/src/protocols/` it
/// lives in (the two Redis-style worlds share one).
const WORLDS: &[(&str, &str)] = &[
    ("Raft", "raft"),
    ("LockService", "lockservice"),
    ("RedisLock", "redlock"),
    ("Redlock", "redlock"),
    ("Scheduler", "scheduler"),
    ("Zookeeper", "zookeeper"),
    ("WorkQueue", "work_queue"),
    ("Paxos", "paxos"),
    ("Pbft", "pbft"),
    ("TwoPhaseCommit", "two_phase_commit"),
];

/// The ratchet: per world, how many files outside its folder may name it (measured 2026-12-06 at the
/// start of issue 31). Only ever lowered.
const ALLOWED_FILES: &[(&str, usize)] = &[
    ("Raft", 14),
    ("LockService", 29),
    ("RedisLock", 12),
    ("Redlock", 12),
    ("Scheduler", 11),
    ("Zookeeper", 10),
    ("WorkQueue", 6),
    ("Paxos", 7),
    ("Pbft", 9),
    ("TwoPhaseCommit", 4),
];

/// Whether `code` has `word` followed by something that cannot continue an identifier.
fn names(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(start, _)| {
        let after = code[start + word.len()..].chars().next();
        let before = code[..start].chars().next_back();
        let ends = !after.is_some_and(|next| next.is_alphanumeric() || next == '_');
        let begins = !before.is_some_and(|previous| previous.is_alphanumeric() || previous == '_');
        ends && begins
    })
}

/// Test files (a `tests/` folder or a `tests.rs` beside the code) may name any world.
fn is_test_file(path: &str) -> bool {
    path.contains("/tests/") || path.ends_with("/tests.rs")
}

/// Whether a file's code names the world `variant` living in `folder`.
fn names_world(code: &str, variant: &str, folder: &str) -> bool {
    [
        format!("ProtocolKind::{variant}"),
        format!("ProtocolConfig::{variant}"),
        format!("protocols::{folder}"),
        format!("quorumlab_sim::{folder}"),
    ]
    .iter()
    .any(|word| names(code, word))
}

/// Per world, the files outside its folder that name it. `sources` carry paths like
/// `sim/src/engine/world/mod.rs` and `src/app.rs`.
fn files_naming_each_world(sources: &[Source]) -> BTreeMap<&'static str, Vec<String>> {
    let mut found = BTreeMap::new();
    for (variant, folder) in WORLDS {
        let home = format!("sim/src/protocols/{folder}/");
        let files = sources
            .iter()
            .filter(|source| !source.path.starts_with(&home) && !is_test_file(&source.path))
            .filter(|source| names_world(&code_of(&source.text), variant, folder))
            .map(|source| source.path.clone())
            .collect();
        found.insert(*variant, files);
    }
    found
}

/// The engine's sources (CLI included: it is the engine's too) and the app's, as one list.
fn project_sources() -> Vec<Source> {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("sim/ sits in the project")
        .to_path_buf();
    let mut sources = Vec::new();
    for folder in ["sim/src", "src"] {
        collect_sources(&project, &project.join(folder), &mut sources);
    }
    sources
}

/// What is wrong with `found` against the ratchet, one sentence per world; empty when it holds.
fn ratchet_breaches(found: &BTreeMap<&str, Vec<String>>, allowed: &[(&str, usize)]) -> Vec<String> {
    let mut breaches = Vec::new();
    for (variant, files) in found {
        let limit = allowed
            .iter()
            .find(|(name, _)| name == variant)
            .map_or(0, |(_, limit)| *limit);
        if files.len() > limit {
            breaches.push(format!(
                "{variant} is named by {} files outside its folder, {limit} allowed: {files:?}",
                files.len()
            ));
        } else if files.len() < limit {
            breaches.push(format!(
                "{variant} is named by {} files outside its folder now: lower its row in ALLOWED_FILES from {limit} to {}",
                files.len(),
                files.len()
            ));
        }
    }
    breaches
}

#[test]
fn no_world_is_named_outside_its_folder_by_more_files_than_before() {
    let sources = project_sources();
    assert!(sources.len() > 300, "read only {} files", sources.len());
    let found = files_naming_each_world(&sources);
    let breaches = ratchet_breaches(&found, ALLOWED_FILES);
    assert!(breaches.is_empty(), "{breaches:#?}");
}

/// The count can move both ways: a planted file naming a world outside its folder is counted, the
/// same words inside the folder, in a comment or in a test module are not, and the ratchet says so.
#[test]
fn a_planted_example_is_counted_and_reported() {
    let source = |path: &str, text: &str| Source {
        path: path.to_string(),
        text: text.to_string(),
    };
    let sources = [
        source(
            "sim/src/engine/world/mod.rs",
            "if let ProtocolConfig::Paxos(options) = config {}",
        ),
        source(
            "src/components/panel.rs",
            "use quorumlab_sim::paxos::Acceptor;",
        ),
        source("sim/src/protocols/paxos/checker.rs", "ProtocolKind::Paxos"),
        source("sim/src/views/a.rs", "// ProtocolKind::Paxos in a comment"),
        source(
            "sim/src/views/b.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests { use crate::protocols::paxos; }",
        ),
        source(
            "sim/src/views/c.rs",
            "ProtocolKind::PaxosLike; protocols::paxos_like",
        ),
        source("sim/src/tooling/d.rs", "use crate::protocols::raft::Node;"),
        source(
            "src/share/tests/bodies.rs",
            "ProtocolConfig::Paxos(options)",
        ),
    ];
    let found = files_naming_each_world(&sources);
    assert_eq!(
        found["Paxos"],
        vec!["sim/src/engine/world/mod.rs", "src/components/panel.rs"]
    );
    assert_eq!(found["Raft"], vec!["sim/src/tooling/d.rs"]);
    assert!(found["Pbft"].is_empty());
    let breaches = ratchet_breaches(&found, &[("Paxos", 1), ("Raft", 3)]);
    assert_eq!(breaches.len(), 2, "{breaches:#?}");
    assert!(breaches[0].contains("Paxos is named by 2 files") && breaches[0].contains("1 allowed"));
    assert!(breaches[1].contains("lower its row in ALLOWED_FILES from 3 to 1"));
}
