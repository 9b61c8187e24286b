//! What the invoice scheduler's world owns beyond its instances, for its registry entry: the length
//! of its billing minute, which sweeps and lesson checks count missed minutes by.

use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::{VariationHook, WorldParts};

#[derive(Debug)]
pub struct SchedulerParts;

impl WorldParts for SchedulerParts {
    fn invoice_minute_ms(&self, protocol: &ProtocolConfig) -> Option<u64> {
        match protocol {
            ProtocolConfig::Scheduler(_, scheduler) => Some(scheduler.minute_ms),
            _ => None,
        }
    }

    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::LEADER]
    }
}
