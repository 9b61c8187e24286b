//! Reading the project's Rust sources for the tests that check its shape (`sim/tests/layers.rs`,
//! `sim/tests/protocol_names.rs`, the app's `tests/app_layers.rs`): every `.rs` file under a folder, a
//! file's code without comments and without its `#[cfg(test)]` module (tests may reach anywhere), and
//! the `crate::` paths in that code.

// Each test crate that includes this file uses only some of it.
#![allow(dead_code)]

use std::path::Path;

/// One source file: its path inside the folder it was read from (with `/` between folders) and its text.
pub struct Source {
    pub path: String,
    pub text: String,
}

impl Source {
    /// A made-up file, for the tests that plant an example to show their check can fire.
    pub fn planted(path: &str, text: &str) -> Source {
        Source {
            path: path.to_string(),
            text: text.to_string(),
        }
    }
}

/// Every `.rs` file under `directory`, each with its path relative to `root`.
pub fn collect_sources(root: &Path, directory: &Path, found: &mut Vec<Source>) {
    for entry in std::fs::read_dir(directory).expect("a source folder is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect_sources(root, &path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let relative = path.strip_prefix(root).expect("under the root");
            let components: Vec<String> = relative
                .components()
                .map(|component| component.as_os_str().to_string_lossy().into_owned())
                .collect();
            found.push(Source {
                path: components.join("/"),
                text: std::fs::read_to_string(&path).expect("a source file is readable"),
            });
        }
    }
}

/// The code of a file without comments and without its `#[cfg(test)]` module.
pub fn code_of(text: &str) -> String {
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

/// Every path in `code` that starts at `crate::`, as its segments after `crate`, with grouped imports
/// spelled out: `crate::{base::ids::NodeId, contract::{action, config}}` gives `base::ids::NodeId`,
/// `contract::action` and `contract::config`.
pub fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find("crate::") {
        let joined_to_a_word = rest[..start]
            .chars()
            .next_back()
            .is_some_and(|character| character.is_ascii_alphanumeric() || character == '_');
        rest = &rest[start + "crate::".len()..];
        if !joined_to_a_word {
            let mut cursor = rest;
            read_path_tree(&mut cursor, Vec::new(), &mut paths);
        }
    }
    paths
}

/// Reads one path, or one `{...}` group of paths, from `cursor` onwards, each prefixed by `prefix`.
fn read_path_tree(cursor: &mut &str, mut prefix: Vec<String>, paths: &mut Vec<Vec<String>>) {
    let mut read_a_segment = false;
    loop {
        *cursor = cursor.trim_start();
        if let Some(group) = cursor.strip_prefix('{') {
            *cursor = group;
            loop {
                read_path_tree(cursor, prefix.clone(), paths);
                *cursor = cursor.trim_start();
                match cursor.strip_prefix(',') {
                    Some(after) => *cursor = after,
                    None => {
                        *cursor = cursor.strip_prefix('}').unwrap_or(cursor);
                        return;
                    }
                }
            }
        }
        let length = cursor
            .find(|character: char| !(character.is_ascii_alphanumeric() || character == '_'))
            .unwrap_or(cursor.len());
        if length == 0 {
            break;
        }
        prefix.push(cursor[..length].to_string());
        read_a_segment = true;
        *cursor = &cursor[length..];
        match cursor.strip_prefix("::") {
            Some(after) => *cursor = after,
            None => break,
        }
    }
    if read_a_segment {
        paths.push(prefix);
    }
}
