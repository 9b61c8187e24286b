//! The lock service's scenario table `[lock_service]` (`lock_delay_ms`). The scenario parser, validator
//! and export read this description through the registry entry.
//!
//! Lock-delay is Consul's: a session has a TTL and a lock-delay; when the session is invalidated (its
//! TTL ran out, or it was destroyed) its locks are released, but none of them can be acquired again
//! until the lock-delay has passed. Consul takes 0 to 60 seconds and defaults to 15 s; a lock released
//! by its holder is free at once. (Consul documentation, "Sessions and distributed locks overview",
//! section Session Design; the delay is borrowed from Chubby's, which holds a lost lock back the same
//! way.) Here it defaults to 0, off, so every run made before the option existed stays the same.
//!
//! What it covers: a holder that wakes before the delay ends. The delay counts from the expiry the
//! leader saw, and a lease runs from the last keep-alive the leader received, not from the moment the
//! holder stalled, so the cover is shorter than TTL + lock-delay: with keep-alives every `renew_ms`
//! (and a worker granted from the queue renewing a full interval after its grant) only a pause under
//! TTL + lock-delay - 2 x `renew_ms` is sure to be covered (`tests/lock_delay_bound.rs`).

use crate::contract::config::ProtocolConfig;
use crate::contract::entry::{OptionKey, OptionSetting, OptionTable, OptionValue};

/// Longest lock-delay a file may ask for: Consul's own upper limit, 60 s.
pub const MAX_LOCK_DELAY_MS: u64 = 60_000;
/// Consul's default lock-delay (a documented value; this service's default is 0).
pub const CONSUL_DEFAULT_LOCK_DELAY_MS: u64 = 15_000;

pub const TABLE: OptionTable = OptionTable {
    name: "lock_service",
    key_prefix: "lock_service.",
    keys: &[OptionKey {
        name: "lock_delay_ms",
        about: "After a holder's session runs out, nobody may take its lock for this long (Consul's lock-delay; 0 is off).",
        value: OptionValue::Unsigned {
            low: 0,
            high: MAX_LOCK_DELAY_MS,
        },
        read: |protocol| {
            let delay_ms = protocol
                .lock_options()
                .map_or(0, |locks| locks.lock_delay_ms);
            OptionSetting::Unsigned(delay_ms)
        },
        write: |protocol, setting| {
            if let ProtocolConfig::LockService(locks) = protocol {
                locks.lock_delay_ms = setting.unsigned();
            }
        },
    }],
    population: None,
};
