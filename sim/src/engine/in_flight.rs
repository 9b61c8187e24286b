//! The messages on the wire, by id: found, added and taken off in constant time, listed in id order.
//!
//! The engine touches this set twice per message (a send adds one, its delivery event takes it off).
//! It was an ordered map, and the engine's profile put a tenth of all its time in that map's inserts
//! and removals, shifting 128-byte entries inside tree nodes; a hash map does both in constant time.
//! Nothing in a run depends on the map's own order: the one listing (the view's messages) is sorted by
//! id, so a message always appears in the place it did before.

use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::worlds::actor::Message;
use rustc_hash::FxHashMap;

pub type MessageId = u64;

#[derive(Clone, Debug)]
pub struct InFlight {
    pub id: MessageId,
    pub from: NodeId,
    pub to: NodeId,
    pub label: &'static str,
    pub sent_at: SimTime,
    pub deliver_at: SimTime,
    /// Decided at send time from the link state and drop ratio; a dropped message is never delivered.
    pub dropped: bool,
    /// Milliseconds a learner has held it back in all (its `deliver_at` already counts them).
    pub held_ms: u64,
    pub message: Message,
}

#[derive(Clone, Debug, Default)]
pub struct InFlightMessages {
    by_id: FxHashMap<MessageId, InFlight>,
}

impl InFlightMessages {
    pub fn insert(&mut self, flight: InFlight) {
        self.by_id.insert(flight.id, flight);
    }

    pub fn get(&self, id: &MessageId) -> Option<&InFlight> {
        self.by_id.get(id)
    }

    pub fn get_mut(&mut self, id: &MessageId) -> Option<&mut InFlight> {
        self.by_id.get_mut(id)
    }

    pub fn remove(&mut self, id: &MessageId) -> Option<InFlight> {
        self.by_id.remove(id)
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// Every message on the wire, oldest send first.
    pub fn in_id_order(&self) -> Vec<&InFlight> {
        let mut flights: Vec<&InFlight> = self.by_id.values().collect();
        flights.sort_unstable_by_key(|flight| flight.id);
        flights
    }
}

impl std::ops::Index<&MessageId> for InFlightMessages {
    type Output = InFlight;

    fn index(&self, id: &MessageId) -> &InFlight {
        &self.by_id[id]
    }
}
