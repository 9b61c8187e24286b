//! Lock facts in plain words: grants, releases and expiries, what clients believe, and what the
//! protected store does with each write (accepted, repeated, refused for a stale token).
//!
//! One describer serves two kinds of lock server. A replicated service (etcd-like, on Raft) reports
//! each change from every replica, so a change is told once, by its revision; its numbers are fencing
//! tokens, and it is told in etcd's words (LeaseGrant, a Txn creating the client's key under the lock's
//! prefix, LeaseKeepAlive, LeaseRevoke, a Watch on the predecessor key: see `etcd.rs`), so the story
//! reads like the calls a learner will later make. A Redis-style server reports its own key, its number
//! is a random value that fences nothing, and its key expires on that server's own clock.

use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};
use crate::protocols::lockservice::etcd::{lock_key, lock_name, lock_prefix};
use crate::protocols::lockservice::LockFact;

pub struct LockDescriber {
    /// Changes come from a replicated service (tell each revision once) rather than single servers.
    replicated: bool,
    /// The holder's number is a fencing token (otherwise a Redis value).
    fenced: bool,
    last_revision_told: u64,
    /// The revision and length of the newest lock-delay begun, told with the release it came with.
    delay_begun: Option<(u64, u64)>,
    /// The revision whose lock-delay's end was told last.
    last_delay_end_told: u64,
}

impl LockDescriber {
    /// The etcd-like service on Raft: one story per change, numbers are fencing tokens.
    pub fn service() -> LockDescriber {
        LockDescriber {
            replicated: true,
            fenced: true,
            last_revision_told: 0,
            delay_begun: None,
            last_delay_end_told: 0,
        }
    }

    /// Redis-style servers: each server's key is its own story, numbers are values.
    pub fn redis() -> LockDescriber {
        LockDescriber {
            replicated: false,
            fenced: false,
            last_revision_told: 0,
            delay_begun: None,
            last_delay_end_told: 0,
        }
    }

    /// Whether this change was already told (another replica applying the same revision).
    fn already_told(&mut self, revision: u64) -> bool {
        if !self.replicated {
            return false;
        }
        if revision <= self.last_revision_told {
            return true;
        }
        self.last_revision_told = revision;
        false
    }

    fn number(&self, token: FencingToken) -> String {
        let number = token.0;
        if self.fenced {
            format!("fencing token {number}")
        } else {
            // A Redis value is a large random number: its last digits are enough to tell two apart.
            format!("value …{:04}", number % 10_000)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn granted(
        &mut self,
        server: NodeId,
        key: u32,
        lease: u64,
        owner: NodeId,
        token: FencingToken,
        revision: u64,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        if self.already_told(revision) {
            return None;
        }
        let owner_name = telling.name(owner);
        let (text, nodes) = if self.replicated {
            let text = format!(
                "The lock service grants the lock to {owner_name} with {} (the revision of this \
                 grant, its key's mod_revision): its key {} is now the oldest under {}, and that \
                 number fences every write {owner_name} makes under lease {lease:x}",
                self.number(token),
                lock_key(key, lease),
                lock_prefix(key)
            );
            (text, vec![owner])
        } else {
            let text = format!(
                "{} sets the lock key for {owner_name} ({}); it will expire by {}'s own clock",
                telling.name(server),
                self.number(token),
                telling.name(server)
            );
            (text, vec![server, owner])
        };
        Some(Described::new(Weight::Notable, text, nodes))
    }

    /// A client's ask: in etcd a LeaseGrant, then a Txn that creates its own key under the lock's
    /// prefix only if no key of that name exists yet (`create_revision == 0`).
    fn requested(&self, client: NodeId, key: u32, telling: &Telling<'_>) -> String {
        let name = telling.name(client);
        if !self.replicated {
            return format!("{name} asks for the lock");
        }
        format!(
            "{name} asks for the lock: LeaseGrant, then a Txn that creates its key under {} if its \
             create_revision is 0; unless its key is the oldest there, it Watches the key just \
             before its own",
            lock_prefix(key)
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn released(
        &mut self,
        server: NodeId,
        (key, lease): (u32, u64),
        owner: NodeId,
        by: NodeId,
        token: FencingToken,
        expired: bool,
        revision: u64,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        if self.already_told(revision) {
            return None;
        }
        let owner_name = telling.name(owner);
        let number = self.number(token);
        let delay_ms = self
            .delay_begun
            .filter(|(begun_at, _)| *begun_at == revision)
            .map(|(_, delay_ms)| delay_ms);
        let text = match (expired, self.replicated) {
            (true, true) if delay_ms.is_some() => format!(
                "{owner_name}'s lease {lease:x} ({number}) expired, so the service deletes its key {}, \
                 but lock-delay keeps {} from everyone for {}: {owner_name} may only be paused and \
                 still at work, so the next holder waits out that time",
                lock_key(key, lease),
                lock_name(key),
                seconds(delay_ms.unwrap_or_default())
            ),
            (true, true) => format!(
                "{owner_name}'s lease {lease:x} ({number}) expired: no LeaseKeepAlive reached the \
                 service's leader in time, by its own clock, so its key {} is deleted and the \
                 lock is free again",
                lock_key(key, lease)
            ),
            (true, false) => format!(
                "The lock key for {owner_name} ({number}) expired on {}, by {}'s clock",
                telling.name(server),
                telling.name(server)
            ),
            (false, true) if by == owner => format!(
                "{owner_name} releases the lock ({number}) with LeaseRevoke: lease {lease:x} and its \
                 key {} are deleted; a client watching that key, if there is one, is next",
                lock_key(key, lease)
            ),
            (false, false) if by == owner => format!("{owner_name} releases the lock ({number})"),
            (false, _) => format!(
                "{} deletes the lock key that {owner_name} set ({number}): it removed someone \
                 else's lock",
                telling.name(by)
            ),
        };
        Some(Described::new(Weight::Notable, text, vec![owner, server]))
    }
}

impl Describer<LockFact> for LockDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &LockFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        match *fact {
            LockFact::LockGranted {
                key,
                lease,
                owner,
                token,
                revision,
            } => self.granted(node, key, lease, owner, token, revision, telling),
            LockFact::LockReleased {
                key,
                lease,
                owner,
                by,
                token,
                expired,
                revision,
            } => self.released(
                node,
                (key, lease),
                owner,
                by,
                token,
                expired,
                revision,
                telling,
            ),
            LockFact::LockRequested { key } => Some(
                Described::new(
                    Weight::Routine,
                    self.requested(node, key, telling),
                    vec![node],
                )
                .coalescing("lock-request"),
            ),
            LockFact::WatchNotified { .. } => None,
            LockFact::LockDelayStarted {
                delay_ms, revision, ..
            } => {
                // Told in the words of the release that follows it.
                self.delay_begun = Some((revision, delay_ms));
                None
            }
            LockFact::LockDelayEnded { key, revision } => {
                if revision <= self.last_delay_end_told {
                    return None;
                }
                self.last_delay_end_told = revision;
                let text = format!(
                    "Lock-delay is over: the service may grant {} again, to the client whose Watch \
                     on the deleted key is waiting",
                    lock_name(key)
                );
                Some(Described::new(Weight::Notable, text, vec![node]))
            }
        }
    }
}

/// A length of time in words: whole seconds as "2 s", anything else in milliseconds.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{ms} ms")
    }
}
