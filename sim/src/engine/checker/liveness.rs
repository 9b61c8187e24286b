//! Liveness observation: how long the cluster had no up node believing it leads.

use crate::base::ids::NodeId;
use crate::base::time::SimTime;

#[derive(Clone, Debug)]
pub struct Liveness {
    leads: Vec<bool>,
    leader_count: usize,
    leaderless_since: Option<SimTime>,
    leaderless_total_us: u64,
}

impl Liveness {
    pub fn new(node_count: usize) -> Liveness {
        Liveness {
            leads: vec![false; node_count],
            leader_count: 0,
            leaderless_since: Some(SimTime::ZERO),
            leaderless_total_us: 0,
        }
    }

    /// One more node joined the world.
    pub fn grow(&mut self) {
        self.leads.push(false);
    }

    pub fn note(&mut self, now: SimTime, node: NodeId, leads: bool) {
        let slot = &mut self.leads[node.index()];
        if *slot == leads {
            return;
        }
        *slot = leads;
        if leads {
            self.leader_count += 1;
            if let Some(since) = self.leaderless_since.take() {
                self.leaderless_total_us += now.saturating_since(since);
            }
        } else {
            self.leader_count -= 1;
            if self.leader_count == 0 {
                self.leaderless_since = Some(now);
            }
        }
    }

    pub fn leaderless_us(&self, now: SimTime) -> u64 {
        let open = self
            .leaderless_since
            .map_or(0, |since| now.saturating_since(since));
        self.leaderless_total_us + open
    }
}
