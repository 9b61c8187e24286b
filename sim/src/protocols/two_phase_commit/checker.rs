//! The checker of two-phase commit, fed by the facts the coordinator and the participants report.
//!
//! **Atomicity**: for each transaction, every participant that applies an outcome applies the same
//! one: no participant commits while another aborts. And a decision is final: the coordinator never
//! decides a transaction twice two ways, a participant never applies a second, different outcome, and
//! no participant applies the opposite of what the coordinator decided. (Blocking is not a violation:
//! a participant in doubt has applied nothing, which is exactly what keeps this promise.)

use super::{outcome_word, TwoPhaseFact, TxId};
use crate::base::ids::NodeId;
use crate::contract::entry::parts::Arming;
use crate::contract::entry::InvariantInfo;
use crate::contract::verdicts::{node_label, FactChecker, Verdicts};
use std::collections::BTreeMap;

pub const ATOMICITY: &str = "Atomicity";

pub const ATOMICITY_INFO: InvariantInfo = InvariantInfo {
    name: ATOMICITY,
    promise: "all participants commit a transaction, or all abort it",
};

/// Transactions remembered at most; the oldest is forgotten beyond this (a run has far fewer).
const MAX_TRACKED_TRANSACTIONS: usize = 4_096;

#[derive(Clone, Debug, Hash, Default)]
pub struct TwoPhaseChecker {
    /// The coordinator's decision on each transaction.
    pub decided: BTreeMap<TxId, bool>,
    /// What each participant applied, per transaction.
    pub applied: BTreeMap<TxId, BTreeMap<NodeId, bool>>,
    /// Node names for details (`n1`, `A`), indexed by node.
    labels: Vec<String>,
}

impl TwoPhaseChecker {
    pub fn armed(arming: &Arming) -> TwoPhaseChecker {
        TwoPhaseChecker {
            labels: arming.labels.clone(),
            ..TwoPhaseChecker::default()
        }
    }

    fn name(&self, node: NodeId) -> String {
        node_label(&self.labels, node)
    }

    fn forget_old(&mut self) {
        if self.decided.len() > MAX_TRACKED_TRANSACTIONS {
            self.decided.pop_first();
        }
        if self.applied.len() > MAX_TRACKED_TRANSACTIONS {
            self.applied.pop_first();
        }
    }

    fn on_decided(&mut self, node: NodeId, tx: TxId, commit: bool, verdicts: &mut Verdicts<'_>) {
        if let Some(before) = self.decided.get(&tx).copied().filter(|b| *b != commit) {
            let detail = format!(
                "{} decides {} on transaction {tx}, which it had decided to {}",
                self.name(node),
                outcome_word(commit),
                outcome_word(before)
            );
            return verdicts.fire(ATOMICITY, vec![node], detail);
        }
        self.decided.insert(tx, commit);
        let opposite = self.applied.get(&tx).and_then(|applied| {
            applied
                .iter()
                .find(|(_, outcome)| **outcome != commit)
                .map(|(participant, _)| *participant)
        });
        if let Some(participant) = opposite {
            let detail = format!(
                "{} decides {} on transaction {tx}, but {} already applied {}",
                self.name(node),
                outcome_word(commit),
                self.name(participant),
                outcome_word(!commit)
            );
            verdicts.fire(ATOMICITY, vec![node, participant], detail);
        }
        self.forget_old();
    }

    /// The first contradiction `node` applying `commit` on `tx` makes, as (other nodes, detail).
    fn contradiction(&self, node: NodeId, tx: TxId, commit: bool) -> Option<(Vec<NodeId>, String)> {
        let who = self.name(node);
        let (word, other_word) = (outcome_word(commit), outcome_word(!commit));
        let applied = self.applied.get(&tx);
        if applied.and_then(|applied| applied.get(&node)) == Some(&!commit) {
            let detail =
                format!("{who} applies {word} on transaction {tx}, after applying {other_word}");
            return Some((vec![], detail));
        }
        let other = applied.and_then(|applied| {
            applied
                .iter()
                .find(|(other, outcome)| **other != node && **outcome != commit)
        });
        if let Some((other, _)) = other {
            let detail = format!(
                "{who} applies {word} on transaction {tx} while {} applied {other_word}",
                self.name(*other)
            );
            return Some((vec![*other], detail));
        }
        if self.decided.get(&tx) == Some(&!commit) {
            let detail =
                format!("{who} applies {word} on transaction {tx}, but the coordinator decided {other_word}");
            return Some((vec![], detail));
        }
        None
    }

    fn on_applied(&mut self, node: NodeId, tx: TxId, commit: bool, verdicts: &mut Verdicts<'_>) {
        if let Some((others, detail)) = self.contradiction(node, tx, commit) {
            let nodes = std::iter::once(node).chain(others).collect();
            verdicts.fire(ATOMICITY, nodes, detail);
        }
        self.applied.entry(tx).or_default().insert(node, commit);
        self.forget_old();
    }
}

impl FactChecker for TwoPhaseChecker {
    type Fact = TwoPhaseFact;

    fn check_fact(&mut self, node: NodeId, fact: &TwoPhaseFact, verdicts: &mut Verdicts<'_>) {
        match *fact {
            TwoPhaseFact::TxDecided { tx, commit, .. } => {
                self.on_decided(node, tx, commit, verdicts)
            }
            TwoPhaseFact::TxApplied { tx, commit } => self.on_applied(node, tx, commit, verdicts),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::time::SimTime;
    use crate::contract::verdicts::{Violations, WorldChecker};

    fn decided(tx: TxId, commit: bool) -> (u16, TwoPhaseFact) {
        let fact = TwoPhaseFact::TxDecided {
            tx,
            commit,
            votes_missing: false,
        };
        (0, fact)
    }

    fn applied(node: u16, tx: TxId, commit: bool) -> (u16, TwoPhaseFact) {
        (node, TwoPhaseFact::TxApplied { tx, commit })
    }

    /// Feeds `facts` (node, fact) to a fresh checker; returns how many findings it made.
    fn findings(facts: &[(u16, TwoPhaseFact)]) -> usize {
        let mut checker = TwoPhaseChecker::armed(&Arming::default());
        let mut violations = Violations::default();
        let mut found = Vec::new();
        let mut verdicts = Verdicts {
            now: SimTime::ZERO,
            violations: &mut violations,
            found: &mut found,
        };
        for (node, fact) in facts {
            checker.check(NodeId(*node), fact, &mut verdicts);
        }
        assert!(found.iter().all(|finding| finding.invariant == ATOMICITY));
        found.len()
    }

    #[test]
    fn everyone_applying_the_decision_is_quiet() {
        let facts = [
            applied(1, 1, false),
            decided(1, false),
            applied(2, 1, false),
            applied(2, 1, false),
            decided(2, true),
            applied(1, 2, true),
            applied(2, 2, true),
        ];
        assert_eq!(findings(&facts), 0);
    }

    #[test]
    fn commit_beside_abort_on_one_transaction_fires_but_not_across_transactions() {
        assert_eq!(findings(&[applied(1, 1, true), applied(2, 1, false)]), 1);
        // The look-alike: the same two outcomes on two different transactions.
        assert_eq!(findings(&[applied(1, 1, true), applied(2, 2, false)]), 0);
    }

    #[test]
    fn a_decision_is_final() {
        assert_eq!(findings(&[decided(1, true), decided(1, false)]), 1);
        assert_eq!(findings(&[decided(1, true), decided(1, true)]), 0);
        assert_eq!(findings(&[applied(1, 1, true), applied(1, 1, false)]), 1);
    }

    #[test]
    fn applying_against_the_decision_fires_either_way_round() {
        assert_eq!(findings(&[decided(1, false), applied(1, 1, true)]), 1);
        assert_eq!(findings(&[applied(1, 1, true), decided(1, false)]), 1);
        assert_eq!(findings(&[decided(1, true), applied(1, 1, true)]), 0);
    }
}
