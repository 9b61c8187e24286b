//! The protected resource: a storage node holding an inventory count, read and written by lock holders.
//!
//! Every access carries the fencing token of the lock its sender believes it holds. With fencing on, the
//! resource remembers the highest token it has seen (on reads too, so a read-modify-write cycle is
//! protected as a whole) and refuses any access with a lower one: `StaleToken { presented, highest_seen }`.
//! That single comparison is what makes a lock safe against paused or slow holders; the lock service
//! alone cannot, because it has no way to stop a process that does not know it lost the lock. With fencing
//! off the resource accepts everything, which is what most storage does.
//!
//! With an idempotency key, a write whose key was already applied is acknowledged and not applied again.
//! The key is (client, message id), checked after the token, unless the world keys writes by batch
//! ([`IdempotencyScope::Batch`]): then it is (client, batch), checked *before* the token, because a
//! repeat of an applied write changes nothing and its sender needs the truth ("that landed"), not
//! "stale token", which would send it off to redo what is already done. The resource keeps a ledger of every access, accepted or refused (the newest
//! [`LEDGER_CAP`] in full, all of them in the counts). It is storage: a crash loses nothing.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::config::IdempotencyScope;
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use crate::contract::protocol::{
    ActorSummary, Carries, ClientError, ClientOutcome, Effects, Input, Observes, Protocol,
};
use crate::contract::roles::{RoleSlot, StoreWriteRule};
use crate::protocols::scheduler::{InvoiceMessage, SchedulerFact};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

pub mod boundary;
pub mod build;
pub mod history;
pub mod rule;

pub use boundary::{Malformed, RawWrite, WriteField};

/// Why the protected resource refused an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResourceError {
    /// Fencing: a holder with a newer token has already been here.
    StaleToken {
        presented: FencingToken,
        highest_seen: FencingToken,
    },
    /// The write could not be read: a field is missing or is not a number the store accepts.
    Malformed(Malformed),
}

/// A read of the count, or a write of a new count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AccessKind {
    Read,
    Write { value: u64 },
}

/// What lock holders say to the protected resource, and its answers. (The invoice store, the same
/// actor in the scheduler world, speaks the scheduler's [`InvoiceMessage`]s.)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResourceMessage {
    /// `op` identifies the message (the same on a retry only with an idempotency key); `intent` names
    /// the job, for the checkers.
    Access {
        kind: AccessKind,
        token: FencingToken,
        op: u64,
        idempotent: bool,
        intent: u64,
        /// The record accessed: 0 is the inventory count; the work queue uses one per account.
        account: u32,
    },
    AccessReply {
        op: u64,
        result: Result<u64, ResourceError>,
    },
    /// A write as text, read at the store's front door (`boundary.rs`) before anything else. Only a
    /// client made to misbehave sends one ([`crate::contract::action::Action::MalformedWrite`]), so
    /// its label says what it is meant to be.
    RawWrite { op: u64, write: RawWrite },
}

impl ResourceMessage {
    pub fn label(&self) -> &'static str {
        match self {
            ResourceMessage::Access {
                kind: AccessKind::Read,
                ..
            } => "Read",
            ResourceMessage::Access { .. } => "Write",
            ResourceMessage::AccessReply { result: Ok(_), .. } => "Access ok",
            ResourceMessage::AccessReply {
                result: Err(ResourceError::Malformed(_)),
                ..
            } => "Malformed",
            ResourceMessage::AccessReply { .. } => "Stale token",
            ResourceMessage::RawWrite { .. } => "Malformed write",
        }
    }
}

/// What the protected resource did with one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessOutcome {
    Accepted,
    /// A retried write whose idempotency key was already applied: acknowledged, not applied again.
    Duplicate,
    /// Fencing: the token is lower than the highest the resource has seen.
    StaleToken,
    /// The write could not be read (`boundary.rs`): refused before any check, nothing changed.
    Malformed(Malformed),
}

/// What the resource tells the checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResourceFact {
    /// The protected resource handled one access (a read or a write carrying a fencing token).
    ResourceAccess {
        client: NodeId,
        token: FencingToken,
        write: bool,
        outcome: AccessOutcome,
        /// The count after the access.
        value: u64,
        highest_seen: FencingToken,
        /// The job this access belongs to (the same across retries), for the lost-update checker.
        intent: u64,
        /// The record accessed (0: the inventory count; the work queue's accounts from 1).
        account: u32,
    },
}

/// What a world's message type must carry for the store: accesses and invoices, and the facts about
/// them.
pub trait ResourceWire:
    Carries<ResourceMessage>
    + Carries<InvoiceMessage>
    + Observes<ResourceFact>
    + Observes<SchedulerFact>
{
}

impl<M> ResourceWire for M where
    M: Carries<ResourceMessage>
        + Carries<InvoiceMessage>
        + Observes<ResourceFact>
        + Observes<SchedulerFact>
{
}

/// Ledger entries kept in full.
pub const LEDGER_CAP: usize = 4_096;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LedgerEntry {
    pub client: NodeId,
    pub token: FencingToken,
    /// `None` for a read, the value written for a write.
    pub write: Option<u64>,
    pub outcome: AccessOutcome,
    pub highest_seen: FencingToken,
    /// The count after the access.
    pub value: u64,
    pub local_us: u64,
}

#[derive(Clone, Debug, Hash)]
pub struct Resource {
    pub fencing: bool,
    pub value: u64,
    pub highest_seen: FencingToken,
    pub ledger: VecDeque<LedgerEntry>,
    pub accepted: u64,
    pub rejected: u64,
    /// Of `rejected`, the writes (the rest were reads).
    pub rejected_writes: u64,
    pub duplicates: u64,
    /// Writes refused at the front door because they could not be read (not counted in `rejected`,
    /// which is about fencing).
    pub malformed: u64,
    /// Repeats recognised under a newer token than the write they repeat: a batch redone under a
    /// new lock after its first write had in fact landed.
    pub redos_recognised: u64,
    /// What an idempotency key names, and so which check comes first.
    pub idempotency_scope: IdempotencyScope,
    /// Last idempotency key applied per client, with the token of that write.
    applied: BTreeMap<NodeId, (u64, FencingToken)>,
    /// Invoice store: who generated each minute's invoices (more than one entry = duplicates).
    pub invoices: BTreeMap<u64, Vec<NodeId>>,
    /// Invoice store: runs refused for a token below the highest seen.
    pub refused_invoices: u64,
    /// Invoice store: last run applied per client (a duplicated message is not a second run).
    last_run: BTreeMap<NodeId, u64>,
    /// Work queue: balance per account other than 0 (account 0 is `value`).
    pub accounts: BTreeMap<u32, u64>,
    /// A learner's decision on each access, in place of ours (`rule.rs`); empty unless the lab set it.
    pub write_rule: RoleSlot<dyn StoreWriteRule>,
}

impl Resource {
    pub fn new(fencing: bool, initial_count: u64) -> Resource {
        Resource {
            fencing,
            value: initial_count,
            highest_seen: FencingToken::ZERO,
            ledger: VecDeque::new(),
            accepted: 0,
            rejected: 0,
            rejected_writes: 0,
            duplicates: 0,
            malformed: 0,
            redos_recognised: 0,
            idempotency_scope: IdempotencyScope::Message,
            applied: BTreeMap::new(),
            invoices: BTreeMap::new(),
            refused_invoices: 0,
            last_run: BTreeMap::new(),
            accounts: BTreeMap::new(),
            write_rule: RoleSlot::EMPTY,
        }
    }

    /// The same store keying writes as `scope` says.
    pub fn with_idempotency_scope(mut self, scope: IdempotencyScope) -> Resource {
        self.idempotency_scope = scope;
        self
    }

    /// Invoice store: fencing first, then the optional "only if absent" check, then the write.
    fn invoice<M: ResourceWire>(
        &mut self,
        client: NodeId,
        minute: u64,
        token: FencingToken,
        (if_absent, run): (bool, u64),
        effects: &mut Effects<M>,
    ) -> InvoiceMessage {
        if self.last_run.get(&client) == Some(&run) {
            return InvoiceMessage::InvoiceReply {
                minute,
                written: false,
                refused: false,
            };
        }
        self.last_run.insert(client, run);
        let refused = self.fencing && token < self.highest_seen;
        let existing = self.invoices.get(&minute).map_or(0, Vec::len);
        let already_done = if_absent && existing > 0;
        let written = !(refused || already_done);
        if refused {
            self.refused_invoices += 1;
        } else {
            self.highest_seen = self.highest_seen.max(token);
        }
        if written {
            self.invoices.entry(minute).or_default().push(client);
            effects.persist("invoices");
        }
        if written || refused {
            effects.observe(SchedulerFact::InvoiceWritten {
                client,
                minute,
                token,
                duplicate: written && existing > 0,
                refused,
            });
        }
        InvoiceMessage::InvoiceReply {
            minute,
            written,
            refused,
        }
    }

    /// The value of `account` (0 is the inventory count).
    pub fn balance(&self, account: u32) -> u64 {
        match account {
            0 => self.value,
            _ => self.accounts.get(&account).copied().unwrap_or(0),
        }
    }

    fn set_balance(&mut self, account: u32, value: u64) {
        match account {
            0 => self.value = value,
            _ => {
                self.accounts.insert(account, value);
            }
        }
    }

    /// One access: fencing first, then the idempotency key, then the read or write itself (by batch,
    /// the key comes first).
    pub fn access(
        &mut self,
        client: NodeId,
        kind: AccessKind,
        token: FencingToken,
        (op, intent): (u64, u64),
        idempotent: bool,
        account: u32,
    ) -> (AccessOutcome, Result<u64, ResourceError>) {
        if let Some(rule) = self.write_rule.0.clone() {
            let message = (op, intent, idempotent);
            return self.access_by_rule(&*rule, client, (kind, token), message, account);
        }
        let write = matches!(kind, AccessKind::Write { .. });
        let by_batch = self.idempotency_scope == IdempotencyScope::Batch;
        let key = if by_batch { intent } else { op };
        if by_batch && write && idempotent {
            if let Some(answer) = self.repeat(client, key, token, account) {
                return answer;
            }
        }
        if self.fencing && token < self.highest_seen {
            return self.refuse_stale(token, write);
        }
        self.highest_seen = self.highest_seen.max(token);
        let AccessKind::Write { value } = kind else {
            self.accepted += 1;
            return (AccessOutcome::Accepted, Ok(self.balance(account)));
        };
        if idempotent {
            if let Some(answer) = self.repeat(client, key, token, account) {
                return answer;
            }
        }
        self.applied.insert(client, (key, token));
        self.set_balance(account, value);
        self.accepted += 1;
        (AccessOutcome::Accepted, Ok(value))
    }

    /// Fencing's refusal: a newer holder's token has been here. Counted, nothing changed.
    fn refuse_stale(
        &mut self,
        token: FencingToken,
        write: bool,
    ) -> (AccessOutcome, Result<u64, ResourceError>) {
        self.rejected += 1;
        self.rejected_writes += u64::from(write);
        let error = ResourceError::StaleToken {
            presented: token,
            highest_seen: self.highest_seen,
        };
        (AccessOutcome::StaleToken, Err(error))
    }

    /// A write whose key `client` has already applied: acknowledged with the current value.
    fn repeat(
        &mut self,
        client: NodeId,
        key: u64,
        token: FencingToken,
        account: u32,
    ) -> Option<(AccessOutcome, Result<u64, ResourceError>)> {
        let (applied_key, applied_token) = *self.applied.get(&client)?;
        if applied_key != key {
            return None;
        }
        self.duplicates += 1;
        if token > applied_token {
            self.redos_recognised += 1;
        }
        Some((AccessOutcome::Duplicate, Ok(self.balance(account))))
    }
}

impl Resource {
    /// One access arriving: apply it, write the ledger, tell the checkers, answer.
    fn on_access<M: ResourceWire>(
        &mut self,
        from: NodeId,
        local_now_us: u64,
        message: &ResourceMessage,
        effects: &mut Effects<M>,
    ) {
        let ResourceMessage::Access {
            kind,
            token,
            op,
            idempotent,
            intent,
            account,
        } = message
        else {
            return;
        };
        let (outcome, result) =
            self.access(from, *kind, *token, (*op, *intent), *idempotent, *account);
        let write = match kind {
            AccessKind::Write { value } => Some(*value),
            AccessKind::Read => None,
        };
        if self.ledger.len() >= LEDGER_CAP {
            self.ledger.pop_front();
        }
        self.ledger.push_back(LedgerEntry {
            client: from,
            token: *token,
            write,
            outcome,
            highest_seen: self.highest_seen,
            value: self.balance(*account),
            local_us: local_now_us,
        });
        effects.persist("resource");
        effects.observe(ResourceFact::ResourceAccess {
            client: from,
            token: *token,
            write: write.is_some(),
            outcome,
            value: self.balance(*account),
            highest_seen: self.highest_seen,
            intent: *intent,
            account: *account,
        });
        let reply = ResourceMessage::AccessReply { op: *op, result };
        effects.send(from, reply);
    }
}

impl<M: ResourceWire> Protocol<M> for Resource {
    fn handle(&mut self, local_now_us: u64, input: Input<'_, M>, effects: &mut Effects<M>) {
        match input {
            Input::Message { from, message } => {
                // Messages of other protocols never reach the store; they fall through here.
                if let Some(ResourceMessage::RawWrite { op, write }) =
                    Carries::<ResourceMessage>::peel(message)
                {
                    self.on_raw_write(from, local_now_us, (*op, write), effects);
                } else if let Some(access) = Carries::<ResourceMessage>::peel(message) {
                    self.on_access(from, local_now_us, access, effects);
                } else if let Some(InvoiceMessage::Invoice {
                    minute,
                    token,
                    if_absent,
                    run,
                }) = Carries::<InvoiceMessage>::peel(message)
                {
                    let reply = self.invoice(from, *minute, *token, (*if_absent, *run), effects);
                    effects.send(from, reply);
                }
            }
            Input::Client { request_id, .. } => {
                let error = ClientError::NotLeader { leader_hint: None };
                effects.reply(request_id, ClientOutcome::Rejected(error));
            }
            _ => {}
        }
    }

    /// Storage: everything is durable.
    fn crash(&mut self) {}

    fn summary(&self) -> ActorSummary {
        ActorSummary::WITHOUT_LOG
    }
}

/// The store's accesses in plain words: accepted writes, retries recognised by their idempotency key,
/// and writes refused for a stale fencing token (with both numbers).
pub struct StoreDescriber {
    /// The store checks fencing tokens (otherwise the numbers are Redis values and are not shown).
    pub fenced: bool,
}

impl StoreDescriber {
    fn access(
        &self,
        store: NodeId,
        fact: &ResourceFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        let ResourceFact::ResourceAccess {
            client,
            token,
            write,
            outcome,
            value,
            highest_seen,
            ..
        } = *fact;
        let (store_name, client_name) = (telling.name(store), telling.name(client));
        let nodes = vec![client, store];
        let described = match outcome {
            AccessOutcome::StaleToken => Described::new(
                Weight::Key,
                format!(
                    "{store_name} refuses {client_name}'s {}: its token {token} is below {highest_seen}, \
                     the highest {store_name} has seen, so a newer lock holder has written since",
                    if write { "write" } else { "read" }
                ),
                nodes,
            ),
            AccessOutcome::Duplicate => Described::new(
                Weight::Notable,
                format!(
                    "{store_name} recognises {client_name}'s retry by its idempotency key: it \
                     acknowledges it without applying it a second time"
                ),
                nodes,
            ),
            AccessOutcome::Accepted if write => {
                let with = if self.fenced { format!(" with token {token}") } else { String::new() };
                Described::new(
                    Weight::Routine,
                    format!("{store_name} accepts {client_name}'s write{with}; the value is now {value}"),
                    nodes,
                )
                .coalescing("accepted-write")
            }
            AccessOutcome::Accepted => return None,
            AccessOutcome::Malformed(malformed) => Described::new(
                Weight::Key,
                format!(
                    "{store_name} refuses {client_name}'s write as malformed: it carries {}. \
                     {store_name} reads a request's fields before anything else, so it changes \
                     nothing and tells {client_name} what is wrong instead of comparing tokens",
                    malformed.text()
                ),
                nodes,
            ),
        };
        Some(described)
    }
}

impl Describer<ResourceFact> for StoreDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &ResourceFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        self.access(node, fact, telling)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: NodeId = NodeId(3);
    const B: NodeId = NodeId(4);

    fn token(value: u64) -> FencingToken {
        FencingToken(value)
    }

    /// A applies batch 7 with token 5, B then writes with token 6, and A's retry of batch 7 arrives
    /// (as message 2: a redo, or a copy the network kept). Returns what the store makes of the retry.
    fn late_repeat(scope: IdempotencyScope) -> (AccessOutcome, Resource) {
        let mut store = Resource::new(true, 10).with_idempotency_scope(scope);
        let write = |value| AccessKind::Write { value };
        let first = store.access(A, write(9), token(5), (1, 7), true, 0);
        assert_eq!(first.0, AccessOutcome::Accepted);
        let second = store.access(B, write(8), token(6), (1, 8), true, 0);
        assert_eq!(second.0, AccessOutcome::Accepted);
        let op = match scope {
            IdempotencyScope::Message => 1,
            IdempotencyScope::Batch => 2,
        };
        let (outcome, _) = store.access(A, write(9), token(5), (op, 7), true, 0);
        (outcome, store)
    }

    #[test]
    fn by_batch_a_repeat_of_an_applied_write_is_answered_by_its_key_before_the_token() {
        let (outcome, store) = late_repeat(IdempotencyScope::Batch);
        assert_eq!(outcome, AccessOutcome::Duplicate);
        assert_eq!((store.value, store.rejected, store.duplicates), (8, 0, 1));
        // The same token as the write it repeats: a retry, not a redo under a new lock.
        assert_eq!(store.redos_recognised, 0);
    }

    #[test]
    fn by_message_the_token_is_checked_first_as_every_earlier_run_did() {
        let (outcome, store) = late_repeat(IdempotencyScope::Message);
        assert_eq!(outcome, AccessOutcome::StaleToken);
        assert_eq!((store.value, store.rejected, store.duplicates), (8, 1, 0));
    }

    #[test]
    fn a_redo_under_a_newer_token_is_counted_as_one() {
        let mut store = Resource::new(true, 10).with_idempotency_scope(IdempotencyScope::Batch);
        let write = AccessKind::Write { value: 9 };
        assert_eq!(store.access(A, write, token(5), (1, 7), true, 0).1, Ok(9));
        let (outcome, _) = store.access(A, write, token(9), (4, 7), true, 0);
        assert_eq!(outcome, AccessOutcome::Duplicate);
        assert_eq!((store.value, store.redos_recognised), (9, 1));
        // A new batch under the same token is a new write.
        let (outcome, _) = store.access(
            A,
            AccessKind::Write { value: 8 },
            token(9),
            (5, 11),
            true,
            0,
        );
        assert_eq!((outcome, store.value), (AccessOutcome::Accepted, 8));
    }
}
