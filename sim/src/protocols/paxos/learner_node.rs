//! A Paxos learner as an actor of its own (`L1`, `L2`, ...): it proposes nothing and promises nothing;
//! it counts the `Accepted` notices acceptors send it and knows a value is chosen once a majority of
//! acceptors accepted it in one ballot. A learner that heard no majority (it was cut off, or the
//! notices were lost) asks every acceptor what it last accepted, now and then, until it knows.

use super::acceptor::PaxosWire;
use super::learner::{Learned, Learner};
use super::{PaxosFact, PaxosMessage, PaxosValue};
use crate::base::ids::NodeId;
use crate::contract::config::PaxosOptions;
use crate::contract::protocol::{ActorSummary, Effects, Input, Protocol, TimerDelay, TimerKey};

/// The one timer: when it fires and nothing is known yet, the learner asks the acceptors.
const ASK_TIMER: TimerKey = 1;
/// A learner that knows nothing asks again after this many round timeouts, long enough for a ballot
/// in progress to end and tell it by itself.
const ASK_ROUNDS: u64 = 3;

#[derive(Clone, Debug)]
pub struct LearnerNode {
    acceptors: usize,
    /// How long to wait between questions, in local microseconds.
    ask_interval_us: u64,
    /// Which acceptors accepted which ballot (volatile: a restarted learner asks again).
    tally: Learner,
    /// Times it asked the acceptors what they accepted.
    pub questions_asked: u64,
}

impl LearnerNode {
    pub fn new(acceptors: usize, options: PaxosOptions) -> LearnerNode {
        LearnerNode {
            acceptors,
            ask_interval_us: ASK_ROUNDS * options.round_timeout_ms * 1_000,
            tally: Learner::new(acceptors),
            questions_asked: 0,
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
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
