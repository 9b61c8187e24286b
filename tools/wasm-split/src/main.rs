//! Splits the app's wasm, as rustc linked it, into a first module and parts loaded on first use.
//!
//! The app's split functions (a `wasm_split` attribute, as Leptos' `#[lazy]` writes one; see the app's
//! `src/lazy_part.rs`) become calls through an import that a split tool must resolve: each such
//! function moves, with everything only it reaches, into the part it names, and the first
//! module keeps what the playground needs. Trunk has no such step between cargo and wasm-bindgen
//! (trunk-rs/trunk#1022), so its post_build hook (`scripts/build/split-app.mjs`) runs this tool on the
//! linked wasm, then wasm-bindgen on the first module, then wasm-opt on every part.
//!
//! The tool itself only calls `wasm_split_cli_support::transform` and writes, beside the parts, the
//! JavaScript that loads them (`__wasm_split.js`) and which part files each lazy function needs
//! (`prefetch.json`), so the hook can list every part for the service worker. The linked wasm must keep
//! its relocations (`--emit-relocs`, set for the app's binary by `build.rs`): the tool moves code
//! between modules by them.
//!
//! Usage: `quorumlab-wasm-split <linked.wasm> <output folder>`; the first module is
//! `<output folder>/main.wasm`, and the loader imports `initSync` from `./main.js`, which the hook
//! renames to the bindgen glue's final name.

mod table_export;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use table_export::{KEPT_TABLE_EXPORT, SPLIT_TABLE_EXPORT};

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [input_path, output_folder] = arguments.as_slice() else {
        eprintln!("usage: quorumlab-wasm-split <linked.wasm> <output folder>");
        return ExitCode::from(2);
    };
    match split(Path::new(input_path), Path::new(output_folder)) {
        Ok(part_count) => {
            println!("quorumlab-wasm-split: {input_path} split into a first module and {part_count} part(s)");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("quorumlab-wasm-split: {input_path}: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn split(input_path: &Path, output_folder: &Path) -> Result<usize, Box<dyn std::error::Error>> {
    let input_wasm =
        std::fs::read(input_path).map_err(|error| format!("cannot read it: {error}"))?;
    std::fs::create_dir_all(output_folder)?;
    let main_out_path: PathBuf = output_folder.join("main.wasm");
    let mut options = wasm_split_cli_support::Options::new(&input_wasm);
    options.output_dir = output_folder;
    options.main_out_path = &main_out_path;
    options.link_name = "./__wasm_split.js";
    options.main_module = "./main.js";
    let split = wasm_split_cli_support::transform(options).map_err(|error| format!("{error:#}"))?;
    let first_module = table_export::rename_table_export(&std::fs::read(&main_out_path)?)?;
    std::fs::write(&main_out_path, first_module)?;
    let loader_path = output_folder.join("__wasm_split.js");
    std::fs::write(
        &loader_path,
        loader_reading_kept_table(&std::fs::read_to_string(&loader_path)?)?,
    )?;
    let mut prefetch: Vec<_> = split.prefetch_map.into_iter().collect();
    prefetch.sort();
    std::fs::write(
        output_folder.join("prefetch.json"),
        prefetch_json(&prefetch),
    )?;
    Ok(split.split_modules.len())
}

/// The loader's JavaScript, taking the table from the first module's exports by its kept name: the one
/// statement that destructures those exports binds the kept name to the name the rest of it uses.
fn loader_reading_kept_table(loader: &str) -> Result<String, String> {
    let taken = format!("{SPLIT_TABLE_EXPORT},");
    let mut statements = loader
        .split_inclusive('\n')
        .filter(|line| line.contains("= initSync(") && line.contains(&taken));
    let (Some(statement), None) = (statements.next(), statements.next()) else {
        return Err(format!(
            "the loader does not take {SPLIT_TABLE_EXPORT} from initSync's exports exactly once"
        ));
    };
    let renamed = statement.replacen(
        &taken,
        &format!("{KEPT_TABLE_EXPORT}: {SPLIT_TABLE_EXPORT},"),
        1,
    );
    Ok(loader.replacen(statement, &renamed, 1))
}

/// `{"lazy function": ["part file stem", …], …}`, written by hand: the tool needs no JSON crate for it.
fn prefetch_json(prefetch: &[(String, Vec<String>)]) -> String {
    let entries: Vec<String> = prefetch
        .iter()
        .map(|(function, parts)| {
            let parts: Vec<String> = parts.iter().map(|part| format!("{part:?}")).collect();
            format!("  {function:?}: [{}]", parts.join(", "))
        })
        .collect();
    format!("{{\n{}\n}}\n", entries.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOADER: &str = "import { initSync } from \"./main.js\";\n\
        const { __indirect_function_table, __wasm_split_shared0, memory,  } = initSync(undefined, undefined);\n\
        sharedImports.__wasm_split.__indirect_function_table.get(callbackIndex);\n";

    #[test]
    fn the_loader_takes_the_table_by_its_kept_name_and_uses_it_as_before() {
        let loader = loader_reading_kept_table(LOADER).expect("one destructuring statement");
        assert!(loader.contains(
            "const { __wasm_split_table: __indirect_function_table, __wasm_split_shared0"
        ));
        assert!(loader.contains("sharedImports.__wasm_split.__indirect_function_table.get"));
    }

    #[test]
    fn a_loader_that_does_not_take_the_table_is_refused() {
        assert!(loader_reading_kept_table("import { initSync } from \"./main.js\";\n").is_err());
    }

    #[test]
    fn the_table_export_is_renamed_and_nothing_else_changes() {
        // (module (table 1 funcref) (memory 1) (export "__indirect_function_table" (table 0)) (export "memory" (memory 0)))
        let mut module = wasm_encoder::Module::new();
        let mut tables = wasm_encoder::TableSection::new();
        tables.table(wasm_encoder::TableType {
            element_type: wasm_encoder::RefType::FUNCREF,
            minimum: 1,
            maximum: None,
            table64: false,
            shared: false,
        });
        module.section(&tables);
        let mut memories = wasm_encoder::MemorySection::new();
        memories.memory(wasm_encoder::MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        module.section(&memories);
        let mut exports = wasm_encoder::ExportSection::new();
        exports.export(SPLIT_TABLE_EXPORT, wasm_encoder::ExportKind::Table, 0);
        exports.export("memory", wasm_encoder::ExportKind::Memory, 0);
        module.section(&exports);
        let renamed = table_export::rename_table_export(&module.finish()).expect("a table export");
        let names: Vec<String> = wasmparser::Parser::new(0)
            .parse_all(&renamed)
            .filter_map(|payload| match payload.expect("valid") {
                wasmparser::Payload::ExportSection(reader) => Some(
                    reader
                        .into_iter()
                        .map(|export| export.expect("valid").name.to_string())
                        .collect::<Vec<_>>(),
                ),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(names, [KEPT_TABLE_EXPORT, "memory"]);
        assert!(
            table_export::rename_table_export(&renamed).is_err(),
            "no table left under the split's name"
        );
    }
}
