//! Who is in a plain Raft cluster, as the ring and the quorum badge draw it.
//!
//! Servers can join and leave a running Raft cluster (`add-server`, `remove-server`), and each server
//! counts quorums by the configuration *it* holds, so the stage needs one configuration to draw the
//! ring by and a way to show where servers disagree. The ring follows the *reference* server: the
//! leader if one is up, otherwise the server holding the newest configuration entry (lowest id on a
//! tie). A server the reference counts is a voter; the one the leader is catching up is a learner,
//! drawn on the ring but apart; any other server sits off the ring, unless it still believes it votes
//! (a removed server that never heard of its removal, or a hand-edited file in the unsafe direct
//! mode), because what a server believes is what it acts on.
//!
//! Coordination worlds have a fixed layout and no membership changes: [`membership_of`] is `None`.

use quorumlab_sim::ids::NodeId;
use quorumlab_sim::units::LogIndex;
use quorumlab_sim::view::{ClusterView, NodeView};

/// Where a server sits in the configuration the ring is drawn by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// Counted in the reference configuration, or believes it is.
    Voter,
    /// Receiving the log from the leader, not counted yet.
    Learner,
    /// Neither: removed, given up, or waiting for its turn to join.
    Outside,
}

impl Seat {
    /// The word drawn under the node (never colour alone), `None` for an ordinary voter.
    pub fn word(self) -> Option<&'static str> {
        match self {
            Seat::Voter => None,
            Seat::Learner => Some("learner"),
            Seat::Outside => Some("not a member"),
        }
    }

    pub fn on_ring(self) -> bool {
        self != Seat::Outside
    }
}

/// The configuration the stage draws, and each server's seat in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Membership {
    /// The server whose configuration the ring follows.
    pub reference: NodeId,
    pub voters: Vec<NodeId>,
    pub config_index: LogIndex,
    pub by_hand: bool,
    /// One per node in the view, in id order.
    pub seats: Vec<Seat>,
    /// Up servers that count a different set of voters than the reference, with how many they count.
    pub disagreeing: Vec<(NodeId, usize)>,
}

/// The membership of a plain Raft cluster; `None` for coordination worlds and empty views.
pub fn membership_of(view: &ClusterView) -> Option<Membership> {
    if view.coordination.is_some() {
        return None;
    }
    let reference = reference_node(view)?;
    let voters = reference.voters.clone();
    let learners: Vec<NodeId> = view
        .nodes
        .iter()
        .filter_map(|node| node.catching_up)
        .collect();
    let seats = view
        .nodes
        .iter()
        .map(|node| {
            let believes_it_votes = node.voters.contains(&node.id);
            if voters.contains(&node.id) {
                Seat::Voter
            } else if learners.contains(&node.id) {
                Seat::Learner
            } else if believes_it_votes && node.status != quorumlab_sim::world::NodeStatus::Crashed
            {
                Seat::Voter
            } else {
                Seat::Outside
            }
        })
        .collect();
    let disagreeing = view
        .nodes
        .iter()
        .filter(|node| node.status != quorumlab_sim::world::NodeStatus::Crashed)
        .filter(|node| !node.voters.is_empty() && node.voters != voters)
        .map(|node| (node.id, node.voters.len()))
        .collect();
    Some(Membership {
        reference: reference.id,
        voters,
        config_index: reference.config_index,
        by_hand: reference.config_edited_by_hand,
        seats,
        disagreeing,
    })
}

/// The leader, else the up server with the newest configuration entry, else the first server.
fn reference_node(view: &ClusterView) -> Option<&NodeView> {
    let runs_raft = |node: &&NodeView| !node.voters.is_empty();
    if let Some(leader) = view
        .leader
        .and_then(|leader| view.nodes.get(leader.index()))
    {
        if runs_raft(&leader) {
            return Some(leader);
        }
    }
    let up = view
        .nodes
        .iter()
        .filter(runs_raft)
        .filter(|node| node.status != quorumlab_sim::world::NodeStatus::Crashed);
    // `max_by_key` keeps the last of equals; reversing keeps the lowest id on a tie.
    up.rev()
        .max_by_key(|node| node.config_index)
        .or_else(|| view.nodes.iter().find(runs_raft))
}

impl Membership {
    /// Majority of the reference configuration.
    pub fn quorum(&self) -> usize {
        self.voters.len() / 2 + 1
    }

    /// "quorum 3 of 5 (config at index 12)": what the badge on the stage reads.
    pub fn badge(&self) -> String {
        let source = if self.by_hand {
            "config edited by hand".to_string()
        } else if self.config_index == LogIndex::ZERO {
            "starting config".to_string()
        } else {
            format!("config at index {}", self.config_index.0)
        };
        format!(
            "quorum {} of {} ({source})",
            self.quorum(),
            self.voters.len()
        )
    }

    /// "n2, n3 count 3 voters": the servers that disagree with the badge, grouped by count.
    pub fn disagreement(&self) -> Option<String> {
        if self.disagreeing.is_empty() {
            return None;
        }
        let mut counts: Vec<usize> = self.disagreeing.iter().map(|(_, count)| *count).collect();
        counts.sort_unstable();
        counts.dedup();
        let parts: Vec<String> = counts
            .iter()
            .map(|count| {
                let names: Vec<String> = self
                    .disagreeing
                    .iter()
                    .filter(|(_, counted)| counted == count)
                    .map(|(node, _)| node.to_string())
                    .collect();
                let verb = if names.len() == 1 { "counts" } else { "count" };
                format!("{} {verb} {count} voters", names.join(", "))
            })
            .collect();
        Some(parts.join("; "))
    }

    pub fn seat(&self, node: NodeId) -> Seat {
        self.seats
            .get(node.index())
            .copied()
            .unwrap_or(Seat::Outside)
    }

    /// The members of `group` this configuration counts, and how many voters it has: a partition
    /// side's quorum is counted among voters, not among every server drawn.
    pub fn counted_in(&self, group: &[NodeId]) -> (Vec<NodeId>, usize) {
        let counted = group
            .iter()
            .copied()
            .filter(|node| self.voters.contains(node))
            .collect();
        (counted, self.voters.len())
    }
}

/// A partition side and the total its quorum is counted against: voters only in a plain Raft
/// cluster, every node otherwise (coordination worlds count their servers themselves).
pub fn counted_group(view: &ClusterView, group: &[NodeId]) -> (Vec<NodeId>, usize) {
    match membership_of(view) {
        Some(membership) => membership.counted_in(group),
        None => (group.to_vec(), view.nodes.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::action::{Action, NodeTarget};
    use quorumlab_sim::time::SimTime;
    use quorumlab_sim::world::{World, WorldConfig};

    fn led_world(nodes: usize) -> World {
        let mut world = World::new(WorldConfig::raft(nodes, 1)).expect("world");
        world.run_until(SimTime::from_ms(1_000));
        assert!(world.current_leader().is_some());
        world
    }

    #[test]
    fn a_calm_cluster_counts_everyone_from_the_starting_config() {
        let world = led_world(5);
        let membership = membership_of(&world.view()).expect("plain Raft");
        assert_eq!(membership.badge(), "quorum 3 of 5 (starting config)");
        assert!(membership.seats.iter().all(|seat| *seat == Seat::Voter));
        assert_eq!(membership.disagreement(), None);
    }

    #[test]
    fn a_new_server_is_a_learner_then_a_voter_counted_from_its_entry() {
        let mut world = led_world(3);
        world.apply(&Action::AddServer { id: None });
        let early = membership_of(&world.view()).expect("plain Raft");
        assert_eq!(early.seat(NodeId(3)), Seat::Learner, "{early:?}");
        assert_eq!(early.badge(), "quorum 2 of 3 (starting config)");
        world.run_until(SimTime::from_ms(2_000));
        let joined = membership_of(&world.view()).expect("plain Raft");
        assert_eq!(joined.seat(NodeId(3)), Seat::Voter);
        assert!(joined.config_index > LogIndex::ZERO);
        assert_eq!(
            joined.badge(),
            format!("quorum 3 of 4 (config at index {})", joined.config_index.0)
        );
    }

    #[test]
    fn a_removed_leader_leaves_the_ring_and_partitions_count_voters_only() {
        let mut world = led_world(5);
        let old = world.current_leader().expect("leader");
        world.apply(&Action::RemoveServer {
            target: NodeTarget::Leader,
        });
        world.run_until(SimTime::from_ms(3_000));
        let view = world.view();
        let membership = membership_of(&view).expect("plain Raft");
        assert_eq!(membership.seat(old), Seat::Outside);
        assert_eq!(membership.voters.len(), 4);
        assert_ne!(membership.reference, old);
        let everyone: Vec<NodeId> = (0..5).map(|index| NodeId(index as u16)).collect();
        let (counted, total) = counted_group(&view, &everyone);
        assert_eq!((counted.len(), total), (4, 4));
    }

    #[test]
    fn servers_that_count_other_voters_are_named() {
        let membership = Membership {
            reference: NodeId(0),
            voters: (0..5).map(|index| NodeId(index as u16)).collect(),
            config_index: LogIndex::ZERO,
            by_hand: true,
            seats: vec![Seat::Voter; 5],
            disagreeing: vec![(NodeId(1), 3), (NodeId(2), 3), (NodeId(4), 4)],
        };
        assert_eq!(membership.badge(), "quorum 3 of 5 (config edited by hand)");
        assert_eq!(
            membership.disagreement().as_deref(),
            Some("n2, n3 count 3 voters; n5 counts 4 voters")
        );
    }
}
