//! The options every coordination world shares: how many workers, their leases, what the store
//! fences, and the lock-service and Redis knobs a few worlds read. Every `ProtocolConfig` variant but
//! plain Raft carries one (see `contract::config`, which re-exports these under their old paths); they
//! live apart so that the config file stays about which world a run builds.

use serde::{Deserialize, Serialize};

/// Settings of the lock-service lesson. Defaults are documented in `sim/SCENARIOS.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LockServiceOptions {
    /// Lock clients, named `A`, `B`, ... (1 to 26).
    pub workers: usize,
    /// Lease time to live granted by the service.
    pub lease_ttl_ms: u64,
    /// How often a worker sends a keep-alive for its lease.
    pub renew_ms: u64,
    /// The resource rejects accesses carrying a token lower than the highest it has seen.
    pub fencing: bool,
    /// A worker checks, on its own clock, that its lease still holds just before it writes.
    pub check_lease_before_write: bool,
    /// Retries carry the same idempotency key, so the service and the resource apply them once.
    pub idempotency_key: bool,
    /// Pause between two jobs of one worker.
    pub think_ms: u64,
    /// Time a worker spends between reading the count and writing it back (the "modify").
    pub work_ms: u64,
    /// How long a worker waits for one answer (lock service or resource) before calling it unknown.
    pub op_timeout_ms: u64,
    /// The inventory count the resource starts with.
    pub initial_count: u64,
    /// Redis lock only: release with a plain `DEL` instead of compare-and-delete (unsafe on purpose).
    #[serde(default)]
    pub unchecked_release: bool,
    /// Redlock only: subtracted from the validity time to allow for clock drift between servers.
    #[serde(default)]
    pub drift_allowance_ms: u64,
    /// Lock service only: what an idempotency key names (see [`IdempotencyScope`]).
    #[serde(default)]
    pub idempotency_scope: IdempotencyScope,
    /// Lock service only (`[lock_service] lock_delay_ms`): after a lease is invalidated (it ran out, or
    /// its session was closed) its key is granted to no one for this long on the leader's clock; a
    /// holder's own release imposes no delay. 0 (the default) turns it off.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lock_delay_ms: u64,
    /// Redis lock only (`[locks] set_nx_retries`): how many times a worker asks again, with
    /// `SET NX GET`, after a `SET NX` went unanswered, before it gives the attempt up. 0 (the default,
    /// and every run before the option) gives up at the first timeout.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub set_nx_retries: u32,
}

/// Most retries of an unanswered `SET NX` a scenario may ask for.
pub const MAX_SET_NX_RETRIES: u32 = 5;

fn is_zero_u32(value: &u32) -> bool {
    *value == 0
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// What a worker's idempotency key names, when it sends one.
///
/// `Message` is how every run before this option behaved, kept as the default so that old share links
/// and trace files replay unchanged: the key is the write's message id, an abandoned batch is dropped,
/// and the store checks the token before the key. `Batch` is the design the guided lab describes: the
/// key names the batch, a batch abandoned for any reason is redone under a new lock with the same key,
/// and the store answers a repeat of an applied write by its key before it looks at the token (the
/// repeat changes nothing, so there is nothing to fence).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdempotencyScope {
    #[default]
    Message,
    Batch,
}

impl IdempotencyScope {
    /// The spellings in scenario files, in the order of the variants.
    pub const NAMES: &'static [&'static str] = &["message", "batch"];

    pub fn name(self) -> &'static str {
        match self {
            IdempotencyScope::Message => "message",
            IdempotencyScope::Batch => "batch",
        }
    }

    pub fn from_name(name: &str) -> Option<IdempotencyScope> {
        match name {
            "message" => Some(IdempotencyScope::Message),
            "batch" => Some(IdempotencyScope::Batch),
            _ => None,
        }
    }
}

impl Default for LockServiceOptions {
    fn default() -> Self {
        LockServiceOptions {
            workers: 2,
            lease_ttl_ms: 1_000,
            renew_ms: 300,
            fencing: true,
            check_lease_before_write: true,
            idempotency_key: true,
            think_ms: 100,
            work_ms: 50,
            op_timeout_ms: 300,
            initial_count: 1_000,
            unchecked_release: false,
            drift_allowance_ms: 12,
            idempotency_scope: IdempotencyScope::Message,
            lock_delay_ms: 0,
            set_nx_retries: 0,
        }
    }
}
