//! How two runs differ so far: each run's notable moments (invariant violations, writes a fenced store
//! refused, elections) and tallies (messages sent, writes accepted and refused), read from its trace
//! as it grows, and one line comparing the two, for compare mode ("left: StaleToken refused at 2.31 s
//! · right: lost update at 2.31 s").
//!
//! Everything here reads the trace only, in order, so the same two runs always give the same line.

pub mod moments;
pub mod summary;
