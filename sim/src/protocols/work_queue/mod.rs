//! Avoiding coordination: workers process jobs keyed by account, each owning a partition of the
//! accounts (no lock at all) or all of them under one global lock from the lock service. The worker's
//! queue mode lives with the worker (`crate::protocols::worker`); this folder holds the world's registry
//! entry.

pub mod entry;
pub mod options;
pub mod parts;
pub mod variations;
