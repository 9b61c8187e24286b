//! A learner's tally: which acceptors accepted which ballot, and the value a majority settled on.

use super::{majority, Ballot, PaxosValue};
use crate::base::ids::{NodeId, NodeSet};
use serde::Serialize;
use std::collections::BTreeMap;

/// Ballots tallied at most; the oldest is forgotten beyond this (a run has far fewer).
const MAX_TALLIED_BALLOTS: usize = 256;

/// What a learner knows is chosen, and why: the ballot and the majority that accepted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Learned {
    pub ballot: Ballot,
    pub value: PaxosValue,
    pub acceptors: NodeSet,
}

#[derive(Clone, Debug, Hash, Default)]
pub struct Learner {
    acceptors: usize,
    tallies: BTreeMap<Ballot, (PaxosValue, NodeSet)>,
    pub learned: Option<Learned>,
}

impl Learner {
    pub fn new(acceptors: usize) -> Learner {
        Learner {
            acceptors,
            ..Learner::default()
        }
    }

    /// Counts `acceptor`'s acceptance; returns what the learner newly knows is chosen (a majority of
    /// one ballot), with the value it knew before if that was different.
    pub fn hear(
        &mut self,
        acceptor: NodeId,
        ballot: Ballot,
        value: PaxosValue,
    ) -> Option<(Learned, Option<PaxosValue>)> {
        let (tallied_value, acceptors) = self
            .tallies
            .entry(ballot)
            .or_insert((value, NodeSet::default()));
        // One ballot carries one value (its proposer sends one); a stray other value is not counted.
        if *tallied_value != value {
            return None;
        }
        let fresh = !acceptors.contains(acceptor);
        acceptors.insert(acceptor);
        let acceptors = *acceptors;
        if self.tallies.len() > MAX_TALLIED_BALLOTS {
            self.tallies.pop_first();
        }
        let reached = fresh && acceptors.len() == majority(self.acceptors);
        let newer = self.learned.is_none_or(|known| ballot > known.ballot);
        if !reached || !newer {
            return None;
        }
        let before = self
            .learned
            .map(|known| known.value)
            .filter(|known| *known != value);
        let learned = Learned {
            ballot,
            value,
            acceptors,
        };
        self.learned = Some(learned);
        Some((learned, before))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ballot(round: u64) -> Ballot {
        Ballot {
            round,
            proposer: NodeId(5),
        }
    }

    #[test]
    fn a_majority_of_one_ballot_is_learned_once_and_duplicates_do_not_count() {
        let mut learner = Learner::new(5);
        assert!(learner.hear(NodeId(0), ballot(1), 7).is_none());
        assert!(learner.hear(NodeId(0), ballot(1), 7).is_none());
        assert!(learner.hear(NodeId(1), ballot(1), 7).is_none());
        let (learned, before) = learner.hear(NodeId(2), ballot(1), 7).unwrap();
        assert_eq!(
            (learned.value, learned.acceptors.len(), before),
            (7, 3, None)
        );
        assert!(learner.hear(NodeId(3), ballot(1), 7).is_none());
    }

    #[test]
    fn a_later_majority_for_another_value_is_reported_with_the_old_one() {
        let mut learner = Learner::new(3);
        learner.hear(NodeId(0), ballot(1), 7);
        learner.hear(NodeId(1), ballot(1), 7);
        learner.hear(NodeId(1), ballot(2), 8);
        let (learned, before) = learner.hear(NodeId(2), ballot(2), 8).unwrap();
        assert_eq!((learned.value, before), (8, Some(7)));
    }
}
