//! The hasher behind the explorer's state digest: XXH64 through `std::hash::Hasher`, so any type that
//! derives `Hash` can feed it.
//!
//! Why not the standard library's hasher: its algorithm is not promised to stay the same between Rust
//! releases, and a digest must be the same natively and in wasm. `usize` (lengths of vectors and maps,
//! written by the derives) is written as a `u64`, so a 32-bit and a 64-bit build give the same value.

use std::hash::{Hash, Hasher};
use xxhash_rust::xxh64::Xxh64;

/// A portable `Hasher` over XXH64 (seed 0).
#[derive(Clone)]
pub struct StateHasher(Xxh64);

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher(Xxh64::new(0))
    }
}

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0.digest()
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }

    fn write_isize(&mut self, value: isize) {
        self.write_i64(value as i64);
    }
}

/// The digest of one value on its own.
pub fn digest_of<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut hasher = StateHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_usize_hashes_as_the_same_u64() {
        assert_eq!(digest_of(&7usize), digest_of(&7u64));
        assert_ne!(digest_of(&7usize), digest_of(&8u64));
    }
}
