//! A Paxos learner as an actor of its own (`L1`, `L2`, ...): it proposes nothing and promises nothing;
//! it counts the `Accepted` notices acceptors send it and knows a value is chosen once a majority of
//! acceptors accepted it in one ballot. A learner that heard no majority (it was cut off, or the
//! notices were lost) asks every acceptor what it last accepted, now and then, until it knows.
//!
//! Asking is not always enough: an acceptor answers with its *last* acceptance, and a value chosen in
//! one ballot may since have been accepted again, in later ballots that reached only some acceptors.
//! The answers then name the right value under different ballots, and no ballot has a majority. So
//! when a majority of acceptors answered since its last question and it still knows nothing, the
//! learner asks a proposer (each in turn) to run a ballot, as "Paxos Made Simple" suggests: the value
//! rule makes that ballot carry the chosen value, and a majority accepting it in one ballot tells
//! every learner.

use super::acceptor::PaxosWire;
use super::learner::{Learned, Learner};
use super::{majority, PaxosFact, PaxosMessage, PaxosValue};
use crate::base::ids::{NodeId, NodeSet};
use crate::contract::config::PaxosOptions;
use crate::contract::protocol::{ActorSummary, Effects, Input, Protocol, TimerDelay, TimerKey};

/// The one timer: when it fires and nothing is known yet, the learner asks the acceptors.
const ASK_TIMER: TimerKey = 1;
/// A learner that knows nothing asks again after this many round timeouts, long enough for a ballot
/// in progress to end and tell it by itself.
const ASK_ROUNDS: u64 = 3;

#[derive(Clone, Debug, Hash)]
pub struct LearnerNode {
    acceptors: usize,
    /// The proposers, in order; the learner asks them to run a ballot in turn.
    proposers: Vec<NodeId>,
    /// How long to wait between questions, in local microseconds.
    ask_interval_us: u64,
    /// Which acceptors accepted which ballot (volatile: a restarted learner asks again).
    tally: Learner,
    /// Acceptors heard from since its last question (notices or answers).
    heard_since_question: NodeSet,
    /// Times it asked the acceptors what they accepted.
    pub questions_asked: u64,
    /// Times it asked a proposer to run a ballot.
    pub ballots_requested: u64,
}

impl LearnerNode {
    pub fn new(acceptors: usize, proposers: Vec<NodeId>, options: PaxosOptions) -> LearnerNode {
        LearnerNode {
            acceptors,
            proposers,
            ask_interval_us: ASK_ROUNDS * options.round_timeout_ms * 1_000,
            tally: Learner::new(acceptors),
            heard_since_question: NodeSet::default(),
            questions_asked: 0,
            ballots_requested: 0,
        }
    }

    /// What it knows is chosen, with the ballot and the majority that accepted it.
    pub fn learned(&self) -> Option<Learned> {
        self.tally.learned
    }

    fn wait<M: PaxosWire>(&self, effects: &mut Effects<M>) {
        let delay = TimerDelay::Exactly {
            local_us: self.ask_interval_us,
        };
        effects.set_timer(ASK_TIMER, delay, "ask the acceptors");
    }

    fn ask<M: PaxosWire>(&mut self, effects: &mut Effects<M>) {
        if self.learned().is_some() {
            return;
        }
        self.questions_asked += 1;
        effects.observe(PaxosFact::AcceptancesAsked {
            questions: self.questions_asked,
        });
        for acceptor in 0..self.acceptors {
            effects.send(NodeId(acceptor as u16), PaxosMessage::AskAccepted);
        }
        let stuck = self.heard_since_question.len() >= majority(self.acceptors);
        if stuck && !self.proposers.is_empty() {
            let turn = self.ballots_requested as usize % self.proposers.len();
            let proposer = self.proposers[turn];
            self.ballots_requested += 1;
            effects.observe(PaxosFact::BallotRequested { proposer });
            effects.send(proposer, PaxosMessage::RunBallot);
        }
        self.heard_since_question = NodeSet::default();
        self.wait(effects);
    }

    fn on_accepted<M: PaxosWire>(
        &mut self,
        from: NodeId,
        ballot: super::Ballot,
        value: PaxosValue,
        effects: &mut Effects<M>,
    ) {
        if from.index() >= self.acceptors {
            return;
        }
        self.heard_since_question.insert(from);
        let Some((learned, before)) = self.tally.hear(from, ballot, value) else {
            return;
        };
        effects.observe(PaxosFact::ValueLearned {
            ballot: learned.ballot,
            value: learned.value,
            acceptors: learned.acceptors,
            before,
        });
        effects.cancel_timer(ASK_TIMER);
    }
}

impl<M: PaxosWire> Protocol<M> for LearnerNode {
    fn handle(&mut self, _local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Start | Input::Recover => self.wait(effects),
            Input::Timer { key: ASK_TIMER } => self.ask(effects),
            Input::Message { from, message } => {
                if let Some(PaxosMessage::Accepted { ballot, value }) = message.peel() {
                    self.on_accepted(from, *ballot, *value, effects);
                }
            }
            Input::Timer { .. } | Input::Client { .. } => {}
        }
    }

    /// What it learned was in memory only: a restarted learner starts from nothing and asks again.
    fn crash(&mut self) {
        self.tally = Learner::new(self.acceptors);
        self.heard_since_question = NodeSet::default();
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
