//! The Paxos world's scenario table `[paxos]` (`remedy`, `durable_acceptors`, `round_timeout_ms`,
//! `backoff_ms`, `stagger_ms`, `learners`) and the world a file that sets nothing gets: two proposers
//! that back off, acceptors that keep their state, and no learner actors (the proposers learn). The parser, validator and export read this description
//! through the registry entry.

use crate::contract::config::{LockServiceOptions, PaxosOptions, PaxosRemedy, ProtocolConfig};
use crate::contract::entry::{OptionKey, OptionSetting, OptionTable, OptionValue};

/// Longest round timeout, back-off window or stagger a file may set.
pub const MAX_PAXOS_MS: u64 = 60_000;

pub use crate::contract::config::MAX_LEARNERS;

pub const TABLE: OptionTable = OptionTable {
    name: "paxos",
    key_prefix: "paxos.",
    keys: &[
        OptionKey {
            name: "remedy",
            about: "What a pre-empted proposer does: none retries at once (proposers can duel for ever), backoff waits a random time that doubles each time, leader lets only A propose.",
            value: OptionValue::Choice {
                names: PaxosRemedy::NAMES,
                expected: "`none`, `backoff` or `leader`",
            },
            read: |protocol| OptionSetting::Choice(options(protocol).remedy.name()),
            write: |protocol, setting| {
                if let Some(remedy) = PaxosRemedy::from_name(setting.choice()) {
                    options_mut(protocol, |options| options.remedy = remedy);
                }
            },
        },
        OptionKey {
            name: "durable_acceptors",
            about: "Acceptors keep their promise and accepted value through a crash. Off is UNSAFE: a restarted acceptor forgets, and two values can be chosen.",
            value: OptionValue::Flag,
            read: |protocol| OptionSetting::Flag(options(protocol).durable_acceptors),
            write: |protocol, setting| {
                options_mut(protocol, |options| {
                    options.durable_acceptors = setting.flag()
                })
            },
        },
        OptionKey {
            name: "round_timeout_ms",
            about: "How long a proposer waits for a majority of answers before giving its ballot up.",
            value: OptionValue::Unsigned {
                low: 1,
                high: MAX_PAXOS_MS,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).round_timeout_ms),
            write: |protocol, setting| {
                options_mut(protocol, |options| {
                    options.round_timeout_ms = setting.unsigned()
                })
            },
        },
        OptionKey {
            name: "backoff_ms",
            about: "The back-off window after a first pre-emption, doubling after each further one; under the leader remedy, how long the others stand back.",
            value: OptionValue::Unsigned {
                low: 1,
                high: MAX_PAXOS_MS,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).backoff_ms),
            write: |protocol, setting| {
                options_mut(protocol, |options| options.backoff_ms = setting.unsigned())
            },
        },
        OptionKey {
            name: "stagger_ms",
            about: "Proposer A starts at once, B this much later, C twice as late.",
            value: OptionValue::Unsigned {
                low: 0,
                high: MAX_PAXOS_MS,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).stagger_ms),
            write: |protocol, setting| {
                options_mut(protocol, |options| options.stagger_ms = setting.unsigned())
            },
        },
        OptionKey {
            name: "learners",
            about: "Learner actors L1, L2, ... that every acceptor also tells what it accepts; each shows the value it knows is chosen and the majority that accepted it. 0 leaves the proposers as the only learners.",
            value: OptionValue::Unsigned {
                low: 0,
                high: MAX_LEARNERS,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).learners as u64),
            write: |protocol, setting| {
                options_mut(protocol, |options| {
                    options.learners = setting.unsigned() as usize
                })
            },
        },
    ],
    population: Some("proposers"),
};

/// Two proposers (`[paxos] proposers`, kept as `workers`); the other lock options mean nothing to Paxos.
pub fn defaults() -> ProtocolConfig {
    let locks = LockServiceOptions {
        fencing: false,
        workers: 2,
        ..LockServiceOptions::default()
    };
    ProtocolConfig::Paxos(locks, PaxosOptions::default())
}

fn options(protocol: &ProtocolConfig) -> PaxosOptions {
    match protocol {
        ProtocolConfig::Paxos(_, options) => *options,
        _ => unreachable!("the [paxos] table is read only in a Paxos world"),
    }
}

fn options_mut(protocol: &mut ProtocolConfig, change: impl FnOnce(&mut PaxosOptions)) {
    if let ProtocolConfig::Paxos(_, options) = protocol {
        change(options);
    }
}
