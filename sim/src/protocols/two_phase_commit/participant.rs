//! A participant: it votes on each transaction it is asked about, writes its vote down before sending
//! it, and applies the coordinator's decision. Having voted yes, it may not decide alone: until the
//! decision reaches it, it is in doubt and asks the coordinator every `ask_ms`.

use super::{TwoPhaseFact, TwoPhaseMessage, TwoPhaseWire, TxId};
use crate::base::ids::NodeId;
use crate::contract::protocol::{ActorSummary, Effects, Input, Protocol, TimerDelay, TimerKey};
use std::collections::BTreeMap;

const ASK_TIMER: TimerKey = 1;

/// Where a participant stands on one transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Phase {
    /// Not asked to vote yet: it works on its part.
    Working,
    /// Voted yes, waiting for the decision.
    Voted,
    /// Voted yes and heard no decision for a whole `ask_ms`: it asks the coordinator, and may not
    /// decide alone.
    InDoubt,
    Committed,
    Aborted,
}

impl Phase {
    pub fn word(self) -> &'static str {
        match self {
            Phase::Working => "working",
            Phase::Voted => "voted yes",
            Phase::InDoubt => "in doubt",
            Phase::Committed => "committed",
            Phase::Aborted => "aborted",
        }
    }
}

/// What a participant wrote down about one transaction (durable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Record {
    pub vote: Option<bool>,
    pub voted_ms: u64,
    /// The outcome applied.
    pub applied: Option<bool>,
    pub applied_ms: u64,
    /// It has noticed it is in doubt (and said so).
    pub in_doubt: bool,
}

impl Record {
    pub fn phase(&self) -> Phase {
        match (self.vote, self.applied) {
            (_, Some(true)) => Phase::Committed,
            (_, Some(false)) => Phase::Aborted,
            (Some(true), None) if self.in_doubt => Phase::InDoubt,
            (Some(true), None) => Phase::Voted,
            _ => Phase::Working,
        }
    }

    /// Since when (its own clock, ms) it has been in its phase.
    pub fn since_ms(&self) -> u64 {
        if self.applied.is_some() {
            self.applied_ms
        } else {
            self.voted_ms
        }
    }

    /// Voted yes and no outcome yet: it waits on the coordinator.
    fn waiting(&self) -> bool {
        self.vote == Some(true) && self.applied.is_none()
    }
}

#[derive(Clone, Debug, Hash)]
pub struct Participant {
    coordinator: NodeId,
    ask_ms: u64,
    /// Whether it will vote no on transaction `index + 1`, drawn when the world was built.
    votes_no: Vec<bool>,
    /// Every transaction it has voted on or applied (durable).
    pub records: BTreeMap<TxId, Record>,
}

impl Participant {
    pub fn new(coordinator: NodeId, ask_ms: u64, votes_no: Vec<bool>) -> Participant {
        Participant {
            coordinator,
            ask_ms,
            votes_no,
            records: BTreeMap::new(),
        }
    }

    /// The transaction a reader should see: the oldest still waiting on the coordinator, else the
    /// newest it knows of (`None` before the first prepare reached it).
    pub fn shown(&self) -> Option<(TxId, &Record)> {
        let waiting = self.records.iter().find(|(_, record)| record.waiting());
        waiting
            .or_else(|| self.records.iter().next_back())
            .map(|(tx, record)| (*tx, record))
    }

    /// Transactions it voted yes on and has no outcome for.
    pub fn waiting(&self) -> impl Iterator<Item = TxId> + '_ {
        self.records
            .iter()
            .filter(|(_, record)| record.waiting())
            .map(|(tx, _)| *tx)
    }

    fn planned_yes(&self, tx: TxId) -> bool {
        let index = tx.saturating_sub(1) as usize;
        !self.votes_no.get(index).copied().unwrap_or(false)
    }

    fn arm_asking<M: TwoPhaseWire>(&self, effects: &mut Effects<M>) {
        let delay = TimerDelay::Exactly {
            local_us: self.ask_ms * 1_000,
        };
        effects.set_timer(ASK_TIMER, delay, "still no decision?");
    }

    fn on_prepare<M: TwoPhaseWire>(&mut self, now_ms: u64, tx: TxId, effects: &mut Effects<M>) {
        let planned_yes = self.planned_yes(tx);
        let record = self.records.entry(tx).or_default();
        // A vote once written is the answer to every later prepare of the transaction.
        if let Some(yes) = record.vote {
            effects.send(self.coordinator, TwoPhaseMessage::Vote { tx, yes });
            return;
        }
        let yes = planned_yes && record.applied.is_none();
        record.vote = Some(yes);
        record.voted_ms = now_ms;
        effects.persist("vote");
        effects.observe(TwoPhaseFact::TxVoted { tx, yes });
        if yes {
            self.arm_asking(effects);
        } else {
            // No can never become commit: it aborts on its own, at once.
            self.apply(now_ms, tx, false, effects);
        }
        effects.send(self.coordinator, TwoPhaseMessage::Vote { tx, yes });
    }

    /// Applies `commit` on `tx` once; a repeated decision changes nothing.
    fn apply<M: TwoPhaseWire>(
        &mut self,
        now_ms: u64,
        tx: TxId,
        commit: bool,
        effects: &mut Effects<M>,
    ) {
        let record = self.records.entry(tx).or_default();
        if record.applied.is_some() {
            return;
        }
        record.applied = Some(commit);
        record.applied_ms = now_ms;
        effects.persist("outcome");
        effects.observe(TwoPhaseFact::TxApplied { tx, commit });
        if self.waiting().next().is_none() {
            effects.cancel_timer(ASK_TIMER);
        }
    }

    /// Still no decision: say so once per transaction, and ask the coordinator about each.
    fn ask<M: TwoPhaseWire>(&mut self, effects: &mut Effects<M>) {
        let waiting: Vec<TxId> = self.waiting().collect();
        for tx in &waiting {
            let record = self.records.entry(*tx).or_default();
            if !record.in_doubt {
                record.in_doubt = true;
                let since_ms = record.voted_ms;
                effects.observe(TwoPhaseFact::TxInDoubt { tx: *tx, since_ms });
            }
            effects.send(self.coordinator, TwoPhaseMessage::AskDecision { tx: *tx });
        }
        if !waiting.is_empty() {
            self.arm_asking(effects);
        }
    }
}

impl<M: TwoPhaseWire> Protocol<M> for Participant {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        let now_ms = local_now_us / 1_000;
        match input {
            Input::Message { from, message } if from == self.coordinator => match message.peel() {
                Some(TwoPhaseMessage::Prepare { tx }) => self.on_prepare(now_ms, *tx, effects),
                Some(TwoPhaseMessage::Decision { tx, commit }) => {
                    self.apply(now_ms, *tx, *commit, effects)
                }
                _ => {}
            },
            Input::Timer { key: ASK_TIMER } => self.ask(effects),
            // Its records are on disk; what it waited for, it waits for still.
            Input::Recover if self.waiting().next().is_some() => self.arm_asking(effects),
            _ => {}
        }
    }

    /// Everything it keeps is written down before it is sent: nothing to forget.
    fn crash(&mut self) {}

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::protocol::{Carries, Effect, Observes, Wire};

    /// Two-phase commit's messages as the whole wire, for a participant on its own.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Only(TwoPhaseMessage);

    impl Wire for Only {
        type Fact = TwoPhaseFact;
    }

    impl Carries<TwoPhaseMessage> for Only {
        fn wrap(inner: TwoPhaseMessage) -> Only {
            Only(inner)
        }

        fn peel(&self) -> Option<&TwoPhaseMessage> {
            Some(&self.0)
        }
    }

    impl Observes<TwoPhaseFact> for Only {
        fn observed(inner: TwoPhaseFact) -> TwoPhaseFact {
            inner
        }
    }

    const COORDINATOR: NodeId = NodeId(0);

    /// Hands `participant` one input at `now_ms`; returns the facts it observed and what it sent.
    fn feed(
        participant: &mut Participant,
        now_ms: u64,
        input: Input<'_, Only>,
    ) -> (Vec<TwoPhaseFact>, Vec<TwoPhaseMessage>) {
        let mut effects = Effects::new();
        participant.handle(now_ms * 1_000, input, &mut effects);
        let (mut facts, mut sent) = (Vec::new(), Vec::new());
        for effect in effects.drain() {
            match effect {
                Effect::Observe(fact) => facts.push(fact),
                Effect::Send { message, .. } => sent.push(message.0),
                _ => {}
            }
        }
        (facts, sent)
    }

    fn from_coordinator(message: &Only) -> Input<'_, Only> {
        Input::Message {
            from: COORDINATOR,
            message,
        }
    }

    #[test]
    fn a_yes_voter_without_a_decision_is_in_doubt_and_keeps_asking_across_a_crash() {
        let mut participant = Participant::new(COORDINATOR, 200, vec![false]);
        let prepare = Only(TwoPhaseMessage::Prepare { tx: 1 });
        let (facts, sent) = feed(&mut participant, 10, from_coordinator(&prepare));
        assert_eq!(facts, vec![TwoPhaseFact::TxVoted { tx: 1, yes: true }]);
        assert_eq!(sent, vec![TwoPhaseMessage::Vote { tx: 1, yes: true }]);
        assert_eq!(participant.shown().unwrap().1.phase(), Phase::Voted);
        let (facts, sent) = feed(&mut participant, 210, Input::Timer { key: ASK_TIMER });
        let in_doubt = TwoPhaseFact::TxInDoubt {
            tx: 1,
            since_ms: 10,
        };
        assert_eq!(facts, vec![in_doubt]);
        assert_eq!(sent, vec![TwoPhaseMessage::AskDecision { tx: 1 }]);
        Protocol::<Only>::crash(&mut participant);
        feed(&mut participant, 300, Input::Recover);
        let record = participant.shown().unwrap().1;
        assert_eq!((record.phase(), record.vote), (Phase::InDoubt, Some(true)));
        // A prepare asked again after the coordinator's restart gets the vote written down.
        let (facts, sent) = feed(&mut participant, 400, from_coordinator(&prepare));
        assert!(facts.is_empty());
        assert_eq!(sent, vec![TwoPhaseMessage::Vote { tx: 1, yes: true }]);
        let commit = Only(TwoPhaseMessage::Decision {
            tx: 1,
            commit: true,
        });
        let (facts, _) = feed(&mut participant, 500, from_coordinator(&commit));
        assert_eq!(
            facts,
            vec![TwoPhaseFact::TxApplied {
                tx: 1,
                commit: true
            }]
        );
        assert_eq!(participant.shown().unwrap().1.phase(), Phase::Committed);
    }

    #[test]
    fn a_no_voter_aborts_at_once_and_a_later_decision_changes_nothing() {
        let mut participant = Participant::new(COORDINATOR, 200, vec![true]);
        let prepare = Only(TwoPhaseMessage::Prepare { tx: 1 });
        let (facts, _) = feed(&mut participant, 10, from_coordinator(&prepare));
        let applied = TwoPhaseFact::TxApplied {
            tx: 1,
            commit: false,
        };
        assert_eq!(
            facts,
            vec![TwoPhaseFact::TxVoted { tx: 1, yes: false }, applied]
        );
        let abort = Only(TwoPhaseMessage::Decision {
            tx: 1,
            commit: false,
        });
        let (facts, _) = feed(&mut participant, 30, from_coordinator(&abort));
        assert!(facts.is_empty());
        assert_eq!(participant.shown().unwrap().1.phase(), Phase::Aborted);
        assert_eq!(participant.waiting().count(), 0);
    }
}
