//! Node identities and the bounds on cluster size.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest cluster the engine accepts. Scenario validation rejects more.
pub const MAX_NODES: usize = 51;

/// A node's zero-based index. Shown to people as `n1`..`nN` (one-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct NodeId(pub u16);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses the human form `n1`..`nN` for a cluster of `node_count` nodes.
    pub fn parse(text: &str, node_count: usize) -> Result<NodeId, String> {
        let digits = text
            .strip_prefix('n')
            .ok_or_else(|| format!("node id `{text}` must look like n1..n{node_count}"))?;
        let number: usize = digits
            .parse()
            .map_err(|_| format!("node id `{text}` must look like n1..n{node_count}"))?;
        if number == 0 || number > node_count {
            return Err(format!(
                "node `{text}` is out of range: this cluster has n1..n{node_count}"
            ));
        }
        Ok(NodeId((number - 1) as u16))
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "n{}", self.0 + 1)
    }
}

/// A set of nodes small enough to copy: one bit per node (every world has at most [`MAX_NODES`]
/// actors, fewer than 64). It serializes as the list of its members, so a trace reads `[0, 1, 3]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodeSet(u64);

const _: () = assert!(MAX_NODES < 64, "NodeSet keeps one bit per node in a u64");

impl NodeSet {
    pub fn insert(&mut self, node: NodeId) {
        if node.index() < 64 {
            self.0 |= 1 << node.index();
        }
    }

    pub fn remove(&mut self, node: NodeId) {
        if node.index() < 64 {
            self.0 &= !(1 << node.index());
        }
    }

    /// `n1..n{count}`: every node of a cluster of `count` (at most 64).
    pub fn first(count: usize) -> NodeSet {
        (0..count.min(64) as u16).map(NodeId).collect()
    }

    /// Both sets' members.
    pub fn union(self, other: NodeSet) -> NodeSet {
        NodeSet(self.0 | other.0)
    }

    /// The set as one number (bit `i` for node `i`), for a stable digest.
    pub fn bits(self) -> u64 {
        self.0
    }

    pub fn contains(self, node: NodeId) -> bool {
        node.index() < 64 && self.0 & (1 << node.index()) != 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The members, lowest id first.
    pub fn iter(self) -> Members {
        Members { remaining: self.0 }
    }
}

/// A [`NodeSet`]'s members, lowest id first. It jumps from one set bit to the next: testing all 64
/// bits one by one was most of a Raft leader's work per acknowledgement at 51 nodes (the profile's
/// `advance_commit`, which lists the voters each time).
#[derive(Clone, Copy, Debug, Hash)]
pub struct Members {
    remaining: u64,
}

impl Iterator for Members {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        if self.remaining == 0 {
            return None;
        }
        let bit = self.remaining.trailing_zeros();
        // Clears the lowest set bit.
        self.remaining &= self.remaining - 1;
        Some(NodeId(bit as u16))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.remaining.count_ones() as usize;
        (count, Some(count))
    }
}

impl ExactSizeIterator for Members {}

impl FromIterator<NodeId> for NodeSet {
    fn from_iter<I: IntoIterator<Item = NodeId>>(nodes: I) -> NodeSet {
        let mut set = NodeSet::default();
        nodes.into_iter().for_each(|node| set.insert(node));
        set
    }
}

impl Serialize for NodeSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A known length: binary formats (the run fingerprint's postcard) need it up front.
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for node in self.iter() {
            seq.serialize_element(&node)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for NodeSet {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<NodeSet, D::Error> {
        let nodes = Vec::<NodeId>::deserialize(deserializer)?;
        if let Some(node) = nodes.iter().find(|node| node.index() >= MAX_NODES) {
            return Err(serde::de::Error::custom(format!(
                "node {node} is beyond the largest world ({MAX_NODES} actors)"
            )));
        }
        Ok(nodes.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sets_members_are_listed_lowest_first_and_only_they() {
        let members = [0u16, 1, 5, 31, 32, 50, 63];
        let set: NodeSet = members.iter().copied().map(NodeId).collect();
        let listed: Vec<u16> = set.iter().map(|node| node.0).collect();
        assert_eq!(listed, members);
        assert_eq!(set.iter().len(), members.len());
        assert_eq!(NodeSet::default().iter().next(), None);
    }
}
