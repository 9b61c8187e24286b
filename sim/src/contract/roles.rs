//! Roles a learner may write: three small decisions, each a pure function behind a trait, that the
//! guided lab lets a learner replace while every other part of the world stays ours.
//!
//! - [`StoreWriteRule`]: the fenced store's decision on one access (the token check and the
//!   idempotency key), in `protocols::resource`.
//! - [`ReleaseRule`]: the Redis-style server's decision on a `DEL` (the compare-and-delete a client
//!   ships as a script), in `protocols::redlock`.
//! - [`JobGuardRule`]: the scheduler leader's guard at the top of a minute (run or not, which token to
//!   carry, write only if absent), in `protocols::scheduler`.
//!
//! Each decision takes its state as an argument and gives the new state back, so an actor that holds a
//! role stays a plain value: cloned for time travel and the search, hashed the same with or without
//! one. A role holds no state of its own that changes a run (the lab's script roles keep only a log
//! of their errors, which nothing in the world reads), so [`RoleSlot`] leaves it out of `Hash`.
//!
//! An actor with an empty slot runs its own code exactly as before: nothing here is called, and every
//! pinned trace hash stays where it was. The scripting engine behind the learner's roles lives in
//! `lab/`, above every layer that builds or parses a world; this module names only the traits.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// One access as the store's rule sees it. Tokens and keys are the wire's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreAccess {
    /// A write (false: a read).
    pub write: bool,
    /// The fencing token the access carries.
    pub token: u64,
    /// The highest token the store has let through so far.
    pub highest_seen: u64,
    /// The access carries an idempotency key.
    pub idempotent: bool,
    /// Its idempotency key (the message, or the batch when the world keys writes by batch).
    pub key: u64,
    /// The key of the last write this client had applied, if any.
    pub applied_key: Option<u64>,
}

/// What the store does with one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreVerdict {
    /// Apply it (a read returns the value, a write sets it).
    Accept,
    /// A repeat of an applied write: acknowledge it, do not apply it again.
    Duplicate,
    /// Refuse it: a newer holder has been here.
    Stale,
}

/// The rule's answer: the verdict and the highest token to remember from now on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StoreDecision {
    pub verdict: StoreVerdict,
    pub highest_seen: u64,
}

/// The fenced store's decision on one access.
pub trait StoreWriteRule: fmt::Debug + Send + Sync {
    fn decide(&self, access: &StoreAccess) -> StoreDecision;
}

/// A `DEL` arriving at a Redis-style server whose key is live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReleaseRequest {
    /// The value the key holds (the holder's random value).
    pub held_value: u64,
    /// The node that set it (an index: n1 is 0).
    pub held_by: u16,
    /// The value the `DEL` names.
    pub value: u64,
    /// The node that sent the `DEL`.
    pub from: u16,
}

/// Whether a `DEL` removes the key (true) or leaves it to its holder and its time to live.
pub trait ReleaseRule: fmt::Debug + Send + Sync {
    fn release(&self, request: &ReleaseRequest) -> bool;
}

/// A scheduler instance at the top of a minute, in a leader mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GuardInput {
    /// The minute its clock shows.
    pub minute: u64,
    /// Its clock now, in µs.
    pub now_us: u64,
    /// Until when it believes its lease lasts, on its own clock.
    pub lease_until_us: u64,
    /// The lock service has granted it the lease (it may have run out since).
    pub holds_lease: bool,
    /// The fencing token of its lease (0 if it never held one): its term as leader.
    pub term: u64,
}

/// The guard's answer, carried to the write that ends the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GuardDecision {
    /// Generate this minute's invoices.
    pub run: bool,
    /// The token the invoice carries to the store.
    pub token: u64,
    /// Ask the store to write only if the minute has no invoice yet.
    pub if_absent: bool,
}

/// The scheduler leader's guard at the top of a minute.
pub trait JobGuardRule: fmt::Debug + Send + Sync {
    fn guard(&self, input: &GuardInput) -> GuardDecision;
}

/// A role an actor may be given: empty unless the lab put one in. Cloning shares the role; hashing
/// leaves it out (it changes no state of its own); two slots compare equal whatever they hold.
pub struct RoleSlot<T: ?Sized>(pub Option<Arc<T>>);

impl<T: ?Sized> RoleSlot<T> {
    pub const EMPTY: RoleSlot<T> = RoleSlot(None);

    pub fn get(&self) -> Option<&T> {
        self.0.as_deref()
    }
}

impl<T: ?Sized> Default for RoleSlot<T> {
    fn default() -> Self {
        RoleSlot(None)
    }
}

impl<T: ?Sized> Clone for RoleSlot<T> {
    fn clone(&self) -> Self {
        RoleSlot(self.0.clone())
    }
}

impl<T: ?Sized> Hash for RoleSlot<T> {
    fn hash<H: Hasher>(&self, _state: &mut H) {}
}

impl<T: ?Sized> PartialEq for RoleSlot<T> {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl<T: ?Sized> Eq for RoleSlot<T> {}

impl<T: ?Sized + fmt::Debug> fmt::Debug for RoleSlot<T> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => formatter.write_str("ours"),
            Some(role) => write!(formatter, "replaced by {role:?}"),
        }
    }
}

/// The roles one run replaces: each `None` keeps ours. The lab builds this; the world hands each
/// role to the actors that play it.
#[derive(Clone, Default)]
pub struct Roles {
    pub store_write: Option<Arc<dyn StoreWriteRule>>,
    pub release: Option<Arc<dyn ReleaseRule>>,
    pub job_guard: Option<Arc<dyn JobGuardRule>>,
}
