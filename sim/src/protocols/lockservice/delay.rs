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

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockDelays {
    /// Each held-back key's end on this node's clock (local microseconds). Invariant: only keys the
    /// table holds back.
    ends_us: BTreeMap<u32, u64>,
    /// Keys whose `EndDelay` has been proposed but not applied yet.
    ending: BTreeSet<u32>,
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
        self.ends_us.retain(|key, _| delayed.contains_key(key));
        self.ending.retain(|key| delayed.contains_key(key));
        for key in delayed.keys() {
            self.ends_us
                .entry(*key)
                .or_insert(now_us.saturating_add(delay_ms.saturating_mul(1_000)));
        }
    }

    /// Keys whose delay has run out by `now_us` and whose end is not proposed yet, in key order.
    pub fn due(&self, now_us: u64) -> Vec<u32> {
        self.ends_us
            .iter()
            .filter(|(key, end_us)| **end_us <= now_us && !self.ending.contains(key))
            .map(|(key, _)| *key)
            .collect()
    }

    /// `key`'s `EndDelay` is in the log: do not propose it again.
    pub fn mark_ending(&mut self, key: u32) {
        self.ending.insert(key);
    }

    /// When `key`'s delay ends on this node's clock, if this node is timing one.
    pub fn end_us(&self, key: u32) -> Option<u64> {
        self.ends_us.get(&key).copied()
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
        assert_eq!(delays.due(7_000), vec![0]);
        delays.mark_ending(0);
        assert!(delays.due(9_000).is_empty(), "proposed once");
        delays.sync(&table, 8_000, 2);
        assert_eq!(delays.end_us(0), Some(7_000), "a later sync keeps the end");
        table.apply(3, LockOp::EndDelay { key: 0 }, &mut events);
        delays.sync(&table, 9_000, 2);
        assert_eq!(delays.end_us(0), None);
    }
}
