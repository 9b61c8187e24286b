//! The scheduler's option compare mode can flip: the lock taken every run against a long-lived
//! leader.

use crate::contract::config::{ProtocolConfig, SchedulerMode};
use crate::contract::entry::parts::VariationHook;

pub const LEADER: VariationHook = VariationHook {
    name: "scheduler-leader",
    value: |protocol| match protocol {
        ProtocolConfig::Scheduler(_, options) => Some(options.mode.name().into()),
        _ => None,
    },
    flip: |protocol| {
        if let ProtocolConfig::Scheduler(_, options) = protocol {
            options.mode = match options.mode {
                SchedulerMode::LockEveryRun => SchedulerMode::LeaderElection,
                _ => SchedulerMode::LockEveryRun,
            }
        }
    },
};
