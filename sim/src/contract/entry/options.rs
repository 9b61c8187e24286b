//! A world's own scenario table (`[scheduler]`, `[zookeeper]`, `[queue]`) described as data: its name,
//! its keys in file order, what each key holds with its limits, and how a value is read from and
//! written into the world's `ProtocolConfig`. The world's folder declares the table beside its entry;
//! the scenario parser, the validator and the TOML export read any table through this description, so
//! they hold no key, limit or default of any one world.
//!
//! The description sits in the contract layer, under the folders that declare it, because the
//! scenario format (tooling) sits far above them: a folder cannot call the parser, so it hands the
//! parser plain data and two fn pointers instead.

use crate::contract::config::ProtocolConfig;

/// What one key holds, and the values a file may give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionValue {
    Flag,
    /// An integer in `low..=high`.
    Unsigned {
        low: u64,
        high: u64,
    },
    /// One of `names`; `expected` is how an error says so (`` `herd` or `sequential` ``).
    Choice {
        names: &'static [&'static str],
        expected: &'static str,
    },
}

/// A key's value as it moves between the file and the world's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionSetting {
    Flag(bool),
    Unsigned(u64),
    /// One of the key's [`OptionValue::Choice`] names.
    Choice(&'static str),
}

/// One key of a world's table.
#[derive(Clone, Copy, Debug, Hash)]
pub struct OptionKey {
    pub name: &'static str,
    /// One sentence for the browser's settings, beside the key's field: what it does, and whether a
    /// value is unsafe on purpose.
    pub about: &'static str,
    pub value: OptionValue,
    /// The key's value in `protocol` (which is the table's own world).
    pub read: fn(&ProtocolConfig) -> OptionSetting,
    /// Sets the key in `protocol`; the setting has already been checked against [`OptionKey::value`].
    pub write: fn(&mut ProtocolConfig, OptionSetting),
}

/// A world's own scenario table.
#[derive(Clone, Copy, Debug, Hash)]
pub struct OptionTable {
    /// The table's name in a scenario file (`scheduler` for `[scheduler]`).
    pub name: &'static str,
    /// `name` and a dot: what an error puts before a key (`scheduler.minute_ms`).
    pub key_prefix: &'static str,
    /// Every key, in the order a file documents, reads and writes them.
    pub keys: &'static [OptionKey],
    /// The world's own word for how many lettered actors it has (`proposers`, `clients`): the same
    /// number as `[locks] workers`, which every lock world shares and which export writes. A file may
    /// say either, or both if they agree.
    pub population: Option<&'static str>,
}

impl OptionSetting {
    pub fn flag(self) -> bool {
        match self {
            OptionSetting::Flag(flag) => flag,
            other => panic!("{other:?} is not a flag: the table's description is wrong"),
        }
    }

    pub fn unsigned(self) -> u64 {
        match self {
            OptionSetting::Unsigned(value) => value,
            other => panic!("{other:?} is not a number: the table's description is wrong"),
        }
    }

    pub fn choice(self) -> &'static str {
        match self {
            OptionSetting::Choice(name) => name,
            other => panic!("{other:?} is not a choice: the table's description is wrong"),
        }
    }
}
