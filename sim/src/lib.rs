//! Quorum Lab's simulation engine: deterministic, sans-IO, with no web dependencies.
//!
//! The folders are the layers, lowest first: `base`, `contract`, `protocols`, `worlds`, `engine`,
//! `views`, `tooling` (see `sim/ENGINE.md`, "Layers"; `tests/layers.rs` checks that imports only point
//! down). The crate root is the facade for the engine's users: it re-exports every module by its short
//! name (`quorumlab_sim::time`, `quorumlab_sim::raft`), so the app, the CLI and the tests need not know
//! which layer a module sits in. Inside the engine, imports name the layer (`crate::base::time`), so
//! every import says which way it points.

pub mod base;
pub mod contract;
pub mod engine;
pub mod lab;
pub mod protocols;
pub mod tooling;
pub mod views;
pub mod worlds;

pub use base::{clock, hash, ids, rng, time, units};
pub use contract::{
    action, client_history, config, entry, erased_model, invalid, link_settings, panel_rows,
    protocol, report, sequential,
};
pub use engine::{checker, client_log, fingerprint, history, linearizable, network, trace, world};
pub use protocols::{
    lock_client, lockservice, paxos, pbft, raft, redlock, resource, scheduler, work_queue, worker,
    zookeeper,
};
pub use tooling::{
    behaviour, bench, chaos, chaos_digest, compare, completion, experiment, explore, gallery,
    history_bench, lesson, lesson_search, replay, runner, scenario, suggest, sweep, sweep_history,
    trace_file,
};
pub use views::{
    difference, history_cause, history_summary, history_words, message_content, narration, price,
    upkeep, view, view_coordination,
};
pub use worlds::{actor, coordination, registry};

pub use contract::config::{ProtocolConfig, ProtocolKind};
pub use contract::report::{LeaderRecord, NodeFinal, Report, RequestCounts, ViolationRecord};
pub use engine::world::{ActionOutcome, World, WorldConfig};
