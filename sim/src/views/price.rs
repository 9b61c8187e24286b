//! What agreement costs in messages: a PBFT run's count comes from its own replicas and clients
//! (`PbftView::messages_sent`), and Raft's from a short Raft run of the same size made here, with
//! one write at a time like a PBFT client's requests. Both are counts, not formulas: Raft's includes
//! the leader's heartbeats, PBFT's its view changes.

use crate::base::time::SimTime;
use crate::contract::action::{Action, NodeTarget, RequestKind};
use crate::contract::config::WorldConfig;
use crate::engine::trace::TraceEvent;
use crate::engine::world::World;
use crate::views::upkeep::{UpkeepReader, HEARTBEAT_LABEL};
use serde::Serialize;

/// Writes the Raft run makes, one every request interval once a leader is elected.
pub const BASELINE_WRITES: u64 = 20;
/// Time the Raft run gives itself to elect a leader before the first write.
const ELECTION_MS: u64 = 1_000;
/// Time after the last write for it to commit.
const SETTLE_MS: u64 = 300;

/// A count of messages sent for writes committed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MessageCost {
    pub messages: u64,
    pub committed: u64,
    /// Of `messages`, the empty heartbeats a Raft leader sends while idle (0 for PBFT).
    pub heartbeats: u64,
    /// Of `messages`, the heartbeats and the followers' answers to them (`views::upkeep`): sent on
    /// the clock, not for any write (0 for PBFT).
    pub upkeep: u64,
}

impl MessageCost {
    /// Messages per committed write, in tenths (no floats in views): `None` before the first commit.
    pub fn per_commit_tenths(self) -> Option<u64> {
        (self.committed > 0).then(|| self.messages * 10 / self.committed)
    }

    /// The same for the messages the writes caused: the upkeep left out.
    pub fn per_commit_tenths_without_upkeep(self) -> Option<u64> {
        (self.committed > 0)
            .then(|| self.messages.saturating_sub(self.upkeep) * 10 / self.committed)
    }
}

/// The Raft run: `servers` servers from `seed`, [`BASELINE_WRITES`] writes to the leader
/// `interval_ms` apart; every message sent from the first write to the end counts. `None` when no
/// such world can be made (a size out of range).
pub fn raft_baseline(servers: usize, seed: u64, interval_ms: u64) -> Option<MessageCost> {
    let mut world = World::new(WorldConfig::raft(servers, seed)).ok()?;
    world.run_until(SimTime::from_ms(ELECTION_MS));
    let start_us = world.now().as_micros();
    let interval_ms = interval_ms.max(1);
    for write in 0..BASELINE_WRITES {
        world.apply(&Action::Request {
            count: 1,
            target: NodeTarget::Leader,
            kind: RequestKind::Put,
        });
        let next_ms = ELECTION_MS + (write + 1) * interval_ms;
        world.run_until(SimTime::from_ms(next_ms));
    }
    let end_ms = world.now().as_micros() / 1_000 + SETTLE_MS;
    world.run_until(SimTime::from_ms(end_ms));
    let mut messages = 0;
    let mut heartbeats = 0;
    let mut upkeep = 0;
    let mut reader = UpkeepReader::default();
    let records = world.trace().records();
    for record in records.filter(|record| record.at_us >= start_us) {
        let is_upkeep = reader.read(&record.event);
        if let TraceEvent::Send { label, .. } = record.event {
            messages += 1;
            heartbeats += u64::from(label == HEARTBEAT_LABEL);
            upkeep += u64::from(is_upkeep == Some(true));
        }
    }
    Some(MessageCost {
        messages,
        heartbeats,
        upkeep,
        committed: world.report().requests.committed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_raft_baseline_is_counted_and_repeatable() {
        let four = raft_baseline(4, 7, 200).expect("a four-server run");
        assert_eq!(four, raft_baseline(4, 7, 200).expect("the same run"));
        assert!(four.committed > 0 && four.committed <= BASELINE_WRITES);
        assert!(four.heartbeats > 0 && four.heartbeats < four.messages);
        // Heartbeats are answered (all but those still in flight when the run stops), and the
        // writes themselves cost about 2(n - 1) = 6 messages each once the upkeep is left out.
        assert!(
            four.upkeep > four.heartbeats && four.upkeep <= 2 * four.heartbeats,
            "{four:?}"
        );
        let per_write = four
            .per_commit_tenths_without_upkeep()
            .expect("writes committed");
        assert!((55..=70).contains(&per_write), "{four:?}");
        assert!(
            four.per_commit_tenths().unwrap() > 2 * per_write,
            "{four:?}"
        );
        let seven = raft_baseline(7, 7, 200).expect("a seven-server run");
        // More followers, more AppendEntries and replies per write.
        assert!(seven.messages > four.messages, "{seven:?} vs {four:?}");
        assert_eq!(raft_baseline(0, 7, 200), None);
    }

    #[test]
    fn no_commit_means_no_figure() {
        let none = MessageCost {
            messages: 12,
            committed: 0,
            heartbeats: 0,
            upkeep: 0,
        };
        assert_eq!(none.per_commit_tenths(), None);
        let some = MessageCost {
            messages: 25,
            committed: 2,
            heartbeats: 4,
            upkeep: 8,
        };
        assert_eq!(some.per_commit_tenths(), Some(125));
        assert_eq!(some.per_commit_tenths_without_upkeep(), Some(85));
        assert_eq!(none.per_commit_tenths_without_upkeep(), None);
    }
}
