//! Import cycles among the app's modules, read from `src/` and held to a ratchet (issue 31, step 0.2).
//!
//! The engine has no import cycle (`sim/tests/layers.rs` enforces it), and since issue 31's phase C
//! neither has the app: the last ones ran through `state`, once the hub every part reached for. Each module here is a file (`lesson/live.rs`
//! is `lesson::live`, a folder's `mod.rs` is the folder), and an import is a `crate::` path in the
//! file's code (comments and `#[cfg(test)]` modules left out), taken to the longest module it names.
//! `super::` paths are not followed, so a cycle made only through them goes unseen. The strongly
//! connected groups of more than one module must be exactly [`KNOWN_CYCLES`]: a new one fails with its
//! modules, and one that the structure work broke must be taken off the list, so none comes back.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[path = "../sim/tests/support/source.rs"]
mod source;
use source::{code_of, collect_sources, crate_paths, Source};

/// The import cycles the app has, each as its modules in order: none since 2026-12-06 (issue 31 C5).
/// Only ever shortened, so it stays empty.
const KNOWN_CYCLES: &[&[&str]] = &[];

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The module a file of `src/` is: `lesson/live.rs` is `lesson::live`, `lesson/mod.rs` is `lesson`,
/// the crate root is "".
fn module_of(path: &str) -> String {
    let path = path.trim_end_matches(".rs");
    let path = path.strip_suffix("/mod").unwrap_or(path);
    if path == "lib" || path == "main" {
        return String::new();
    }
    path.replace('/', "::")
}

/// Each module -> the other modules its code imports.
fn graph_of(sources: &[Source]) -> Graph {
    let modules: BTreeSet<String> = sources
        .iter()
        .map(|source| module_of(&source.path))
        .collect();
    let mut graph = Graph::new();
    for source in sources {
        let name = module_of(&source.path);
        let imports = graph.entry(name.clone()).or_default();
        for path in crate_paths(&code_of(&source.text)) {
            let imported = (1..=path.len())
                .rev()
                .map(|length| path[..length].join("::"))
                .find(|candidate| modules.contains(candidate));
            if let Some(imported) = imported.filter(|imported| *imported != name) {
                imports.insert(imported);
            }
        }
    }
    graph
}

/// Every module `start` reaches by following imports (itself included).
fn reachable(graph: &Graph, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([start.to_string()]);
    let mut waiting = vec![start.to_string()];
    while let Some(module) = waiting.pop() {
        for next in graph.get(&module).into_iter().flatten() {
            if seen.insert(next.clone()) {
                waiting.push(next.clone());
            }
        }
    }
    seen
}

/// The groups of two or more modules that all reach one another, each sorted, in sorted order.
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    let reach: BTreeMap<&String, BTreeSet<String>> = graph
        .keys()
        .map(|module| (module, reachable(graph, module)))
        .collect();
    let mut groups = BTreeSet::new();
    for (module, from_here) in &reach {
        let group: Vec<String> = from_here
            .iter()
            .filter(|other| reach.get(other).is_some_and(|back| back.contains(*module)))
            .cloned()
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

fn app_sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = Vec::new();
    collect_sources(&root, &root, &mut sources);
    sources.retain(|source| !source.path.contains("tests/") && !source.path.ends_with("tests.rs"));
    sources
}

fn known() -> Vec<Vec<String>> {
    KNOWN_CYCLES
        .iter()
        .map(|cycle| cycle.iter().map(|module| module.to_string()).collect())
        .collect()
}

#[test]
fn the_app_has_no_import_cycle_beyond_the_known_ones() {
    let sources = app_sources();
    assert!(sources.len() > 100, "read only {} files", sources.len());
    let found = cycles(&graph_of(&sources));
    let known = known();
    let new: Vec<_> = found
        .iter()
        .filter(|cycle| !known.contains(cycle))
        .collect();
    let gone: Vec<_> = known
        .iter()
        .filter(|cycle| !found.contains(cycle))
        .collect();
    assert!(
        new.is_empty(),
        "import cycles among the app's modules: {new:#?}"
    );
    assert!(gone.is_empty(), "these known cycles are gone or changed: update KNOWN_CYCLES: {gone:#?} (found now: {found:#?})");
}

/// The check can fail: a planted cycle is found, a chain is not, and grouped imports are read.
#[test]
fn a_planted_cycle_is_found() {
    let source = |path: &str, text: &str| Source {
        path: path.to_string(),
        text: text.to_string(),
    };
    let sources = [
        source("lib.rs", "pub mod state; pub mod lesson;"),
        source("state.rs", "use crate::lesson::live::Live;"),
        source("lesson/mod.rs", "pub mod live; pub mod text;"),
        source(
            "lesson/live.rs",
            "use crate::{format::time, state::AppState};",
        ),
        source(
            "lesson/text.rs",
            "use crate::format::time; // crate::state in a comment",
        ),
        source("format.rs", "pub fn time() {}"),
    ];
    let graph = graph_of(&sources);
    assert_eq!(
        cycles(&graph),
        vec![vec!["lesson::live".to_string(), "state".to_string()]]
    );
    assert!(graph["lesson::text"].contains("format"));
    assert!(!graph["lesson::text"].contains("state"));
}
