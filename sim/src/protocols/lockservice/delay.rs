//! The leader's clock for lock-delay: when each key held back after an invalidated lease may be granted
//! again. Like lease deadlines, these live in the leader's memory, on its own clock: the replicated
//! table only says *which* keys are held back (`LockTable::delayed_keys`), and the leader ends a delay
//! by proposing `LockOp::EndDelay`, so every replica frees the key at the same point of the log.
//!
//! A newly elected leader does not know when the old one began a delay, so it gives every held-back key
//! a full lock-delay from its own election: a delay may last longer than asked, never shorter, which is
//! the side Consul errs on too (its TTLs are reset on a leader failover).

use crate::protocols::lockservice::table::LockTable;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LockDelays {
    /// Each held-back key's delay (by the revision that began it) and its end on this node's clock
    /// (local microseconds). Invariant: only delays the table still holds keys back with; a key held
    /// back again after its delay ended is a new delay with a new end (chaos seed 177 once kept the
    /// old one, already proposed, and the key was never granted again).
    ends_us: BTreeMap<u32, (u64, u64)>,
    /// Delays (key, revision) whose `EndDelay` has been proposed but not applied yet.
    ending: BTreeSet<(u32, u64)>,
}

impl LockDelays {
    /// Forgets everything (leadership gained or lost).
    pub fn clear(&mut self) {
        self.ends_us.clear();
        self.ending.clear();
    }

    /// Every key the table holds back has an end (`delay_ms` from `now_us` when first seen here), and
    /// no end outlives its key's delay.
    pub fn sync(&mut self, table: &LockTable, now_us: u64, delay_ms: u64) {
        let delayed = &table.delayed_keys;
        let current = |key: &u32, revision: &u64| delayed.get(key) == Some(revision);
        self.ends_us
            .retain(|key, (revision, _)| current(key, revision));
        self.ending.retain(|(key, revision)| current(key, revision));
        for (key, revision) in delayed {
            let end_us = now_us.saturating_add(delay_ms.saturating_mul(1_000));
            self.ends_us.entry(*key).or_insert((*revision, end_us));
        }
    }

    /// Delays (key, revision) that have run out by `now_us` and whose end is not proposed yet, in
    /// key order.
    pub fn due(&self, now_us: u64) -> Vec<(u32, u64)> {
        self.ends_us
            .iter()
            .map(|(key, (revision, end_us))| ((*key, *revision), *end_us))
            .filter(|(delay, end_us)| *end_us <= now_us && !self.ending.contains(delay))
            .map(|(delay, _)| delay)
            .collect()
    }

    /// This delay's `EndDelay` is in the log: do not propose it again.
    pub fn mark_ending(&mut self, delay: (u32, u64)) {
        self.ending.insert(delay);
    }

    /// When `key`'s delay ends on this node's clock, if this node is timing one.
    pub fn end_us(&self, key: u32) -> Option<u64> {
        self.ends_us.get(&key).map(|(_, end_us)| *end_us)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ids::NodeId;
    use crate::protocols::lockservice::table::{LockOp, TableEvent};

    fn acquire(table: &mut LockTable, index: u64, owner: u16, events: &mut Vec<TableEvent>) {
        let op = LockOp::Acquire {
            key: 0,
            owner: NodeId(owner),
            ttl_ms: 1_000,
            request: index,
            idempotent: false,
        };
        table.apply(index, op, events);
    }

    #[test]
    fn a_held_back_key_ends_a_full_delay_after_it_is_first_seen() {
        let mut table = LockTable::with_lock_delay(true);
        let mut events = Vec::new();
        acquire(&mut table, 1, 3, &mut events);
        table.apply(2, LockOp::Expire { lease: 1 }, &mut events);
        let mut delays = LockDelays::default();
        delays.sync(&table, 5_000, 2);
        assert_eq!(delays.end_us(0), Some(7_000));
        assert!(delays.due(6_999).is_empty());
        assert_eq!(delays.due(7_000), vec![(0, 2)]);
        delays.mark_ending((0, 2));
        assert!(delays.due(9_000).is_empty(), "proposed once");
        delays.sync(&table, 8_000, 2);
        assert_eq!(delays.end_us(0), Some(7_000), "a later sync keeps the end");
        table.apply(
            3,
            LockOp::EndDelay {
                key: 0,
                revision: 2,
            },
            &mut events,
        );
        delays.sync(&table, 9_000, 2);
        assert_eq!(delays.end_us(0), None);
        // Held back again at once: a new delay, a new end, due again.
        acquire(&mut table, 4, 3, &mut events);
        table.apply(5, LockOp::Expire { lease: 4 }, &mut events);
        delays.sync(&table, 10_000, 2);
        assert_eq!(delays.end_us(0), Some(12_000));
        assert_eq!(delays.due(12_000), vec![(0, 4)]);
    }
}
