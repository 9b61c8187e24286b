//! What the work-queue world owns beyond its workers, for its registry entry: whether its accounts
//! are dealt out in partitions, which arms the lock checker's Partition Ownership and names the mode
//! in the report, and the options compare mode flips.

use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::{VariationHook, WorldParts};

#[derive(Debug)]
pub struct WorkQueueParts;

impl WorldParts for WorkQueueParts {
    fn partitions_accounts(&self, protocol: &ProtocolConfig) -> bool {
        matches!(protocol, ProtocolConfig::WorkQueue(_, queue) if queue.partitioned)
    }

    fn queue_mode(&self, protocol: &ProtocolConfig) -> Option<&'static str> {
        match protocol {
            ProtocolConfig::WorkQueue(_, queue) if queue.partitioned => Some("partitioned"),
            ProtocolConfig::WorkQueue(..) => Some("global-lock"),
            _ => None,
        }
    }

    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::FENCING, super::variations::PARTITIONED]
    }
}
