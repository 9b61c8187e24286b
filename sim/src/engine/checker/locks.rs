//! Checkers for locks and the resource they protect, fed by the facts the actors report.
//!
//! - **Mutual Exclusion** (as the resource sees it): the accesses of one holder (one token) must form
//!   one unbroken run in the resource's history. A holder that touches the data again after another
//!   holder has touched it was working on the data while someone else held the lock: their lock periods
//!   overlapped where it matters.
//! - **Token Monotonicity**: the resource never accepts a token lower than one it accepted before.
//! - **No Lost Updates**: every job decrements the count by one, so after each accepted write the count
//!   must equal the starting count minus the number of distinct jobs whose write was accepted.
//! - **Single Lease Holder**: the service grants a key only when no lease holds it, in the order of its
//!   replicated state (each change is counted once, by revision).
//! - **Release By Owner**: a hold ends by its owner's release or by lease expiry, never by a stranger.
//! - **No Duplicate Invoice**: the invoice store never records a minute's invoices twice.
//! - **Partition Ownership** (partitioned work queue): the store accepts a write to an account only from
//!   the worker that owns it ([`Worker::owner_of`]), and none to the inventory record, which belongs to no
//!   partition. Partitions are what let the workers go without a lock, so a write from anyone else is a
//!   job lost to its owner or done outside every partition: overlapping partitions, or a worker that
//!   forgot its partition (one restarted without its configuration took the global lock and wrote the
//!   inventory record, and its fencing token locked everyone else out, with no other checker firing).
//! - **Exclusive Belief** (Redis and Redlock clients, which have no fencing token to fall back on): at no
//!   moment do two clients both believe, within the validity time they computed, that they hold the lock.
//!   A belief's end is placed at true time "acquired + validity", so a client paused past its validity
//!   does not count; what counts is a server granting a key that another client still validly holds.

use super::{Finding, Violations};
use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::base::units::FencingToken;
pub use crate::contract::entry::invariants::{
    EXCLUSIVE_BELIEF, MUTUAL_EXCLUSION, NO_DUPLICATE_INVOICE, NO_LOST_UPDATES, PARTITION_OWNERSHIP,
    RELEASE_BY_OWNER, SINGLE_LEASE_HOLDER, TOKEN_MONOTONICITY,
};
use crate::contract::verdicts::Verdicts;
use crate::protocols::lockservice::LockFact;
use crate::protocols::redlock::BeliefFact;
use crate::protocols::resource::{AccessOutcome, ResourceFact};
use crate::protocols::scheduler::SchedulerFact;
use crate::protocols::worker::Worker;
use crate::worlds::actor::Fact;
use std::collections::{BTreeMap, BTreeSet};

/// One write at the invoice store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvoiceRecord {
    pub client: NodeId,
    pub minute: u64,
    pub token: FencingToken,
    pub at_ms: u64,
    pub duplicate: bool,
    pub refused: bool,
}

/// How a partitioned work queue deals out its accounts: among `workers` workers, the first of them
/// node `first_worker`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Partitions {
    pub first_worker: NodeId,
    pub workers: u64,
}

/// Records kept per list for the report (the counts go on).
pub const MAX_LOCK_RECORDS: usize = 10_000;

/// A grant or an expiry: who, which token, when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrantRecord {
    pub client: NodeId,
    pub token: FencingToken,
    pub at_ms: u64,
}

/// One access the resource handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessRecord {
    pub client: NodeId,
    pub token: FencingToken,
    pub at_ms: u64,
    pub write: bool,
    pub value: u64,
    pub highest_seen: FencingToken,
    pub outcome: AccessOutcome,
}

#[derive(Clone, Debug, Default)]
pub struct LockChecker {
    last_revision: u64,
    holders: BTreeMap<u32, (FencingToken, NodeId)>,
    pub grants: Vec<GrantRecord>,
    pub expired: Vec<GrantRecord>,
    pub releases: u64,
    /// Lock requests per simulated minute.
    pub requests_per_minute: Vec<u64>,
    /// The count the resource started with, once a resource is watched.
    pub initial_count: Option<u64>,
    baseline: u64,
    intents: BTreeSet<u64>,
    highest_accepted: FencingToken,
    current_token: Option<FencingToken>,
    finished_tokens: BTreeSet<FencingToken>,
    pub accesses: Vec<AccessRecord>,
    pub accepted: u64,
    pub rejected: u64,
    pub duplicates: u64,
    /// Names used in violation details (`A`, `store`); node ids when empty.
    labels: Vec<String>,
    /// False when tokens are unique hold values, not increasing fencing tokens (Redis, Redlock).
    tokens_are_fencing: Option<bool>,
    /// Clients that believe they hold the lock: hold and end of validity (true microseconds).
    believers: BTreeMap<NodeId, (u64, u64)>,
    /// Every write at the invoice store.
    pub invoices: Vec<InvoiceRecord>,
    /// ZooKeeper-style watch notifications sent.
    pub notifications: u64,
    /// Work queue, per account: baseline and the distinct jobs written to it.
    accounts: BTreeMap<u32, (u64, BTreeSet<u64>)>,
    /// Partitioned work queue: who owns which account (`None`: no partitions to judge).
    partitions: Option<Partitions>,
}

/// The end of one hold, as the service applied it.
#[derive(Clone, Copy)]
struct Release {
    key: u32,
    owner: NodeId,
    by: NodeId,
    token: FencingToken,
    expired: bool,
}

fn push_capped<T>(list: &mut Vec<T>, item: T) {
    if list.len() < MAX_LOCK_RECORDS {
        list.push(item);
    }
}

impl LockChecker {
    /// The memory later verdicts depend on, for the explorer's state digest: who holds and who
    /// believes it holds, the fencing watermark, the resource's and the accounts' expected values. The
    /// capped history lists (grants, accesses, invoices) and the counters only report, so they are left
    /// out, and two states that differ only in what already happened can merge.
    pub fn digest(&self, mut out: &mut dyn std::hash::Hasher) {
        use std::hash::Hash;
        (
            self.last_revision,
            &self.holders,
            self.initial_count,
            self.baseline,
        )
            .hash(&mut out);
        (&self.intents, self.highest_accepted, self.current_token).hash(&mut out);
        (
            &self.finished_tokens,
            self.tokens_are_fencing,
            &self.believers,
        )
            .hash(&mut out);
        (&self.accounts, self.partitions).hash(&mut out);
    }

    /// Names to write in violation details, indexed by node.
    pub fn set_labels(&mut self, labels: Vec<String>) {
        self.labels = labels;
    }

    fn name(&self, node: NodeId) -> String {
        super::node_label(&self.labels, node)
    }

    /// Tokens are unique per hold but not increasing: skip Token Monotonicity.
    pub fn tokens_not_fencing(&mut self) {
        self.tokens_are_fencing = Some(false);
    }

    pub fn watch_partitions(&mut self, partitions: Partitions) {
        self.partitions = Some(partitions);
    }

    pub fn watch_resource(&mut self, initial_count: u64) {
        self.initial_count = Some(initial_count);
        self.baseline = initial_count;
    }

    /// Reads one fact and judges every invariant it bears on: beliefs (Exclusive Belief), invoices
    /// (No Duplicate Invoice), grants (Single Lease Holder), releases (Release By Owner) and store
    /// accesses (Token Monotonicity, Mutual Exclusion, No Lost Updates), one function each.
    pub fn check(
        &mut self,
        now: SimTime,
        node: NodeId,
        fact: &Fact,
        violations: &mut Violations,
        found: &mut Vec<Finding>,
    ) {
        let mut report = Verdicts {
            now,
            violations,
            found,
        };
        match *fact {
            Fact::Belief(BeliefFact::LockBelief {
                hold,
                valid_for_local_us,
            }) => self.exclusive_belief(node, hold, valid_for_local_us, &mut report),
            Fact::Belief(BeliefFact::LockBeliefEnded { hold })
                if self
                    .believers
                    .get(&node)
                    .is_some_and(|(held, _)| *held == hold) =>
            {
                self.believers.remove(&node);
            }
            Fact::Scheduler(SchedulerFact::InvoiceWritten {
                client,
                minute,
                token,
                duplicate,
                refused,
            }) => {
                let record = InvoiceRecord {
                    client,
                    minute,
                    token,
                    at_ms: now.as_ms(),
                    duplicate,
                    refused,
                };
                self.no_duplicate_invoice(record, &mut report);
            }
            Fact::Lock(LockFact::WatchNotified { .. }) => self.notifications += 1,
            Fact::Lock(LockFact::LockRequested { .. }) => self.count_request(now),
            Fact::Lock(LockFact::LockGranted {
                key,
                owner,
                token,
                revision,
                ..
            }) if revision > self.last_revision => {
                self.last_revision = revision;
                self.single_lease_holder(node, key, owner, token, &mut report);
            }
            Fact::Lock(LockFact::LockReleased {
                key,
                owner,
                by,
                token,
                expired,
                revision,
                ..
            }) if revision > self.last_revision => {
                self.last_revision = revision;
                let release = Release {
                    key,
                    owner,
                    by,
                    token,
                    expired,
                };
                self.release_by_owner(release, &mut report);
            }
            Fact::Resource(ResourceFact::ResourceAccess {
                client,
                token,
                write,
                outcome,
                value,
                highest_seen,
                intent,
                account,
            }) => {
                let record = AccessRecord {
                    client,
                    token,
                    at_ms: now.as_ms(),
                    write,
                    value,
                    highest_seen,
                    outcome,
                };
                self.on_access(record, (intent, account), &mut report);
            }
            _ => {}
        }
    }

    /// Exclusive Belief: no client starts believing it holds the lock while another's belief is
    /// still within its validity.
    fn exclusive_belief(
        &mut self,
        node: NodeId,
        hold: u64,
        valid_for_local_us: u64,
        report: &mut Verdicts<'_>,
    ) {
        let now_us = report.now.as_micros();
        self.believers.retain(|_, (_, until_us)| *until_us > now_us);
        let others: Vec<NodeId> = self
            .believers
            .keys()
            .copied()
            .filter(|other| *other != node)
            .collect();
        for other in others {
            let detail = format!(
                "{} believes it holds the lock while {} still does, within its validity",
                self.name(node),
                self.name(other)
            );
            report.fire(EXCLUSIVE_BELIEF, vec![node, other], detail);
        }
        let until_us = now_us.saturating_add(valid_for_local_us);
        self.believers.insert(node, (hold, until_us));
    }

    /// No Duplicate Invoice: a minute's invoices are generated once.
    fn no_duplicate_invoice(&mut self, record: InvoiceRecord, report: &mut Verdicts<'_>) {
        push_capped(&mut self.invoices, record);
        if record.duplicate {
            let detail = format!(
                "{} generated the invoices of minute {} again",
                self.name(record.client),
                record.minute
            );
            report.fire(NO_DUPLICATE_INVOICE, vec![record.client], detail);
        }
    }

    fn count_request(&mut self, now: SimTime) {
        let minute = (now.as_ms() / 60_000) as usize;
        if minute < MAX_LOCK_RECORDS {
            if self.requests_per_minute.len() <= minute {
                self.requests_per_minute.resize(minute + 1, 0);
            }
            self.requests_per_minute[minute] += 1;
        }
    }

    /// Single Lease Holder: the service never grants a key while another lease still holds it.
    fn single_lease_holder(
        &mut self,
        granter: NodeId,
        key: u32,
        owner: NodeId,
        token: FencingToken,
        report: &mut Verdicts<'_>,
    ) {
        if let Some((held, holder)) = self.holders.get(&key).copied() {
            let (granter, new, old) = (self.name(granter), self.name(owner), self.name(holder));
            let detail = format!(
                "{granter} granted key {key} to {new} (token {token}) while {old} still held it (token {held})"
            );
            report.fire(SINGLE_LEASE_HOLDER, vec![owner, holder], detail);
        }
        self.holders.insert(key, (token, owner));
        let record = GrantRecord {
            client: owner,
            token,
            at_ms: report.now.as_ms(),
        };
        push_capped(&mut self.grants, record);
    }

    /// Release By Owner: only the holder, or the lease's expiry, ends a hold.
    fn release_by_owner(&mut self, release: Release, report: &mut Verdicts<'_>) {
        let Release {
            key,
            owner,
            by,
            token,
            expired,
        } = release;
        if self
            .holders
            .get(&key)
            .is_some_and(|(held, _)| *held == token)
        {
            self.holders.remove(&key);
        }
        if expired {
            let record = GrantRecord {
                client: owner,
                token,
                at_ms: report.now.as_ms(),
            };
            push_capped(&mut self.expired, record);
        } else {
            self.releases += 1;
        }
        if !expired && by != owner {
            let (stranger, holder) = (self.name(by), self.name(owner));
            let detail =
                format!("{stranger} released key {key}, held by {holder} with token {token}");
            report.fire(RELEASE_BY_OWNER, vec![by, owner], detail);
        }
    }

    fn on_access(&mut self, record: AccessRecord, job: (u64, u32), report: &mut Verdicts<'_>) {
        push_capped(&mut self.accesses, record);
        match record.outcome {
            AccessOutcome::StaleToken => self.rejected += 1,
            AccessOutcome::Duplicate => self.duplicates += 1,
            // Refused before it was read: it holds no token or count a checker could weigh.
            AccessOutcome::Malformed(_) => {}
            AccessOutcome::Accepted => {
                self.accepted += 1;
                self.token_monotonicity(&record, report);
                self.mutual_exclusion(&record, report);
                self.no_lost_updates(&record, job, report);
                self.partition_ownership(&record, job.1, report);
            }
        }
    }

    /// Token Monotonicity: the store never accepts a lower token after a higher one (where tokens fence).
    fn token_monotonicity(&mut self, access: &AccessRecord, report: &mut Verdicts<'_>) {
        let AccessRecord { client, token, .. } = *access;
        if token < self.highest_accepted && self.tokens_are_fencing != Some(false) {
            let detail = format!(
                "the store accepted token {token} from {} after accepting token {}",
                self.name(client),
                self.highest_accepted
            );
            report.fire(TOKEN_MONOTONICITY, vec![client], detail);
        }
        self.highest_accepted = self.highest_accepted.max(token);
    }

    /// Mutual Exclusion: once the store has seen a newer holder, an older one never touches it again.
    fn mutual_exclusion(&mut self, access: &AccessRecord, report: &mut Verdicts<'_>) {
        let AccessRecord { client, token, .. } = *access;
        if self.current_token == Some(token) {
            return;
        }
        if let Some(previous) = self.current_token {
            self.finished_tokens.insert(previous);
        }
        if self.finished_tokens.contains(&token) {
            let previous = self.current_token.unwrap_or(FencingToken::ZERO);
            let detail = format!(
                "{} (token {token}) touched the store again after the holder of token {previous} had: their lock periods overlapped",
                self.name(client)
            );
            report.fire(MUTUAL_EXCLUSION, vec![client], detail);
        }
        self.current_token = Some(token);
    }

    /// No Lost Updates: every job's write survives in the count (or in its account's balance).
    fn no_lost_updates(
        &mut self,
        access: &AccessRecord,
        (intent, account): (u64, u32),
        report: &mut Verdicts<'_>,
    ) {
        if !access.write || self.initial_count.is_none() {
            return;
        }
        if account != 0 {
            self.check_account(access, (intent, account), report);
            return;
        }
        self.intents.insert(intent);
        let jobs = self.intents.len() as u64;
        let expected = self.baseline.saturating_sub(jobs);
        if access.value != expected {
            let detail = format!(
                "after {}'s write the count is {}, but {} jobs were applied to {}: expected {expected}",
                self.name(access.client),
                access.value,
                jobs,
                self.baseline
            );
            report.fire(NO_LOST_UPDATES, vec![access.client], detail);
            // Count from here on, so one lost update is reported once.
            self.baseline = access.value + jobs;
        }
    }

    /// Work queue: each job adds one to its account, so a balance equals the jobs written to it.
    fn check_account(
        &mut self,
        access: &AccessRecord,
        (intent, account): (u64, u32),
        report: &mut Verdicts<'_>,
    ) {
        let name = self.name(access.client);
        let state = self.accounts.entry(account).or_default();
        state.1.insert(intent);
        let expected = state.0 + state.1.len() as u64;
        if access.value != expected {
            let detail = format!(
                "after {name}'s write account {account} holds {}, but {} jobs were applied to it",
                access.value,
                state.1.len()
            );
            report.fire(NO_LOST_UPDATES, vec![access.client], detail);
            // Re-baseline so one lost update is reported once.
            state.0 = access.value.saturating_sub(state.1.len() as u64);
        }
    }

    /// Partition Ownership: with partitions, an accepted write names an account its writer owns.
    fn partition_ownership(
        &mut self,
        access: &AccessRecord,
        account: u32,
        report: &mut Verdicts<'_>,
    ) {
        let Some(Partitions {
            first_worker,
            workers,
        }) = self.partitions
        else {
            return;
        };
        if !access.write {
            return;
        }
        let writer = access.client.index().checked_sub(first_worker.index());
        let owner = (account != 0).then(|| Worker::owner_of(account, workers));
        if writer.is_some_and(|writer| Some(writer as u64) == owner) {
            return;
        }
        let name = self.name(access.client);
        let detail = match owner {
            Some(owner) => {
                let owner_node = NodeId(first_worker.0 + owner as u16);
                let owner_name = self.name(owner_node);
                format!("{name} wrote account {account}, which is {owner_name}'s partition")
            }
            None => format!("{name} wrote the inventory record, which is in no partition"),
        };
        report.fire(PARTITION_OWNERSHIP, vec![access.client], detail);
    }

    /// Work queue: distinct jobs whose write the store accepted.
    pub fn jobs_written(&self) -> u64 {
        self.accounts
            .values()
            .map(|(_, jobs)| jobs.len() as u64)
            .sum()
    }
}
