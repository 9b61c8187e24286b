//! A Paxos acceptor: the promise it made and the proposal it accepted, written down before it answers.

use super::{Ballot, PaxosFact, PaxosMessage, PaxosValue, Proposal};
use crate::base::ids::NodeId;
use crate::contract::protocol::{ActorSummary, Carries, Effects, Input, Observes, Protocol};

/// What a world's message type must carry for Paxos actors.
pub trait PaxosWire: Carries<PaxosMessage> + Observes<PaxosFact> {}

impl<M> PaxosWire for M where M: Carries<PaxosMessage> + Observes<PaxosFact> {}

#[derive(Clone, Debug, Hash)]
pub struct Acceptor {
    /// The highest ballot promised (durable unless `durable` is off).
    pub promised: Option<Ballot>,
    /// The highest-ballot proposal accepted (durable unless `durable` is off).
    pub accepted: Option<Proposal>,
    /// Keep `promised` and `accepted` across a crash; `false` is the unsafe forgetful acceptor.
    pub durable: bool,
    /// Who hears every acceptance: the proposers, then the learner actors if the world has any.
    learners: Vec<NodeId>,
}

impl Acceptor {
    pub fn new(durable: bool, learners: Vec<NodeId>) -> Acceptor {
        Acceptor {
            promised: None,
            accepted: None,
            durable,
            learners,
        }
    }

    /// A ballot this acceptor may still take part in: nothing higher was promised. An equal ballot is
    /// the same proposer asking again (a duplicate or its accept after its prepare).
    fn allows(&self, ballot: Ballot) -> bool {
        self.promised.is_none_or(|promised| ballot >= promised)
    }

    fn refuse<M: PaxosWire>(&self, to: NodeId, ballot: Ballot, effects: &mut Effects<M>) {
        // Only a ballot below a promise is refused, so there is one.
        let promised = self.promised.unwrap_or(ballot);
        effects.observe(PaxosFact::BallotRefused { ballot, promised });
        effects.send(to, PaxosMessage::Refused { ballot, promised });
    }

    fn on_prepare<M: PaxosWire>(&mut self, from: NodeId, ballot: Ballot, effects: &mut Effects<M>) {
        if !self.allows(ballot) {
            return self.refuse(from, ballot, effects);
        }
        self.promised = Some(ballot);
        effects.persist("promise");
        let accepted = self.accepted;
        effects.observe(PaxosFact::PromiseGiven { ballot, accepted });
        effects.send_after_persist(from, PaxosMessage::Promise { ballot, accepted });
    }

    fn on_accept<M: PaxosWire>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        value: PaxosValue,
        effects: &mut Effects<M>,
    ) {
        if !self.allows(ballot) {
            return self.refuse(from, ballot, effects);
        }
        self.promised = Some(ballot);
        self.accepted = Some(Proposal { ballot, value });
        effects.persist("accepted proposal");
        effects.observe(PaxosFact::ValueAccepted { ballot, value });
        for learner in &self.learners {
            effects.send_after_persist(*learner, PaxosMessage::Accepted { ballot, value });
        }
    }

    /// Tells a learner that asked what this acceptor last accepted: an `Accepted` is true whenever it
    /// is sent, so a majority of answers naming one ballot proves that ballot's value chosen.
    fn on_ask<M: PaxosWire>(&self, from: NodeId, effects: &mut Effects<M>) {
        if let Some(Proposal { ballot, value }) = self.accepted {
            effects.send(from, PaxosMessage::Accepted { ballot, value });
        }
    }
}

impl<M: PaxosWire> Protocol<M> for Acceptor {
    fn handle(&mut self, _local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Message { from, message } => match message.peel() {
                Some(PaxosMessage::Prepare { ballot }) => self.on_prepare(from, *ballot, effects),
                Some(PaxosMessage::Accept { ballot, value }) => {
                    self.on_accept(from, *ballot, *value, effects)
                }
                Some(PaxosMessage::AskAccepted) => self.on_ask(from, effects),
                _ => {}
            },
            Input::Recover => effects.observe(PaxosFact::AcceptorRestarted {
                forgot: !self.durable,
                promised: self.promised,
                accepted: self.accepted,
            }),
            _ => {}
        }
    }

    /// Durable state survives; the forgetful variant loses it, as a process with nothing on disk would.
    fn crash(&mut self) {
        if !self.durable {
            self.promised = None;
            self.accepted = None;
        }
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
