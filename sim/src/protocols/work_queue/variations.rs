//! The work queue's options compare mode can flip: the store's fencing check, and partitions by
//! account against one global lock.

use crate::contract::config::{LockServiceOptions, ProtocolConfig, QueueOptions};
use crate::contract::entry::parts::{on_off, VariationHook};

pub const FENCING: VariationHook = VariationHook {
    name: "fencing",
    value: |protocol| queue(protocol).map(|(locks, _)| on_off("fencing", locks.fencing)),
    flip: |protocol| {
        if let ProtocolConfig::WorkQueue(locks, _) = protocol {
            locks.fencing = !locks.fencing;
        }
    },
};

pub const PARTITIONED: VariationHook = VariationHook {
    name: "queue-partitioned",
    value: |protocol| {
        queue(protocol).map(|(_, queue)| {
            if queue.partitioned {
                "partitioned queue".into()
            } else {
                "global lock".into()
            }
        })
    },
    flip: |protocol| {
        if let ProtocolConfig::WorkQueue(_, queue) = protocol {
            queue.partitioned = !queue.partitioned;
        }
    },
};

fn queue(protocol: &ProtocolConfig) -> Option<(&LockServiceOptions, &QueueOptions)> {
    match protocol {
        ProtocolConfig::WorkQueue(locks, queue) => Some((locks, queue)),
        _ => None,
    }
}
