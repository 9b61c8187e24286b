//! A world carried by its registry name: `LinkProtocol::Registered`.
//!
//! The older protocol variants copy each world's options field by field, and every option added
//! after them needed a variant of its own (`LockServiceWithDelay`, `PaxosWithLearners`). A registered
//! world needs none: the link names the world as a scenario file does (`protocol = "paxos"`), keeps
//! the `[locks]` options every lock world shares, and lists the world's other keys by the names its
//! registry entry's tables give them (`paxos.learners`). Reading and writing go through those tables'
//! own `read` and `write` functions, so this file holds no key, limit or default of any world: a world
//! or option added later travels in links with no change here.
//!
//! The older variants stay what links write wherever they can hold the run (see
//! `body_convert::protocol_from`), so every run a link could carry before keeps its bytes.
//!
//! One run has one link, so the list is canonical: only keys that differ from the world's default
//! are written, in the order the entry lists them, each at most once; a link that breaks any of that
//! is refused rather than read two ways. A key a link leaves out holds its default, which is also what
//! a link made before the key existed meant. Every value is checked against the key's description
//! before the world's `write` sees it (those functions trust their input and panic on a wrong kind).

use super::body::{LinkLockOptions, LinkOption, LinkSetting, LinkWorld};
use super::bounded::Bounded;
use quorumlab_sim::config::{ProtocolConfig, MAX_SET_NX_RETRIES};
use quorumlab_sim::entry::{OptionKey, OptionSetting, OptionTable, OptionValue};
use quorumlab_sim::registry::{self, Entry};
use quorumlab_sim::scenario::shown;
use std::fmt;

/// The `[locks]` keys only some worlds take (`entry.lock_keys`) that `LinkLockOptions` has no field
/// for, described as a table so that one reader handles them and the worlds' own keys alike.
static LOCK_EXTRAS: OptionTable = OptionTable {
    name: "locks",
    key_prefix: "locks.",
    keys: &[OptionKey {
        name: "set_nx_retries",
        about: "How many times a worker asks again after an unanswered SET NX.",
        value: OptionValue::Unsigned {
            low: 0,
            high: MAX_SET_NX_RETRIES as u64,
        },
        read: |protocol| {
            let retries = protocol
                .lock_options()
                .map_or(0, |locks| locks.set_nx_retries);
            OptionSetting::Unsigned(u64::from(retries))
        },
        write: |protocol, setting| {
            if let Some(locks) = protocol.lock_options_mut() {
                // In range: checked against `value` above before any write.
                locks.set_nx_retries = u32::try_from(setting.unsigned()).unwrap_or(u32::MAX);
            }
        },
    }],
    population: None,
};

/// Longest world name or key an error repeats, in characters (a forged link may hold any text).
const MAX_SHOWN_CHARS: usize = 40;

/// Why a registered world in a link cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorldError {
    /// No world of this build has the name.
    UnknownWorld { name: String },
    /// The world has no key of this name.
    UnknownKey { world: &'static str, key: String },
    /// The value is of the wrong kind or outside the key's range.
    BadValue { key: String, expected: String },
    /// The key comes again, or before a key the world lists ahead of it.
    OutOfOrder { key: String },
    /// The key holds its default, which a link leaves unwritten.
    AtDefault { key: String },
    /// The world takes `[locks]` options and the link has none, or the other way round.
    Locks { world: &'static str, takes: bool },
    /// The run fits one of the older protocol codes, which a link then uses instead.
    HasOwnCode { world: &'static str },
}

impl fmt::Display for WorldError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        use WorldError::*;
        match self {
            UnknownWorld { name } => write!(
                formatter,
                "the link's world `{}` is not one this version of Quorum Lab knows",
                shown(name)
            ),
            UnknownKey { world, key } => {
                write!(formatter, "world `{world}` has no option `{}`", shown(key))
            }
            BadValue { key, expected } => {
                write!(formatter, "option `{}` must be {expected}", shown(key))
            }
            OutOfOrder { key } => write!(
                formatter,
                "option `{}` is repeated or out of order",
                shown(key)
            ),
            AtDefault { key } => write!(
                formatter,
                "option `{}` is written at its default value",
                shown(key)
            ),
            Locks { world, takes: true } => {
                write!(formatter, "world `{world}` needs its [locks] options")
            }
            Locks { world, takes: false } => {
                write!(formatter, "world `{world}` takes no [locks] options")
            }
            HasOwnCode { world } => write!(
                formatter,
                "world `{world}` is written by name although the link format has a code for this run"
            ),
        }
    }
}

/// Every key of `entry` a link may carry, in the one order a link lists them: the extra `[locks]`
/// keys the world takes, then its tables' keys.
pub(super) fn slots(
    entry: &'static Entry,
) -> impl Iterator<Item = (&'static OptionTable, &'static OptionKey)> {
    let extras = LOCK_EXTRAS
        .keys
        .iter()
        .filter(|key| entry.lock_keys.contains(&key.name))
        .map(|key| (&LOCK_EXTRAS, key));
    let tables = entry
        .tables
        .iter()
        .flat_map(|table| table.keys.iter().map(move |key| (table, key)));
    extras.chain(tables)
}

/// `protocol` by its name, its `locks` (as `LinkLockOptions`) and the keys off their default.
pub fn world_from(protocol: &ProtocolConfig, locks: Option<LinkLockOptions>) -> LinkWorld {
    let entry = protocol.entry();
    let defaults = (entry.defaults)();
    let keys = slots(entry)
        .filter(|(_, key)| (key.read)(protocol) != (key.read)(&defaults))
        .map(|(table, key)| LinkOption {
            key: format!("{}{}", table.key_prefix, key.name),
            value: match (key.read)(protocol) {
                OptionSetting::Flag(flag) => LinkSetting::Flag(flag),
                OptionSetting::Unsigned(number) => LinkSetting::Unsigned(number),
                OptionSetting::Choice(name) => LinkSetting::Choice(name.to_string()),
            },
        })
        .collect();
    LinkWorld {
        name: entry.name.to_string(),
        locks,
        keys: Bounded::new(keys),
    }
}

/// The world `world` names with its options: its defaults, its `[locks]` options read by
/// `locks_into`, then each key the link lists.
pub fn world_into<Locks>(world: &LinkWorld, locks_into: Locks) -> Result<ProtocolConfig, WorldError>
where
    Locks: FnOnce(&LinkLockOptions) -> quorumlab_sim::config::LockServiceOptions,
{
    let entry = registry::by_name(&world.name).ok_or_else(|| WorldError::UnknownWorld {
        name: clipped(&world.name),
    })?;
    let defaults = (entry.defaults)();
    let settings = settings_into(entry, &defaults, &world.keys.items)?;
    let mut protocol = defaults.clone();
    match (protocol.lock_options_mut(), &world.locks) {
        (Some(slot), Some(locks)) => *slot = locks_into(locks),
        (None, None) => {}
        (slot, _) => {
            let takes = slot.is_some();
            return Err(WorldError::Locks {
                world: entry.name,
                takes,
            });
        }
    }
    // Every key is written, the unlisted ones at their default: `locks_into` knows nothing of the
    // extra `[locks]` keys, and a world's `write` may be the only way to reach its field.
    for ((_, key), setting) in slots(entry).zip(settings) {
        (key.write)(
            &mut protocol,
            setting.unwrap_or_else(|| (key.read)(&defaults)),
        );
    }
    Ok(protocol)
}

/// The setting of each of `entry`'s slots that `options` lists, checked: a known key, in order, once,
/// of the right kind and range, and off its default.
fn settings_into(
    entry: &'static Entry,
    defaults: &ProtocolConfig,
    options: &[LinkOption],
) -> Result<Vec<Option<OptionSetting>>, WorldError> {
    let all: Vec<_> = slots(entry).collect();
    let mut settings = vec![None; all.len()];
    let mut next = 0;
    for option in options {
        let named = |(table, key): &(&OptionTable, &OptionKey)| {
            option.key.strip_prefix(table.key_prefix) == Some(key.name)
        };
        let Some(place) = all.iter().position(named) else {
            return Err(WorldError::UnknownKey {
                world: entry.name,
                key: clipped(&option.key),
            });
        };
        if place < next {
            return Err(WorldError::OutOfOrder {
                key: option.key.clone(),
            });
        }
        let (_, key) = all[place];
        let Some(setting) = setting_into(key.value, &option.value) else {
            return Err(WorldError::BadValue {
                key: option.key.clone(),
                expected: expected(key.value),
            });
        };
        if setting == (key.read)(defaults) {
            return Err(WorldError::AtDefault {
                key: option.key.clone(),
            });
        }
        settings[place] = Some(setting);
        next = place + 1;
    }
    Ok(settings)
}

/// `link` as a setting of a key that holds `value`, if it is of that kind and in range.
fn setting_into(value: OptionValue, link: &LinkSetting) -> Option<OptionSetting> {
    match (value, link) {
        (OptionValue::Flag, LinkSetting::Flag(flag)) => Some(OptionSetting::Flag(*flag)),
        (OptionValue::Unsigned { low, high }, LinkSetting::Unsigned(number)) => (low..=high)
            .contains(number)
            .then_some(OptionSetting::Unsigned(*number)),
        (OptionValue::Choice { names, .. }, LinkSetting::Choice(name)) => names
            .iter()
            .find(|known| **known == name)
            .map(|known| OptionSetting::Choice(known)),
        _ => None,
    }
}

/// What a key holding `value` accepts, after "must be".
fn expected(value: OptionValue) -> String {
    match value {
        OptionValue::Flag => "yes or no".to_string(),
        OptionValue::Unsigned { low, high } => format!("a whole number in {low}..={high}"),
        OptionValue::Choice { expected, .. } => expected.to_string(),
    }
}

fn clipped(text: &str) -> String {
    text.chars().take(MAX_SHOWN_CHARS).collect()
}
