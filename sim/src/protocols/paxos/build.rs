//! How the Paxos world is built: acceptors `n1..nN`, then the proposers, then the learner actors
//! `L1..` if any. Every acceptor tells the proposers (which learn too) and then the learner actors
//! what it accepts. No store. Generic over the world's actor type, which the registry line picks
//! (`A: From<…>` wraps each actor in its variant), and drawing nothing from the world's generator.

use super::{Acceptor, LearnerNode, Proposer};
use crate::base::ids::NodeId;
use crate::contract::config::{ProtocolConfig, WorldConfig};
use crate::contract::layout::Layout;

pub fn actors<A>(config: &WorldConfig, layout: &Layout) -> Vec<A>
where
    A: From<Acceptor> + From<Proposer> + From<LearnerNode>,
{
    let ProtocolConfig::Paxos(_, options) = &config.protocol else {
        unreachable!("the Paxos builder runs only for a Paxos world");
    };
    let proposers: Vec<NodeId> = (0..layout.workers)
        .map(|index| layout.worker(index))
        .collect();
    let told: Vec<NodeId> = proposers
        .iter()
        .copied()
        .chain((0..layout.learners).map(|index| layout.learner(index)))
        .collect();
    let mut actors: Vec<A> = (0..layout.servers)
        .map(|_| A::from(Acceptor::new(options.durable_acceptors, told.clone())))
        .collect();
    for (index, id) in proposers.iter().enumerate() {
        actors.push(A::from(Proposer::new(*id, index, layout.servers, *options)));
    }
    for _ in 0..layout.learners {
        let learner = LearnerNode::new(layout.servers, proposers.clone(), *options);
        actors.push(A::from(learner));
    }
    actors
}
