//! The engine layer: the simulated network, the trace and its hash, the checkers, the world that runs
//! events in virtual time, and time travel over it. It may import the worlds layer and below.

pub mod checker;
pub mod fingerprint;
pub mod history;
pub mod in_flight;
pub mod network;
pub mod run;
pub mod trace;
pub mod world;
