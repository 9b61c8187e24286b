//! The end-of-run summary: what the headless runner prints and what scenario tests assert on.
//!
//! Everything is plain serde data with no floats. `trace_hash` is a string of 16 lowercase hex digits
//! because JavaScript numbers cannot hold a u64.

use crate::base::units::{FencingToken, LogIndex, Term};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Report {
    pub end_ms: u64,
    pub events_processed: u64,
    pub leaders: Vec<LeaderRecord>,
    /// Keyed `n1`..`nN`, ordered by node number (not lexically: see `NodeKey`).
    #[serde(rename = "final")]
    pub final_state: BTreeMap<NodeKey, NodeFinal>,
    pub requests: RequestCounts,
    pub violations: Vec<ViolationRecord>,
    /// Violations per invariant name, counting those beyond the list cap too.
    pub violation_counts: BTreeMap<String, u64>,
    /// Total simulated ms during which no up node believed it was leader.
    pub leaderless_ms: u64,
    pub trace_hash: String,
    /// Coordination worlds: the name of every node that is not a server (`"n4": "A"`, `"n6": "store"`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Lock-service worlds: every grant and expiry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locks: Option<LocksReport>,
    /// Worlds with a protected resource: its accepted and rejected accesses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<ResourceReport>,
    /// Scheduler worlds: what the invoice store saw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoices: Option<InvoicesReport>,
    /// Work-queue runs: jobs done and jobs per simulated second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput: Option<ThroughputReport>,
    /// ZooKeeper-style elections: watch notifications the service sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notifications: Option<u64>,
    /// Lock requests per simulated minute (index 0 is the first minute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contention: Option<Vec<u64>>,
    /// Raft and PBFT worlds: the messages the run sent for the requests it committed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<MessagePrice>,
}

/// What agreement cost in one run: every message a node sent, from the run's start, against the
/// requests it committed. Counts, never formulas, so faults, view changes and elections are in them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MessagePrice {
    /// `"raft"` or `"pbft"`.
    pub protocol: String,
    /// Messages the nodes handed to the network (a copy the network duplicates is not counted again).
    pub messages_sent: u64,
    /// Of `messages_sent`, a Raft leader's empty heartbeats (0 for PBFT, which sends none).
    pub heartbeats: u64,
    /// Raft: client writes committed. PBFT: results clients took on f + 1 matching replies.
    pub committed: u64,
    /// `messages_sent * 10 / committed`, rounded down (no floats in reports); absent before a commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages_per_commit_tenths: Option<u64>,
    /// The same without the heartbeats, which a Raft leader sends whether or not anyone writes:
    /// what each commit itself cost. Absent before a commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages_per_commit_tenths_without_heartbeats: Option<u64>,
}

impl MessagePrice {
    pub fn new(protocol: &str, messages_sent: u64, heartbeats: u64, committed: u64) -> Self {
        MessagePrice {
            protocol: protocol.to_string(),
            messages_sent,
            heartbeats,
            committed,
            messages_per_commit_tenths: (committed > 0).then(|| messages_sent * 10 / committed),
            messages_per_commit_tenths_without_heartbeats: (committed > 0)
                .then(|| messages_sent.saturating_sub(heartbeats) * 10 / committed),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ThroughputReport {
    /// `"partitioned"` or `"global-lock"`.
    pub mode: String,
    /// Distinct jobs whose write the store accepted.
    pub jobs: u64,
    /// `jobs` per simulated second, rounded down (whole numbers only: no floats in reports).
    pub jobs_per_second: u64,
    /// Jobs per simulated second times 1000, for comparisons finer than whole jobs.
    pub jobs_per_1000_seconds: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InvoicesReport {
    pub mode: String,
    /// Minutes invoiced (each counted once).
    pub generated: u64,
    /// Extra invoice runs for a minute already invoiced.
    pub duplicates: u64,
    /// Runs the store refused (fencing: a stale leader's token).
    pub refused: u64,
    /// Whole minutes (before the last one, which may still be in flight) with no invoices.
    pub missed_minutes: Vec<u64>,
    /// Lock requests the instances sent (the price of coordinating every run).
    pub lock_round_trips: u64,
    /// Leader modes, each leadership change: ms from the old holder's last accepted invoice (before the
    /// change) to the new holder's grant.
    pub failover_gaps_ms: Vec<u64>,
}

/// A grant or an expiry: the client's name, its fencing token, when.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LockRecord {
    pub client: String,
    pub token: FencingToken,
    pub at_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LocksReport {
    pub grants: Vec<LockRecord>,
    /// Holds ended by lease expiry (the holder stopped renewing).
    pub expired: Vec<LockRecord>,
    /// Holds ended by their owner's release.
    pub released: u64,
}

/// One access the resource handled. `write` is the value written (absent for a read); `highest_seen`
/// is the highest token the resource had seen, which a rejected token was below.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AccessReport {
    pub client: String,
    pub token: FencingToken,
    pub at_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presented: Option<FencingToken>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub highest_seen: Option<FencingToken>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResourceReport {
    pub fencing: bool,
    /// The count at the end.
    pub value: u64,
    pub accepted: Vec<AccessReport>,
    pub rejected: Vec<AccessReport>,
    /// Retried writes recognised by their idempotency key and not applied again.
    pub duplicates: u64,
}

/// A node id used as a map key: serializes as `n1`.. but orders numerically, so `n2` precedes `n10`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeKey(pub crate::base::ids::NodeId);

impl Serialize for NodeKey {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for NodeKey {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        crate::base::ids::NodeId::parse(&text, crate::base::ids::MAX_NODES)
            .map(NodeKey)
            .map_err(serde::de::Error::custom)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LeaderRecord {
    pub term: Term,
    pub node: String,
    pub elected_at_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NodeFinal {
    /// "up" | "crashed" | "paused"
    pub status: String,
    /// "follower" | "candidate" | "leader" (pre-candidates report "follower")
    pub role: String,
    pub term: Term,
    pub commit_index: LogIndex,
    pub log_len: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RequestCounts {
    pub submitted: u64,
    pub committed: u64,
    /// Rejected (not leader) or skipped because the target did not exist.
    pub failed: u64,
    /// The client timed out: the request may or may not have taken effect.
    pub unknown: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ViolationRecord {
    pub invariant: String,
    pub at_ms: u64,
    pub nodes: Vec<String>,
    pub detail: String,
}
