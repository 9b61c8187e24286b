//! Typed reads of TOML values that remember where each value came from, so that every validation
//! failure can name its file, line, column, step and key.

use super::errors::{line_and_column, ScenarioError, ScenarioErrorKind};
use crate::base::ids::NodeId;
use crate::contract::action::{NodeTarget, PPM_ONE};
use std::ops::Range;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

pub(crate) type Result<T> = std::result::Result<T, ScenarioError>;

/// The text being parsed and the name to show for it.
pub(crate) struct Source<'a> {
    pub text: &'a str,
    pub file: &'a str,
}

impl Source<'_> {
    pub fn error(
        &self,
        span: Range<usize>,
        step: Option<usize>,
        key: Option<String>,
        kind: ScenarioErrorKind,
    ) -> ScenarioError {
        let (line, column) = line_and_column(self.text, span.start);
        ScenarioError {
            file: self.file.to_string(),
            line,
            column,
            step,
            key,
            kind,
        }
    }
}

/// Which part of the file a table or value belongs to.
#[derive(Clone, Copy)]
pub(crate) struct Place<'a> {
    pub source: &'a Source<'a>,
    /// 1-based index of the `[[step]]` being read, if any.
    pub step: Option<usize>,
    /// Prepended to key names in errors, e.g. `timing.`.
    pub key_prefix: &'static str,
}

impl Place<'_> {
    fn full_key(&self, key: &str) -> String {
        format!("{}{key}", self.key_prefix)
    }
}

/// One value in the file, with its key and position.
#[derive(Clone, Copy)]
pub(crate) struct Field<'a> {
    pub place: Place<'a>,
    pub key: &'a str,
    pub value: &'a Spanned<DeValue<'a>>,
}

impl<'a> Field<'a> {
    pub fn error(&self, kind: ScenarioErrorKind) -> ScenarioError {
        self.error_at(self.value.span(), kind)
    }

    pub fn error_at(&self, span: Range<usize>, kind: ScenarioErrorKind) -> ScenarioError {
        let key = Some(self.place.full_key(self.key));
        self.place.source.error(span, self.place.step, key, kind)
    }

    fn wrong_type(&self, expected: &'static str) -> ScenarioError {
        let found = self.value.get_ref().type_str();
        self.error(ScenarioErrorKind::WrongType { expected, found })
    }

    /// The same key, looking at one element of this (array) value.
    pub fn element(&self, value: &'a Spanned<DeValue<'a>>) -> Field<'a> {
        Field { value, ..*self }
    }

    pub fn array(&self) -> Result<&'a [Spanned<DeValue<'a>>]> {
        match self.value.get_ref() {
            DeValue::Array(array) => Ok(array),
            _ => Err(self.wrong_type("an array")),
        }
    }

    pub fn string(&self) -> Result<&'a str> {
        self.value
            .get_ref()
            .as_str()
            .ok_or_else(|| self.wrong_type("a string"))
    }

    pub fn boolean(&self) -> Result<bool> {
        self.value
            .get_ref()
            .as_bool()
            .ok_or_else(|| self.wrong_type("true or false"))
    }

    fn integer(&self) -> Result<i128> {
        let integer = match self.value.get_ref() {
            DeValue::Integer(integer) => integer,
            _ => return Err(self.wrong_type("a whole number")),
        };
        i128::from_str_radix(integer.as_str(), integer.radix()).map_err(|_| {
            let value = integer.to_string();
            self.error(ScenarioErrorKind::OutOfRange {
                value,
                expected: "a 64-bit whole number".into(),
            })
        })
    }

    /// A whole number `>= 0` (negative numbers get their own error: they are the usual mistake).
    pub fn unsigned(&self) -> Result<u64> {
        self.unsigned_expecting("0 or more")
    }

    pub fn unsigned_in(&self, low: u64, high: u64) -> Result<u64> {
        let expected = format!("{low} to {high}");
        let value = self.unsigned_expecting(&expected)?;
        if value < low || value > high {
            return Err(self.out_of_range(value as i128, expected));
        }
        Ok(value)
    }

    fn unsigned_expecting(&self, expected: &str) -> Result<u64> {
        let value = self.integer()?;
        if value < 0 {
            let value = i64::try_from(value).unwrap_or(i64::MIN);
            let expected = expected.to_string();
            return Err(self.error(ScenarioErrorKind::Negative { value, expected }));
        }
        // Past u64 the key's own range is still what to say ("1 to 3600000"), not the type's limit.
        u64::try_from(value).map_err(|_| self.out_of_range(value, expected.to_string()))
    }

    pub fn signed_in(&self, low: i64, high: i64) -> Result<i64> {
        let value = self.integer()?;
        if value < low as i128 || value > high as i128 {
            return Err(self.out_of_range(value, format!("{low} to {high}")));
        }
        Ok(value as i64)
    }

    fn out_of_range(&self, value: i128, expected: String) -> ScenarioError {
        self.error(ScenarioErrorKind::OutOfRange {
            value: value.to_string(),
            expected,
        })
    }

    /// A probability written as a number from 0.0 to 1.0, returned in parts per million (rounded to the
    /// nearest). Floating point is used only here, while reading the file; the engine never sees it.
    pub fn rate_ppm(&self) -> Result<u32> {
        let (rate, text) = match self.value.get_ref() {
            DeValue::Float(float) => (
                float.as_str().parse::<f64>().ok(),
                float.as_str().to_string(),
            ),
            DeValue::Integer(integer) => {
                (integer.as_str().parse::<f64>().ok(), integer.to_string())
            }
            _ => return Err(self.wrong_type("a rate from 0.0 to 1.0")),
        };
        match rate {
            Some(rate) if (0.0..=1.0).contains(&rate) => Ok((rate * PPM_ONE as f64).round() as u32),
            _ => Err(self.error(ScenarioErrorKind::OutOfRange {
                value: text,
                expected: "a rate from 0.0 to 1.0".into(),
            })),
        }
    }

    /// `[min, max]` in milliseconds, each within `low..=high`, with `min <= max`.
    pub fn range_ms(&self, low: u64, high: u64) -> Result<(u64, u64)> {
        let items = self.array()?;
        if items.len() != 2 {
            let expected = "two numbers [min, max]".to_string();
            return Err(self.error(ScenarioErrorKind::WrongLength {
                expected,
                found: items.len(),
            }));
        }
        let min = self.element(&items[0]).unsigned_in(low, high)?;
        let max = self.element(&items[1]).unsigned_in(low, high)?;
        if min > max {
            return Err(self.error(ScenarioErrorKind::InvertedRange { min, max }));
        }
        Ok((min, max))
    }

    /// A concrete node `n1`..`nN` (or another actor's name, in a coordination world).
    pub fn node(&self, names: &NodeNames) -> Result<NodeId> {
        self.node_or_leader(names, false)
            .map(|target| match target {
                NodeTarget::Node(node) => node,
                NodeTarget::Leader => unreachable!("leader is rejected when not allowed"),
            })
    }

    /// A node `n1`..`nN` or `"leader"`, which the world resolves when the step runs.
    pub fn node_target(&self, names: &NodeNames) -> Result<NodeTarget> {
        self.node_or_leader(names, true)
    }

    fn node_or_leader(&self, names: &NodeNames, leader_allowed: bool) -> Result<NodeTarget> {
        let node_count = names.servers;
        let text = self.string()?;
        if leader_allowed && text == "leader" {
            return Ok(NodeTarget::Leader);
        }
        if let Some((_, node)) = names.extra.iter().find(|(name, _)| name == text) {
            return Ok(NodeTarget::Node(*node));
        }
        let number = text
            .strip_prefix('n')
            .and_then(|digits| digits.parse::<usize>().ok());
        match number {
            Some(number) if (1..=node_count).contains(&number) => {
                Ok(NodeTarget::Node(NodeId((number - 1) as u16)))
            }
            Some(_) if !names.extra.is_empty() => {
                Err(self.error(ScenarioErrorKind::NodeOutOfWorld {
                    node: text.into(),
                    expected: names.describe(leader_allowed).into(),
                }))
            }
            Some(_) => Err(self.error(ScenarioErrorKind::NodeOutOfRange {
                node: text.into(),
                node_count,
            })),
            None if !names.extra.is_empty() => {
                Err(self.error(ScenarioErrorKind::UnknownNodeName {
                    text: text.into(),
                    expected: names.describe(leader_allowed).into(),
                }))
            }
            None => Err(self.error(ScenarioErrorKind::BadNodeName {
                text: text.into(),
                node_count,
                leader_allowed,
            })),
        }
    }
}

/// The node names a scenario may use: servers `n1..nN` and, in a coordination world, the other actors.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeNames {
    pub servers: usize,
    pub extra: Vec<(String, NodeId)>,
}

impl NodeNames {
    pub fn servers_only(servers: usize) -> NodeNames {
        NodeNames {
            servers,
            extra: Vec::new(),
        }
    }

    /// The names a scenario's steps may use: `n1..nN` (with every server its `add-server` steps
    /// bring in), then its coordination actors' names.
    pub fn of_scenario(scenario: &super::Scenario) -> NodeNames {
        let servers = scenario
            .steps
            .iter()
            .fold(scenario.node_count, |count, step| {
                super::validate::nodes_after(&step.action, count)
            });
        NodeNames {
            servers,
            extra: scenario
                .layout()
                .map_or_else(Vec::new, |layout| layout.extra_names()),
        }
    }

    pub fn total(&self) -> usize {
        self.servers + self.extra.len()
    }

    fn describe(&self, leader_allowed: bool) -> String {
        let mut text = format!("n1..n{}", self.servers);
        for (name, _) in &self.extra {
            text.push_str(&format!(", {name}"));
        }
        if leader_allowed {
            text.push_str(" or `leader`");
        }
        text
    }
}

/// A TOML table whose keys have been checked against the ones the format allows.
#[derive(Clone)]
pub(crate) struct TableReader<'a> {
    pub place: Place<'a>,
    pub table: &'a DeTable<'a>,
    /// Where the table starts (its `[header]`), for errors about keys it lacks.
    pub span: Range<usize>,
    /// Named in a missing-key error, e.g. "the scenario" or "action `crash`".
    pub needed_by: String,
}

impl<'a> TableReader<'a> {
    /// Fails on the first key (in file order) that is not in `allowed`.
    pub fn check_keys(&self, allowed: &[&'static str]) -> Result<()> {
        let mut keys: Vec<_> = self.table.keys().collect();
        keys.sort_by_key(|key| key.span().start);
        match keys
            .into_iter()
            .find(|key| !allowed.contains(&key.get_ref().as_ref()))
        {
            None => Ok(()),
            Some(unknown) => Err(self.place.source.error(
                unknown.span(),
                self.place.step,
                Some(self.place.full_key(unknown.get_ref())),
                ScenarioErrorKind::UnknownKey {
                    key: unknown.get_ref().as_ref().into(),
                    allowed: allowed.to_vec(),
                },
            )),
        }
    }

    pub fn optional(&self, key: &'a str) -> Option<Field<'a>> {
        self.table.get(key).map(|value| Field {
            place: self.place,
            key,
            value,
        })
    }

    pub fn required(&self, key: &'a str) -> Result<Field<'a>> {
        self.optional(key).ok_or_else(|| {
            self.place.source.error(
                self.span.clone(),
                self.place.step,
                Some(self.place.full_key(key)),
                ScenarioErrorKind::MissingKey {
                    needed_by: self.needed_by.clone(),
                },
            )
        })
    }

    /// A nested table, e.g. `[timing]`.
    pub fn table(
        field: Field<'a>,
        key_prefix: &'static str,
        needed_by: &str,
    ) -> Result<TableReader<'a>> {
        match field.value.get_ref() {
            DeValue::Table(table) => Ok(TableReader {
                place: Place {
                    key_prefix,
                    ..field.place
                },
                table,
                span: field.value.span(),
                needed_by: needed_by.to_string(),
            }),
            _ => {
                let found = field.value.get_ref().type_str();
                Err(field.error(ScenarioErrorKind::WrongType {
                    expected: "a table",
                    found,
                }))
            }
        }
    }
}
