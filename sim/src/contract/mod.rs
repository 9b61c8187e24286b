//! The contract layer: what the world and its actors agree on. The sans-IO `protocol` trait, the
//! actions that change a run from outside, a run's settings, the registry entry's data types, the
//! end-of-run report, rule violations as values, and client histories with the sequential models that
//! judge them. It may import the base layer only.

pub mod action;
pub mod checkpoint;
pub mod client_history;
pub mod config;
pub mod entry;
pub mod erased_model;
pub mod invalid;
pub mod layout;
pub mod link_settings;
pub mod lock_options;
pub mod node_status;
pub mod panel_rows;
pub mod protocol;
pub mod read_path;
pub mod report;
pub mod roles;
pub mod sequential;
pub mod verdicts;
pub mod world_read;
