//! Leaving quorum loss: the step is met when, after a stretch since the step began in which no up
//! server could reach a majority (too many down, paused or cut off), a leader is up again and the
//! cluster commits past everything it had committed during that stretch. That is the moment refused
//! writes can be sent again and go through. An election alone (with nothing committed) does not count,
//! and neither does a leader change in a cluster that kept its majority all along.

use super::reach::Reach;
use super::Verdict;
use crate::base::ids::NodeId;
use crate::base::units::LogIndex;
use crate::engine::world::World;

/// What the checkpoint remembers between checks.
#[derive(Clone, Debug)]
pub(super) struct QuorumWatch {
    /// The highest commit index seen while the quorum was lost (`None` until it was).
    commit_while_lost: Option<LogIndex>,
}

impl QuorumWatch {
    /// Starts from `world` as it is: a step that begins without a quorum (the usual case, right after
    /// it was lost) has its baseline at once, even if the next check comes only after a restart.
    pub(super) fn begin(world: &World) -> QuorumWatch {
        QuorumWatch {
            commit_while_lost: quorum_lost(world).then(|| highest_commit(world)),
        }
    }

    pub(super) fn check(&mut self, world: &World) -> Verdict {
        let commit = highest_commit(world);
        if quorum_lost(world) {
            let seen = self.commit_while_lost.get_or_insert(commit);
            *seen = (*seen).max(commit);
            return Verdict::not_yet(format!(
                "no majority of servers can reach each other: nothing past commit index {seen} \
                 can commit"
            ));
        }
        let Some(before) = self.commit_while_lost else {
            return Verdict::not_yet(
                "a majority of servers has been up and connected throughout this step".into(),
            );
        };
        match world.current_leader() {
            Some(leader) if commit > before => Verdict::yes(format!(
                "{} leads again and the cluster has committed up to index {commit}, past {before} \
                 where it stood without a majority",
                world.node_label(leader)
            )),
            Some(leader) => Verdict::not_yet(format!(
                "{} leads again; waiting for a commit past index {before}",
                world.node_label(leader)
            )),
            None => Verdict::not_yet("a majority is back; waiting for it to elect a leader".into()),
        }
    }
}

/// No up server reaches (both ways) enough up servers, itself included, to form a majority.
fn quorum_lost(world: &World) -> bool {
    Reach::of(world).quorum_lost()
}

/// The highest commit index of any server (the workers and the store have none).
fn highest_commit(world: &World) -> LogIndex {
    let servers: Vec<NodeId> = super::servers(world).collect();
    super::reach::highest_commit(world, &servers)
}
