//! `AddServer` and `RemoveServer`: the world grows by a node, and the change reaches the servers either
//! through the leader's log (`[raft] membership = "log"`, see `protocols/raft/membership.rs`) or, in the
//! unsafe `direct` mode, as a hand edit of every server's configuration, one server after another.
//!
//! Membership changes need a plain Raft cluster: a coordination world's layout (servers, then workers,
//! then the store) has no room for one more server. A removed server stays in the world, quiet, so
//! node ids never move and an old action naming `n5` still means the same node.

use super::{EventKind, NodeSlot, NodeStatus, World};
use crate::base::ids::{NodeId, NodeSet, MAX_NODES};
use crate::contract::action::NodeTarget;
use crate::contract::config::MembershipMode;
use crate::contract::protocol::Input;
use crate::protocols::raft::membership::ChangeRequest;
use crate::protocols::raft::RaftTiming;
use crate::worlds::actor::{Actor, ClusterRaft};

/// In the direct mode, the hand edit reaches one server after another this far apart, lowest id first.
pub const DIRECT_EDIT_GAP_MS: u64 = 1_000;

impl World {
    pub(super) fn add_server(&mut self, id: Option<NodeId>) -> Result<(), String> {
        self.check_membership_world()?;
        let next = NodeId(self.nodes.len() as u16);
        let server = id.unwrap_or(next);
        if server.index() > next.index() {
            return Err(format!(
                "{server} cannot join: the next new server is {next}"
            ));
        }
        if server == next && self.nodes.len() >= MAX_NODES {
            return Err(format!(
                "the cluster already has {MAX_NODES} servers, the most a world holds"
            ));
        }
        match self.config.raft.membership {
            MembershipMode::Log => self.add_through_log(server, next),
            MembershipMode::Direct => {
                let mut voters = self.direct_target();
                if voters.contains(server) {
                    return Err(format!("{server} already votes"));
                }
                voters.insert(server);
                if server == next {
                    self.grow(Some(voters));
                }
                self.roll_out(voters, server);
                Ok(())
            }
        }
    }

    fn add_through_log(&mut self, server: NodeId, next: NodeId) -> Result<(), String> {
        let leader = self.membership_leader()?;
        if self.raft_of(leader).voters().contains(server) {
            return Err(format!("{server} already votes"));
        }
        if server == next {
            self.grow(None);
        }
        self.request_change(leader, ChangeRequest::Add(server))
    }

    pub(super) fn remove_server(&mut self, target: NodeTarget) -> Result<(), String> {
        self.check_membership_world()?;
        let server = self.resolve(target)?;
        let voters = match self.config.raft.membership {
            MembershipMode::Log => self.raft_of(self.membership_leader()?).voters(),
            MembershipMode::Direct => self.direct_target(),
        };
        if !voters.contains(server) {
            return Err(format!("{server} is not a voter"));
        }
        if voters.len() <= 1 {
            return Err(format!(
                "{server} is the last voter: a cluster needs at least one server"
            ));
        }
        match self.config.raft.membership {
            MembershipMode::Log => {
                let leader = self.membership_leader()?;
                self.request_change(leader, ChangeRequest::Remove(server))
            }
            MembershipMode::Direct => {
                let mut remaining = voters;
                remaining.remove(server);
                self.roll_out(remaining, server);
                Ok(())
            }
        }
    }

    fn check_membership_world(&self) -> Result<(), String> {
        if self.config.protocol.is_coordination() {
            return Err(
                "servers join and leave only a plain Raft cluster: this world's layout is fixed"
                    .to_string(),
            );
        }
        Ok(())
    }

    fn membership_leader(&self) -> Result<NodeId, String> {
        self.current_leader().ok_or_else(|| {
            "no up node believes it leads, and a membership change goes through the leader"
                .to_string()
        })
    }

    fn raft_of(&self, node: NodeId) -> &ClusterRaft {
        self.nodes[node.index()]
            .actor
            .as_raft()
            .expect("a plain Raft cluster holds Raft servers only")
    }

    fn request_change(&mut self, leader: NodeId, request: ChangeRequest) -> Result<(), String> {
        self.run_actor(leader, |actor, local_now_us, effects| {
            let raft = actor.as_cluster_raft_mut().ok_or("not a Raft server")?;
            raft.request_change(local_now_us, request, effects)
        })
    }

    /// A new server `n{len+1}`, started with an empty log; `config_file` is its configuration in the
    /// direct mode. Every other server learns the world is one larger (vectors, not votes).
    fn grow(&mut self, config_file: Option<NodeSet>) {
        let node = NodeId(self.nodes.len() as u16);
        let count = self.nodes.len() + 1;
        for slot in &mut self.nodes {
            if let Some(raft) = slot.actor.as_cluster_raft_mut() {
                raft.grow_cluster(count);
            }
        }
        let timing = RaftTiming::from_timing(&self.config.timing);
        let mut raft = ClusterRaft::new(node, count, self.config.raft.clone(), timing);
        let bootstrap = self.raft_of(NodeId(0)).membership.bootstrap;
        raft.membership = crate::protocols::raft::membership::Membership::new(bootstrap);
        raft.membership.config_file = config_file;
        self.nodes.push(NodeSlot::fresh(Actor::Raft(raft)));
        self.network.grow();
        self.checkers.grow();
        self.dispatch(node, Input::Start);
    }

    /// The configuration the direct mode's edits are heading for (the latest one handed out).
    fn direct_target(&self) -> NodeSet {
        self.direct_voters
            .unwrap_or_else(|| self.raft_of(NodeId(0)).membership.bootstrap)
    }

    /// Schedules the hand edit of every server's configuration, one server after another; `changed`
    /// (a new server is born with the file already written) is skipped.
    fn roll_out(&mut self, voters: NodeSet, changed: NodeId) {
        self.direct_voters = Some(voters);
        let mut delay_ms = 0;
        for index in 0..self.nodes.len() {
            let node = NodeId(index as u16);
            let born_with_it =
                node == changed && self.raft_of(node).membership.config_file == Some(voters);
            if born_with_it {
                continue;
            }
            delay_ms += DIRECT_EDIT_GAP_MS;
            let at = self.now.plus_ms(delay_ms);
            self.queue.push(at, EventKind::ConfigEdit { node, voters });
        }
    }

    /// The direct mode's edit reaches `node`. A server that is down finds its file changed when it
    /// comes back; only an up one acts on it now.
    pub(super) fn edit_config_file(&mut self, node: NodeId, voters: NodeSet) {
        if self.nodes[node.index()].status != NodeStatus::Up {
            if let Some(raft) = self.nodes[node.index()].actor.as_cluster_raft_mut() {
                raft.membership.config_file = Some(voters);
            }
            return;
        }
        self.run_actor(node, |actor, _, effects| {
            if let Some(raft) = actor.as_cluster_raft_mut() {
                raft.edit_config_file(voters, effects);
            }
        });
    }
}
