//! The engine's layering, checked from its source: no import cycle among the top-level modules of
//! `sim/src`, and every import points down (or sideways within a layer), never up.
//!
//! An import is any `crate::<module>` path outside comments and test modules. The layers, lowest
//! first, are listed in [`LAYERS`] and explained in `sim/ENGINE.md` ("Layers"); a new module must be
//! placed there, or this test says where it is missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Lowest first. A module may import modules of its own layer or below, never above.
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["ids", "time", "rng", "hash", "clock", "units"]),
    (
        "contract",
        &["protocol", "action", "config", "entry", "report", "invalid"],
    ),
    (
        "protocols",
        &[
            "raft",
            "lockservice",
            "lock_client",
            "worker",
            "resource",
            "redlock",
            "scheduler",
            "zookeeper",
            "work_queue",
        ],
    ),
    ("worlds", &["actor", "coordination", "registry"]),
    (
        "engine",
        &["network", "trace", "checker", "world", "history"],
    ),
    ("view", &["view", "view_coordination", "narration"]),
    (
        "tooling",
        &[
            "scenario",
            "lesson",
            "trace_file",
            "chaos",
            "sweep",
            "runner",
            "bench",
        ],
    ),
];

type Graph = BTreeMap<String, BTreeSet<String>>;

fn rust_files(directory: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(directory).expect("sim/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            found.push(path.clone());
            rust_files(&path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
}

/// The code of a file without comments and without its `#[cfg(test)]` module (tests may reach
/// anywhere).
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(start) => &text[..start],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(start) => &line[..start],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn imported_modules(code: &str) -> BTreeSet<String> {
    let mut modules = BTreeSet::new();
    let mut rest = code;
    while let Some(start) = rest.find("crate::") {
        rest = &rest[start + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|character| character.is_ascii_alphanumeric() || *character == '_')
            .collect();
        if !name.is_empty() {
            modules.insert(name);
        }
    }
    modules
}

/// Top-level module -> the top-level modules its code imports.
fn engine_graph() -> Graph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&root, &mut paths);
    let mut graph = Graph::new();
    for path in paths.iter().filter(|path| path.is_file()) {
        let relative = path.strip_prefix(&root).expect("under sim/src");
        let first = relative.components().next().expect("a path inside src");
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "bin" || module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("a source file is readable");
        let imports = graph.entry(module.clone()).or_default();
        for imported in imported_modules(&code_of(&text)) {
            if imported != module {
                imports.insert(imported);
            }
        }
    }
    graph
}

/// A cycle through the graph, if there is one, as the list of modules along it.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|seen| seen == node) {
            let mut cycle = path[start..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if graph.contains_key(next) {
                if let Some(cycle) = visit(next, graph, path, done) {
                    return Some(cycle);
                }
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

fn layer_of(module: &str) -> Option<(usize, &'static str)> {
    LAYERS
        .iter()
        .enumerate()
        .find(|(_, (_, modules))| modules.contains(&module))
        .map(|(index, (name, _))| (index, *name))
}

#[test]
fn the_engine_has_no_module_cycle() {
    let graph = engine_graph();
    assert!(graph.len() > 20, "found only {} modules", graph.len());
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle among sim/src modules: {}", cycle.join(" -> "));
    }
}

#[test]
fn every_import_points_down_the_layers() {
    let graph = engine_graph();
    let mut upward = Vec::new();
    for (module, imports) in &graph {
        let Some((layer, layer_name)) = layer_of(module) else {
            panic!("module `{module}` is in no layer: place it in LAYERS and in ENGINE.md");
        };
        for imported in imports
            .iter()
            .filter(|imported| graph.contains_key(*imported))
        {
            let Some((imported_layer, imported_name)) = layer_of(imported) else {
                panic!("module `{imported}` is in no layer: place it in LAYERS and in ENGINE.md");
            };
            if imported_layer > layer {
                upward.push(format!(
                    "{module} ({layer_name}) imports {imported} ({imported_name})"
                ));
            }
        }
    }
    assert!(upward.is_empty(), "imports pointing up: {upward:#?}");
}

#[test]
fn the_cycle_finder_finds_a_planted_cycle() {
    let mut graph = Graph::new();
    let edge = |graph: &mut Graph, from: &str, to: &str| {
        graph.entry(from.into()).or_default().insert(to.into());
        graph.entry(to.into()).or_default();
    };
    edge(&mut graph, "world", "network");
    edge(&mut graph, "network", "ids");
    assert_eq!(find_cycle(&graph), None);
    edge(&mut graph, "network", "actor");
    edge(&mut graph, "actor", "world");
    let cycle = find_cycle(&graph).expect("world -> network -> actor -> world");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.contains(&"actor".to_string()));
}

#[test]
fn imports_are_read_from_code_not_comments_or_tests() {
    let text = "use crate::ids::NodeId; // crate::world in a comment\n\
                fn f() { crate::time::SimTime::ZERO; }\n\
                #[cfg(test)]\nmod tests { use crate::scenario::Scenario; }";
    let imports = imported_modules(&code_of(text));
    let expected: BTreeSet<String> = ["ids", "time"].map(String::from).into();
    assert_eq!(imports, expected);
}
