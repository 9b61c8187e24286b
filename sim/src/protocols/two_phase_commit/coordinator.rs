//! The coordinator: it runs the transactions one after another, gathers the votes of each, decides,
//! writes the decision to its log and tells every participant. Its log (the transaction in progress and
//! every decision) survives a crash; the votes it gathered do not.

use super::{TwoPhaseFact, TwoPhaseMessage, TwoPhaseWire, TxId};
use crate::base::ids::NodeId;
use crate::contract::protocol::{ActorSummary, Effects, Input, Protocol, TimerDelay, TimerKey};
use std::collections::BTreeMap;

/// How long writing a decision to the log takes. The decision counts (and is sent) only once written,
/// so a crash in this window leaves the transaction undecided: the window the blocking lesson aims at.
pub const DECISION_WRITE_MS: u64 = 30;

/// The pause between one transaction's decision and the next transaction's prepare.
pub const NEXT_TRANSACTION_MS: u64 = 100;

/// Rounds of `Prepare` (one every `ask_ms`) the coordinator sends before it gives up on missing votes
/// and aborts: it may, since nobody has been told anything yet.
pub const PREPARE_ROUNDS: u32 = 5;

const VOTE_TIMER: TimerKey = 1;
const WRITE_TIMER: TimerKey = 2;
const NEXT_TIMER: TimerKey = 3;

#[derive(Clone, Debug, Hash)]
pub struct Coordinator {
    pub participants: Vec<NodeId>,
    /// How many transactions it runs in all.
    pub transactions: u64,
    ask_ms: u64,
    /// TEST ONLY, deliberately broken: tells the first participant the decision and every other one
    /// its opposite, so that the Atomicity checker has something to catch.
    split_decision: bool,
    /// The transaction in progress or last decided (durable; 0 before the first).
    pub current: TxId,
    /// Every decision made, by transaction (durable).
    pub decisions: BTreeMap<TxId, bool>,
    /// The votes gathered for `current` (volatile).
    pub votes: BTreeMap<NodeId, bool>,
    /// The decision being written to the log, not yet durable (volatile).
    pub writing: Option<bool>,
    /// Prepare rounds sent for `current` since it began or the coordinator restarted (volatile).
    rounds: u32,
}

impl Coordinator {
    pub fn new(participants: Vec<NodeId>, transactions: u64, ask_ms: u64) -> Coordinator {
        Coordinator {
            participants,
            transactions,
            ask_ms,
            split_decision: false,
            current: 0,
            decisions: BTreeMap::new(),
            votes: BTreeMap::new(),
            writing: None,
            rounds: 0,
        }
    }

    /// The deliberately broken coordinator of the tests (see `split_decision`).
    pub fn splitting_decisions(mut self, split: bool) -> Coordinator {
        self.split_decision = split;
        self
    }

    /// The decision on `tx`, once written.
    pub fn decision(&self, tx: TxId) -> Option<bool> {
        self.decisions.get(&tx).copied()
    }

    /// Whether the transaction in progress still waits for votes (not decided, not being written).
    pub fn gathering(&self) -> bool {
        self.current > 0 && self.decision(self.current).is_none() && self.writing.is_none()
    }

    fn ask_delay(&self) -> TimerDelay {
        TimerDelay::Exactly {
            local_us: self.ask_ms * 1_000,
        }
    }

    fn begin<M: TwoPhaseWire>(&mut self, tx: TxId, effects: &mut Effects<M>) {
        self.current = tx;
        self.votes.clear();
        self.rounds = 0;
        effects.persist("transaction begun");
        self.prepare(false, effects);
    }

    /// Asks every participant whose vote it lacks to vote on the transaction in progress.
    fn prepare<M: TwoPhaseWire>(&mut self, again: bool, effects: &mut Effects<M>) {
        let tx = self.current;
        effects.observe(TwoPhaseFact::TxPrepareSent { tx, again });
        for participant in &self.participants {
            if !self.votes.contains_key(participant) {
                effects.send(*participant, TwoPhaseMessage::Prepare { tx });
            }
        }
        self.rounds += 1;
        effects.set_timer(VOTE_TIMER, self.ask_delay(), "votes missing?");
    }

    fn on_vote<M: TwoPhaseWire>(
        &mut self,
        from: NodeId,
        tx: TxId,
        yes: bool,
        effects: &mut Effects<M>,
    ) {
        if tx != self.current || !self.gathering() || !self.participants.contains(&from) {
            return;
        }
        self.votes.insert(from, yes);
        if !yes {
            self.decide(false, effects);
        } else if self.votes.len() == self.participants.len() {
            self.decide(true, effects);
        }
    }

    /// Starts writing the decision; it is made (and told) when the write is done.
    fn decide<M: TwoPhaseWire>(&mut self, commit: bool, effects: &mut Effects<M>) {
        self.writing = Some(commit);
        effects.cancel_timer(VOTE_TIMER);
        let delay = TimerDelay::Exactly {
            local_us: DECISION_WRITE_MS * 1_000,
        };
        effects.set_timer(WRITE_TIMER, delay, "decision written");
    }

    fn written<M: TwoPhaseWire>(&mut self, effects: &mut Effects<M>) {
        let Some(commit) = self.writing.take() else {
            return;
        };
        let tx = self.current;
        self.decisions.insert(tx, commit);
        effects.persist("decision");
        // An abort with no vote against it: the coordinator gave up on votes that never came.
        let votes_missing = !commit && self.votes.values().all(|yes| *yes);
        effects.observe(TwoPhaseFact::TxDecided {
            tx,
            commit,
            votes_missing,
        });
        for participant in self.participants.clone() {
            self.tell(participant, tx, commit, effects);
        }
        self.next_later(effects);
    }

    /// Sends `to` the decision on `tx` (the broken coordinator's opposite to all but the first).
    fn tell<M: TwoPhaseWire>(&self, to: NodeId, tx: TxId, commit: bool, effects: &mut Effects<M>) {
        let first = self.participants.first() == Some(&to);
        let commit = if self.split_decision && !first {
            !commit
        } else {
            commit
        };
        effects.send(to, TwoPhaseMessage::Decision { tx, commit });
    }

    fn next_later<M: TwoPhaseWire>(&self, effects: &mut Effects<M>) {
        if self.current < self.transactions {
            let delay = TimerDelay::Exactly {
                local_us: NEXT_TRANSACTION_MS * 1_000,
            };
            effects.set_timer(NEXT_TIMER, delay, "next transaction");
        }
    }

    fn votes_overdue<M: TwoPhaseWire>(&mut self, effects: &mut Effects<M>) {
        if !self.gathering() {
            return;
        }
        if self.rounds >= PREPARE_ROUNDS {
            self.decide(false, effects);
        } else {
            self.prepare(true, effects);
        }
    }

    fn on_ask<M: TwoPhaseWire>(&self, from: NodeId, tx: TxId, effects: &mut Effects<M>) {
        if let Some(commit) = self.decision(tx) {
            self.tell(from, tx, commit, effects);
        }
    }

    /// Reads its log back: a decided transaction stays decided (the next one follows); an undecided
    /// one is asked about again, and the participants answer with the votes they wrote down.
    fn recover<M: TwoPhaseWire>(&mut self, effects: &mut Effects<M>) {
        let tx = self.current;
        let decided = self.decision(tx);
        effects.observe(TwoPhaseFact::TxCoordinatorRestarted { tx, decided });
        match decided {
            Some(_) => self.next_later(effects),
            None if tx == 0 => self.begin(1, effects),
            None => self.prepare(true, effects),
        }
    }
}

impl<M: TwoPhaseWire> Protocol<M> for Coordinator {
    fn handle(&mut self, _local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Start if self.transactions > 0 => self.begin(1, effects),
            Input::Recover => self.recover(effects),
            Input::Message { from, message } => match message.peel() {
                Some(TwoPhaseMessage::Vote { tx, yes }) => self.on_vote(from, *tx, *yes, effects),
                Some(TwoPhaseMessage::AskDecision { tx }) => self.on_ask(from, *tx, effects),
                _ => {}
            },
            Input::Timer { key: VOTE_TIMER } => self.votes_overdue(effects),
            Input::Timer { key: WRITE_TIMER } => self.written(effects),
            Input::Timer { key: NEXT_TIMER } => self.begin(self.current + 1, effects),
            _ => {}
        }
    }

    /// The log (the transaction in progress and the decisions) stays; the votes and a decision not
    /// yet written are lost.
    fn crash(&mut self) {
        self.votes.clear();
        self.writing = None;
        self.rounds = 0;
    }

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}
