//! Membership checkpoints (lesson 13): a new server that became a voter, and a removed leader that
//! handed over.
//!
//! Both are about the configuration each server counts, not about the world's node list: a server
//! that was added is in the world at once, but it is only a *member* once the leader's configuration
//! entry that adds it has committed and the server itself holds that entry. A removed leader keeps
//! leading, without counting itself, until the entry that removes it commits; only when some other
//! server leads a configuration without it has the removal happened. The baseline is the
//! configuration the leader (or, without one, the first server) counted when the step began.

use super::Verdict;
use crate::base::ids::{NodeId, NodeSet};
use crate::contract::protocol::{Protocol, RoleLabel};
use crate::engine::world::{NodeStatus, World};
use crate::worlds::actor::ClusterRaft;

/// What the membership checkpoints remember from the step's start.
#[derive(Clone, Debug)]
pub(super) struct MembershipWatch {
    voters_at_start: NodeSet,
}

fn raft_of(world: &World, node: NodeId) -> Option<&ClusterRaft> {
    world.nodes().get(node.index())?.actor.as_raft()
}

impl MembershipWatch {
    pub(super) fn begin(world: &World) -> MembershipWatch {
        let reference = world.current_leader().unwrap_or(NodeId(0));
        MembershipWatch {
            voters_at_start: raft_of(world, reference)
                .map_or(NodeSet::default(), |raft| raft.voters()),
        }
    }

    /// A server outside the step's starting configuration is now counted by the leader through a
    /// committed configuration (or a hand-edited one), and counts itself.
    pub(super) fn server_joined_as_voter(&self, world: &World) -> Verdict {
        let Some(leader) = world.current_leader() else {
            return Verdict::not_yet(
                "no server leads right now, and only a leader adds servers".into(),
            );
        };
        let Some(raft) = raft_of(world, leader) else {
            return Verdict::not_yet("this world's servers run no Raft".into());
        };
        let newcomers: Vec<NodeId> = (0..world.node_count())
            .map(|index| NodeId(index as u16))
            .filter(|node| !self.voters_at_start.contains(*node))
            .collect();
        let leader_name = world.node_label(leader);
        let Some(&newest) = newcomers.last() else {
            return Verdict::not_yet("no server has been added since this step began".into());
        };
        let counted = newcomers
            .iter()
            .copied()
            .find(|node| raft.voters().contains(*node));
        let Some(joined) = counted else {
            let name = world.node_label(newest);
            return Verdict::not_yet(format!(
                "{name} is not counted yet: {leader_name} is sending it the log as a learner"
            ));
        };
        let name = world.node_label(joined);
        let entry = raft.membership.logged_index;
        let committed =
            raft.membership.config_file.is_some() || entry <= raft.volatile.commit_index;
        if !committed {
            return Verdict::not_yet(format!(
                "the configuration entry at index {entry} that adds {name} waits to commit"
            ));
        }
        let knows = raft_of(world, joined).is_some_and(|joined_raft| joined_raft.is_voter());
        if !knows {
            return Verdict::not_yet(format!(
                "{leader_name} counts {name}; {name} has not received that configuration yet"
            ));
        }
        let voters = raft.voters();
        Verdict::yes(format!(
            "{name} joined as a voter (configuration entry at index {entry}): {leader_name} now \
             needs {} of {}",
            voters.len() / 2 + 1,
            voters.len()
        ))
    }

    /// The server that led when the step began is counted by nobody who leads now, and someone else
    /// leads.
    pub(super) fn leader_removed_and_replaced(
        &self,
        world: &World,
        start_leader: Option<NodeId>,
    ) -> Verdict {
        let Some(old) = start_leader else {
            return Verdict::not_yet("there was no leader when this step began".into());
        };
        let old_name = world.node_label(old);
        let old_slot = &world.nodes()[old.index()];
        let still_leads =
            old_slot.status == NodeStatus::Up && old_slot.actor.summary().role == RoleLabel::Leader;
        if still_leads {
            let counts_itself = raft_of(world, old).is_some_and(|raft| raft.is_voter());
            return Verdict::not_yet(if counts_itself {
                format!("{old_name} still leads and still counts itself a voter")
            } else {
                format!(
                    "{old_name} still leads without counting itself, until the entry that \
                     removes it commits"
                )
            });
        }
        let Some(leader) = world.current_leader() else {
            return Verdict::not_yet(format!(
                "{old_name} no longer leads; waiting for the others to elect a leader"
            ));
        };
        let leader_name = world.node_label(leader);
        let Some(raft) = raft_of(world, leader) else {
            return Verdict::not_yet("this world's servers run no Raft".into());
        };
        if raft.voters().contains(old) {
            return Verdict::not_yet(format!(
                "{leader_name} leads, and {old_name} is still a voter in its configuration"
            ));
        }
        let term = world.nodes()[leader.index()].actor.summary().term;
        Verdict::yes(format!(
            "{old_name} is out of the configuration, and {leader_name} leads term {term} with {} \
             voters",
            raft.voters().len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{explanation_when_never_met, watch_until_met};
    use crate::tooling::lesson::Checkpoint;

    const CALM: &str =
        "title = \"calm\"\nprotocol = \"raft\"\nnodes = 3\nseed = 1\nduration_ms = 6000\n";

    fn with_steps(nodes: usize, steps: &str) -> String {
        format!(
            "{}{steps}",
            CALM.replace("nodes = 3", &format!("nodes = {nodes}"))
        )
    }

    #[test]
    fn an_added_server_is_a_voter_once_its_entry_commits() {
        let text = with_steps(3, "[[step]]\nat_ms = 1000\ndo = \"add-server\"\n");
        let (met, verdict) = watch_until_met(&text, Checkpoint::ServerJoinedAsVoter, 990, 4000);
        let met = met.unwrap_or_else(|| panic!("never met: {}", verdict.explanation));
        assert!(met > 1000, "not before the server exists: {met}");
        assert!(
            verdict.explanation.contains("n4 joined as a voter"),
            "{}",
            verdict.explanation
        );
        assert!(
            verdict.explanation.contains("needs 3 of 4"),
            "{}",
            verdict.explanation
        );
    }

    #[test]
    fn no_server_joins_a_cluster_nobody_grows_or_one_whose_learner_is_cut_off() {
        let (met, verdict) = watch_until_met(CALM, Checkpoint::ServerJoinedAsVoter, 1000, 4000);
        assert_eq!(met, None);
        assert_eq!(
            verdict.explanation,
            "no server has been added since this step began"
        );
        let cut_off = with_steps(
            3,
            "[[step]]\nat_ms = 1000\ndo = \"add-server\"\n\n[[step]]\nat_ms = 1000\ndo = \"isolate\"\ntarget = \"n4\"\n",
        );
        let explanation =
            explanation_when_never_met(&cut_off, Checkpoint::ServerJoinedAsVoter, 990, 4000);
        assert!(
            explanation.contains("n4 is not counted yet"),
            "{}",
            explanation
        );
    }

    #[test]
    fn a_removed_leader_hands_over_to_a_new_one_without_it() {
        let text = with_steps(
            5,
            "[[step]]\nat_ms = 1500\ndo = \"remove-server\"\ntarget = \"leader\"\n",
        );
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::LeaderRemovedAndReplaced, 1000, 5000);
        let met = met.unwrap_or_else(|| panic!("never met: {}", verdict.explanation));
        assert!(met > 1500);
        assert!(
            verdict.explanation.contains("is out of the configuration"),
            "{}",
            verdict.explanation
        );
        assert!(
            verdict.explanation.contains("with 4 voters"),
            "{}",
            verdict.explanation
        );
    }

    #[test]
    fn a_crashed_leader_is_replaced_but_not_removed() {
        let text = with_steps(
            5,
            "[[step]]\nat_ms = 1500\ndo = \"crash\"\ntarget = \"leader\"\n",
        );
        let (met, verdict) =
            watch_until_met(&text, Checkpoint::LeaderRemovedAndReplaced, 1000, 5000);
        assert_eq!(met, None);
        assert!(
            verdict.explanation.contains("is still a voter"),
            "{}",
            verdict.explanation
        );
    }
}
