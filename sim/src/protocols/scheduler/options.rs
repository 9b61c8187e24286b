//! The scheduler's scenario table `[scheduler]` (`mode`, `minute_ms`) and the world a file that sets
//! nothing gets: three instances, in the mode that fences. The scenario parser, validator and export
//! read this description through the registry entry.

use crate::contract::config::{
    LockServiceOptions, ProtocolConfig, SchedulerMode, SchedulerOptions,
};
use crate::contract::entry::{OptionKey, OptionSetting, OptionTable, OptionValue};

/// Longest scheduler minute a file may ask for: the scenario format's longest timing value.
pub const MAX_MINUTE_MS: u64 = 600_000;

pub const TABLE: OptionTable = OptionTable {
    name: "scheduler",
    key_prefix: "scheduler.",
    keys: &[
        OptionKey {
            name: "mode",
            about: "How instances avoid billing a minute twice: none, take the lock every run, elect a long-lived leader, or a leader whose writes are fenced.",
            value: OptionValue::Choice {
                names: SchedulerMode::NAMES,
                expected: "one of `none`, `lock-every-run`, `leader-election`, `leader-fencing`",
            },
            read: |protocol| OptionSetting::Choice(scheduler(protocol).mode.name()),
            write: |protocol, setting| {
                scheduler_mut(protocol).mode = SchedulerMode::from_name(setting.choice())
                    .expect("the parser gives one of the mode names");
            },
        },
        OptionKey {
            name: "minute_ms",
            about: "How long one scheduler minute lasts on each instance's clock (60000 is a real minute).",
            value: OptionValue::Unsigned {
                low: 1,
                high: MAX_MINUTE_MS,
            },
            read: |protocol| OptionSetting::Unsigned(scheduler(protocol).minute_ms),
            write: |protocol, setting| scheduler_mut(protocol).minute_ms = setting.unsigned(),
        },
    ],
    population: Some("instances"),
};

pub fn defaults() -> ProtocolConfig {
    let locks = LockServiceOptions {
        fencing: false,
        workers: 3,
        ..LockServiceOptions::default()
    };
    ProtocolConfig::Scheduler(locks, SchedulerOptions::default())
}

fn scheduler(protocol: &ProtocolConfig) -> &SchedulerOptions {
    match protocol {
        ProtocolConfig::Scheduler(_, scheduler) => scheduler,
        _ => unreachable!("the [scheduler] table is read only in a scheduler world"),
    }
}

fn scheduler_mut(protocol: &mut ProtocolConfig) -> &mut SchedulerOptions {
    match protocol {
        ProtocolConfig::Scheduler(_, scheduler) => scheduler,
        _ => unreachable!("the [scheduler] table is written only in a scheduler world"),
    }
}
