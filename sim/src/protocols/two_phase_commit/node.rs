//! A two-phase-commit world's node: the coordinator or a participant. One type, so the world's closed
//! `Actor` enum needs one variant for the whole protocol.

use super::{Coordinator, Participant, TwoPhaseWire};
use crate::contract::protocol::{ActorSummary, Effects, Input, Protocol};

#[derive(Clone, Debug, Hash)]
pub enum Node {
    Coordinator(Coordinator),
    Participant(Participant),
}

impl Node {
    pub fn as_coordinator(&self) -> Option<&Coordinator> {
        match self {
            Node::Coordinator(coordinator) => Some(coordinator),
            Node::Participant(_) => None,
        }
    }

    pub fn as_participant(&self) -> Option<&Participant> {
        match self {
            Node::Participant(participant) => Some(participant),
            Node::Coordinator(_) => None,
        }
    }
}

impl<M: TwoPhaseWire> Protocol<M> for Node {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match self {
            Node::Coordinator(coordinator) => coordinator.handle(local_now_us, input, effects),
            Node::Participant(participant) => participant.handle(local_now_us, input, effects),
        }
    }

    fn crash(&mut self) {
        match self {
            Node::Coordinator(coordinator) => Protocol::<M>::crash(coordinator),
            Node::Participant(participant) => Protocol::<M>::crash(participant),
        }
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
