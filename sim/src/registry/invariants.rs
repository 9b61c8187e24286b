//! The invariants entries list, each with its promise, so two worlds that judge the same property say
//! the same thing about it. Names are the checkers' own constants.

use super::InvariantInfo;
use crate::checker::{
    ELECTION_SAFETY, EXCLUSIVE_BELIEF, LEADER_APPEND_ONLY, LEADER_COMPLETENESS, LINEARIZABLE_READS,
    LOG_MATCHING, MUTUAL_EXCLUSION, NO_DUPLICATE_INVOICE, NO_LOST_UPDATES, RELEASE_BY_OWNER,
    SINGLE_LEASE_HOLDER, STATE_MACHINE_SAFETY, TOKEN_MONOTONICITY,
};

const fn info(name: &'static str, promise: &'static str) -> InvariantInfo {
    InvariantInfo { name, promise }
}

pub const ELECTION_SAFETY_INFO: InvariantInfo =
    info(ELECTION_SAFETY, "at most one leader per term");
pub const LEADER_APPEND_ONLY_INFO: InvariantInfo =
    info(LEADER_APPEND_ONLY, "a leader never rewrites its own log");
pub const LOG_MATCHING_INFO: InvariantInfo =
    info(LOG_MATCHING, "same index and term means same history");
pub const LEADER_COMPLETENESS_INFO: InvariantInfo = info(
    LEADER_COMPLETENESS,
    "committed entries survive into every later leader",
);
pub const STATE_MACHINE_SAFETY_INFO: InvariantInfo = info(
    STATE_MACHINE_SAFETY,
    "no two nodes apply different commands at one index",
);
pub const LINEARIZABLE_READS_INFO: InvariantInfo =
    info(LINEARIZABLE_READS, "a read never returns stale data");
pub const MUTUAL_EXCLUSION_INFO: InvariantInfo =
    info(MUTUAL_EXCLUSION, "the store sees one holder at a time");
pub const TOKEN_MONOTONICITY_INFO: InvariantInfo = info(
    TOKEN_MONOTONICITY,
    "the store never accepts a lower token after a higher one",
);
pub const NO_LOST_UPDATES_INFO: InvariantInfo = info(NO_LOST_UPDATES, "every job's write survives");
pub const SINGLE_LEASE_HOLDER_INFO: InvariantInfo = info(
    SINGLE_LEASE_HOLDER,
    "the service grants a key to one lease at a time",
);
pub const RELEASE_BY_OWNER_INFO: InvariantInfo =
    info(RELEASE_BY_OWNER, "only the holder (or expiry) ends a hold");
pub const EXCLUSIVE_BELIEF_INFO: InvariantInfo = info(
    EXCLUSIVE_BELIEF,
    "no two clients believe they hold the lock at once",
);
pub const NO_DUPLICATE_INVOICE_INFO: InvariantInfo =
    info(NO_DUPLICATE_INVOICE, "each minute is invoiced once");

/// Raft's five safety properties (Figure 3 of the paper), for every world whose servers run Raft.
pub const RAFT_CORE: [InvariantInfo; 5] = [
    ELECTION_SAFETY_INFO,
    LEADER_APPEND_ONLY_INFO,
    LOG_MATCHING_INFO,
    LEADER_COMPLETENESS_INFO,
    STATE_MACHINE_SAFETY_INFO,
];
