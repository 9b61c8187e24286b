//! The base layer: identities, virtual time, the one random generator, the one hash, local clocks and
//! the numbers protocols count in. Plain values every other layer builds on; it imports nothing of the
//! engine outside this folder.

pub mod clock;
pub mod hash;
pub mod ids;
pub mod permutation;
pub mod rng;
pub mod state_hash;
pub mod time;
pub mod units;
