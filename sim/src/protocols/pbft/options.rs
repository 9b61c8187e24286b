//! The PBFT world's scenario table `[pbft]` (`quorum`, `request_interval_ms`, `view_timeout_ms`) and
//! the world a file that sets nothing gets: one client, the safe quorum 2f + 1. The parser, validator
//! and export read this description through the registry entry.

use crate::base::ids::MAX_NODES;
use crate::contract::config::{LockServiceOptions, PbftOptions, ProtocolConfig};
use crate::contract::entry::{OptionKey, OptionSetting, OptionTable, OptionValue};

/// Longest request interval or view timeout a file may set.
pub const MAX_PBFT_MS: u64 = 60_000;

pub const TABLE: OptionTable = OptionTable {
    name: "pbft",
    key_prefix: "pbft.",
    keys: &[
        OptionKey {
            name: "quorum",
            about: "Matching messages a replica waits for; 0 means the safe 2f + 1. Anything lower is UNSAFE: two quorums need not share an honest replica.",
            value: OptionValue::Unsigned {
                low: 0,
                high: MAX_NODES as u64,
            },
            read: |protocol| OptionSetting::Unsigned(u64::from(options(protocol).quorum)),
            write: |protocol, setting| {
                options_mut(protocol, |options| {
                    options.quorum = setting.unsigned().min(MAX_NODES as u64) as u32
                })
            },
        },
        OptionKey {
            name: "request_interval_ms",
            about: "A client sends its next request this long after its last one was answered.",
            value: OptionValue::Unsigned {
                low: 1,
                high: MAX_PBFT_MS,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).request_interval_ms),
            write: |protocol, setting| {
                options_mut(protocol, |options| {
                    options.request_interval_ms = setting.unsigned()
                })
            },
        },
        OptionKey {
            name: "view_timeout_ms",
            about: "How long a replica waits for a request to execute before it asks for a new primary (doubling with each view change in a row).",
            value: OptionValue::Unsigned {
                low: 1,
                high: MAX_PBFT_MS,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).view_timeout_ms),
            write: |protocol, setting| {
                options_mut(protocol, |options| {
                    options.view_timeout_ms = setting.unsigned()
                })
            },
        },
    ],
    population: Some("clients"),
};

/// One client (`[pbft] clients`, kept as `workers`); the other lock options mean nothing to PBFT.
pub fn defaults() -> ProtocolConfig {
    let locks = LockServiceOptions {
        fencing: false,
        workers: 1,
        ..LockServiceOptions::default()
    };
    ProtocolConfig::Pbft(locks, PbftOptions::default())
}

fn options(protocol: &ProtocolConfig) -> PbftOptions {
    match protocol {
        ProtocolConfig::Pbft(_, options) => *options,
        _ => unreachable!("the [pbft] table is read only in a PBFT world"),
    }
}

fn options_mut(protocol: &mut ProtocolConfig, change: impl FnOnce(&mut PbftOptions)) {
    if let ProtocolConfig::Pbft(_, options) = protocol {
        change(options);
    }
}
