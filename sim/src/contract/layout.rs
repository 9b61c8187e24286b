//! Who is who in a world where the servers `n1..nN` run beside other actors: lock clients `A`, `B`,
//! ... (or proposers, instances, candidates, clients), Paxos's learner actors `L1`, ... and the
//! protected resource `store`. Node ids `0..servers` are the servers, then one id per lettered actor,
//! then the learners, then the store where the world has one.
//!
//! The layout is plain data so that a world's folder, which builds its actors in this order, can read
//! it; `worlds::coordination` works out a world's layout from its registry entry and checks it.

use crate::base::ids::NodeId;

/// Who is who in a coordination world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub servers: usize,
    pub workers: usize,
    /// Paxos's learner actors (`L1`, ...); 0 in every other world.
    pub learners: usize,
    /// Whether the world has the resource `store` (the election recipes have none).
    pub has_store: bool,
}

impl Layout {
    pub fn total(&self) -> usize {
        self.servers + self.workers + self.learners + usize::from(self.has_store)
    }

    pub fn worker(&self, index: usize) -> NodeId {
        assert!(index < self.workers, "worker index outside the layout");
        NodeId((self.servers + index) as u16)
    }

    pub fn learner(&self, index: usize) -> NodeId {
        assert!(index < self.learners, "learner index outside the layout");
        NodeId((self.servers + self.workers + index) as u16)
    }

    /// The resource's node. With no store this is one past the last node: look it up with `get`.
    pub fn store(&self) -> NodeId {
        NodeId((self.servers + self.workers + self.learners) as u16)
    }

    /// The name a node goes by in scenario files, the view and the report.
    pub fn label(&self, node: NodeId) -> String {
        let index = node.index();
        if index < self.servers {
            node.to_string()
        } else if index < self.servers + self.workers {
            char::from(b'A' + (index - self.servers) as u8).to_string()
        } else if index < self.servers + self.workers + self.learners {
            format!("L{}", index - self.servers - self.workers + 1)
        } else {
            "store".to_string()
        }
    }

    /// Every name besides `n1..nN`, with its node.
    pub fn extra_names(&self) -> Vec<(String, NodeId)> {
        (self.servers..self.total())
            .map(|index| NodeId(index as u16))
            .map(|node| (self.label(node), node))
            .collect()
    }
}
