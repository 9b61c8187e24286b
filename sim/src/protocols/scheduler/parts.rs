//! What the invoice scheduler's world owns beyond its instances, for its registry entry: the length
//! of its billing minute, which sweeps and lesson checks count missed minutes by, whether a leader
//! does the invoicing, the option compare mode flips, and its lesson checkpoints (`checkpoints.rs`).

use crate::contract::checkpoint::CheckpointSpec;
use crate::contract::config::{ProtocolConfig, SchedulerMode};
use crate::contract::entry::parts::{Invoicing, VariationHook, WorldParts};

#[derive(Debug)]
pub struct SchedulerParts;

impl WorldParts for SchedulerParts {
    fn invoicing(&self, protocol: &ProtocolConfig) -> Option<Invoicing> {
        let ProtocolConfig::Scheduler(_, scheduler) = protocol else {
            return None;
        };
        Some(Invoicing {
            minute_ms: scheduler.minute_ms,
            mode: scheduler.mode.name(),
            one_leader: matches!(
                scheduler.mode,
                SchedulerMode::LeaderElection | SchedulerMode::LeaderFencing
            ),
        })
    }

    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::LEADER]
    }

    fn checkpoints(&self) -> &'static [CheckpointSpec] {
        super::checkpoints::CHECKPOINTS
    }
}
