//! The parts of the fuzzer `tests/fuzz.rs` runs: a seeded generator, the seed corpus, the grammar,
//! mutations (text, and share-link and completion-code bodies under a fresh checksum), the targets, timing and findings.

pub mod budget;
pub mod code;
pub mod corpus;
pub mod finding;
pub mod grammar;
pub mod history;
pub mod inputs;
pub mod link;
pub mod mutate;
pub mod random;
pub mod targets;
