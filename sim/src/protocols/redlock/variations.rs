//! The variation that crosses two worlds: the fenced lock service against Redlock on the same number
//! of servers. It lives here, beside Redlock, and reads the lock service's options from the sibling
//! folder the lock family shares.

use super::entry::unfenced_locks;
use crate::contract::config::{LockServiceOptions, ProtocolConfig};
use crate::contract::entry::parts::VariationHook;

pub const REDLOCK: VariationHook = VariationHook {
    name: "redlock",
    value: |protocol| match protocol {
        ProtocolConfig::LockService(_) => Some("fenced lock service".into()),
        ProtocolConfig::Redlock(_) => Some("Redlock".into()),
        _ => None,
    },
    flip: |protocol| match protocol {
        ProtocolConfig::LockService(locks) => {
            *protocol = ProtocolConfig::Redlock(shared_lock_options(locks, unfenced_locks()));
        }
        ProtocolConfig::Redlock(locks) => {
            let defaults = LockServiceOptions::default();
            *protocol = ProtocolConfig::LockService(shared_lock_options(locks, defaults));
        }
        _ => {}
    },
};

/// The lock options every lock world takes, kept; the keys only some worlds take (renew, fencing,
/// drift allowance) at the other world's defaults (`into`), as a file for it that does not set them
/// would get.
fn shared_lock_options(locks: &LockServiceOptions, into: LockServiceOptions) -> LockServiceOptions {
    LockServiceOptions {
        workers: locks.workers,
        lease_ttl_ms: locks.lease_ttl_ms,
        think_ms: locks.think_ms,
        work_ms: locks.work_ms,
        op_timeout_ms: locks.op_timeout_ms,
        initial_count: locks.initial_count,
        check_lease_before_write: locks.check_lease_before_write,
        idempotency_key: locks.idempotency_key,
        ..into
    }
}
