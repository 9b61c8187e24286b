//! Property tests for partitions: the network's link state must follow the group rule exactly.

use proptest::prelude::*;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::network::{partition_allows, Network};

fn groups_strategy() -> impl Strategy<Value = (usize, Vec<Vec<NodeId>>)> {
    (1usize..=12).prop_flat_map(|node_count| {
        // Each node goes to one of 4 groups or (value 4) to none, so some nodes are left out.
        prop::collection::vec(0usize..=4, node_count).prop_map(move |assignment| {
            let mut groups = vec![Vec::new(); 4];
            for (node, group) in assignment.iter().enumerate() {
                if *group < 4 {
                    groups[*group].push(NodeId(node as u16));
                }
            }
            (node_count, groups)
        })
    })
}

proptest! {
    #[test]
    fn links_are_up_exactly_within_a_group((node_count, groups) in groups_strategy()) {
        let mut network = Network::new(node_count, 0, 0);
        network.partition(&groups);
        let group_of = |node: usize| groups.iter().position(|group| group.contains(&NodeId(node as u16)));
        for from in 0..node_count {
            for to in 0..node_count {
                let same = group_of(from) == group_of(to);
                let (a, b) = (NodeId(from as u16), NodeId(to as u16));
                prop_assert_eq!(network.link_up(a, b), same);
                prop_assert_eq!(partition_allows(&groups, node_count, a, b), same);
                prop_assert_eq!(network.link_up(a, b), network.link_up(b, a));
            }
        }
        network.heal();
        prop_assert!(network.cuts().is_empty());
    }
}
