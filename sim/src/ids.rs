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
