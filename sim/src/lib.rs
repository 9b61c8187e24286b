//! Quorum Lab's simulation engine: deterministic, sans-IO, with no web dependencies.

pub mod action;
pub mod config;
pub mod ids;
pub mod rng;
pub mod time;
pub mod scenario;
pub mod chaos;
