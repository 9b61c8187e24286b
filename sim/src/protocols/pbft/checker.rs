//! The PBFT checker, fed by the facts replicas report.
//!
//! - **Honest Agreement**: no two honest replicas commit different requests at one sequence number.
//!   A replica lying at the time it commits says so in its fact (`honest: false`), and is not judged:
//!   a Byzantine replica may claim anything, which is the point of tolerating it.

use super::{digest_text, Digest, PbftFact};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
pub use crate::contract::entry::invariants::HONEST_AGREEMENT;
use crate::contract::entry::parts::Arming;
use crate::contract::verdicts::{node_label, FactChecker, Verdicts};
use std::collections::BTreeMap;

/// Sequence numbers remembered at most (a run has far fewer; the oldest is forgotten beyond this).
const MAX_REMEMBERED: usize = 100_000;

/// What the first honest replica committed at one sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FirstCommit {
    pub digest: Digest,
    pub node: NodeId,
    pub at: SimTime,
}

#[derive(Clone, Debug, Hash, Default)]
pub struct PbftChecker {
    pub committed: BTreeMap<u64, FirstCommit>,
    /// Honest commits counted, for the view and the report.
    pub honest_commits: u64,
    labels: Vec<String>,
}

impl PbftChecker {
    /// The checker of a world whose nodes go by `arming.labels`.
    pub fn armed(arming: &Arming) -> PbftChecker {
        PbftChecker {
            labels: arming.labels.clone(),
            ..PbftChecker::default()
        }
    }

    fn name(&self, node: NodeId) -> String {
        node_label(&self.labels, node)
    }

    /// Judges one fact a replica observed.
    pub fn judge(&mut self, node: NodeId, fact: &PbftFact, verdicts: &mut Verdicts<'_>) {
        let now = verdicts.now;
        let PbftFact::SlotCommitted {
            sequence,
            digest,
            honest: true,
            ..
        } = *fact
        else {
            return;
        };
        self.honest_commits += 1;
        let first = *self.committed.entry(sequence).or_insert(FirstCommit {
            digest,
            node,
            at: now,
        });
        if self.committed.len() > MAX_REMEMBERED {
            self.committed.pop_first();
        }
        if first.digest != digest {
            let detail = format!(
                "{} commits {} at sequence {sequence}, but {} committed {} there at {} ms",
                self.name(node),
                digest_text(digest),
                self.name(first.node),
                digest_text(first.digest),
                first.at.as_ms()
            );
            verdicts.fire(HONEST_AGREEMENT, vec![first.node, node], detail);
        }
    }
}

impl FactChecker for PbftChecker {
    type Fact = PbftFact;

    fn check_fact(&mut self, node: NodeId, fact: &PbftFact, verdicts: &mut Verdicts<'_>) {
        self.judge(node, fact, verdicts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ids::NodeSet;
    use crate::contract::verdicts::{Violations, WorldChecker};

    fn committed(sequence: u64, digest: Digest, honest: bool) -> PbftFact {
        PbftFact::SlotCommitted {
            view: 0,
            sequence,
            digest,
            committers: NodeSet::default(),
            honest,
        }
    }

    fn fired(facts: &[(u16, PbftFact)]) -> usize {
        let mut checker = PbftChecker::default();
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
        found.len()
    }

    #[test]
    fn two_honest_replicas_committing_different_requests_at_one_number_is_caught() {
        assert_eq!(
            fired(&[(1, committed(1, 7, true)), (2, committed(1, 8, true))]),
            1
        );
    }

    #[test]
    fn the_same_request_or_a_liar_or_another_number_is_quiet() {
        assert_eq!(
            fired(&[(1, committed(1, 7, true)), (2, committed(1, 7, true))]),
            0
        );
        assert_eq!(
            fired(&[(1, committed(1, 7, true)), (0, committed(1, 8, false))]),
            0
        );
        assert_eq!(
            fired(&[(1, committed(1, 7, true)), (2, committed(2, 8, true))]),
            0
        );
    }
}
