//! The first module's function table, exported under a name wasm-bindgen keeps.
//!
//! A part calls the first module's functions, and hands it callbacks, through the first module's
//! function table, which the split exports as `__indirect_function_table` and the loader passes to
//! every part. wasm-bindgen 0.2.130 deletes exactly that export (as one of "lld's unused things"), so
//! the first part to load would fail to link. Exported as `__wasm_split_table` instead, the table
//! passes through wasm-bindgen untouched, and the loader reads it by that name.

use std::ops::Range;
use wasm_encoder::{ExportKind, ExportSection, Module, RawSection};
use wasmparser::{ExternalKind, Parser, Payload};

/// The name the split gives the table export.
pub const SPLIT_TABLE_EXPORT: &str = "__indirect_function_table";
/// The name that survives wasm-bindgen.
pub const KEPT_TABLE_EXPORT: &str = "__wasm_split_table";

/// `wasm` with its table export renamed; every other section is copied byte for byte.
pub fn rename_table_export(wasm: &[u8]) -> Result<Vec<u8>, String> {
    let mut module = Module::new();
    let mut renamed = false;
    for payload in Parser::new(0).parse_all(wasm) {
        let payload =
            payload.map_err(|error| format!("the first module does not parse: {error}"))?;
        if let Payload::ExportSection(reader) = &payload {
            let mut exports = ExportSection::new();
            for export in reader.clone() {
                let export =
                    export.map_err(|error| format!("an export does not parse: {error}"))?;
                let is_table =
                    export.kind == ExternalKind::Table && export.name == SPLIT_TABLE_EXPORT;
                renamed |= is_table;
                let name = if is_table {
                    KEPT_TABLE_EXPORT
                } else {
                    export.name
                };
                exports.export(name, export_kind(export.kind)?, export.index);
            }
            module.section(&exports);
        } else if let Some((id, range)) = payload.as_section() {
            let data = &wasm[byte_range(range)?];
            module.section(&RawSection { id, data });
        }
    }
    if !renamed {
        return Err(format!(
            "the first module exports no table named {SPLIT_TABLE_EXPORT}"
        ));
    }
    Ok(module.finish())
}

fn byte_range(range: Range<u64>) -> Result<Range<usize>, String> {
    let start =
        usize::try_from(range.start).map_err(|_| "a section lies beyond memory".to_string())?;
    let end = usize::try_from(range.end).map_err(|_| "a section lies beyond memory".to_string())?;
    Ok(start..end)
}

fn export_kind(kind: ExternalKind) -> Result<ExportKind, String> {
    Ok(match kind {
        ExternalKind::Func | ExternalKind::FuncExact => ExportKind::Func,
        ExternalKind::Table => ExportKind::Table,
        ExternalKind::Memory => ExportKind::Memory,
        ExternalKind::Global => ExportKind::Global,
        ExternalKind::Tag => ExportKind::Tag,
    })
}
