//! Settings a scenario chooses for a run. Plain data with documented defaults (see `sim/SCENARIOS.md`).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// Election timeout drawn uniformly (from the world's PRNG) in this inclusive range, local-clock ms.
    pub election_timeout_ms: (u64, u64),
    pub heartbeat_ms: u64,
    /// One-way network delay drawn uniformly in this inclusive range, ms.
    pub network_delay_ms: (u64, u64),
    /// Initial drop ratio for every link, parts per million.
    pub drop_ppm: u32,
    /// Duplicate ratio for every link, parts per million.
    pub duplicate_ppm: u32,
    /// How long a client waits for an answer before calling the outcome unknown, ms.
    pub client_timeout_ms: u64,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            election_timeout_ms: (150, 300),
            heartbeat_ms: 50,
            network_delay_ms: (5, 15),
            drop_ppm: 0,
            duplicate_ppm: 0,
            client_timeout_ms: 1_000,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaftOptions {
    pub pre_vote: bool,
    pub check_quorum: bool,
    /// Serve reads on the leader only while its lease (measured on its own clock) holds.
    pub lease_reads: bool,
    /// TEST ONLY, deliberately broken: commit entries of earlier terms by counting replicas (the Raft
    /// paper's Figure 8 bug) and skip the start-of-term no-op that would hide it. Checkers must catch it.
    #[doc(hidden)]
    #[serde(default)]
    pub unsafe_commit_previous_term: bool,
}
