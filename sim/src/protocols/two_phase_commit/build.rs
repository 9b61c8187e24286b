//! The world's nodes in node order: the coordinator `n1`, then the participants `A`, `B`, ... Each
//! participant's votes are drawn here, for every transaction, from a generator seeded by the world's
//! seed (salted, so the world's own stream is untouched): the actors themselves draw nothing.

use super::{Coordinator, Node, Participant};
use crate::base::ids::NodeId;
use crate::base::rng::Rng;
use crate::contract::config::{ProtocolConfig, TwoPhaseOptions, WorldConfig};
use crate::contract::layout::Layout;

/// Mixed into the world's seed for the votes' generator.
const VOTE_SALT: u64 = 0x2FC0_70E5_D1CE_0001;

/// The world's actors in node order, as the registry's actor type (which this folder cannot name).
pub fn actors<A: From<Node>>(config: &WorldConfig, layout: &Layout) -> Vec<A> {
    let ProtocolConfig::TwoPhaseCommit(_, options) = &config.protocol else {
        unreachable!("the two-phase-commit builder runs only for a two-phase-commit world");
    };
    nodes(config.seed, options, layout.servers, layout.workers)
        .into_iter()
        .map(A::from)
        .collect()
}

/// The coordinator on node 0 and `participants` participants after the `servers` servers.
pub fn nodes(
    seed: u64,
    options: &TwoPhaseOptions,
    servers: usize,
    participants: usize,
) -> Vec<Node> {
    let coordinator = NodeId(0);
    let ids: Vec<NodeId> = (0..participants)
        .map(|index| NodeId((servers + index) as u16))
        .collect();
    let mut rng = Rng::new(seed ^ VOTE_SALT);
    let first = Coordinator::new(ids.clone(), options.transactions, options.ask_ms)
        .splitting_decisions(options.unsafe_split_decision);
    let mut nodes = vec![Node::Coordinator(first)];
    for _ in &ids {
        let votes_no = (0..options.transactions)
            .map(|_| rng.chance_ppm(options.vote_no_ppm))
            .collect();
        let participant = Participant::new(coordinator, options.ask_ms, votes_no);
        nodes.push(Node::Participant(participant));
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_coordinator_comes_first_and_votes_follow_the_seed() {
        let options = TwoPhaseOptions {
            vote_no_ppm: 500_000,
            transactions: 20,
            ..TwoPhaseOptions::default()
        };
        let built = nodes(7, &options, 1, 3);
        assert_eq!(built.len(), 4);
        assert!(built[0].as_coordinator().is_some());
        assert!(built[1..]
            .iter()
            .all(|node| node.as_participant().is_some()));
        let again = nodes(7, &options, 1, 3);
        let other = nodes(8, &options, 1, 3);
        let votes = |built: &[Node]| format!("{:?}", &built[1..]);
        assert_eq!(votes(&built), votes(&again));
        assert_ne!(votes(&built), votes(&other));
    }
}
