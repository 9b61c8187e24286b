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
//! - **Exclusive Belief** (Redis and Redlock clients, which have no fencing token to fall back on): at no
//!   moment do two clients both believe, within the validity time they computed, that they hold the lock.
//!   A belief's end is placed at true time "acquired + validity", so a client paused past its validity
//!   does not count; what counts is a server granting a key that another client still validly holds.

use super::Violations;
pub use crate::entry::invariants::{
    EXCLUSIVE_BELIEF, MUTUAL_EXCLUSION, NO_DUPLICATE_INVOICE, NO_LOST_UPDATES, RELEASE_BY_OWNER,
    SINGLE_LEASE_HOLDER, TOKEN_MONOTONICITY,
};
use crate::ids::NodeId;
use crate::protocol::{AccessOutcome, Fact};
use crate::time::SimTime;
use crate::trace::TraceEvent;
use std::collections::{BTreeMap, BTreeSet};

/// One write at the invoice store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvoiceRecord {
    pub client: NodeId,
    pub minute: u64,
    pub token: u64,
    pub at_ms: u64,
    pub duplicate: bool,
    pub refused: bool,
}

/// Records kept per list for the report (the counts go on).
pub const MAX_LOCK_RECORDS: usize = 10_000;

/// A grant or an expiry: who, which token, when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrantRecord {
    pub client: NodeId,
    pub token: u64,
    pub at_ms: u64,
}

/// One access the resource handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessRecord {
    pub client: NodeId,
    pub token: u64,
    pub at_ms: u64,
    pub write: bool,
    pub value: u64,
    pub highest_seen: u64,
    pub outcome: AccessOutcome,
}

#[derive(Clone, Debug, Default)]
pub struct LockChecker {
    last_revision: u64,
    holders: BTreeMap<u32, (u64, NodeId)>,
    pub grants: Vec<GrantRecord>,
    pub expired: Vec<GrantRecord>,
    pub releases: u64,
    /// Lock requests per simulated minute.
    pub requests_per_minute: Vec<u64>,
    /// The count the resource started with, once a resource is watched.
    pub initial_count: Option<u64>,
    baseline: u64,
    intents: BTreeSet<u64>,
    highest_accepted: u64,
    current_token: Option<u64>,
    finished_tokens: BTreeSet<u64>,
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
}

fn push_capped<T>(list: &mut Vec<T>, item: T) {
    if list.len() < MAX_LOCK_RECORDS {
        list.push(item);
    }
}

impl LockChecker {
    /// Names to write in violation details, indexed by node.
    pub fn set_labels(&mut self, labels: Vec<String>) {
        self.labels = labels;
    }

    fn name(&self, node: NodeId) -> String {
        self.labels
            .get(node.index())
            .cloned()
            .unwrap_or_else(|| node.to_string())
    }

    /// Tokens are unique per hold but not increasing: skip Token Monotonicity.
    pub fn tokens_not_fencing(&mut self) {
        self.tokens_are_fencing = Some(false);
    }

    pub fn watch_resource(&mut self, initial_count: u64) {
        self.initial_count = Some(initial_count);
        self.baseline = initial_count;
    }

    pub fn check(
        &mut self,
        now: SimTime,
        node: NodeId,
        fact: &Fact,
        violations: &mut Violations,
        found: &mut Vec<TraceEvent>,
    ) {
        match *fact {
            Fact::LockBelief {
                hold,
                valid_for_local_us,
            } => {
                let now_us = now.as_micros();
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
                    found.push(violations.report(EXCLUSIVE_BELIEF, now, vec![node, other], detail));
                }
                let until_us = now_us.saturating_add(valid_for_local_us);
                self.believers.insert(node, (hold, until_us));
            }
            Fact::LockBeliefEnded { hold }
                if self
                    .believers
                    .get(&node)
                    .is_some_and(|(held, _)| *held == hold) =>
            {
                self.believers.remove(&node);
            }
            Fact::InvoiceWritten {
                client,
                minute,
                token,
                duplicate,
                refused,
            } => {
                let record = InvoiceRecord {
                    client,
                    minute,
                    token,
                    at_ms: now.as_ms(),
                    duplicate,
                    refused,
                };
                push_capped(&mut self.invoices, record);
                if duplicate {
                    let detail = format!(
                        "{} generated the invoices of minute {minute} again",
                        self.name(client)
                    );
                    found.push(violations.report(NO_DUPLICATE_INVOICE, now, vec![client], detail));
                }
            }
            Fact::WatchNotified { .. } => self.notifications += 1,
            Fact::LockRequested { .. } => {
                let minute = (now.as_ms() / 60_000) as usize;
                if minute < MAX_LOCK_RECORDS {
                    if self.requests_per_minute.len() <= minute {
                        self.requests_per_minute.resize(minute + 1, 0);
                    }
                    self.requests_per_minute[minute] += 1;
                }
            }
            Fact::LockGranted {
                key,
                owner,
                token,
                revision,
                ..
            } if revision > self.last_revision => {
                self.last_revision = revision;
                if let Some((held, holder)) = self.holders.get(&key).copied() {
                    let (granter, new, old) =
                        (self.name(node), self.name(owner), self.name(holder));
                    let detail = format!(
                        "{granter} granted key {key} to {new} (token {token}) while {old} still held it (token {held})"
                    );
                    found.push(violations.report(
                        SINGLE_LEASE_HOLDER,
                        now,
                        vec![owner, holder],
                        detail,
                    ));
                }
                self.holders.insert(key, (token, owner));
                let record = GrantRecord {
                    client: owner,
                    token,
                    at_ms: now.as_ms(),
                };
                push_capped(&mut self.grants, record);
            }
            Fact::LockReleased {
                key,
                owner,
                by,
                token,
                expired,
                revision,
                ..
            } if revision > self.last_revision => {
                self.last_revision = revision;
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
                        at_ms: now.as_ms(),
                    };
                    push_capped(&mut self.expired, record);
                } else {
                    self.releases += 1;
                }
                if !expired && by != owner {
                    let (stranger, holder) = (self.name(by), self.name(owner));
                    let detail = format!(
                        "{stranger} released key {key}, held by {holder} with token {token}"
                    );
                    found.push(violations.report(RELEASE_BY_OWNER, now, vec![by, owner], detail));
                }
            }
            Fact::ResourceAccess {
                client,
                token,
                write,
                outcome,
                value,
                highest_seen,
                intent,
                account,
            } => {
                let record = AccessRecord {
                    client,
                    token,
                    at_ms: now.as_ms(),
                    write,
                    value,
                    highest_seen,
                    outcome,
                };
                push_capped(&mut self.accesses, record);
                match outcome {
                    AccessOutcome::StaleToken => self.rejected += 1,
                    AccessOutcome::Duplicate => self.duplicates += 1,
                    AccessOutcome::Accepted => {
                        self.accepted += 1;
                        self.check_access(now, &record, (intent, account), violations, found);
                    }
                }
            }
            _ => {}
        }
    }

    fn check_access(
        &mut self,
        now: SimTime,
        access: &AccessRecord,
        (intent, account): (u64, u32),
        violations: &mut Violations,
        found: &mut Vec<TraceEvent>,
    ) {
        let AccessRecord { client, token, .. } = *access;
        let name = self.name(client);
        if token < self.highest_accepted && self.tokens_are_fencing != Some(false) {
            let detail = format!(
                "the store accepted token {token} from {name} after accepting token {}",
                self.highest_accepted
            );
            found.push(violations.report(TOKEN_MONOTONICITY, now, vec![client], detail));
        }
        self.highest_accepted = self.highest_accepted.max(token);
        if self.current_token != Some(token) {
            if let Some(previous) = self.current_token {
                self.finished_tokens.insert(previous);
            }
            if self.finished_tokens.contains(&token) {
                let previous = self.current_token.unwrap_or(0);
                let detail = format!(
                    "{name} (token {token}) touched the store again after the holder of token {previous} had: their lock periods overlapped"
                );
                found.push(violations.report(MUTUAL_EXCLUSION, now, vec![client], detail));
            }
            self.current_token = Some(token);
        }
        if !access.write || self.initial_count.is_none() {
            return;
        }
        if account != 0 {
            self.check_account(now, access, (intent, account), violations, found);
            return;
        }
        self.intents.insert(intent);
        let jobs = self.intents.len() as u64;
        let expected = self.baseline.saturating_sub(jobs);
        if access.value != expected {
            let detail = format!(
                "after {name}'s write the count is {}, but {} jobs were applied to {}: expected {expected}",
                access.value, jobs, self.baseline
            );
            found.push(violations.report(NO_LOST_UPDATES, now, vec![client], detail));
            // Count from here on, so one lost update is reported once.
            self.baseline = access.value + jobs;
        }
    }

    /// Work queue: each job adds one to its account, so a balance equals the jobs written to it.
    fn check_account(
        &mut self,
        now: SimTime,
        access: &AccessRecord,
        (intent, account): (u64, u32),
        violations: &mut Violations,
        found: &mut Vec<TraceEvent>,
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
            found.push(violations.report(NO_LOST_UPDATES, now, vec![access.client], detail));
            // Re-baseline so one lost update is reported once.
            state.0 = access.value.saturating_sub(state.1.len() as u64);
        }
    }

    /// Work queue: distinct jobs whose write the store accepted.
    pub fn jobs_written(&self) -> u64 {
        self.accounts
            .values()
            .map(|(_, jobs)| jobs.len() as u64)
            .sum()
    }
}
