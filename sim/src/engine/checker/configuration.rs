//! Configuration Agreement: servers that commit an index agree on the configuration in force there.
//!
//! Through the log this follows from Log Matching: the configuration at an index is the newest
//! configuration entry at or below it, and committed prefixes are identical. A configuration changed
//! outside the log (the unsafe `direct` membership mode) breaks it, and that disagreement is what lets
//! two disjoint majorities each elect a leader.

use super::raft::CheckContext;
use super::{Finding, Violations};
use crate::base::ids::NodeSet;
use crate::base::permutation::Permutation;
use crate::base::units::LogIndex;
pub use crate::contract::entry::invariants::CONFIGURATION_AGREEMENT;
use crate::protocols::raft::{Command, Entry};
use crate::worlds::actor::ClusterRaft;

#[derive(Clone, Debug, Default, Hash)]
pub struct ConfigurationChecker {
    /// Per node: the highest commit index it has been checked at. Every index up to it was compared
    /// once, when the node first committed it; a restart that drops the commit index does not make the
    /// node commit those indexes again (its log holds them still), so they are not compared again.
    checked_commit: Vec<LogIndex>,
    /// Per index: the voters (as `NodeSet::bits`) the first server to commit it counted; 0 for none
    /// yet (a configuration always has a voter).
    voters_at: Vec<u64>,
}

/// One index where a server counts other voters than the first server that committed it.
struct Disagreement {
    index: LogIndex,
    voters: NodeSet,
    earlier_bits: u64,
}

impl ConfigurationChecker {
    pub fn new(node_count: usize) -> ConfigurationChecker {
        ConfigurationChecker {
            checked_commit: vec![LogIndex::ZERO; node_count],
            voters_at: Vec::new(),
        }
    }

    /// Its `Hash` with the nodes renamed by `renaming`: checked commits in the renamed order, each
    /// index's voters renamed.
    pub fn digest_under(&self, renaming: &Permutation, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        renaming.hash_positional(&self.checked_commit, out);
        self.voters_at.len().hash(&mut out);
        for &bits in &self.voters_at {
            renaming.bits(bits).hash(&mut out);
        }
    }

    /// One more node joined the world.
    pub fn grow(&mut self) {
        self.checked_commit.push(LogIndex::ZERO);
    }

    /// Compares every index the node committed since its last check, not only the newest: a commit
    /// index can jump several entries at once, and a disagreement inside the jump counts as much as
    /// one at its end. Reports at most one violation per check, at the newest disagreeing index.
    pub fn check(
        &mut self,
        context: &CheckContext<'_>,
        violations: &mut Violations,
        found: &mut Vec<Finding>,
    ) {
        let node = context.node;
        let commit = context.raft.commit_index();
        let checked = &mut self.checked_commit[node.index()];
        if commit <= *checked {
            return;
        }
        let first = checked.next();
        *checked = commit;
        let Some(disagreement) = self.compare_range(context.raft, first, commit) else {
            return;
        };
        let names = |set: NodeSet| {
            let names: Vec<String> = set.iter().map(|voter| voter.to_string()).collect();
            names.join(", ")
        };
        let earlier: NodeSet = (0..64u16)
            .filter(|bit| disagreement.earlier_bits & (1 << bit) != 0)
            .map(crate::base::ids::NodeId)
            .collect();
        let detail = format!(
            "{node} committed index {} counting voters {} but another server committed it \
             counting {}",
            disagreement.index,
            names(disagreement.voters),
            names(earlier)
        );
        found.push(violations.report(CONFIGURATION_AGREEMENT, context.now, vec![node], detail));
    }

    /// Records, or compares with the first record, the configuration `raft` counts at each index of
    /// `first..=last`; returns the newest disagreement. Walks the log once: `configuration_at` may
    /// scan back through the log, so it is asked only for `first`, and each later index only changes
    /// the configuration if it holds a configuration entry. A hand-edited file (the unsafe `direct`
    /// mode) wins over every entry, as it does in `configuration_at`.
    fn compare_range(
        &mut self,
        raft: &ClusterRaft,
        first: LogIndex,
        last: LogIndex,
    ) -> Option<Disagreement> {
        let last_slot = last.0 as usize;
        if self.voters_at.len() <= last_slot {
            self.voters_at.resize(last_slot + 1, 0);
        }
        let edited = raft.membership.config_file.is_some();
        let mut voters = raft.configuration_at(first);
        let mut newest = None;
        for index in first.0..=last.0 {
            let index = LogIndex(index);
            if index > first && !edited {
                if let Some(Entry {
                    command: Command::Config { voters: logged },
                    ..
                }) = raft.log().entry(index)
                {
                    voters = *logged;
                }
            }
            let seen = &mut self.voters_at[index.0 as usize];
            if *seen == 0 {
                *seen = voters.bits();
            } else if *seen != voters.bits() {
                newest = Some(Disagreement {
                    index,
                    voters,
                    earlier_bits: *seen,
                });
            }
        }
        newest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ids::NodeId;
    use crate::base::time::SimTime;
    use crate::base::units::Term;
    use crate::contract::config::RaftOptions;
    use crate::protocols::raft::RaftTiming;

    const NOOP: Option<&[u16]> = None;

    fn voters(ids: &[u16]) -> NodeSet {
        ids.iter().map(|id| NodeId(*id)).collect()
    }

    /// A server of a three-server cluster whose log holds `entries` (`None` a no-op, `Some(ids)` a
    /// configuration entry), its membership read from that log the way the server itself reads it.
    fn server(id: u16, entries: &[Option<&[u16]>]) -> ClusterRaft {
        let timing = RaftTiming {
            election_min_us: 150_000,
            election_max_us: 300_000,
            heartbeat_us: 50_000,
        };
        let mut raft = ClusterRaft::new(NodeId(id), 3, RaftOptions::default(), timing);
        for entry in entries {
            let command = match entry {
                None => Command::Noop,
                Some(ids) => Command::Config {
                    voters: voters(ids),
                },
            };
            let index = raft.durable.log.append(Entry {
                term: Term(1),
                command,
            });
            if let Some(ids) = entry {
                raft.membership.logged = voters(ids);
                raft.membership.logged_index = index;
            }
        }
        raft
    }

    /// Moves `raft`'s commit index through `commits` in turn, checking after each move; returns the
    /// details of the violations found.
    fn commit_through(
        checker: &mut ConfigurationChecker,
        raft: &mut ClusterRaft,
        commits: &[u64],
    ) -> Vec<String> {
        let mut violations = Violations::default();
        let mut found = Vec::new();
        for commit in commits {
            raft.volatile.commit_index = LogIndex(*commit);
            let context = CheckContext {
                now: SimTime::ZERO,
                node: raft.id,
                raft,
                mark: None,
                effects: &[],
            };
            checker.check(&context, &mut violations, &mut found);
        }
        found
            .into_iter()
            .filter(|finding| finding.invariant == CONFIGURATION_AGREEMENT)
            .map(|finding| finding.detail)
            .collect()
    }

    #[test]
    fn a_disagreement_inside_a_commit_jump_fires() {
        let mut checker = ConfigurationChecker::new(3);
        let mut first = server(0, &[NOOP, NOOP, NOOP]);
        assert!(commit_through(&mut checker, &mut first, &[1, 2, 3]).is_empty());
        // Index 2 alone counts other voters: by index 3 the second server is back to all three, so
        // only the indexes inside its jump from 0 to 3 can show it.
        let mut second = server(1, &[NOOP, Some(&[0, 1]), Some(&[0, 1, 2])]);
        let details = commit_through(&mut checker, &mut second, &[3]);
        assert_eq!(details.len(), 1, "{details:?}");
        assert!(
            details[0].starts_with("n2 committed index 2 counting voters n1, n2 "),
            "{}",
            details[0]
        );
        assert!(
            details[0].ends_with("counting n1, n2, n3"),
            "{}",
            details[0]
        );
    }

    #[test]
    fn the_same_change_committed_in_one_jump_or_in_steps_is_quiet() {
        let entries = [NOOP, Some(&[0, 1][..]), NOOP, NOOP];
        let mut checker = ConfigurationChecker::new(3);
        let mut stepping = server(0, &entries);
        let mut jumping = server(1, &entries);
        let mut late = server(2, &entries);
        assert!(commit_through(&mut checker, &mut stepping, &[1, 2, 3, 4]).is_empty());
        assert!(commit_through(&mut checker, &mut jumping, &[4]).is_empty());
        assert!(commit_through(&mut checker, &mut late, &[1, 4]).is_empty());
    }

    #[test]
    fn a_jump_that_disagrees_throughout_reports_once_at_its_newest_index() {
        let mut checker = ConfigurationChecker::new(3);
        let mut first = server(0, &[NOOP, NOOP, NOOP]);
        assert!(commit_through(&mut checker, &mut first, &[1, 2, 3]).is_empty());
        let mut edited = server(1, &[NOOP, NOOP, NOOP]);
        edited.membership.config_file = Some(voters(&[0, 1, 2, 3, 4]));
        let details = commit_through(&mut checker, &mut edited, &[3]);
        assert_eq!(details.len(), 1, "{details:?}");
        assert!(
            details[0].starts_with("n2 committed index 3 counting voters n1, n2, n3, n4, n5 "),
            "{}",
            details[0]
        );
    }

    #[test]
    fn indexes_committed_again_after_a_restart_are_not_compared_again() {
        let mut checker = ConfigurationChecker::new(3);
        let mut first = server(0, &[NOOP, NOOP, NOOP, NOOP]);
        assert!(commit_through(&mut checker, &mut first, &[1, 2, 3, 4]).is_empty());
        let mut second = server(1, &[NOOP, Some(&[0, 1]), Some(&[0, 1, 2]), NOOP]);
        let details = commit_through(&mut checker, &mut second, &[3, 0, 3, 4]);
        assert_eq!(details.len(), 1, "{details:?}");
        assert!(details[0].contains("index 2"), "{}", details[0]);
    }
}
