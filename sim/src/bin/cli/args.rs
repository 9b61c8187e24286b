//! A small command-line parser: `--name value`, `--name=value`, `--switch`, and positionals. Anything
//! unknown, repeated or malformed is an error that names the flag.

use quorumlab_sim::scenario::shown;
use quorumlab_sim::suggest::did_you_mean;
use std::collections::BTreeMap;
use std::str::FromStr;

/// The parsed arguments of one subcommand.
#[derive(Debug, Default)]
pub struct ParsedArgs {
    pub positionals: Vec<String>,
    values: BTreeMap<&'static str, String>,
    switches: Vec<&'static str>,
}

/// The flags a subcommand accepts: some take a value, some are switches.
pub struct FlagSpec {
    pub with_value: &'static [&'static str],
    pub switches: &'static [&'static str],
}

impl FlagSpec {
    pub fn parse(&self, args: &[String]) -> Result<ParsedArgs, String> {
        let mut parsed = ParsedArgs::default();
        let mut remaining = args.iter();
        while let Some(argument) = remaining.next() {
            let Some(flag_text) = argument.strip_prefix("--") else {
                parsed.positionals.push(argument.clone());
                continue;
            };
            let (name, inline_value) = match flag_text.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (flag_text, None),
            };
            if let Some(name) = self.with_value.iter().find(|known| **known == name) {
                let value = match inline_value {
                    Some(value) => value,
                    None => remaining
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("--{name} needs a value"))?,
                };
                if parsed.values.insert(name, value).is_some() {
                    return Err(format!("--{name} is given more than once"));
                }
            } else if let Some(name) = self.switches.iter().find(|known| **known == name) {
                if inline_value.is_some() {
                    return Err(format!("--{name} takes no value"));
                }
                if parsed.switches.contains(name) {
                    return Err(format!("--{name} is given more than once"));
                }
                parsed.switches.push(name);
            } else {
                return Err(format!(
                    "unknown option `{}`; {}",
                    shown(argument),
                    self.hint(name)
                ));
            }
        }
        Ok(parsed)
    }

    /// The flags closest to `--name`, or where they are all described.
    fn hint(&self, name: &str) -> String {
        let flags: Vec<String> = self
            .with_value
            .iter()
            .chain(self.switches)
            .map(|known| format!("--{known}"))
            .collect();
        did_you_mean(
            &format!("--{name}"),
            flags.iter().map(String::as_str),
            "option",
            "`quorumlab help`",
        )
    }
}

impl ParsedArgs {
    pub fn switch(&self, name: &str) -> bool {
        self.switches.contains(&name)
    }

    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The flag's value parsed as a number, if the flag was given.
    pub fn number<T: FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.values.get(name) {
            None => Ok(None),
            Some(text) => text
                .parse()
                .map(Some)
                .map_err(|_| format!("--{name}: `{text}` is not a valid whole number")),
        }
    }

    /// Exactly one positional argument, described as `what` in the error.
    pub fn single_positional(&self, what: &str) -> Result<&str, String> {
        match self.positionals.as_slice() {
            [only] => Ok(only),
            [] => Err(format!("missing {what}")),
            [_, extra, ..] => Err(format!("unexpected argument `{extra}`")),
        }
    }

    pub fn no_positionals(&self) -> Result<(), String> {
        match self.positionals.first() {
            None => Ok(()),
            Some(extra) => Err(format!("unexpected argument `{extra}`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: FlagSpec = FlagSpec {
        with_value: &["seed", "trace"],
        switches: &["chaos"],
    };

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| item.to_string()).collect()
    }

    #[test]
    fn values_switches_and_positionals() {
        let parsed = SPEC
            .parse(&strings(&[
                "file.toml",
                "--seed",
                "7",
                "--trace=out.jsonl",
                "--chaos",
            ]))
            .unwrap();
        assert_eq!(parsed.single_positional("FILE").unwrap(), "file.toml");
        assert_eq!(parsed.number::<u64>("seed").unwrap(), Some(7));
        assert_eq!(parsed.text("trace"), Some("out.jsonl"));
        assert!(parsed.switch("chaos"));
    }

    #[test]
    fn mistakes_name_the_flag() {
        assert!(SPEC
            .parse(&strings(&["--sed", "7"]))
            .unwrap_err()
            .contains("--sed"));
        assert!(SPEC
            .parse(&strings(&["--seed"]))
            .unwrap_err()
            .contains("needs a value"));
        assert!(SPEC
            .parse(&strings(&["--seed", "1", "--seed", "2"]))
            .unwrap_err()
            .contains("more than once"));
        assert!(SPEC
            .parse(&strings(&["--chaos=yes"]))
            .unwrap_err()
            .contains("takes no value"));
        let parsed = SPEC.parse(&strings(&["--seed", "-3"])).unwrap();
        assert!(parsed.number::<u64>("seed").unwrap_err().contains("`-3`"));
    }
}
