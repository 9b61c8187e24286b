//! Where each world may be named outside its own folder, checked against the source in two ways.
//!
//! Issue 31 wants a protocol to live in one folder (`sim/src/protocols/<folder>/`). The final rule is
//! about its variants: outside its folder, a world's `ProtocolKind::X` or `ProtocolConfig::X` may appear
//! only in [`ALLOWED`] (the files adding two-phase commit had to touch: README "A protocol"), in the
//! frozen codec of old share links for a world that link could carry ([`LEGACY_CODEC`]), or in a sibling
//! folder under `sim/src/protocols/` (the lock family shares pieces). Everything else reads a world
//! through the registry or a `ProtocolConfig` accessor.
//!
//! Module paths are not there yet: a `crate::protocols::<folder>` import or a `quorumlab_sim::<folder>`
//! path in the app still reaches into a world from many files. The ratchet counts, per world, the files
//! outside its folder (in `sim/src` and the app's `src`) that name it in any of those ways, variants
//! included, and compares the count with [`ALLOWED_FILES`]. A count above its row means a new file
//! learnt a world's name: give the world's folder the piece instead. A count below it means the
//! structure work moved a piece home: lower the row to the new count, so it can never creep back.
//!
//! Both leave out comments, `#[cfg(test)]` modules and test files: tests may name any world.

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
/// start of issue 31; phase F lowered Raft, the scheduler and the work queue). Only ever lowered.
const ALLOWED_FILES: &[(&str, usize)] = &[
    ("Raft", 12),
    ("LockService", 29),
    ("RedisLock", 12),
    ("Redlock", 12),
    ("Scheduler", 10),
    ("Zookeeper", 10),
    ("WorkQueue", 4),
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
    let source = Source::planted;
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

/// The files outside every world's folder that may name any world's variant: the config that declares
/// the variants, the protocol modules' list, the actor enum, the registry and its descriptions (what
/// adding two-phase commit had to touch), and the crate root.
const ALLOWED: &[&str] = &[
    "sim/src/contract/config.rs",
    "sim/src/protocols/mod.rs",
    "sim/src/worlds/actor.rs",
    "sim/src/worlds/registry/mod.rs",
    "sim/src/worlds/registry/describe.rs",
    "sim/src/lib.rs",
];

/// The codec of share links made before the registry could carry a world. It names those worlds'
/// variants because an old link must still open; it is frozen, so a world added since travels in links
/// by its registry name (`src/share/registered.rs`) and must not appear here.
const LEGACY_CODEC: &[&str] = &[
    "src/share/body.rs",
    "src/share/body_convert/protocol.rs",
    "src/share/legacy/settings.rs",
];

/// The worlds that existed before issue 31, the only ones [`LEGACY_CODEC`] may name.
const LEGACY_WORLDS: &[&str] = &[
    "Raft",
    "LockService",
    "RedisLock",
    "Redlock",
    "Scheduler",
    "Zookeeper",
    "WorkQueue",
    "Paxos",
    "Pbft",
];

/// Whether the file at `path` may name the variants of the world `variant` living in `folder`.
fn may_name_variant(path: &str, variant: &str, folder: &str) -> bool {
    let in_a_protocol_folder = path
        .strip_prefix("sim/src/protocols/")
        .is_some_and(|inside| inside.contains('/'));
    let legacy = LEGACY_CODEC.contains(&path) && LEGACY_WORLDS.contains(&variant);
    path.starts_with(&format!("sim/src/protocols/{folder}/"))
        || in_a_protocol_folder
        || ALLOWED.contains(&path)
        || legacy
}

/// The first line (counted from 1) where `code` names `word` as a whole path, if it does.
fn first_line_naming(code: &str, word: &str) -> Option<usize> {
    code.lines()
        .position(|line| names(line, word))
        .map(|index| index + 1)
}

/// Every place in `sources` that names a world's variant where the final rule forbids it, one sentence
/// each saying where and what to do instead; empty when the rule holds.
fn final_rule_breaches(sources: &[Source]) -> Vec<String> {
    let mut breaches = Vec::new();
    for source in sources.iter().filter(|source| !is_test_file(&source.path)) {
        let code = code_of(&source.text);
        for (variant, folder) in WORLDS {
            if may_name_variant(&source.path, variant, folder) {
                continue;
            }
            for word in [
                format!("ProtocolKind::{variant}"),
                format!("ProtocolConfig::{variant}"),
            ] {
                let Some(line) = first_line_naming(&code, &word) else {
                    continue;
                };
                let path = &source.path;
                let advice = if LEGACY_CODEC.contains(&path.as_str()) {
                    format!("{variant} came after issue 31, and the legacy link codec is frozen: a world added since travels in links by its registry name (src/share/registered.rs)")
                } else {
                    format!("outside sim/src/protocols/{folder}/ read the world through the registry or a ProtocolConfig accessor (contract/config.rs)")
                };
                breaches.push(format!("{path}:{line} names {word}; {advice}"));
            }
        }
    }
    breaches
}

#[test]
fn no_world_variant_is_named_outside_its_folder_but_where_allowed() {
    let sources = project_sources();
    let paths: Vec<&str> = sources.iter().map(|source| source.path.as_str()).collect();
    let missing: Vec<&&str> = ALLOWED
        .iter()
        .chain(LEGACY_CODEC)
        .filter(|allowed| !paths.contains(allowed))
        .collect();
    assert!(
        missing.is_empty(),
        "listed as allowed but not found (moved or renamed? update the lists): {missing:?}"
    );
    let breaches = final_rule_breaches(&sources);
    assert!(breaches.is_empty(), "{breaches:#?}");
}

/// The rule fires on a planted name outside the world's folder and stays quiet on look-alikes: the same
/// words in a comment, a test module, a test file, the world's own folder, a sibling protocol folder,
/// an allowed file, or the legacy codec for a world it could always carry.
#[test]
fn a_planted_world_variant_breaks_the_final_rule() {
    let source = Source::planted;
    let planted = "let kind = ProtocolKind::Paxos;";
    let sources = [
        source("sim/src/engine/planted.rs", planted),
        source("sim/src/engine/commented.rs", "// ProtocolKind::Paxos"),
        source(
            "sim/src/engine/tested.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests { const K: ProtocolKind = ProtocolKind::Paxos; }",
        ),
        source("sim/src/engine/look_alike.rs", "ProtocolKind::PaxosLike"),
        source("sim/tests/planted.rs", planted),
        source("sim/src/protocols/paxos/planted.rs", planted),
        source(
            "sim/src/protocols/redlock/variations.rs",
            "ProtocolConfig::LockService(options)",
        ),
        source("sim/src/protocols/planted.rs", planted),
        source("sim/src/worlds/registry/mod.rs", planted),
        source("src/share/body.rs", "ProtocolConfig::Paxos(locks, paxos)"),
        source(
            "src/share/body_convert/protocol.rs",
            "fn f() {}\n\nProtocolConfig::TwoPhaseCommit(locks, two_phase)",
        ),
        source(
            "src/components/panel.rs",
            "if let ProtocolConfig::Pbft(_, options) = protocol {}",
        ),
    ];
    let breaches = final_rule_breaches(&sources);
    let places: Vec<&str> = breaches
        .iter()
        .map(|breach| breach.split(';').next().unwrap_or_default())
        .collect();
    assert_eq!(
        places,
        [
            "sim/src/engine/planted.rs:1 names ProtocolKind::Paxos",
            "sim/src/protocols/planted.rs:1 names ProtocolKind::Paxos",
            "src/share/body_convert/protocol.rs:3 names ProtocolConfig::TwoPhaseCommit",
            "src/components/panel.rs:1 names ProtocolConfig::Pbft",
        ],
        "{breaches:#?}"
    );
    assert!(breaches[0].contains("outside sim/src/protocols/paxos/ read the world through"));
    assert!(breaches[2].contains("TwoPhaseCommit came after issue 31"));
    assert!(breaches[2].contains("src/share/registered.rs"));
}
