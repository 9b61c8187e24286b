//! Checkers for single-decree Paxos, fed by the facts acceptors and learners report.
//!
//! - **Agreement**: at most one value is ever chosen. The checker keeps its own tally of which
//!   acceptors accepted which ballot (from `ValueAccepted`), so "chosen" is the truth — a majority of
//!   acceptors accepted one ballot — whether or not any learner heard it.
//! - **Validity**: a chosen value is one some proposer proposed as its own (`ValueProposed` with nothing
//!   carried), never a value made up along the way.
//! - **Stability**: a learner that learned a value never later learns another, across its restarts too.
//! - A learner actor (`L1`, ... where the world has them) must never know a value other than the one
//!   the acceptors chose first; one that does is reported under **Agreement** too, at the learner, so
//!   the broken promise is seen where a reader of the value would meet it. (The proposers' learning is
//!   judged by Stability alone, as before learner actors existed.)

use super::{majority, value_name, Ballot, PaxosFact, PaxosValue};
use crate::base::ids::{NodeId, NodeSet};
use crate::base::time::SimTime;
pub use crate::contract::entry::invariants::{AGREEMENT, STABILITY, VALIDITY};
use crate::contract::entry::parts::Arming;
use crate::contract::verdicts::{node_label, FactChecker, Verdicts};
use std::collections::{BTreeMap, BTreeSet};

/// Ballots tallied at most; the oldest is forgotten beyond this (a run has far fewer).
const MAX_TALLIED_BALLOTS: usize = 4_096;

/// The value the acceptors chose first, and the ballot that chose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chosen {
    pub ballot: Ballot,
    pub value: PaxosValue,
    pub at: SimTime,
}

#[derive(Clone, Debug, Hash, Default)]
pub struct PaxosChecker {
    /// Acceptors in the world: a majority of them chooses a value.
    acceptors: usize,
    tallies: BTreeMap<Ballot, (PaxosValue, NodeSet)>,
    /// Ballots whose majority was already judged.
    judged: BTreeSet<Ballot>,
    pub chosen: Option<Chosen>,
    /// Every value a proposer proposed as its own.
    own_values: BTreeSet<PaxosValue>,
    /// What each learner last learned.
    learned: BTreeMap<NodeId, PaxosValue>,
    /// The learner actors (not the proposers, which learn too).
    learner_actors: NodeSet,
    /// Node names for details (`A`, `n3`), indexed by node.
    labels: Vec<String>,
}

impl PaxosChecker {
    /// The checker of a world with `arming.servers` acceptors and `arming.learners` learner actors.
    pub fn armed(arming: &Arming) -> PaxosChecker {
        PaxosChecker {
            acceptors: arming.servers,
            learner_actors: arming.learners,
            labels: arming.labels.clone(),
            ..PaxosChecker::default()
        }
    }

    fn name(&self, node: NodeId) -> String {
        node_label(&self.labels, node)
    }

    /// Judges one fact an actor observed.
    pub fn judge(&mut self, node: NodeId, fact: &PaxosFact, verdicts: &mut Verdicts<'_>) {
        match *fact {
            PaxosFact::ValueProposed {
                value,
                carried_from: None,
                ..
            } => {
                self.own_values.insert(value);
            }
            PaxosFact::ValueAccepted { ballot, value } => {
                self.accepted(node, ballot, value, verdicts)
            }
            PaxosFact::ValueLearned { value, .. } => {
                self.learner_knows(node, value, verdicts);
                if let Some(before) = self.learned.insert(node, value).filter(|old| *old != value) {
                    let detail = format!(
                        "{} had learned “{}” and now learns “{}”",
                        self.name(node),
                        value_name(before),
                        value_name(value)
                    );
                    verdicts.fire(STABILITY, vec![node], detail);
                }
            }
            _ => {}
        }
    }

    /// A learner actor that knows a value other than the one chosen first breaks Agreement where a
    /// reader would meet it.
    fn learner_knows(&self, node: NodeId, value: PaxosValue, verdicts: &mut Verdicts<'_>) {
        if !self.learner_actors.contains(node) {
            return;
        }
        let Some(first) = self.chosen.filter(|first| first.value != value) else {
            return;
        };
        let detail = format!(
            "{} learns “{}”, but “{}” was chosen first, in round {} at {} ms",
            self.name(node),
            value_name(value),
            value_name(first.value),
            first.ballot.round,
            first.at.as_ms()
        );
        verdicts.fire(AGREEMENT, vec![node], detail);
    }

    fn accepted(
        &mut self,
        node: NodeId,
        ballot: Ballot,
        value: PaxosValue,
        verdicts: &mut Verdicts<'_>,
    ) {
        let now = verdicts.now;
        if self.acceptors == 0 {
            return;
        }
        let (tallied, acceptors) = self
            .tallies
            .entry(ballot)
            .or_insert((value, NodeSet::default()));
        if *tallied != value {
            return;
        }
        acceptors.insert(node);
        let acceptors = *acceptors;
        if self.tallies.len() > MAX_TALLIED_BALLOTS {
            self.tallies.pop_first();
        }
        if acceptors.len() < majority(self.acceptors) || !self.judged.insert(ballot) {
            return;
        }
        let nodes: Vec<NodeId> = acceptors.iter().collect();
        if !self.own_values.contains(&value) {
            let detail = format!(
                "“{}” was chosen but no proposer proposed it",
                value_name(value)
            );
            verdicts.fire(VALIDITY, nodes.clone(), detail);
        }
        match self.chosen {
            None => {
                self.chosen = Some(Chosen {
                    ballot,
                    value,
                    at: now,
                })
            }
            Some(first) if first.value != value => {
                let detail = format!(
                    "“{}” is chosen in round {}, but “{}” was already chosen in round {} at {} ms",
                    value_name(value),
                    ballot.round,
                    value_name(first.value),
                    first.ballot.round,
                    first.at.as_ms()
                );
                verdicts.fire(AGREEMENT, nodes, detail);
            }
            Some(_) => {}
        }
    }
}

impl FactChecker for PaxosChecker {
    type Fact = PaxosFact;

    fn check_fact(&mut self, node: NodeId, fact: &PaxosFact, verdicts: &mut Verdicts<'_>) {
        self.judge(node, fact, verdicts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::verdicts::{Violations, WorldChecker};

    fn ballot(round: u64, proposer: u16) -> Ballot {
        Ballot {
            round,
            proposer: NodeId(proposer),
        }
    }

    fn proposed(value: PaxosValue, round: u64) -> PaxosFact {
        PaxosFact::ValueProposed {
            ballot: ballot(round, 3),
            value,
            carried_from: None,
            promises: NodeSet::default(),
        }
    }

    fn accepted(value: PaxosValue, round: u64) -> PaxosFact {
        PaxosFact::ValueAccepted {
            ballot: ballot(round, 3),
            value,
        }
    }

    fn learned(value: PaxosValue) -> PaxosFact {
        PaxosFact::ValueLearned {
            ballot: ballot(1, 3),
            value,
            acceptors: NodeSet::default(),
            before: None,
        }
    }

    /// Feeds `facts` (node, fact) to a checker of three acceptors; returns the invariants that fired.
    fn fired(facts: &[(u16, PaxosFact)]) -> Vec<&'static str> {
        fired_with_learners(facts, NodeSet::default())
    }

    /// As [`fired`], with `learners` watched as learner actors.
    fn fired_with_learners(facts: &[(u16, PaxosFact)], learners: NodeSet) -> Vec<&'static str> {
        let mut checker = PaxosChecker::armed(&Arming {
            servers: 3,
            learners,
            labels: Vec::new(),
        });
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
        found.iter().map(|finding| finding.invariant).collect()
    }

    #[test]
    fn one_value_chosen_twice_over_is_quiet() {
        let facts = [
            (3, proposed(0, 1)),
            (0, accepted(0, 1)),
            (1, accepted(0, 1)),
            (1, accepted(0, 2)),
            (2, accepted(0, 2)),
            (3, learned(0)),
            (3, learned(0)),
        ];
        assert!(fired(&facts).is_empty());
    }

    /// Two proposers, and a majority of the three acceptors accepting each one's value in turn.
    fn two_values_chosen() -> Vec<(u16, PaxosFact)> {
        vec![
            (3, proposed(0, 1)),
            (4, proposed(1, 2)),
            (0, accepted(0, 1)),
            (1, accepted(0, 1)),
            (1, accepted(1, 2)),
            (2, accepted(1, 2)),
        ]
    }

    #[test]
    fn agreement_fires_when_a_second_value_reaches_a_majority() {
        assert_eq!(fired(&two_values_chosen()), vec![AGREEMENT]);
    }

    #[test]
    fn validity_fires_for_a_value_nobody_proposed() {
        let facts = [
            (3, proposed(0, 1)),
            (0, accepted(5, 1)),
            (1, accepted(5, 1)),
        ];
        assert_eq!(fired(&facts), vec![VALIDITY]);
    }

    #[test]
    fn agreement_fires_at_a_learner_actor_that_knows_the_second_value() {
        let mut facts = two_values_chosen();
        let learner_actors: NodeSet = [NodeId(5)].into_iter().collect();
        let run = |facts: &[(u16, PaxosFact)]| fired_with_learners(facts, learner_actors).len();
        // The second majority fires once at the acceptors; a proposer learning it adds nothing here.
        facts.push((3, learned(1)));
        assert_eq!(run(&facts), 1);
        facts.push((5, learned(1)));
        assert_eq!(run(&facts), 2);
        facts.pop();
        facts.push((5, learned(0)));
        assert_eq!(run(&facts), 1);
    }

    #[test]
    fn stability_fires_when_a_learner_changes_its_mind() {
        assert_eq!(fired(&[(3, learned(0)), (3, learned(1))]), vec![STABILITY]);
        assert!(fired(&[(3, learned(0)), (4, learned(0))]).is_empty());
    }
}
