//! The lock service's options compare mode can flip: the store's fencing check and the Consul-style
//! lock-delay.

use super::options::MAX_LOCK_DELAY_MS;
use crate::contract::config::{LockServiceOptions, ProtocolConfig};
use crate::contract::entry::parts::{on_off, VariationHook};

pub const FENCING: VariationHook = VariationHook {
    name: "fencing",
    value: |protocol| locks(protocol).map(|locks| on_off("fencing", locks.fencing)),
    flip: |protocol| {
        if let ProtocolConfig::LockService(locks) = protocol {
            locks.fencing = !locks.fencing;
        }
    },
};

pub const LOCK_DELAY: VariationHook = VariationHook {
    name: "lock-delay",
    value: |protocol| {
        locks(protocol).map(|locks| match locks.lock_delay_ms {
            0 => "lock-delay off".into(),
            delay_ms => format!("lock-delay {delay_ms} ms"),
        })
    },
    flip: |protocol| {
        if let ProtocolConfig::LockService(locks) = protocol {
            locks.lock_delay_ms = lock_delay_flipped_ms(locks);
        }
    },
};

fn locks(protocol: &ProtocolConfig) -> Option<&LockServiceOptions> {
    match protocol {
        ProtocolConfig::LockService(locks) => Some(locks),
        _ => None,
    }
}

/// The other side's lock-delay: off where it is on, and where it is off twice the lease TTL (within
/// the option's limit), long enough that a pause just past the TTL ends inside the delay.
pub fn lock_delay_flipped_ms(locks: &LockServiceOptions) -> u64 {
    match locks.lock_delay_ms {
        0 => locks.lease_ttl_ms.saturating_mul(2).min(MAX_LOCK_DELAY_MS),
        _ => 0,
    }
}
