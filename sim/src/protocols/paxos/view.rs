//! The Paxos world's part of a frame: each acceptor's promise and accepted proposal, each proposer's
//! ballot and what it knows is chosen (with the majority that told it), each learner actor's knowledge
//! likewise, and the acceptors' truth (the checker's count).

use super::checker::PaxosChecker;
use super::learner::Learned;
use super::learner_node::LearnerNode;
use super::{Acceptor, Ballot, PaxosValue, Proposal, Proposer, ProposerPhase};
use crate::base::ids::{NodeId, NodeSet};
use crate::contract::config::ProtocolConfig;
use crate::contract::world_read::{actors_of, WorldRead};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PaxosView {
    pub acceptors: Vec<AcceptorView>,
    pub proposers: Vec<ProposerView>,
    /// The learner actors `L1..` (none unless the world asks for them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub learners: Vec<LearnerView>,
    /// What a majority of acceptors first accepted in one ballot (the checker's count), if anything.
    pub chosen: Option<Proposal>,
    pub durable_acceptors: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct AcceptorView {
    pub id: NodeId,
    pub promised: Option<Ballot>,
    pub accepted: Option<Proposal>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ProposerView {
    pub id: NodeId,
    pub phase: ProposerPhase,
    pub ballot: Option<Ballot>,
    pub own_value: PaxosValue,
    /// Acceptors that promised the current ballot so far.
    pub promises: NodeSet,
    /// The value sent in phase 2 of the current ballot.
    pub proposed: Option<Proposal>,
    pub learned: Option<Learned>,
    pub ballots_started: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LearnerView {
    pub id: NodeId,
    /// What it knows is chosen: the value, the ballot and the acceptors that accepted it.
    pub learned: Option<Learned>,
    /// Times it asked the acceptors what they accepted, having heard no majority.
    pub questions_asked: u64,
}

/// The frame's Paxos part; `None` in any other world.
pub fn view(world: &dyn WorldRead) -> Option<PaxosView> {
    let ProtocolConfig::Paxos(_, options) = world.protocol() else {
        return None;
    };
    let acceptors = actors_of::<Acceptor>(world)
        .map(|(id, acceptor)| AcceptorView {
            id,
            promised: acceptor.promised,
            accepted: acceptor.accepted,
        })
        .collect();
    let proposers = actors_of::<Proposer>(world)
        .map(|(id, proposer)| ProposerView {
            id,
            phase: proposer.phase,
            ballot: proposer.ballot,
            own_value: proposer.own_value,
            promises: proposer.promises,
            proposed: proposer.proposed,
            learned: proposer.learned(),
            ballots_started: proposer.ballots_started,
        })
        .collect();
    let learners = actors_of::<LearnerNode>(world)
        .map(|(id, learner)| LearnerView {
            id,
            learned: learner.learned(),
            questions_asked: learner.questions_asked,
        })
        .collect();
    let chosen = world
        .world_checker()
        .and_then(|checker| checker.downcast_ref::<PaxosChecker>())
        .and_then(|paxos| paxos.chosen)
        .map(|chosen| Proposal {
            ballot: chosen.ballot,
            value: chosen.value,
        });
    Some(PaxosView {
        acceptors,
        proposers,
        learners,
        chosen,
        durable_acceptors: options.durable_acceptors,
    })
}
