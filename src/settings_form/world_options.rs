//! A world's own options in the settings form: every key of the scenario tables its registry entry
//! declares (`[paxos] remedy`, `[pbft] quorum`, `[lock_service] lock_delay_ms`, ...), plus the lock
//! store's fencing check where the world lets a file set it. The form reads the keys from the entry,
//! as the scenario parser does, so a new world's options appear here without a line of UI code, and a
//! value the file format would refuse is refused here with the same limits.

use quorumlab_sim::entry::{OptionKey, OptionSetting, OptionValue};
use quorumlab_sim::ProtocolConfig;

/// One world option as the form holds it: text for numbers and choices, a tick for flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldOptionField {
    /// The scenario table (`paxos`), or `locks` for the fencing check.
    pub table: &'static str,
    /// The key inside the table (`remedy`).
    pub key: &'static str,
    pub about: &'static str,
    pub value_kind: OptionValue,
    /// A number or a choice's name, as typed or picked.
    pub text: String,
    pub checked: bool,
}

/// The `[locks]` key this form offers besides the tables: the store's fencing check.
const FENCING_KEY: &str = "fencing";
const FENCING_ABOUT: &str = "The store refuses a write whose fencing token is older than one it has already seen. Off, a holder that wakes late after its lease ran out can overwrite newer work.";

impl WorldOptionField {
    /// What the field is called on screen: the key in words, its unit last (`lock delay (ms)`).
    pub fn label(&self) -> String {
        let words = self.key.strip_suffix("_ms").unwrap_or(self.key);
        let words = words.replace('_', " ");
        if self.key.ends_with("_ms") {
            format!("{words} (ms)")
        } else {
            words
        }
    }

    /// The name a test or a screen reader can find the field by (`world-option-paxos-remedy`).
    pub fn test_id(&self) -> String {
        format!("world-option-{}-{}", self.table, self.key)
    }

    /// The values a number may take, or the names a choice offers, for the field's hint.
    pub fn limits(&self) -> String {
        match self.value_kind {
            OptionValue::Flag => String::new(),
            OptionValue::Unsigned { low, high } => format!("{low} to {high}"),
            OptionValue::Choice { names, .. } => names.join(", "),
        }
    }
}

/// The world's options as `protocol` has them now, tables first in the entry's order.
pub fn fields_for(protocol: &ProtocolConfig) -> Vec<WorldOptionField> {
    let entry = protocol.entry();
    let mut fields = Vec::new();
    if entry.lock_keys.contains(&FENCING_KEY) {
        if let Some(locks) = protocol.lock_options() {
            fields.push(WorldOptionField {
                table: "locks",
                key: FENCING_KEY,
                about: FENCING_ABOUT,
                value_kind: OptionValue::Flag,
                text: String::new(),
                checked: locks.fencing,
            });
        }
    }
    for table in entry.tables {
        for key in table.keys {
            fields.push(field_from(table.name, key, (key.read)(protocol)));
        }
    }
    fields
}

fn field_from(
    table: &'static str,
    key: &'static OptionKey,
    setting: OptionSetting,
) -> WorldOptionField {
    let (text, checked) = match setting {
        OptionSetting::Flag(flag) => (String::new(), flag),
        OptionSetting::Unsigned(number) => (number.to_string(), false),
        OptionSetting::Choice(name) => (name.to_string(), false),
    };
    WorldOptionField {
        table,
        key: key.name,
        about: key.about,
        value_kind: key.value,
        text,
        checked,
    }
}

/// Writes every field into `protocol`, or names the first field whose value the scenario format
/// would refuse (and then `protocol` may be half written: the caller works on a copy).
pub fn apply(fields: &[WorldOptionField], protocol: &mut ProtocolConfig) -> Result<(), String> {
    for field in fields {
        if field.table == "locks" && field.key == FENCING_KEY {
            if let Some(locks) = protocol.lock_options_mut() {
                locks.fencing = field.checked;
            }
            continue;
        }
        let Some(key) = find_key(protocol, field) else {
            return Err(format!(
                "{}.{}: this world has no such option",
                field.table, field.key
            ));
        };
        let setting = setting_of(field)?;
        (key.write)(protocol, setting);
    }
    Ok(())
}

fn find_key(protocol: &ProtocolConfig, field: &WorldOptionField) -> Option<&'static OptionKey> {
    protocol
        .entry()
        .tables
        .iter()
        .filter(|table| table.name == field.table)
        .flat_map(|table| table.keys.iter())
        .find(|key| key.name == field.key)
}

fn setting_of(field: &WorldOptionField) -> Result<OptionSetting, String> {
    let name = field.label();
    let text = field.text.trim();
    match field.value_kind {
        OptionValue::Flag => Ok(OptionSetting::Flag(field.checked)),
        OptionValue::Unsigned { low, high } => {
            let number: u64 = text
                .parse()
                .map_err(|_| format!("{name}: `{text}` is not a whole number"))?;
            if number < low || number > high {
                return Err(format!("{name}: {number} must be between {low} and {high}"));
            }
            Ok(OptionSetting::Unsigned(number))
        }
        OptionValue::Choice { names, expected } => names
            .iter()
            .find(|choice| **choice == text)
            .map(|choice| OptionSetting::Choice(choice))
            .ok_or_else(|| format!("{name}: `{text}` is not {expected}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings_form::SettingsForm;
    use quorumlab_sim::config::{PaxosRemedy, ProtocolConfig};
    use quorumlab_sim::scenario::{parse_scenario, Scenario, EXAMPLES};

    fn example(file: &str) -> Scenario {
        let (_, text) = EXAMPLES
            .iter()
            .find(|(name, _)| *name == file)
            .expect("an example");
        parse_scenario(text, file).expect("the example parses")
    }

    fn field<'a>(form: &'a mut SettingsForm, table: &str, key: &str) -> &'a mut WorldOptionField {
        form.world_options
            .iter_mut()
            .find(|field| field.table == table && field.key == key)
            .unwrap_or_else(|| panic!("no field {table}.{key}"))
    }

    #[test]
    fn paxos_options_are_read_and_written_through_the_form() {
        let base = example("paxos-duel.toml");
        let mut form = SettingsForm::from_scenario(&base);
        let keys: Vec<_> = form.world_options.iter().map(|field| field.key).collect();
        assert_eq!(
            keys,
            [
                "remedy",
                "durable_acceptors",
                "round_timeout_ms",
                "backoff_ms",
                "stagger_ms",
                "learners"
            ]
        );
        assert_eq!(field(&mut form, "paxos", "learners").text, "0");
        assert_eq!(field(&mut form, "paxos", "remedy").text, "none");
        field(&mut form, "paxos", "remedy").text = "leader".into();
        field(&mut form, "paxos", "durable_acceptors").checked = false;
        field(&mut form, "paxos", "backoff_ms").text = " 90 ".into();
        let changed = form.to_scenario(&base).expect("valid options");
        let ProtocolConfig::Paxos(_, options) = changed.protocol else {
            panic!("still a Paxos world");
        };
        assert_eq!(options.remedy, PaxosRemedy::Leader);
        assert!(!options.durable_acceptors);
        assert_eq!(options.backoff_ms, 90);
        // The rest of the scenario is the base's.
        assert_eq!(changed.steps, base.steps);
        assert_eq!(changed.seed, base.seed);
    }

    #[test]
    fn paxos_learners_are_set_through_the_form_within_their_limits() {
        let base = example("paxos-learners.toml");
        let mut form = SettingsForm::from_scenario(&base);
        assert_eq!(field(&mut form, "paxos", "learners").text, "3");
        field(&mut form, "paxos", "learners").text = "6".into();
        assert_eq!(
            form.to_scenario(&base).unwrap_err(),
            "learners: 6 must be between 0 and 5"
        );
        field(&mut form, "paxos", "learners").text = "4".into();
        let changed = form.to_scenario(&base).expect("four learners");
        let ProtocolConfig::Paxos(_, options) = changed.protocol else {
            panic!("still a Paxos world");
        };
        assert_eq!(options.learners, 4);
    }

    #[test]
    fn an_option_out_of_its_limits_is_refused_by_name() {
        let base = example("pbft-normal.toml");
        let mut form = SettingsForm::from_scenario(&base);
        field(&mut form, "pbft", "quorum").text = "99".into();
        assert_eq!(
            form.to_scenario(&base).unwrap_err(),
            "quorum: 99 must be between 0 and 51"
        );
        field(&mut form, "pbft", "quorum").text = "two".into();
        assert_eq!(
            form.to_scenario(&base).unwrap_err(),
            "quorum: `two` is not a whole number"
        );
        let mut form = SettingsForm::from_scenario(&example("paxos-duel.toml"));
        field(&mut form, "paxos", "remedy").text = "pray".into();
        assert!(form
            .to_scenario(&example("paxos-duel.toml"))
            .unwrap_err()
            .starts_with("remedy: `pray` is not"));
    }

    #[test]
    fn fencing_is_offered_where_a_file_may_set_it() {
        let base = example("fencing-pause.toml");
        let mut form = SettingsForm::from_scenario(&base);
        assert!(field(&mut form, "locks", "fencing").checked);
        field(&mut form, "locks", "fencing").checked = false;
        let changed = form.to_scenario(&base).unwrap();
        assert!(!changed.protocol.lock_options().unwrap().fencing);
        let lock_delay = field(&mut form, "lock_service", "lock_delay_ms");
        assert_eq!(lock_delay.label(), "lock delay (ms)");
        assert_eq!(lock_delay.limits(), "0 to 60000");
    }

    #[test]
    fn raft_has_no_world_options() {
        let form = SettingsForm::from_scenario(&example("leader-crash.toml"));
        assert!(form.world_options.is_empty());
    }

    #[test]
    fn every_option_says_what_it_does() {
        for file in [
            "paxos-duel.toml",
            "pbft-normal.toml",
            "zk-herd.toml",
            "queue-partitioned.toml",
        ] {
            let form = SettingsForm::from_scenario(&example(file));
            assert!(!form.world_options.is_empty(), "{file}");
            for field in &form.world_options {
                assert!(field.about.ends_with('.'), "{file}: {}", field.key);
            }
        }
    }
}
