//! The work queue's scenario table `[queue]` (`partitioned`, `accounts`) and the world a file that sets
//! nothing gets: four fenced workers owning partitions of 64 accounts. The scenario parser, validator
//! and export read this description through the registry entry.

use crate::contract::config::{LockServiceOptions, ProtocolConfig, QueueOptions};
use crate::contract::entry::{OptionKey, OptionSetting, OptionTable, OptionValue};

/// Most accounts a work queue may have (`[queue] accounts`).
pub const MAX_ACCOUNTS: u64 = 10_000;

pub const TABLE: OptionTable = OptionTable {
    name: "queue",
    key_prefix: "queue.",
    keys: &[
        OptionKey {
            name: "partitioned",
            about: "Workers own disjoint sets of accounts and take no lock; off, every job takes one global lock.",
            value: OptionValue::Flag,
            read: |protocol| OptionSetting::Flag(queue(protocol).partitioned),
            write: |protocol, setting| queue_mut(protocol).partitioned = setting.flag(),
        },
        OptionKey {
            name: "accounts",
            about: "How many accounts the jobs are keyed by.",
            value: OptionValue::Unsigned {
                low: 1,
                high: MAX_ACCOUNTS,
            },
            read: |protocol| OptionSetting::Unsigned(queue(protocol).accounts.into()),
            // The limit above keeps the count inside `u32`.
            write: |protocol, setting| queue_mut(protocol).accounts = setting.unsigned() as u32,
        },
    ],
    population: None,
};

pub fn defaults() -> ProtocolConfig {
    let locks = LockServiceOptions {
        fencing: true,
        workers: 4,
        ..LockServiceOptions::default()
    };
    ProtocolConfig::WorkQueue(locks, QueueOptions::default())
}

fn queue(protocol: &ProtocolConfig) -> &QueueOptions {
    match protocol {
        ProtocolConfig::WorkQueue(_, queue) => queue,
        _ => unreachable!("the [queue] table is read only in a work-queue world"),
    }
}

fn queue_mut(protocol: &mut ProtocolConfig) -> &mut QueueOptions {
    match protocol {
        ProtocolConfig::WorkQueue(_, queue) => queue,
        _ => unreachable!("the [queue] table is written only in a work-queue world"),
    }
}
