//! The learner's language: Rhai, built raw (no functions but the ones registered here) and held to
//! limits on everything a program can spend.
//!
//! A script can compute with integers, booleans, strings, arrays and object maps, define functions,
//! branch and loop (`loop`, `while`, `if`); it cannot read a clock, draw a random number, print, evaluate text as code, import a module or
//! touch anything outside its arguments, because no function for any of that exists in the engine
//! (`print`, `debug` and `eval` are switched off as words, so using one is an error when the script is
//! read). Every call may spend at most [`MAX_OPERATIONS`] operations, nest [`MAX_CALL_LEVELS`] calls
//! deep and build strings, arrays and maps up to the sizes below; past any limit the call stops with an
//! error, and the role that made it falls back to its refusal (`script_role.rs`).

use rhai::packages::{LogicPackage, Package};
use rhai::{Engine, ParseError, Position, AST};
use serde::Serialize;

/// Operations one call may spend: far more than any role's decision needs (the references take under
/// a hundred), few enough that an endless loop stops within a millisecond or so.
pub const MAX_OPERATIONS: u64 = 20_000;
/// Nested function calls, recursion included.
pub const MAX_CALL_LEVELS: usize = 24;
/// Nesting of one expression, and of one expression inside a function.
pub const MAX_EXPRESSION_DEPTH: (usize, usize) = (48, 32);
/// Longest string a script may build, in bytes.
pub const MAX_STRING_BYTES: usize = 4_096;
/// Most items in one array.
pub const MAX_ARRAY_ITEMS: usize = 1_024;
/// Most properties in one object map.
pub const MAX_MAP_PROPERTIES: usize = 64;
/// Longest script read, in bytes.
pub const MAX_SOURCE_BYTES: usize = 32_768;
/// Most functions a script may define.
pub const MAX_FUNCTIONS: usize = 64;

/// Words a script may not use at all: they would reach outside the sandbox or run text as code.
const SWITCHED_OFF: &[&str] = &["print", "debug", "eval"];

/// What went wrong in a script, and where (1-based; 0 when the engine names no place).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScriptError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl ScriptError {
    pub fn at(position: Position, message: String) -> ScriptError {
        ScriptError {
            line: position.line().unwrap_or(0) as u32,
            column: position.position().unwrap_or(0) as u32,
            message,
        }
    }
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// The engine every learner's script runs on: raw, limited, with the few packages a decision needs.
pub fn engine() -> Engine {
    // Rhai hashes function names with a seed it makes when built; a fixed one keeps its internal
    // tables the same on every build (a script's results never depended on it: maps are ordered).
    let _ = rhai::config::hashing::set_hashing_seed(Some([0x5eed, 0x1ab, 0x36, 0x2026]));
    let mut engine = Engine::new_raw();
    // Comparisons and `min`/`max`; the operators on integers, strings and booleans are built in.
    // Ranges, array methods and the arithmetic library would add some 45 KB of gzipped wasm
    // (docs/learner-code.md) for nothing a role's decision needs.
    engine.register_global_module(LogicPackage::new().as_shared_module());
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(MAX_EXPRESSION_DEPTH.0, MAX_EXPRESSION_DEPTH.1)
        .set_max_string_size(MAX_STRING_BYTES)
        .set_max_array_size(MAX_ARRAY_ITEMS)
        .set_max_map_size(MAX_MAP_PROPERTIES)
        .set_max_functions(MAX_FUNCTIONS)
        .set_strict_variables(true);
    for word in SWITCHED_OFF {
        engine.disable_symbol(*word);
    }
    engine
}

/// Reads `source` as a script that must define `function` with one parameter.
pub fn compile(engine: &Engine, source: &str, function: &str) -> Result<AST, ScriptError> {
    if source.len() > MAX_SOURCE_BYTES {
        let message = format!(
            "the script is {} bytes; at most {MAX_SOURCE_BYTES}",
            source.len()
        );
        return Err(ScriptError::at(Position::NONE, message));
    }
    let ast = engine.compile(source).map_err(parse_error)?;
    let defined = ast
        .iter_functions()
        .any(|defined| defined.name == function && defined.params.len() == 1);
    if !defined {
        let message = format!("the script must define `fn {function}(input)`, with one parameter");
        return Err(ScriptError::at(Position::NONE, message));
    }
    Ok(ast)
}

fn parse_error(error: ParseError) -> ScriptError {
    ScriptError::at(error.position(), error.err_type().to_string())
}

/// Where `fn function(` starts in `source` (for errors about what it returned).
pub fn definition_of(source: &str, function: &str) -> Position {
    let wanted = format!("fn {function}");
    for (index, line) in source.lines().enumerate() {
        if let Some(column) = line.find(&wanted) {
            return Position::new((index + 1) as u16, (column + 1) as u16);
        }
    }
    Position::NONE
}
