//! The event queue: a min-heap keyed by (true time, sequence number), so equal times run in the order
//! they were scheduled and no two events ever compare equal.

use crate::base::ids::{NodeId, NodeSet};
use crate::base::time::SimTime;
use crate::contract::protocol::{RequestId, TimerKey};
use crate::engine::network::MessageId;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    Deliver {
        message_id: MessageId,
    },
    Timer {
        node: NodeId,
        key: TimerKey,
        generation: u64,
    },
    ClientTimeout {
        request_id: RequestId,
    },
    /// End of a pause with a duration; ignored if the node was resumed or paused again meanwhile.
    Resume {
        node: NodeId,
        pause_generation: u64,
    },
    /// After a resume, feed the node what piled up while it was paused.
    DrainBacklog {
        node: NodeId,
    },
    /// The unsafe direct membership mode: this node's configuration is rewritten by hand now.
    ConfigEdit {
        node: NodeId,
        voters: NodeSet,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub at: SimTime,
    pub sequence: u64,
    pub kind: EventKind,
}

impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.at, self.sequence).cmp(&(other.at, other.sequence))
    }
}

impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<Scheduled>>,
    next_sequence: u64,
}

impl EventQueue {
    pub fn push(&mut self, at: SimTime, kind: EventKind) {
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        self.heap.push(Reverse(Scheduled { at, sequence, kind }));
    }

    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|Reverse(event)| event.at)
    }

    pub fn pop(&mut self) -> Option<Scheduled> {
        self.heap.pop().map(|Reverse(event)| event)
    }

    /// Every event still queued, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Scheduled> {
        self.heap.iter().map(|Reverse(event)| event)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}
