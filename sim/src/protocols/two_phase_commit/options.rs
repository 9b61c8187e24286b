//! The two-phase-commit world's scenario table `[two_phase_commit]` (`participants`, `vote_no_ppm`,
//! `ask_ms`, `transactions`) and the world a file that sets nothing gets: three participants that
//! always vote yes, asking every 200 ms when in doubt, and three transactions. The parser, validator
//! and export read this description through the registry entry.

use crate::contract::action::PPM_ONE;
use crate::contract::config::{LockServiceOptions, ProtocolConfig, TwoPhaseOptions};
use crate::contract::entry::{OptionKey, OptionSetting, OptionTable, OptionValue};

/// Longest wait between two questions of a participant in doubt.
pub const MAX_ASK_MS: u64 = 60_000;

/// Most transactions a run may have: enough for a sweep's seeds to meet every fault mid-transaction.
pub const MAX_TRANSACTIONS: u64 = 1_000;

/// Participants a file that names none gets.
pub const DEFAULT_PARTICIPANTS: usize = 3;

pub const TABLE: OptionTable = OptionTable {
    name: "two_phase_commit",
    key_prefix: "two_phase_commit.",
    keys: &[
        OptionKey {
            name: "vote_no_ppm",
            about: "How likely each participant is to vote no on a transaction, in parts per million (drawn from the seed): one no aborts the transaction everywhere.",
            value: OptionValue::Unsigned {
                low: 0,
                high: PPM_ONE as u64,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).vote_no_ppm as u64),
            write: |protocol, setting| {
                options_mut(protocol, |options| {
                    options.vote_no_ppm = setting.unsigned() as u32
                })
            },
        },
        OptionKey {
            name: "ask_ms",
            about: "How often a participant that voted yes and heard no decision asks the coordinator (it may not decide alone); also how often the coordinator asks again for missing votes.",
            value: OptionValue::Unsigned {
                low: 1,
                high: MAX_ASK_MS,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).ask_ms),
            write: |protocol, setting| {
                options_mut(protocol, |options| options.ask_ms = setting.unsigned())
            },
        },
        OptionKey {
            name: "transactions",
            about: "How many transactions the coordinator runs, one after another.",
            value: OptionValue::Unsigned {
                low: 1,
                high: MAX_TRANSACTIONS,
            },
            read: |protocol| OptionSetting::Unsigned(options(protocol).transactions),
            write: |protocol, setting| {
                options_mut(protocol, |options| {
                    options.transactions = setting.unsigned()
                })
            },
        },
    ],
    population: Some("participants"),
};

/// Three participants (`[two_phase_commit] participants`, kept as `workers`); the other lock options
/// mean nothing here.
pub fn defaults() -> ProtocolConfig {
    let locks = LockServiceOptions {
        fencing: false,
        workers: DEFAULT_PARTICIPANTS,
        ..LockServiceOptions::default()
    };
    ProtocolConfig::TwoPhaseCommit(locks, TwoPhaseOptions::default())
}

fn options(protocol: &ProtocolConfig) -> TwoPhaseOptions {
    match protocol {
        ProtocolConfig::TwoPhaseCommit(_, options) => *options,
        _ => unreachable!("the [two_phase_commit] table is read only in a two-phase-commit world"),
    }
}

fn options_mut(protocol: &mut ProtocolConfig, change: impl FnOnce(&mut TwoPhaseOptions)) {
    if let ProtocolConfig::TwoPhaseCommit(_, options) = protocol {
        change(options);
    }
}
