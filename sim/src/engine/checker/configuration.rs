//! Configuration Agreement: servers that commit an index agree on the configuration in force there.
//!
//! Through the log this follows from Log Matching: the configuration at an index is the newest
//! configuration entry at or below it, and committed prefixes are identical. A configuration changed
//! outside the log (the unsafe `direct` membership mode) breaks it, and that disagreement is what lets
//! two disjoint majorities each elect a leader.

use super::raft::CheckContext;
use super::Violations;
use crate::base::ids::NodeSet;
use crate::base::units::LogIndex;
pub use crate::contract::entry::invariants::CONFIGURATION_AGREEMENT;
use crate::engine::trace::TraceEvent;

#[derive(Clone, Debug, Default)]
pub struct ConfigurationChecker {
    /// Per node: its commit index at its last check (checks run only when it moves).
    checked_commit: Vec<LogIndex>,
    /// Per index: the voters (as `NodeSet::bits`) the first server to commit it counted; 0 for none
    /// yet (a configuration always has a voter).
    voters_at: Vec<u64>,
}

impl ConfigurationChecker {
    pub fn new(node_count: usize) -> ConfigurationChecker {
        ConfigurationChecker {
            checked_commit: vec![LogIndex::ZERO; node_count],
            voters_at: Vec::new(),
        }
    }

    /// One more node joined the world.
    pub fn grow(&mut self) {
        self.checked_commit.push(LogIndex::ZERO);
    }

    pub fn check(
        &mut self,
        context: &CheckContext<'_>,
        violations: &mut Violations,
        found: &mut Vec<TraceEvent>,
    ) {
        let node = context.node;
        let commit = context.raft.commit_index();
        let previous = std::mem::replace(&mut self.checked_commit[node.index()], commit);
        if previous == commit || commit == LogIndex::ZERO {
            return;
        }
        let voters = context.raft.configuration_at(commit);
        let slot = commit.0 as usize;
        if self.voters_at.len() <= slot {
            self.voters_at.resize(slot + 1, 0);
        }
        let seen = self.voters_at[slot];
        if seen == 0 {
            self.voters_at[slot] = voters.bits();
            return;
        }
        if seen == voters.bits() {
            return;
        }
        let names = |set: NodeSet| {
            let names: Vec<String> = set.iter().map(|voter| voter.to_string()).collect();
            names.join(", ")
        };
        let earlier: NodeSet = (0..64u16)
            .filter(|bit| seen & (1 << bit) != 0)
            .map(crate::base::ids::NodeId)
            .collect();
        let detail = format!(
            "{node} committed index {commit} counting voters {} but another server committed it \
             counting {}",
            names(voters),
            names(earlier)
        );
        found.push(violations.report(CONFIGURATION_AGREEMENT, context.now, vec![node], detail));
    }
}
