//! The tooling layer: what drives the engine from outside. Scenario files, lessons, trace files,
//! chaos schedules, seed sweeps and the scenario runner (the `quorumlab` command in `bin/` belongs here
//! too, as a separate crate). It may import every layer below.

pub mod behaviour;
pub mod bench;
pub mod chaos;
pub mod chaos_digest;
pub mod compare;
pub mod completion;
pub mod experiment;
pub mod explore;
pub mod gallery;
pub mod history_bench;
pub mod lesson;
pub mod lesson_search;
pub mod replay;
pub mod runner;
pub mod scenario;
pub mod suggest;
pub mod sweep;
pub mod sweep_history;
pub mod trace_file;
