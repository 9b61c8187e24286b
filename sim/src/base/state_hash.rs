//! The hasher behind the explorer's state digest: a word-at-a-time multiply-fold hash through
//! `std::hash::Hasher`, so any type that derives `Hash` can feed it.
//!
//! Why not the standard library's hasher: its algorithm is not promised to stay the same between Rust
//! releases, and a digest must be the same natively and in wasm. `usize` (lengths of vectors and maps,
//! written by the derives) is written as a `u64`, so a 32-bit and a 64-bit build give the same value.
//!
//! Why not XXH64 (the digest's first hasher): the derives feed a hasher one small integer at a time,
//! and a streaming XXH64 copies each into a 32-byte buffer before mixing. The profile of a search
//! (docs/performance.md, 2026-12-07) spent two fifths of its time there. Here each integer is one
//! step: the state and the word are combined and folded through one 64×64→128-bit multiply (the
//! folded multiply of aHash's and foldhash's portable paths), so no byte is buffered. Byte strings
//! are read eight bytes to a word, their length mixed first so that two splits of the same bytes
//! differ. A digest is a set key, not a defence against chosen inputs: what matters is that distinct
//! states of a search almost never collide, which a full-width multiply per word gives.

use std::hash::{Hash, Hasher};

/// Odd constants with well-spread bits (the fractional parts of pi, as foldhash uses).
const SEED: u64 = 0x243f_6a88_85a3_08d3;
const MULTIPLIER: u64 = 0x1319_8a2e_0370_7344 | 1;
const FINISH: u64 = 0xa409_3822_299f_31d0 | 1;

/// A portable, unbuffered `Hasher` for state digests.
#[derive(Clone)]
pub struct StateHasher {
    state: u64,
}

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher { state: SEED }
    }
}

/// The high and low halves of the full product, combined: every input bit reaches every output bit.
#[cfg(target_pointer_width = "64")]
#[inline(always)]
fn folded_multiply(left: u64, right: u64) -> u64 {
    folded_multiply_wide(left, right)
}

/// On 32-bit targets (wasm32) a `u128` product is a call to compiler-rt's `__multi3`, a general
/// 128×128-bit multiply: the profile of the page's search put 24% of its samples there
/// (docs/performance.md). The same product from four 32×32→64-bit ones is the same number, inline.
#[cfg(not(target_pointer_width = "64"))]
#[inline(always)]
fn folded_multiply(left: u64, right: u64) -> u64 {
    folded_multiply_halves(left, right)
}

#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
#[inline(always)]
fn folded_multiply_wide(left: u64, right: u64) -> u64 {
    let full = (left as u128) * (right as u128);
    (full as u64) ^ ((full >> 64) as u64)
}

/// [`folded_multiply_wide`] with 64-bit multiplies only. No sum overflows: `cross` is at most
/// (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[inline(always)]
fn folded_multiply_halves(left: u64, right: u64) -> u64 {
    const LOW: u64 = 0xffff_ffff;
    let (left_low, left_high) = (left & LOW, left >> 32);
    let (right_low, right_high) = (right & LOW, right >> 32);
    let low_low = left_low * right_low;
    let high_low = left_high * right_low;
    let low_high = left_low * right_high;
    let high_high = left_high * right_high;
    let cross = (low_low >> 32) + (high_low & LOW) + low_high;
    let product_low = (cross << 32) | (low_low & LOW);
    let product_high = (high_low >> 32) + (cross >> 32) + high_high;
    product_low ^ product_high
}

impl StateHasher {
    #[inline(always)]
    fn mix(&mut self, word: u64) {
        self.state = folded_multiply(self.state ^ word, MULTIPLIER);
    }
}

impl Hasher for StateHasher {
    #[inline]
    fn finish(&self) -> u64 {
        folded_multiply(self.state, FINISH).rotate_left(23)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.mix(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.mix(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let tail = chunks.remainder();
        if !tail.is_empty() {
            let mut word = [0u8; 8];
            word[..tail.len()].copy_from_slice(tail);
            self.mix(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.mix(value as u64);
    }

    #[inline]
    fn write_u16(&mut self, value: u16) {
        self.mix(value as u64);
    }

    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.mix(value as u64);
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.mix(value);
    }

    #[inline]
    fn write_u128(&mut self, value: u128) {
        self.mix(value as u64);
        self.mix((value >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.mix(value as u64);
    }

    #[inline]
    fn write_isize(&mut self, value: isize) {
        self.mix(value as i64 as u64);
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
    use std::collections::HashSet;

    /// The 32-bit targets' product is the same number as the 64-bit targets', so a digest is the same
    /// natively and in wasm: extremes, and a million pseudo-random pairs.
    #[test]
    fn the_product_from_halves_is_the_wide_product() {
        let extremes = [
            0,
            1,
            u32::MAX as u64,
            1 << 32,
            u64::MAX - 1,
            u64::MAX,
            MULTIPLIER,
            FINISH,
        ];
        for &left in &extremes {
            for &right in &extremes {
                assert_eq!(
                    folded_multiply_halves(left, right),
                    folded_multiply_wide(left, right),
                    "{left:#x} × {right:#x}"
                );
            }
        }
        let mut word = SEED;
        for _ in 0..1_000_000 {
            word = word
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let other = word.rotate_left(29) ^ FINISH;
            assert_eq!(
                folded_multiply_halves(word, other),
                folded_multiply_wide(word, other)
            );
        }
    }

    #[test]
    fn a_usize_hashes_as_the_same_u64() {
        assert_eq!(digest_of(&7usize), digest_of(&7u64));
        assert_ne!(digest_of(&7usize), digest_of(&8u64));
    }

    /// Pinned, so that a change of the algorithm is a decision (native and wasm must agree on it).
    #[test]
    fn known_values_stay_the_same() {
        assert_eq!(
            digest_of(&(1u64, "two", [3u8; 11])),
            187_401_492_064_620_843
        );
    }

    #[test]
    fn the_split_of_a_byte_string_and_small_changes_count() {
        let mut split = StateHasher::default();
        split.write(b"abc");
        split.write(b"def");
        let mut whole = StateHasher::default();
        whole.write(b"abcdef");
        assert_ne!(split.finish(), whole.finish());
        assert_ne!(digest_of(&(0u64, 1u64)), digest_of(&(1u64, 0u64)));
    }

    /// Small structured inputs (what a state is made of) spread without a single collision.
    #[test]
    fn a_million_near_alike_tuples_do_not_collide() {
        let mut seen = HashSet::new();
        for first in 0..1_000u64 {
            for second in 0..1_000u16 {
                assert!(seen.insert(digest_of(&(first, second, first % 7 == 0))));
            }
        }
    }
}
