//! A Paxos proposer, which is also a learner: it runs ballots until it hears that some value (its own or
//! a rival's) is chosen, and what it does after a rival pre-empts it is the world's remedy setting.

use super::acceptor::PaxosWire;
use super::learner::{Learned, Learner};
use super::{majority, Ballot, PaxosFact, PaxosMessage, PaxosValue, Proposal};
use crate::base::ids::{NodeId, NodeSet};
use crate::contract::config::{PaxosOptions, PaxosRemedy};
use crate::contract::protocol::{
    ActorSummary, ClientError, ClientOutcome, Effects, Input, Protocol, TimerDelay, TimerKey,
};
use serde::Serialize;

/// One timer: in a round it is the round's deadline, while waiting it starts the next round.
const ROUND_TIMER: TimerKey = 1;
/// Doublings of the back-off window at most (40 ms becomes at most 1.28 s).
const MAX_BACKOFF_DOUBLINGS: u32 = 5;
/// With a distinguished proposer, the others stand back this many round timeouts.
const STANDBY_ROUNDS: u64 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProposerPhase {
    /// Waiting to start its next ballot (at the start, or backing off).
    Waiting,
    /// Phase 1: `Prepare` sent, collecting promises.
    Preparing,
    /// Phase 2: `Accept` sent, waiting to learn the outcome.
    Accepting,
    /// It knows a value is chosen and proposes no more.
    Done,
}

#[derive(Clone, Debug, Hash)]
pub struct Proposer {
    pub id: NodeId,
    /// 0 for `A`: with the distinguished-proposer remedy, `A` is the distinguished one.
    index: usize,
    acceptors: usize,
    options: PaxosOptions,
    /// The value it proposes when no promise carries an older one.
    pub own_value: PaxosValue,
    /// The highest round it used or heard of (durable: a ballot is never reused).
    pub round: u64,
    pub phase: ProposerPhase,
    pub ballot: Option<Ballot>,
    /// Acceptors that promised the current ballot, and the highest-ballot proposal among their answers.
    pub promises: NodeSet,
    pub highest_promised: Option<Proposal>,
    /// The value sent in phase 2 of the current ballot.
    pub proposed: Option<Proposal>,
    /// Pre-emptions in a row, for the back-off window.
    preemptions: u32,
    pub ballots_started: u64,
    /// Ballots whose value it took from a promise instead of proposing its own.
    pub carried_forward: u64,
    /// What it has heard acceptors accept (volatile: a restarted proposer finds out again by running
    /// a ballot, which carries any chosen value forward).
    pub learner: Learner,
}

impl Proposer {
    pub fn new(id: NodeId, index: usize, acceptors: usize, options: PaxosOptions) -> Proposer {
        Proposer {
            id,
            index,
            acceptors,
            options,
            own_value: index as PaxosValue,
            round: 0,
            phase: ProposerPhase::Waiting,
            ballot: None,
            promises: NodeSet::default(),
            highest_promised: None,
            proposed: None,
            preemptions: 0,
            ballots_started: 0,
            carried_forward: 0,
            learner: Learner::new(acceptors),
        }
    }

    pub fn learned(&self) -> Option<Learned> {
        self.learner.learned
    }

    fn stands_back(&self) -> bool {
        self.options.remedy == PaxosRemedy::Leader && self.index > 0
    }

    fn standby_us(&self) -> u64 {
        STANDBY_ROUNDS * self.options.round_timeout_ms * 1_000
    }

    fn wait<M: PaxosWire>(&mut self, delay: TimerDelay, effects: &mut Effects<M>) {
        self.phase = ProposerPhase::Waiting;
        effects.set_timer(ROUND_TIMER, delay, "next ballot");
    }

    /// The first ballot: `A` at once, the others staggered (or, standing back, after a long wait).
    fn begin<M: PaxosWire>(&mut self, effects: &mut Effects<M>) {
        if self.learned().is_some() {
            self.phase = ProposerPhase::Done;
            return;
        }
        let local_us = if self.stands_back() {
            self.standby_us()
        } else {
            self.index as u64 * self.options.stagger_ms * 1_000
        };
        self.wait(TimerDelay::Exactly { local_us }, effects);
    }

    fn start_ballot<M: PaxosWire>(&mut self, effects: &mut Effects<M>) {
        self.round += 1;
        let ballot = Ballot {
            round: self.round,
            proposer: self.id,
        };
        effects.persist("highest round");
        self.phase = ProposerPhase::Preparing;
        self.ballot = Some(ballot);
        self.promises = NodeSet::default();
        self.highest_promised = None;
        self.proposed = None;
        self.ballots_started += 1;
        effects.observe(PaxosFact::BallotStarted { ballot });
        for acceptor in 0..self.acceptors {
            effects.send(NodeId(acceptor as u16), PaxosMessage::Prepare { ballot });
        }
        let local_us = self.options.round_timeout_ms * 1_000;
        effects.set_timer(
            ROUND_TIMER,
            TimerDelay::Exactly { local_us },
            "ballot deadline",
        );
    }

    /// Gives the current ballot up and picks when to try again, by the remedy.
    fn abandon<M: PaxosWire>(&mut self, by: Option<Ballot>, effects: &mut Effects<M>) {
        let Some(ballot) = self.ballot else { return };
        if let Some(higher) = by {
            self.round = self.round.max(higher.round);
            self.preemptions = self.preemptions.saturating_add(1);
        }
        effects.observe(PaxosFact::BallotAbandoned { ballot, by });
        if self.learned().is_some() {
            // A ballot run for a learner (see `on_ballot_requested`): it tried once, and is done.
            self.phase = ProposerPhase::Done;
            return;
        }
        match self.options.remedy {
            _ if self.stands_back() => {
                let local_us = self.standby_us();
                self.wait(TimerDelay::Exactly { local_us }, effects);
            }
            PaxosRemedy::Backoff => {
                let doublings = self
                    .preemptions
                    .saturating_sub(1)
                    .min(MAX_BACKOFF_DOUBLINGS);
                let window_us = (self.options.backoff_ms * 1_000) << doublings;
                let delay = TimerDelay::Between {
                    min_local_us: 0,
                    max_local_us: window_us,
                };
                self.wait(delay, effects);
            }
            PaxosRemedy::None | PaxosRemedy::Leader => self.start_ballot(effects),
        }
    }

    fn on_promise<M: PaxosWire>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        accepted: Option<Proposal>,
        effects: &mut Effects<M>,
    ) {
        if self.phase != ProposerPhase::Preparing || self.ballot != Some(ballot) {
            return;
        }
        if from.index() >= self.acceptors || self.promises.contains(from) {
            return;
        }
        self.promises.insert(from);
        if let Some(proposal) = accepted {
            if self
                .highest_promised
                .is_none_or(|best| proposal.ballot > best.ballot)
            {
                self.highest_promised = Some(proposal);
            }
        }
        if self.promises.len() < majority(self.acceptors) {
            return;
        }
        // The value rule: the highest-ballot value a promise carried, else its own.
        let carried = self.highest_promised;
        let value = carried.map_or(self.own_value, |proposal| proposal.value);
        self.phase = ProposerPhase::Accepting;
        self.carried_forward += u64::from(carried.is_some());
        self.proposed = Some(Proposal { ballot, value });
        effects.observe(PaxosFact::ValueProposed {
            ballot,
            value,
            carried_from: carried.map(|proposal| proposal.ballot),
            promises: self.promises,
        });
        for acceptor in 0..self.acceptors {
            effects.send(
                NodeId(acceptor as u16),
                PaxosMessage::Accept { ballot, value },
            );
        }
    }

    fn on_refused<M: PaxosWire>(
        &mut self,
        ballot: Ballot,
        promised: Ballot,
        effects: &mut Effects<M>,
    ) {
        self.round = self.round.max(promised.round);
        let in_round = matches!(
            self.phase,
            ProposerPhase::Preparing | ProposerPhase::Accepting
        );
        if in_round && self.ballot == Some(ballot) && promised > ballot {
            self.abandon(Some(promised), effects);
        }
    }

    fn on_accepted<M: PaxosWire>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        value: PaxosValue,
        effects: &mut Effects<M>,
    ) {
        if from.index() >= self.acceptors {
            return;
        }
        let Some((learned, before)) = self.learner.hear(from, ballot, value) else {
            return;
        };
        effects.persist("learned value");
        effects.observe(PaxosFact::ValueLearned {
            ballot: learned.ballot,
            value: learned.value,
            acceptors: learned.acceptors,
            before,
        });
        if self.phase != ProposerPhase::Done {
            self.phase = ProposerPhase::Done;
            effects.cancel_timer(ROUND_TIMER);
        }
    }

    /// A learner cannot tell what was chosen and asks for a ballot. One that knows the value runs a
    /// single ballot (the value rule makes it carry that value); one still proposing carries on, its
    /// own ballots will tell the learners.
    fn on_ballot_requested<M: PaxosWire>(&mut self, effects: &mut Effects<M>) {
        if self.phase == ProposerPhase::Done {
            self.start_ballot(effects);
        }
    }

    fn on_timer<M: PaxosWire>(&mut self, effects: &mut Effects<M>) {
        match self.phase {
            ProposerPhase::Waiting => self.start_ballot(effects),
            // A ballot run for a learner ends at its deadline: the learners heard its majority, and
            // this proposer knew the value already, so nothing is abandoned.
            ProposerPhase::Preparing | ProposerPhase::Accepting if self.learned().is_some() => {
                self.phase = ProposerPhase::Done;
            }
            ProposerPhase::Preparing | ProposerPhase::Accepting => self.abandon(None, effects),
            ProposerPhase::Done => {}
        }
    }

    fn on_message<M: PaxosWire>(
        &mut self,
        from: NodeId,
        message: &PaxosMessage,
        effects: &mut Effects<M>,
    ) {
        match *message {
            PaxosMessage::Promise { ballot, accepted } => {
                self.on_promise(from, ballot, accepted, effects)
            }
            PaxosMessage::Refused { ballot, promised } => {
                self.on_refused(ballot, promised, effects)
            }
            PaxosMessage::Accepted { ballot, value } => {
                self.on_accepted(from, ballot, value, effects)
            }
            PaxosMessage::RunBallot => self.on_ballot_requested(effects),
            PaxosMessage::Prepare { .. }
            | PaxosMessage::Accept { .. }
            | PaxosMessage::AskAccepted => {}
        }
    }
}

impl<M: PaxosWire> Protocol<M> for Proposer {
    fn handle(&mut self, _local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Start | Input::Recover => self.begin(effects),
            Input::Timer { key: ROUND_TIMER } => self.on_timer(effects),
            Input::Message { from, message } => {
                if let Some(message) = message.peel() {
                    self.on_message(from, message, effects);
                }
            }
            Input::Client { request_id, .. } => {
                let error = ClientError::NotLeader { leader_hint: None };
                effects.reply(request_id, ClientOutcome::Rejected(error));
            }
            Input::Timer { .. } => {}
        }
    }

    /// The ballot in progress and what it learned are forgotten; the highest round is kept, so no
    /// ballot is ever used twice.
    fn crash(&mut self) {
        self.learner = Learner::new(self.acceptors);
        self.phase = ProposerPhase::Waiting;
        self.ballot = None;
        self.promises = NodeSet::default();
        self.highest_promised = None;
        self.proposed = None;
        self.preemptions = 0;
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
