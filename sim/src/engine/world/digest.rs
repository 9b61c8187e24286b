//! The state digest: one number that is equal for two worlds whose futures the explorer cannot tell
//! apart, so a bounded search visits each state once.
//!
//! What goes in: the time, and per node its status, clock, due timers (key, label and due time, not
//! the generation counter), backlog and protocol state (the actors derive `Hash`); every message in
//! flight with what bounds its delivery (sender, receiver, send time, delivery time, whether it is
//! lost) and its content; the events that live only in the queue (a timed pause's end, a client
//! request's timeout, a hand edit of a configuration, a backlog drain); the cut links, the link
//! settings and the world's drop and duplicate ratios; the pending client requests; and the checkers'
//! memory that can change a later verdict (`Checkers::digest`).
//!
//! What stays out, and why:
//! - the random generator's state. Two worlds reached by different paths almost never draw the same
//!   numbers, so with it no two states would ever merge. The price: two merged states would draw
//!   different futures and the search follows only the first one found. The explorer's report says so.
//! - the trace, the run fingerprint, the action log and the counters of events, messages and ids: they
//!   record how a state was reached, not what it is. Message ids are left out for the same reason, so
//!   two same-instant events that commute give the same digest.
//!
//! Unordered parts (messages in flight, queue-only events) are combined by a wrapping sum of their own
//! digests, so the order they were created in does not matter. Time stays in: protocols keep absolute
//! local times, so states merge only at the same instant.

use super::{BacklogItem, EventKind, World};
use crate::base::state_hash::{digest_of, StateHasher};
use std::hash::{Hash, Hasher};

impl World {
    /// The digest of this world's state (see the module's notes for what it covers).
    pub fn state_digest(&self) -> u64 {
        let mut hasher = StateHasher::default();
        self.now.hash(&mut hasher);
        self.nodes.len().hash(&mut hasher);
        for slot in &self.nodes {
            (
                slot.status,
                slot.clock,
                &slot.disk.own_persist_ms,
                slot.disk.free_at,
            )
                .hash(&mut hasher);
            for (key, timer) in &slot.timers {
                (key, timer.label, timer.due_local_us, timer.due_at).hash(&mut hasher);
            }
            slot.backlog.hash(&mut hasher);
            slot.actor.hash(&mut hasher);
        }
        self.in_flight_digest().hash(&mut hasher);
        self.queue_only_digest().hash(&mut hasher);
        self.network.digest(&mut hasher);
        self.clients.digest(&mut hasher);
        self.direct_voters.hash(&mut hasher);
        self.checkers.digest(&mut hasher);
        hasher.finish()
    }

    fn in_flight_digest(&self) -> u64 {
        self.network
            .in_flight
            .in_id_order()
            .iter()
            .fold(0u64, |sum, flight| {
                let item = (flight.from, flight.to, flight.label, flight.sent_at);
                let fields = (item, flight.deliver_at, flight.dropped, &flight.message);
                sum.wrapping_add(digest_of(&fields))
            })
    }

    /// Events the queue alone knows about (deliveries and timers are hashed from their owners). A
    /// pause's end counts only while it still matches the node's pause.
    fn queue_only_digest(&self) -> u64 {
        self.queue.iter().fold(0u64, |sum, event| {
            let live = match event.kind {
                EventKind::Deliver { .. } | EventKind::Timer { .. } => false,
                EventKind::Resume {
                    node,
                    pause_generation,
                } => self.nodes[node.index()].pause_generation == pause_generation,
                EventKind::ClientTimeout { .. }
                | EventKind::DrainBacklog { .. }
                | EventKind::ConfigEdit { .. } => true,
            };
            if !live {
                return sum;
            }
            let kind = match event.kind {
                EventKind::Resume { node, .. } => EventKind::Resume {
                    node,
                    pause_generation: 0,
                },
                other => other,
            };
            sum.wrapping_add(digest_of(&(event.at, kind)))
        })
    }
}

impl Hash for BacklogItem {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            BacklogItem::Message { from, message, .. } => (0u8, from, message).hash(state),
            BacklogItem::Client {
                request_id,
                command,
            } => (1u8, request_id, command).hash(state),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ids::NodeId;
    use crate::base::rng::Rng;
    use crate::base::time::SimTime;
    use crate::contract::action::{Action, NodeTarget};
    use crate::contract::config::WorldConfig;

    /// A three-node Raft world at the first millisecond, from 400 ms on, with two messages of
    /// different content on the wire.
    fn busy_world() -> World {
        let mut world = World::new(WorldConfig::raft(3, 7)).unwrap();
        for at_ms in 400..5_000 {
            world.run_until(SimTime::from_ms(at_ms));
            let flights = world.network.in_flight.in_id_order();
            if flights
                .iter()
                .any(|flight| flight.message != flights[0].message)
            {
                return world;
            }
        }
        panic!("no two different messages in flight within 5 s");
    }

    fn crash(node: u16) -> Action {
        Action::Crash {
            target: NodeTarget::Node(NodeId(node)),
        }
    }

    #[test]
    fn two_clones_and_two_orders_of_commuting_crashes_agree() {
        let world = busy_world();
        assert_eq!(world.state_digest(), world.clone().state_digest());
        let (mut first, mut second) = (world.clone(), world.clone());
        first.apply(&crash(0));
        first.apply(&crash(2));
        second.apply(&crash(2));
        second.apply(&crash(0));
        assert_eq!(first.state_digest(), second.state_digest());
        assert_ne!(first.state_digest(), world.state_digest());
    }

    #[test]
    fn one_message_content_changes_the_digest() {
        let world = busy_world();
        let mut changed = world.clone();
        let flights = world.network.in_flight.in_id_order();
        let other = flights
            .iter()
            .find(|flight| flight.message != flights[0].message)
            .unwrap();
        changed
            .network
            .in_flight
            .get_mut(&flights[0].id)
            .unwrap()
            .message = other.message.clone();
        assert_ne!(world.state_digest(), changed.state_digest());
    }

    #[test]
    fn one_timer_due_time_and_one_clock_change_the_digest() {
        let world = busy_world();
        let mut timer_later = world.clone();
        let timer = timer_later.nodes[1].timers.values_mut().next().unwrap();
        timer.due_at = timer.due_at.plus_micros(1);
        assert_ne!(world.state_digest(), timer_later.state_digest());
        let mut clock_jumped = world.clone();
        let now = clock_jumped.now;
        clock_jumped.nodes[2].clock.jump(now, 1);
        assert_ne!(world.state_digest(), clock_jumped.state_digest());
    }

    #[test]
    fn checker_memory_counts_and_the_random_generator_does_not() {
        let world = busy_world();
        let mut watched = world.clone();
        watched.checkers.watch_resource(5);
        assert_ne!(world.state_digest(), watched.state_digest());
        let mut other_draws = world.clone();
        other_draws.rng = Rng::new(12_345);
        assert_eq!(world.state_digest(), other_draws.state_digest());
    }
}
