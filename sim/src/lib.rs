//! Quorum Lab's simulation engine: deterministic, sans-IO, with no web dependencies.

pub mod action;
pub mod actor;
pub mod chaos;
pub mod checker;
pub mod clock;
pub mod config;
pub mod coordination;
pub mod ids;
pub mod lesson;
pub mod lock_client;
pub mod lockservice;
pub mod network;
pub mod protocol;
pub mod raft;
pub mod redlock;
pub mod registry;
pub mod report;
pub mod resource;
pub mod rng;
pub mod runner;
pub mod scenario;
pub mod scheduler;
pub mod sweep;
pub mod time;
pub mod trace;
pub mod trace_file;
pub mod work_queue;
pub mod worker;
pub mod world;
pub mod zookeeper;

pub use config::{ProtocolConfig, ProtocolKind};
pub use report::{LeaderRecord, NodeFinal, Report, RequestCounts, ViolationRecord};
pub use world::{ActionOutcome, World, WorldConfig};
pub mod history;
pub mod view;
pub mod view_coordination;
