//! The engine layer: the simulated network, the trace and its hash, the checkers, the world that runs
//! events in virtual time, time travel over it, the log of what clients saw and the linearizability check of it. It
//! may import the worlds layer and below.

pub mod checker;
pub mod client_log;
pub mod fingerprint;
pub mod history;
pub mod in_flight;
pub mod linearizable;
pub mod network;
pub mod run;
pub mod trace;
pub mod world;
