//! The names nodes go by: `A`, `store`, or `n1` in a plain Raft cluster, and how many of the names are
//! servers. Every panel names nodes through here, so a ring, a chip and a sentence never disagree.

use quorumlab_sim::ids::NodeId;
use quorumlab_sim::view_coordination::CoordinationView;

/// The name a node goes by: its coordination label when there is one, else `n1..`.
pub fn label_of(coordination: Option<&CoordinationView>, index: usize) -> Option<&str> {
    coordination.and_then(|view| view.labels.get(index).map(String::as_str))
}

/// The name a node goes by on the ring: `A`, `store`, or `n1` in a plain Raft cluster.
pub fn node_name(coordination: Option<&CoordinationView>, node: NodeId) -> String {
    coordination
        .and_then(|view| view.labels.get(node.index()).cloned())
        .unwrap_or_else(|| node.to_string())
}

/// Names joined with commas, for a partition group.
pub fn name_list(coordination: Option<&CoordinationView>, nodes: &[NodeId]) -> String {
    nodes
        .iter()
        .map(|node| node_name(coordination, *node))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How servers are counted in a coordination world: `n1..nN` are servers, everything else is not.
pub fn server_count(coordination: &CoordinationView) -> usize {
    coordination
        .labels
        .iter()
        .take_while(|label| label.starts_with('n'))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world_text::bare_view;
    use quorumlab_sim::ProtocolKind;

    #[test]
    fn names_come_from_the_world_or_fall_back_to_ids() {
        let locks = bare_view(
            ProtocolKind::LockService,
            &["n1", "n2", "n3", "A", "B", "store"],
        );
        assert_eq!(node_name(Some(&locks), NodeId(3)), "A");
        assert_eq!(
            name_list(Some(&locks), &[NodeId(0), NodeId(5)]),
            "n1, store"
        );
        assert_eq!(node_name(None, NodeId(6)), "n7");
    }
}
