//! The simulated network: directed links that can be cut, a global drop and duplication ratio, links
//! with settings of their own (`link_settings`: a delay range, drop and duplicate rates for one pair of
//! nodes, both ways), and the messages in flight.
//!
//! Caps: at most [`MAX_IN_FLIGHT`] messages travel at once; a send beyond that is discarded on the spot and
//! the trace notes it. Dropped messages still travel (marked `dropped`) so the UI can show them fade out.

use crate::base::ids::NodeId;
use crate::base::permutation::Permutation;
use crate::contract::link_settings::{link_key, LinkSettings};
pub use crate::engine::in_flight::{InFlight, InFlightMessages, MessageId};
use serde::Serialize;
use std::collections::BTreeMap;

/// Most messages in flight at once (dropped ones included).
pub const MAX_IN_FLIGHT: usize = 10_000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LinkCut {
    pub from: NodeId,
    pub to: NodeId,
}

#[derive(Clone, Debug)]
pub struct Network {
    node_count: usize,
    /// `cut[from * node_count + to]`: the directed link is down.
    cut: Vec<bool>,
    /// The groups of the last `Partition` action (cleared by heal), for display.
    pub partition_groups: Vec<Vec<NodeId>>,
    pub drop_ppm: u32,
    pub duplicate_ppm: u32,
    pub in_flight: InFlightMessages,
    next_message_id: MessageId,
    /// Links with settings of their own, by [`link_key`].
    link_settings: BTreeMap<(NodeId, NodeId), LinkSettings>,
}

/// What a message between two nodes meets: the link's own settings where it has them, else the
/// world's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EffectiveLink {
    pub delay_ms: (u64, u64),
    pub drop_ppm: u32,
    pub duplicate_ppm: u32,
}

impl Network {
    pub fn new(node_count: usize, drop_ppm: u32, duplicate_ppm: u32) -> Network {
        Network {
            node_count,
            cut: vec![false; node_count * node_count],
            partition_groups: Vec::new(),
            drop_ppm,
            duplicate_ppm,
            in_flight: InFlightMessages::default(),
            next_message_id: 1,
            link_settings: BTreeMap::new(),
        }
    }

    /// One more node joins (a membership change): every link to and from it starts up, every other
    /// link keeps its state.
    pub fn grow(&mut self) {
        let (old, new) = (self.node_count, self.node_count + 1);
        let mut cut = vec![false; new * new];
        for from in 0..old {
            cut[from * new..from * new + old]
                .copy_from_slice(&self.cut[from * old..(from + 1) * old]);
        }
        self.cut = cut;
        self.node_count = new;
    }

    /// Feeds the links' state to `out` (the explorer's state digest): cuts, link settings and the
    /// world's ratios. Messages in flight are hashed by the world, without their ids.
    pub fn digest(&self, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        (
            self.node_count,
            &self.cut,
            self.drop_ppm,
            self.duplicate_ppm,
        )
            .hash(&mut out);
        self.link_settings.hash(&mut out);
    }

    /// [`Network::digest`] with the nodes renamed by `renaming` (see `base/permutation.rs`): the
    /// cut matrix read in the renamed order, each link's own settings under its renamed ends.
    pub fn digest_under(&self, renaming: &Permutation, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        let count = self.node_count;
        self.node_count.hash(&mut out);
        self.cut.len().hash(&mut out);
        for from in 0..count {
            for to in 0..count {
                let old = renaming.source(from) * count + renaming.source(to);
                self.cut[old].hash(&mut out);
            }
        }
        (self.drop_ppm, self.duplicate_ppm).hash(&mut out);
        let renamed: BTreeMap<(NodeId, NodeId), LinkSettings> = self
            .link_settings
            .iter()
            .map(|(&(one, other), &settings)| {
                (link_key(renaming.node(one), renaming.node(other)), settings)
            })
            .collect();
        renamed.hash(&mut out);
    }

    pub fn link_up(&self, from: NodeId, to: NodeId) -> bool {
        !self.cut[from.index() * self.node_count + to.index()]
    }

    pub fn set_link(&mut self, from: NodeId, to: NodeId, up: bool) {
        self.cut[from.index() * self.node_count + to.index()] = !up;
    }

    /// Only nodes in the same group can talk; nodes named in no group form one more group.
    pub fn partition(&mut self, groups: &[Vec<NodeId>]) {
        let group_of = group_assignment(groups, self.node_count);
        for from in 0..self.node_count {
            for to in 0..self.node_count {
                self.cut[from * self.node_count + to] = group_of[from] != group_of[to];
            }
        }
        self.partition_groups = groups.to_vec();
    }

    pub fn isolate(&mut self, node: NodeId) {
        for other in 0..self.node_count as u16 {
            if other != node.0 {
                self.set_link(node, NodeId(other), false);
                self.set_link(NodeId(other), node, false);
            }
        }
    }

    pub fn heal(&mut self) {
        self.cut.iter_mut().for_each(|cut| *cut = false);
        self.partition_groups.clear();
    }

    pub fn cuts(&self) -> Vec<LinkCut> {
        let count = self.node_count;
        (0..count * count)
            .filter(|slot| self.cut[*slot])
            .map(|slot| LinkCut {
                from: NodeId((slot / count) as u16),
                to: NodeId((slot % count) as u16),
            })
            .collect()
    }

    /// The settings a message from `from` to `to` meets, given the world's delay range.
    pub fn effective(&self, from: NodeId, to: NodeId, world_delay_ms: (u64, u64)) -> EffectiveLink {
        let own = self.link_settings.get(&link_key(from, to));
        EffectiveLink {
            delay_ms: own.and_then(|own| own.delay_ms).unwrap_or(world_delay_ms),
            drop_ppm: own.and_then(|own| own.drop_ppm).unwrap_or(self.drop_ppm),
            duplicate_ppm: own
                .and_then(|own| own.duplicate_ppm)
                .unwrap_or(self.duplicate_ppm),
        }
    }

    /// Gives the link between `one` and `other` its own settings (an empty one clears it).
    pub fn set_link_settings(&mut self, one: NodeId, other: NodeId, settings: LinkSettings) {
        let key = link_key(one, other);
        if settings.is_empty() {
            self.link_settings.remove(&key);
        } else {
            self.link_settings.insert(key, settings);
        }
    }

    /// Gives one link, or every link (`None`), back to the world's settings.
    pub fn clear_link_settings(&mut self, between: Option<(NodeId, NodeId)>) {
        match between {
            Some((one, other)) => {
                self.link_settings.remove(&link_key(one, other));
            }
            None => self.link_settings.clear(),
        }
    }

    /// Every link between two different groups gets `settings`; every other link the world's.
    pub fn regions(&mut self, groups: &[Vec<NodeId>], settings: LinkSettings) {
        self.link_settings.clear();
        for (index, group) in groups.iter().enumerate() {
            for later in &groups[index + 1..] {
                for &one in group {
                    for &other in later {
                        self.set_link_settings(one, other, settings);
                    }
                }
            }
        }
    }

    /// The links with settings of their own, lower node first, in order.
    pub fn link_settings(&self) -> impl Iterator<Item = ((NodeId, NodeId), LinkSettings)> + '_ {
        self.link_settings
            .iter()
            .map(|(pair, settings)| (*pair, *settings))
    }

    pub fn next_id(&mut self) -> MessageId {
        let id = self.next_message_id;
        self.next_message_id += 1;
        id
    }
}

/// Group number of every node: its group's position, or `groups.len()` for nodes left out.
pub fn group_assignment(groups: &[Vec<NodeId>], node_count: usize) -> Vec<usize> {
    let mut group_of = vec![groups.len(); node_count];
    for (group_index, group) in groups.iter().enumerate() {
        for node in group {
            if node.index() < node_count {
                group_of[node.index()] = group_index;
            }
        }
    }
    group_of
}

/// Can `from` reach `to` under this partition? (Pure; the network applies the same rule.)
pub fn partition_allows(
    groups: &[Vec<NodeId>],
    node_count: usize,
    from: NodeId,
    to: NodeId,
) -> bool {
    let group_of = group_assignment(groups, node_count);
    group_of[from.index()] == group_of[to.index()]
}
