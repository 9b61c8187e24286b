//! The engine's layering, checked from its source. The folders of `sim/src` are the layers: a module's
//! layer is the folder it sits in (`sim/src/base/time.rs` is `time`, in `base`), and [`LAYERS`] lists
//! the folders lowest first, as `sim/ENGINE.md` ("Layers") explains them.
//!
//! An import is any `crate::<layer>::<module>` path outside comments and `#[cfg(test)]` modules
//! (grouped `use crate::{...}` forms spelled out). Four rules: nothing but `lib.rs`, `bin/` and the
//! layer folders sits directly in `sim/src`; no import cycle among the modules; no import points to a
//! higher layer; and inside the engine no path goes through the crate root's re-exports
//! (`crate::time`), which are the facade for the engine's users: every path names its layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[path = "support/source.rs"]
mod source;
use source::{code_of, collect_sources, crate_paths, Source};

/// The layer folders of `sim/src`, lowest first. A module may import modules of its own layer or
/// below, never above.
const LAYERS: &[&str] = &[
    "base",
    "contract",
    "protocols",
    "worlds",
    "engine",
    "views",
    "tooling",
    "lab",
];

/// What may sit directly in `sim/src` besides the layer folders: the crate root and the CLI.
const ROOT_ENTRIES: &[&str] = &["lib.rs", "bin"];

/// Module (`layer::module`) -> the modules its code imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

fn source_root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `sim/src` but the CLI's (a crate of its own, which reaches the engine
/// through the facade like any user).
fn engine_sources() -> Vec<Source> {
    let root = source_root();
    let mut sources = Vec::new();
    collect_sources(&root, &root, &mut sources);
    sources.retain(|source| !source.path.starts_with("bin/"));
    sources
}

/// The entries directly in `sim/src` that are neither the crate root, the CLI nor a layer folder, each
/// with a sentence saying what to do. `entries` are (name, is a folder).
fn stray_entries(entries: &[(String, bool)]) -> Vec<String> {
    entries
        .iter()
        .filter(|(name, is_folder)| {
            let is_layer = *is_folder && LAYERS.contains(&name.as_str());
            let could_be_a_module = *is_folder || name.ends_with(".rs");
            could_be_a_module && !is_layer && !ROOT_ENTRIES.contains(&name.as_str())
        })
        .map(|(name, _)| {
            format!(
                "sim/src/{name} sits outside the layers: move it into the folder of its layer \
                 ({}), declare it in that folder's mod.rs and re-export it in lib.rs \
                 (see sim/ENGINE.md, \"Layers\")",
                LAYERS.join(", ")
            )
        })
        .collect()
}

/// The layer and module a file belongs to (`engine/world/events.rs` -> `engine`, `world`; a
/// `coordination.rs` and its `coordination/` folder are one module), or `None` for files that are no
/// module of a layer: `lib.rs`, stray files at the root and each layer's own `mod.rs`, which only
/// declares its modules.
fn module_of(path: &str) -> Option<(String, String)> {
    let mut components = path.split('/');
    let layer = components.next()?;
    let first = components.next()?;
    if !LAYERS.contains(&layer) || (first == "mod.rs" && components.next().is_none()) {
        return None;
    }
    Some((layer.to_string(), first.trim_end_matches(".rs").to_string()))
}

/// The modules (`layer::module`) a file's code imports: its `crate::<layer>::<module>` paths.
fn imported_modules(code: &str) -> BTreeSet<String> {
    crate_paths(code)
        .into_iter()
        .filter(|path| path.len() >= 2 && LAYERS.contains(&path[0].as_str()))
        .map(|path| format!("{}::{}", path[0], path[1]))
        .collect()
}

/// Each module of a layer -> the modules its code imports (itself left out).
fn graph_of(sources: &[Source]) -> Graph {
    let mut graph = Graph::new();
    for source in sources {
        let Some((layer, module)) = module_of(&source.path) else {
            continue;
        };
        let name = format!("{layer}::{module}");
        let imports = graph.entry(name.clone()).or_default();
        for imported in imported_modules(&code_of(&source.text)) {
            if imported != name {
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

/// The position in [`LAYERS`] of a module named `layer::module`.
fn layer_index(module: &str) -> Option<usize> {
    let layer = module.split("::").next()?;
    LAYERS.iter().position(|name| *name == layer)
}

/// Every import that points to a higher layer, as a sentence.
fn upward_imports(graph: &Graph) -> Vec<String> {
    let mut upward = Vec::new();
    for (module, imports) in graph {
        let layer = layer_index(module).expect("graph modules sit in a layer");
        for imported in imports {
            if layer_index(imported).is_some_and(|imported_layer| imported_layer > layer) {
                upward.push(format!("{module} imports {imported}, a higher layer"));
            }
        }
    }
    upward
}

/// Every path inside the engine that goes through the crate root (`crate::time::SimTime`,
/// `crate::World`) rather than naming its layer, as a sentence saying how to write it.
fn root_paths(sources: &[Source]) -> Vec<String> {
    let layer_of_module: BTreeMap<String, String> = sources
        .iter()
        .filter_map(|source| module_of(&source.path))
        .map(|(layer, module)| (module, layer))
        .collect();
    let mut found = Vec::new();
    for source in sources {
        for path in crate_paths(&code_of(&source.text)) {
            let first = &path[0];
            if LAYERS.contains(&first.as_str()) {
                continue;
            }
            let advice = match layer_of_module.get(first) {
                Some(layer) => format!("write `crate::{layer}::{first}`"),
                None => "name the layer the item is declared in".to_string(),
            };
            found.push(format!(
                "{}: `crate::{}` goes through the crate root's re-export; {advice}",
                source.path,
                path.join("::")
            ));
        }
    }
    found
}

#[test]
fn only_the_layer_folders_sit_in_sim_src() {
    let entries: Vec<(String, bool)> = std::fs::read_dir(source_root())
        .expect("sim/src is readable")
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().expect("a name").to_string_lossy().into();
            (name, path.is_dir())
        })
        .collect();
    let stray = stray_entries(&entries);
    assert!(stray.is_empty(), "{}", stray.join("\n"));
    for layer in LAYERS {
        assert!(
            entries.contains(&(layer.to_string(), true)),
            "the layer folder sim/src/{layer} is missing: create it or take it out of LAYERS"
        );
    }
}

#[test]
fn the_engine_has_no_module_cycle() {
    let graph = graph_of(&engine_sources());
    assert!(graph.len() > 20, "found only {} modules", graph.len());
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle among sim/src modules: {}", cycle.join(" -> "));
    }
}

#[test]
fn every_import_points_down_the_layers() {
    let upward = upward_imports(&graph_of(&engine_sources()));
    assert!(
        upward.is_empty(),
        "imports pointing up (a module may import only its own layer or lower ones): {upward:#?}"
    );
}

#[test]
fn inside_the_engine_every_path_names_its_layer() {
    let through_root = root_paths(&engine_sources());
    assert!(through_root.is_empty(), "{through_root:#?}");
}

/// The checks above can fail: a made-up engine with a stray file, a cycle, an upward import and a path
/// through the crate root is reported on each count.
#[test]
fn the_checks_report_a_planted_example() {
    let source = Source::planted;
    let sources = [
        source("lib.rs", "pub mod base;\npub use base::ids;"),
        source("base/mod.rs", "pub mod ids;"),
        source("base/ids.rs", "use crate::engine::world::World; // upward"),
        source(
            "engine/world/mod.rs",
            "use crate::engine::network::Network;\n// crate::views::view in a comment",
        ),
        source(
            "engine/network.rs",
            "use crate::{\n    base::ids::NodeId,\n    engine::{trace, world::World},\n};",
        ),
        source(
            "engine/trace.rs",
            "fn f() -> crate::base::ids::NodeId { todo!() }",
        ),
        source(
            "views/view.rs",
            "use crate::ids::NodeId;\n#[cfg(test)]\nmod tests { use crate::tooling::scenario; }",
        ),
    ];
    let graph = graph_of(&sources);
    let expected_modules: BTreeSet<String> = [
        "base::ids",
        "engine::network",
        "engine::trace",
        "engine::world",
        "views::view",
    ]
    .map(String::from)
    .into();
    assert_eq!(
        graph.keys().cloned().collect::<BTreeSet<_>>(),
        expected_modules
    );
    let network_imports: BTreeSet<String> = ["base::ids", "engine::trace", "engine::world"]
        .map(String::from)
        .into();
    assert_eq!(graph["engine::network"], network_imports);
    assert!(
        graph["views::view"].is_empty(),
        "comments and tests are no imports"
    );

    let cycle = find_cycle(&graph).expect("world -> network -> world");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.contains(&"engine::network".to_string()));
    assert!(cycle.contains(&"engine::world".to_string()));

    assert_eq!(
        upward_imports(&graph),
        ["base::ids imports engine::world, a higher layer"]
    );

    let through_root = root_paths(&sources);
    assert_eq!(through_root.len(), 1, "{through_root:#?}");
    assert!(through_root[0].contains("views/view.rs"));
    assert!(through_root[0].contains("write `crate::base::ids`"));

    let entries = [
        ("lib.rs".to_string(), false),
        ("bin".to_string(), true),
        ("base".to_string(), true),
        ("bench.rs".to_string(), false),
        ("raft".to_string(), true),
    ];
    let stray = stray_entries(&entries);
    assert_eq!(stray.len(), 2, "{stray:#?}");
    assert!(stray[0].starts_with("sim/src/bench.rs sits outside the layers"));
}

#[test]
fn a_clean_example_reports_nothing() {
    let sources = [
        Source {
            path: "base/ids.rs".to_string(),
            text: "pub struct NodeId;".to_string(),
        },
        Source {
            path: "engine/world/mod.rs".to_string(),
            text: "use crate::base::{ids::NodeId, ids};".to_string(),
        },
    ];
    let graph = graph_of(&sources);
    assert_eq!(find_cycle(&graph), None);
    assert!(upward_imports(&graph).is_empty());
    assert!(root_paths(&sources).is_empty());
}
