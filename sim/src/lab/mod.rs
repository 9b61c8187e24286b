//! The guided lab's engine side: a learner writes one role's logic, and the world, its checkers and
//! the search try to break it.
//!
//! A *role* is one small decision in a world we otherwise keep as it is (`contract::roles` names the
//! three: the fenced store's decision on an access, the Redis-style server's compare-and-delete, the
//! scheduler leader's guard at the top of a minute). Each is a pure function: the state it needs comes
//! in as an argument and the new state goes out in its answer, so a world with a learner's role still
//! clones, hashes and replays exactly.
//!
//! The learner writes the role in Rhai (`sandbox.rs` says why and how it is fenced in: no clock, no
//! randomness, no output, an operation budget per call, limits on sizes and depth, errors with line and
//! column). `script_role.rs` turns a script into the role's trait; a failing call falls back to the
//! role's refusal and is logged. `catalogue.rs` lists the roles with their contracts, stubs, our own
//! answers and the classic wrong answers, all written in the learner's language (`solutions/`).
//! `grade.rs` runs the hidden checks (scenarios, a holder-aimed chaos sweep, the bounded search) and
//! `verdict.rs` is what it says: the property that broke, by its checker's name, with hints in three
//! levels (`hints.rs`) and a counterexample to replay.
//!
//! Only the lab reaches this module: nothing that parses a scenario or builds a world names it, so the
//! playground's wasm carries no scripting engine (docs/learner-code.md has the sizes).

pub mod catalogue;
pub mod grade;
pub mod hints;
pub mod sandbox;
pub mod script_role;
pub mod verdict;

pub use catalogue::RoleKind;
pub use grade::{grade, GradeOptions};
pub use script_role::ScriptRole;
pub use verdict::Verdict;
