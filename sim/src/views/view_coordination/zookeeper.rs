//! The ZooKeeper-style election's part of a frame: each candidate's session, znode and watch.

use super::*;
use crate::base::time::SimTime;
use crate::worlds::coordination::Layout;

impl World {
    pub(super) fn candidate_views(&self, layout: &Layout, now: SimTime) -> Vec<CandidateView> {
        (0..layout.workers)
            .filter_map(|index| {
                let node = layout.worker(index);
                let slot = &self.nodes()[node.index()];
                let candidate = slot.actor.as_candidate()?;
                Some(CandidateView {
                    id: node,
                    phase: candidate.phase,
                    session: candidate.session,
                    znode: candidate.znode,
                    watching: candidate.watching,
                    session_until_local_us: candidate.session_until_local_us,
                    local_clock_us: slot.clock.local_signed_us(now),
                    notifications: candidate.notifications,
                })
            })
            .collect()
    }
}
