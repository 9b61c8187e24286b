//! The fuzzer's one seeded generator. Every input is drawn from a generator made from the run's seed
//! and the input's index alone, so any single input can be regenerated without the ones before it.

use quorumlab_sim::rng::Rng;

pub struct Random(Rng);

impl Random {
    /// The generator of input `index` of a run seeded `seed`.
    pub fn for_input(seed: u64, index: u64) -> Random {
        // Spread neighbouring indices apart (SplitMix64's increment); the engine's Rng mixes the rest.
        Random(Rng::new(
            seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17),
        ))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        self.0.range_inclusive(low, high)
    }

    /// An index below `count` (which must not be zero).
    pub fn below(&mut self, count: usize) -> usize {
        self.between(0, count as u64 - 1) as usize
    }

    pub fn percent(&mut self, percent: u64) -> bool {
        self.between(0, 99) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index into `weights`, each chosen in proportion to its weight.
    pub fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut draw = self.between(0, total - 1);
        for (index, weight) in weights.iter().enumerate() {
            if draw < *weight {
                return index;
            }
            draw -= weight;
        }
        weights.len() - 1
    }

    pub fn bytes(&mut self, count: usize) -> Vec<u8> {
        (0..count).map(|_| self.next_u64() as u8).collect()
    }
}
