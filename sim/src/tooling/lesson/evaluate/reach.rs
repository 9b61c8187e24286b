//! Who can still reach a majority: the one question behind every checkpoint about lost members.
//!
//! A server counts as reaching another when it is up and the link is up in both directions (a one-way
//! cut breaks a conversation as surely as a two-way one). A server is on the *majority side* when the
//! up servers it reaches, itself included, are a majority of the cluster; every other server is *gone*:
//! crashed, paused, or cut off from a majority though it runs. A cluster has *lost its quorum* when no
//! server is on the majority side.
//!
//! The checkpoints that wait for a member loss (two of five gone, a split with a minority side, no
//! leader for want of a majority) all read one [`Reach`] taken at the moment of the check, so they
//! agree on what "gone" means.

use crate::base::ids::NodeId;
use crate::engine::world::{NodeStatus, World};

/// The servers of a world sorted by whether they reach a majority, at one moment.
#[derive(Clone, Debug)]
pub(super) struct Reach {
    /// How many servers the cluster has, and how many make a majority.
    pub(super) count: usize,
    pub(super) majority: usize,
    /// Up servers that reach a majority, in node order.
    pub(super) majority_side: Vec<NodeId>,
    /// Up servers that do not, in node order.
    pub(super) cut_off: Vec<NodeId>,
    /// Servers that are not up (crashed or paused), in node order.
    pub(super) down: Vec<NodeId>,
}

impl Reach {
    pub(super) fn of(world: &World) -> Reach {
        let count = super::server_count(world).min(world.node_count());
        let majority = count / 2 + 1;
        let (up, down): (Vec<NodeId>, Vec<NodeId>) = super::servers(world)
            .take(count)
            .partition(|node| world.nodes()[node.index()].status == NodeStatus::Up);
        let (majority_side, cut_off) = up
            .iter()
            .partition(|node| reached_from(world, &up, **node).len() >= majority);
        Reach {
            count,
            majority,
            majority_side,
            cut_off,
            down,
        }
    }

    /// No up server reaches a majority: nothing can be elected or committed anywhere.
    pub(super) fn quorum_lost(&self) -> bool {
        self.majority_side.is_empty()
    }

    /// Every server not on the majority side, down or cut off, in node order.
    pub(super) fn gone(&self) -> Vec<NodeId> {
        let mut gone: Vec<NodeId> = self.down.iter().chain(&self.cut_off).copied().collect();
        gone.sort_unstable();
        gone
    }

    /// "n1, n2, n3 crashed; n4, n5 are up, but no 3 of 5 can reach each other, and a leader needs 3
    /// votes".
    pub(super) fn lost_quorum_story(&self, world: &World) -> String {
        let mut down = Vec::new();
        for status in [NodeStatus::Crashed, NodeStatus::Paused] {
            let nodes: Vec<NodeId> = self
                .down
                .iter()
                .copied()
                .filter(|node| world.nodes()[node.index()].status == status)
                .collect();
            if !nodes.is_empty() {
                down.push(format!("{} {}", labels(world, &nodes), status.as_str()));
            }
        }
        let up = match self.cut_off.len() {
            0 => "no server is up".to_string(),
            1 => format!("only {} is up", labels(world, &self.cut_off)),
            _ => format!("{} are up", labels(world, &self.cut_off)),
        };
        let down = if down.is_empty() {
            String::new()
        } else {
            format!("{}; ", down.join(", "))
        };
        format!(
            "{down}{up}, but no {majority} of {count} can reach each other, and a leader needs \
             {majority} votes",
            majority = self.majority,
            count = self.count
        )
    }

    pub(super) fn is_cut_off(&self, node: NodeId) -> bool {
        self.cut_off.contains(&node)
    }

    /// "n5 is crashed and n3 is cut off": what became of each gone server.
    pub(super) fn describe_gone(&self, world: &World) -> String {
        let each: Vec<String> = self
            .gone()
            .into_iter()
            .map(|node| {
                let status = world.nodes()[node.index()].status;
                let what = if status == NodeStatus::Up {
                    "cut off"
                } else {
                    status.as_str()
                };
                format!("{} is {what}", world.node_label(node))
            })
            .collect();
        match each.split_last() {
            None => "no server is gone".into(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }
}

/// The up servers (of `up`) that `from` reaches both ways, itself included.
pub(super) fn reached_from(world: &World, up: &[NodeId], from: NodeId) -> Vec<NodeId> {
    let network = world.network();
    up.iter()
        .copied()
        .filter(|to| *to == from || (network.link_up(from, *to) && network.link_up(*to, from)))
        .collect()
}

/// "n1, n2, n4".
pub(super) fn labels(world: &World, nodes: &[NodeId]) -> String {
    nodes
        .iter()
        .map(|node| world.node_label(*node))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The highest commit index among `nodes`.
pub(super) fn highest_commit(world: &World, nodes: &[NodeId]) -> crate::base::units::LogIndex {
    use crate::contract::protocol::Protocol;
    nodes
        .iter()
        .map(|node| world.nodes()[node.index()].actor.summary().commit_index)
        .max()
        .unwrap_or_default()
}
