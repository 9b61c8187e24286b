//! Reading the project's Rust sources for the tests that check its shape (`layers.rs`,
//! `protocol_names.rs`): every `.rs` file under a folder, and a file's code without comments and
//! without its `#[cfg(test)]` module, since tests may reach anywhere.

use std::path::Path;

/// One source file: its path inside the folder it was read from (with `/` between folders) and its text.
pub struct Source {
    pub path: String,
    pub text: String,
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
