//! Pure helpers for the coordination views (worker lanes, resource ledger, badges, ring names): what kind
//! of actor a node is, which invariants a protocol can break, and the sentences a learner reads. No
//! signals here, so everything is tested natively.

use crate::format;
use quorumlab_sim::protocol::AccessOutcome;
use quorumlab_sim::resource::LedgerEntry;
use quorumlab_sim::view_coordination::{CoordinationView, WorkerView};
use quorumlab_sim::ProtocolKind;

/// What a node on the ring is, drawn with its own shape (never told apart by colour alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A Raft node, a lock-service server or a Redis-style server: a circle.
    Server,
    /// A lock client, scheduler instance or election candidate (`A`, `B`, ...): a rounded square.
    Worker,
    /// The protected resource (`store`): a hexagon.
    Resource,
}

impl NodeKind {
    /// From the engine's naming: servers keep `n1..`, workers are capital letters, the resource `store`.
    pub fn of_label(label: &str) -> NodeKind {
        if label == "store" {
            NodeKind::Resource
        } else if label.starts_with(|first: char| first.is_ascii_uppercase()) {
            NodeKind::Worker
        } else {
            NodeKind::Server
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            NodeKind::Server => "server",
            NodeKind::Worker => "worker",
            NodeKind::Resource => "resource",
        }
    }

    /// The word a learner reads for this kind in `protocol`'s world: the lettered actors go by the
    /// registry's actor word (instances in the invoice scheduler, candidates in the ZooKeeper recipe);
    /// servers and the resource keep their generic words, which the panels' sentences are built on.
    pub fn word_in(self, protocol: ProtocolKind) -> &'static str {
        match self {
            NodeKind::Worker => protocol.entry().vocabulary.actor,
            kind => kind.word(),
        }
    }
}

/// The lease TTL the scenario's lock clients are granted, in µs (1 s where the world has none).
pub fn lease_ttl_us(scenario: &quorumlab_sim::scenario::Scenario) -> u64 {
    scenario
        .protocol
        .lock_options()
        .map_or(1_000_000, |options| options.lease_ttl_ms * 1_000)
}

/// Whether the protocol's servers run Raft (everything but the Redis-style locks).
pub fn runs_raft(protocol: ProtocolKind) -> bool {
    protocol.entry().capabilities.runs_raft
}

/// Whether the numbers a lock holder carries are fencing tokens worth showing (Redis-style hold values
/// are random, not tokens).
pub fn tokens_fence(protocol: ProtocolKind) -> bool {
    protocol.entry().capabilities.tokens_fence
}

/// The invariants a protocol can break, Raft's first where a Raft group exists, as the registry lists
/// them: every world has an entry, so none falls through to an empty list.
pub fn relevant_invariants(protocol: ProtocolKind) -> Vec<&'static str> {
    protocol
        .entry()
        .invariants
        .iter()
        .map(|invariant| invariant.name)
        .collect()
}

/// The name a node goes by: its coordination label when there is one, else `n1..`.
pub fn label_of(coordination: Option<&CoordinationView>, index: usize) -> Option<&str> {
    coordination.and_then(|view| view.labels.get(index).map(String::as_str))
}

/// Time left on a lease, as a fraction of its length, clamped to 0..=1.
pub fn lease_fraction(until_us: u64, now_us: i64, ttl_us: u64) -> f64 {
    let left_us = until_us as i64 - now_us;
    if ttl_us == 0 || left_us <= 0 {
        return 0.0;
    }
    (left_us as f64 / ttl_us as f64).clamp(0.0, 1.0)
}

/// A worker's belief in its own words, on its own clock. `tokens` is false for Redis-style locks, whose
/// hold values are random, not fencing tokens, and not worth reading.
pub fn belief_sentence(worker: &WorkerView, paused: bool, tokens: bool) -> String {
    let local_us = worker.local_clock_us;
    match worker.belief {
        Some(belief) => {
            let expired = (belief.lease_until_local_us as i64) <= local_us;
            let until = format::sim_time(belief.lease_until_local_us);
            let holds = if tokens {
                format!(
                    "holds lock, token {}, lease until {until} on its clock",
                    belief.token
                )
            } else {
                format!("holds lock, valid until {until} on its clock")
            };
            match (paused, expired) {
                (true, _) => format!("paused — still believes it {holds}"),
                (false, true) => format!("thinks it {holds} (already past, by its clock)"),
                (false, false) => holds,
            }
        }
        None if paused => "paused — holds nothing".to_string(),
        None => phase_word(worker).to_string(),
    }
}

fn phase_word(worker: &WorkerView) -> &'static str {
    use quorumlab_sim::worker::Phase;
    match worker.phase {
        Phase::Idle => "idle",
        Phase::Acquiring => "asking for the lock",
        Phase::Waiting => "waiting in the queue",
        Phase::Reading => "reading",
        Phase::Modifying => "modifying",
        Phase::Writing => "writing",
        Phase::Releasing => "releasing",
    }
}

/// One resource access: accepted (with its token), a duplicate, or refused with the comparison that
/// refused it (`stale: 33 < 34`). Without `tokens` (Redis-style locks) the token is not shown.
pub fn ledger_sentence(entry: &LedgerEntry, client: &str, tokens: bool) -> String {
    let what = match entry.write {
        Some(value) => format!("write {value}"),
        None => "read".to_string(),
    };
    if !tokens && entry.outcome == AccessOutcome::Accepted {
        return format!("{client} {what} · accepted");
    }
    match entry.outcome {
        AccessOutcome::Accepted => format!("{client} {what} · token {} · accepted", entry.token),
        AccessOutcome::Duplicate => {
            format!(
                "{client} {what} · token {} · duplicate, not applied again",
                entry.token
            )
        }
        AccessOutcome::StaleToken => format!(
            "{client} {what} · rejected, stale: {} < {}",
            entry.token, entry.highest_seen
        ),
    }
}

pub fn outcome_class(outcome: AccessOutcome) -> &'static str {
    match outcome {
        AccessOutcome::Accepted => "accepted",
        AccessOutcome::Duplicate => "duplicate",
        AccessOutcome::StaleToken => "rejected",
    }
}

/// The banner's sentence when two or more clients believe they hold the lock at once.
pub fn double_holder_sentence(holders: &[String]) -> String {
    match holders {
        [] | [_] => String::new(),
        [first, second] => {
            format!("{first} and {second} both believe they hold the lock right now")
        }
        [rest @ .., last] => format!(
            "{} and {last} all believe they hold the lock right now",
            rest.join(", ")
        ),
    }
}

/// Workers that, right now and by their own clocks, believe they hold the lock.
pub fn believed_holders(coordination: &CoordinationView) -> Vec<&str> {
    coordination
        .workers
        .iter()
        .filter(|worker| {
            worker
                .belief
                .is_some_and(|belief| belief.lease_until_local_us as i64 > worker.local_clock_us)
        })
        .filter_map(|worker| {
            coordination
                .labels
                .get(worker.id.index())
                .map(String::as_str)
        })
        .collect()
}

/// A coordination view with only its world and labels filled in, for tests that add the parts they
/// need; the one place a test spells out every field, so an engine change to the view touches one spot.
#[cfg(test)]
pub fn bare_view(kind: quorumlab_sim::ProtocolKind, labels: &[&str]) -> CoordinationView {
    CoordinationView {
        kind,
        protocol: kind.name(),
        labels: labels.iter().map(|label| label.to_string()).collect(),
        workers: Vec::new(),
        service: None,
        resource: None,
        kv_servers: Vec::new(),
        scheduler: None,
        candidates: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quorumlab_sim::ids::NodeId;
    use quorumlab_sim::worker::{Belief, Phase};

    fn worker(belief: Option<Belief>, local_clock_us: i64) -> WorkerView {
        WorkerView {
            id: NodeId(3),
            phase: Phase::Writing,
            belief,
            local_clock_us,
            jobs_done: 0,
            jobs_abandoned: 0,
            fenced_off: 0,
        }
    }

    #[test]
    fn kinds_follow_the_engine_names() {
        assert_eq!(NodeKind::of_label("n1"), NodeKind::Server);
        assert_eq!(NodeKind::of_label("A"), NodeKind::Worker);
        assert_eq!(NodeKind::of_label("store"), NodeKind::Resource);
        assert_eq!(
            NodeKind::Worker.word_in(ProtocolKind::Zookeeper),
            "candidate"
        );
        assert_eq!(
            NodeKind::Worker.word_in(ProtocolKind::Scheduler),
            "instance"
        );
        assert_eq!(
            NodeKind::Worker.word_in(ProtocolKind::LockService),
            "worker"
        );
        assert_eq!(
            NodeKind::Resource.word_in(ProtocolKind::Zookeeper),
            "resource"
        );
    }

    #[test]
    fn raft_invariants_only_where_a_raft_group_exists() {
        use quorumlab_sim::checker::{
            ELECTION_SAFETY, EXCLUSIVE_BELIEF, MUTUAL_EXCLUSION, NO_DUPLICATE_INVOICE,
            TOKEN_MONOTONICITY,
        };
        assert!(relevant_invariants(ProtocolKind::Raft).contains(&ELECTION_SAFETY));
        assert!(!relevant_invariants(ProtocolKind::Raft).contains(&MUTUAL_EXCLUSION));
        assert!(relevant_invariants(ProtocolKind::LockService).contains(&ELECTION_SAFETY));
        assert!(relevant_invariants(ProtocolKind::LockService).contains(&TOKEN_MONOTONICITY));
        assert!(!relevant_invariants(ProtocolKind::Redlock).contains(&ELECTION_SAFETY));
        assert!(relevant_invariants(ProtocolKind::Redlock).contains(&EXCLUSIVE_BELIEF));
        assert!(relevant_invariants(ProtocolKind::Scheduler).contains(&NO_DUPLICATE_INVOICE));
        for entry in quorumlab_sim::registry::ENTRIES {
            for name in relevant_invariants(entry.kind) {
                let promise = quorumlab_sim::registry::promise(name);
                assert!(!promise.is_empty(), "{name} has a promise");
            }
        }
    }

    #[test]
    fn only_raft_backed_locks_carry_fencing_tokens() {
        assert!(tokens_fence(ProtocolKind::LockService));
        assert!(tokens_fence(ProtocolKind::Scheduler));
        assert!(!tokens_fence(ProtocolKind::RedisLock));
        assert!(!tokens_fence(ProtocolKind::Redlock));
        assert!(runs_raft(ProtocolKind::WorkQueue));
        assert!(!runs_raft(ProtocolKind::Redlock));
    }

    #[test]
    fn a_stale_write_names_both_tokens() {
        let entry = LedgerEntry {
            client: NodeId(3),
            token: 33,
            write: Some(7),
            outcome: AccessOutcome::StaleToken,
            highest_seen: 34,
            value: 8,
            local_us: 0,
        };
        assert_eq!(
            ledger_sentence(&entry, "A", true),
            "A write 7 · rejected, stale: 33 < 34"
        );
    }

    #[test]
    fn belief_reads_like_the_worker_thinks() {
        let belief = Belief {
            lease: 1,
            token: 34,
            lease_until_local_us: 1_240_000,
        };
        assert_eq!(
            belief_sentence(&worker(Some(belief), 1_000_000), false, true),
            "holds lock, token 34, lease until 1.240 s on its clock"
        );
        assert!(
            belief_sentence(&worker(Some(belief), 1_000_000), true, true)
                .starts_with("paused — still believes it holds lock, token 34")
        );
        assert_eq!(belief_sentence(&worker(None, 0), false, true), "writing");
        assert_eq!(
            belief_sentence(&worker(Some(belief), 1_000_000), false, false),
            "holds lock, valid until 1.240 s on its clock"
        );
    }

    #[test]
    fn the_banner_names_every_believer() {
        let names = |list: &[&str]| list.iter().map(|name| name.to_string()).collect::<Vec<_>>();
        assert_eq!(double_holder_sentence(&names(&["A"])), "");
        assert_eq!(
            double_holder_sentence(&names(&["A", "B"])),
            "A and B both believe they hold the lock right now"
        );
        assert_eq!(
            double_holder_sentence(&names(&["A", "B", "C"])),
            "A, B and C all believe they hold the lock right now"
        );
    }

    #[test]
    fn lease_fraction_counts_down_and_clamps() {
        assert_eq!(lease_fraction(1_000_000, 500_000, 1_000_000), 0.5);
        assert_eq!(lease_fraction(1_000_000, 2_000_000, 1_000_000), 0.0);
        assert_eq!(lease_fraction(5_000_000, 0, 1_000_000), 1.0);
    }
}
