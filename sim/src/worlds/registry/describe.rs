//! A world's whole story: the world's facts (`actor::Fact`, one variant per protocol) routed to the
//! describers its registry entry's `Story` names, each written in its protocol's folder.

use super::entry;
use crate::base::ids::NodeId;
use crate::contract::action::Action;
use crate::contract::config::ProtocolKind;
use crate::contract::entry::describe::{Described, Describer, LockStory, Telling};
use crate::protocols::lockservice::describe::LockDescriber;
use crate::protocols::paxos::describe::PaxosDescriber;
use crate::protocols::pbft::describe::PbftDescriber;
use crate::protocols::raft::describe::RaftDescriber;
use crate::protocols::resource::StoreDescriber;
use crate::protocols::scheduler::describe::SchedulerDescriber;
use crate::protocols::two_phase_commit::describe::TwoPhaseDescriber;
use crate::protocols::zookeeper::describe::ZookeeperDescriber;
use crate::worlds::actor::Fact;

/// The describers of one world, made fresh for each narrated run.
pub struct WorldDescriber {
    raft: Option<RaftDescriber>,
    locks: Option<LockDescriber>,
    store: Option<StoreDescriber>,
    invoices: Option<SchedulerDescriber>,
    election_recipe: Option<ZookeeperDescriber>,
    /// Always there: only a Paxos world records Paxos facts.
    paxos: PaxosDescriber,
    /// Always there: only a PBFT world records PBFT facts.
    pbft: PbftDescriber,
    /// Always there: only a two-phase-commit world records its facts.
    two_phase: TwoPhaseDescriber,
}

impl WorldDescriber {
    pub fn new(kind: ProtocolKind) -> WorldDescriber {
        let entry = entry(kind);
        let story = entry.story;
        WorldDescriber {
            raft: entry.capabilities.runs_raft.then(RaftDescriber::default),
            locks: story.locks.map(|locks| match locks {
                LockStory::Service => LockDescriber::service(),
                LockStory::Redis => LockDescriber::redis(),
            }),
            store: story.locks.map(|locks| StoreDescriber {
                fenced: locks == LockStory::Service,
            }),
            invoices: story.invoices.then(SchedulerDescriber::default),
            election_recipe: story.election_recipe.then(ZookeeperDescriber::default),
            paxos: PaxosDescriber,
            pbft: PbftDescriber::default(),
            two_phase: TwoPhaseDescriber,
        }
    }
}

/// `describer`'s sentence for `fact`, when the world has that describer.
fn told<F, D: Describer<F>>(
    describer: &mut Option<D>,
    node: NodeId,
    fact: &F,
    telling: &Telling<'_>,
) -> Option<Described> {
    describer.as_mut()?.describe(node, fact, telling)
}

impl Describer<Fact> for WorldDescriber {
    fn describe(&mut self, node: NodeId, fact: &Fact, telling: &Telling<'_>) -> Option<Described> {
        match fact {
            Fact::Raft(fact) => told(&mut self.raft, node, fact, telling),
            Fact::Lock(fact) => told(&mut self.election_recipe, node, fact, telling)
                .or_else(|| told(&mut self.locks, node, fact, telling)),
            // A candidate's belief is a leadership; a Redis client's, a lock.
            Fact::Belief(fact) if self.election_recipe.is_some() => {
                told(&mut self.election_recipe, node, fact, telling)
            }
            Fact::Belief(fact) => told(&mut self.locks, node, fact, telling),
            Fact::Scheduler(fact) => told(&mut self.invoices, node, fact, telling),
            Fact::Resource(fact) => told(&mut self.store, node, fact, telling),
            Fact::Paxos(fact) => self.paxos.describe(node, fact, telling),
            Fact::Pbft(fact) => self.pbft.describe(node, fact, telling),
            Fact::TwoPhase(fact) => self.two_phase.describe(node, fact, telling),
        }
    }

    fn consequence(&mut self, action: &Action, telling: &Telling<'_>) -> Option<String> {
        self.raft.as_mut()?.consequence(action, telling)
    }
}
