//! Every invariant's name (as the checkers report it) and its promise, so two worlds that judge the
//! same property say the same thing about it. The names live here, below both the protocols' entries
//! and the checkers, so neither has to import the other.

use super::InvariantInfo;

pub const ELECTION_SAFETY: &str = "Election Safety";
pub const LEADER_APPEND_ONLY: &str = "Leader Append-Only";
pub const LOG_MATCHING: &str = "Log Matching";
pub const LEADER_COMPLETENESS: &str = "Leader Completeness";
pub const STATE_MACHINE_SAFETY: &str = "State Machine Safety";
pub const MUTUAL_EXCLUSION: &str = "Mutual Exclusion";
pub const TOKEN_MONOTONICITY: &str = "Token Monotonicity";
pub const NO_LOST_UPDATES: &str = "No Lost Updates";
pub const SINGLE_LEASE_HOLDER: &str = "Single Lease Holder";
pub const RELEASE_BY_OWNER: &str = "Release By Owner";
pub const EXCLUSIVE_BELIEF: &str = "Exclusive Belief";
pub const NO_DUPLICATE_INVOICE: &str = "No Duplicate Invoice";
pub const PARTITION_OWNERSHIP: &str = "Partition Ownership";
/// Servers that commit an index agree on the configuration (who votes) in force there.
pub const CONFIGURATION_AGREEMENT: &str = "Configuration Agreement";
/// A read must reflect every write acknowledged to any client before the read was submitted.
pub const LINEARIZABLE_READS: &str = "Linearizable Reads";

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
pub const CONFIGURATION_AGREEMENT_INFO: InvariantInfo = info(
    CONFIGURATION_AGREEMENT,
    "servers agree on who votes at every committed index",
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
pub const PARTITION_OWNERSHIP_INFO: InvariantInfo = info(
    PARTITION_OWNERSHIP,
    "with partitions, only an account's owner writes it",
);

/// Raft's five safety properties (Figure 3 of the paper), for every world whose servers run Raft.
pub const RAFT_CORE: [InvariantInfo; 5] = [
    ELECTION_SAFETY_INFO,
    LEADER_APPEND_ONLY_INFO,
    LOG_MATCHING_INFO,
    LEADER_COMPLETENESS_INFO,
    STATE_MACHINE_SAFETY_INFO,
];

pub const AGREEMENT: &str = "Agreement";
pub const VALIDITY: &str = "Validity";
pub const STABILITY: &str = "Stability";

pub const AGREEMENT_INFO: InvariantInfo = info(AGREEMENT, "at most one value is ever chosen");
pub const VALIDITY_INFO: InvariantInfo =
    info(VALIDITY, "only a value some proposer proposed is chosen");
pub const STABILITY_INFO: InvariantInfo =
    info(STABILITY, "a learner never changes the value it learned");

pub const HONEST_AGREEMENT: &str = "Honest Agreement";

pub const HONEST_AGREEMENT_INFO: InvariantInfo = info(
    HONEST_AGREEMENT,
    "honest replicas commit the same request at each sequence number",
);
