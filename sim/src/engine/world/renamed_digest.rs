//! The state digest of this world with its nodes renamed: what [`World::state_digest`] would give
//! for the mirror image of this world under a permutation of the nodes, computed without building
//! that image. The explorer's node-symmetry reduction takes the least of these over every
//! permutation as a state's canonical digest (`tooling/explore/symmetry.rs`), so a world and its
//! mirror images are visited once.
//!
//! It covers what `digest.rs` covers, in the same way, with the three parts of a renaming
//! (`base/permutation.rs`): the node slots are walked in the renamed order (slot `j` of the image
//! is the old slot `source(j)`: its status, clock, disk, timers, backlog and actor); each message in
//! flight has its ends and the nodes it names renamed; the queue-only events name renamed nodes;
//! the network's cut matrix and links, the pending client requests' nodes, the direct mode's voters
//! and the checkers' per-node memory are renamed by their own `digest_under`.
//!
//! Actors are renamed only where they know how: a plain Raft server. Any other actor goes in as it
//! is, which is never a mirror image: the explorer offers the reduction only where every node is a
//! plain Raft server, and says why not elsewhere.

use super::{BacklogItem, EventKind, World};
use crate::base::permutation::Permutation;
use crate::base::state_hash::{digest_of, StateHasher};
use crate::worlds::actor::{Actor, Message};
use std::hash::{Hash, Hasher};

impl World {
    /// The digest of this world's mirror image under `renaming` (the identity gives a digest of
    /// this world, though not the number [`World::state_digest`] gives).
    pub fn digest_under(&self, renaming: &Permutation) -> u64 {
        let mut hasher = StateHasher::default();
        self.now.hash(&mut hasher);
        self.nodes.len().hash(&mut hasher);
        for position in 0..self.nodes.len() {
            let slot = &self.nodes[renaming.source(position)];
            let disk = &slot.disk;
            (slot.status, slot.clock, &disk.own_persist_ms, disk.free_at).hash(&mut hasher);
            for (key, timer) in &slot.timers {
                (key, timer.label, timer.due_local_us, timer.due_at).hash(&mut hasher);
            }
            slot.backlog.len().hash(&mut hasher);
            for item in &slot.backlog {
                backlog_under(item, renaming, &mut hasher);
            }
            match &slot.actor {
                Actor::Raft(node) => node.digest_under(renaming, &mut hasher),
                other => other.hash(&mut hasher),
            }
        }
        self.in_flight_under(renaming).hash(&mut hasher);
        self.queue_only_under(renaming).hash(&mut hasher);
        self.network.digest_under(renaming, &mut hasher);
        self.clients.digest_under(renaming, &mut hasher);
        let direct_voters = self.direct_voters.map(|voters| renaming.set(voters));
        direct_voters.hash(&mut hasher);
        self.checkers.digest_under(renaming, &mut hasher);
        hasher.finish()
    }

    fn in_flight_under(&self, renaming: &Permutation) -> u64 {
        let flights = self.network.in_flight.in_id_order();
        flights.iter().fold(0u64, |sum, flight| {
            let ends = (renaming.node(flight.from), renaming.node(flight.to));
            let item = (ends.0, ends.1, flight.label, flight.sent_at);
            let message = message_under(&flight.message, renaming);
            let fields = (item, flight.deliver_at, flight.dropped, &message);
            sum.wrapping_add(digest_of(&fields))
        })
    }

    /// As `queue_only_digest`, with the node each event names renamed.
    fn queue_only_under(&self, renaming: &Permutation) -> u64 {
        self.queue.iter().fold(0u64, |sum, event| {
            let kind = match event.kind {
                EventKind::Deliver { .. } | EventKind::Timer { .. } => return sum,
                EventKind::Resume {
                    node,
                    pause_generation,
                } => {
                    if self.nodes[node.index()].pause_generation != pause_generation {
                        return sum;
                    }
                    EventKind::Resume {
                        node: renaming.node(node),
                        pause_generation: 0,
                    }
                }
                EventKind::DrainBacklog { node } => EventKind::DrainBacklog {
                    node: renaming.node(node),
                },
                EventKind::ConfigEdit { node, voters } => EventKind::ConfigEdit {
                    node: renaming.node(node),
                    voters: renaming.set(voters),
                },
                client @ EventKind::ClientTimeout { .. } => client,
            };
            sum.wrapping_add(digest_of(&(event.at, kind)))
        })
    }
}

/// A message with the nodes it names renamed (Raft's; a plain cluster carries no other kind).
fn message_under(message: &Message, renaming: &Permutation) -> Message {
    match message {
        Message::Raft(raft) => Message::Raft(raft.renamed(renaming)),
        other => other.clone(),
    }
}

fn backlog_under(item: &BacklogItem, renaming: &Permutation, mut out: &mut dyn Hasher) {
    match item {
        BacklogItem::Message { from, message, .. } => {
            let message = message_under(message, renaming);
            (0u8, renaming.node(*from), message).hash(&mut out)
        }
        BacklogItem::Client {
            request_id,
            command,
        } => (1u8, request_id, command).hash(&mut out),
    }
}
