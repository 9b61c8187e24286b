//! Reading the steps that change the network rather than a node: `link` (one link's own delay, drop
//! and duplicate rates), `clear_link`, `regions`, and a hand on one message in flight
//! (`drop_message`, `hold_message`). Their keys are documented in `sim/SCENARIOS.md`.

use super::errors::ScenarioErrorKind;
use super::fields::{Field, Result};
use super::steps::ActionArguments;
use crate::base::ids::NodeId;
use crate::contract::action::Action;
use crate::contract::link_settings::{
    LinkSettings, MAX_HOLD_MS, MAX_LINK_DELAY_MS, MAX_REGIONS, MIN_REGIONS,
};

/// The keys each of these actions accepts besides `at_ms` and `do`.
pub(super) fn argument_keys(action: &str) -> Option<&'static [&'static str]> {
    let keys: &'static [&'static str] = match action {
        "link" => &["between", "delay_ms", "drop_rate", "duplicate_rate"],
        "clear_link" => &["between"],
        "regions" => &["groups"],
        "drop_message" => &["message", "from", "to"],
        "hold_message" => &["message", "from", "to", "by_ms"],
        "duplicate_message" => &["message", "from", "to"],
        _ => return None,
    };
    Some(keys)
}

impl ActionArguments<'_> {
    /// The action named `name`, if it is one of this file's.
    pub(super) fn network_action(&self, name: &str) -> Option<Result<Action>> {
        let action = match name {
            "link" => self.link(),
            "clear_link" => self.clear_link(),
            "regions" => self.regions(),
            "drop_message" => self.message_action(None),
            "hold_message" => self.hold_message(),
            "duplicate_message" => self.message_action(None).map(|action| match action {
                Action::DropMessage { message, from, to } => {
                    Action::DuplicateMessage { message, from, to }
                }
                other => other,
            }),
            _ => return None,
        };
        Some(action)
    }

    fn link(&self) -> Result<Action> {
        let between = self.between(self.table.required("between")?)?;
        let delay_ms = match self.table.optional("delay_ms") {
            Some(field) => Some(field.range_ms(0, MAX_LINK_DELAY_MS)?),
            None => None,
        };
        let rate = |key| self.table.optional(key).map(|field| field.rate_ppm());
        let settings = LinkSettings {
            delay_ms,
            drop_ppm: rate("drop_rate").transpose()?,
            duplicate_ppm: rate("duplicate_rate").transpose()?,
        };
        if settings.is_empty() {
            let table = &self.table;
            return Err(table.place.source.error(
                table.span.clone(),
                table.place.step,
                Some("delay_ms".to_string()),
                ScenarioErrorKind::MissingKey {
                    needed_by: "action `link`, which needs at least one of `delay_ms`, \
                                `drop_rate` and `duplicate_rate` (`clear_link` clears a link)"
                        .to_string(),
                },
            ));
        }
        Ok(Action::SetLink { between, settings })
    }

    fn clear_link(&self) -> Result<Action> {
        let between = match self.table.optional("between") {
            Some(field) => Some(self.between(field)?),
            None => None,
        };
        Ok(Action::ClearLink { between })
    }

    fn regions(&self) -> Result<Action> {
        let field = self.table.required("groups")?;
        let groups = self.groups()?;
        if !(MIN_REGIONS..=MAX_REGIONS).contains(&groups.len()) {
            return Err(field.error(ScenarioErrorKind::WrongLength {
                expected: format!("{MIN_REGIONS} to {MAX_REGIONS} regions"),
                found: groups.len(),
            }));
        }
        Ok(Action::Regions { groups })
    }

    fn hold_message(&self) -> Result<Action> {
        let by_ms = self.table.required("by_ms")?.unsigned_in(1, MAX_HOLD_MS)?;
        self.message_action(Some(by_ms))
    }

    /// `drop_message` (`by_ms: None`) or `hold_message`.
    fn message_action(&self, by_ms: Option<u64>) -> Result<Action> {
        let message = self.table.required("message")?.unsigned_in(1, u64::MAX)?;
        let from = self.table.required("from")?.node(self.names)?;
        let to_field = self.table.required("to")?;
        let to = to_field.node(self.names)?;
        if from == to {
            return Err(to_field.error(ScenarioErrorKind::LinkToItself {
                node: from.to_string(),
            }));
        }
        Ok(match by_ms {
            None => Action::DropMessage { message, from, to },
            Some(by_ms) => Action::HoldMessage {
                message,
                from,
                to,
                by_ms,
            },
        })
    }

    /// `between = ["n1", "n3"]`: two different nodes.
    fn between(&self, field: Field<'_>) -> Result<(NodeId, NodeId)> {
        let ends = field.array()?;
        if ends.len() != 2 {
            return Err(field.error(ScenarioErrorKind::WrongLength {
                expected: "two nodes [\"n1\", \"n3\"]".to_string(),
                found: ends.len(),
            }));
        }
        let one = field.element(&ends[0]).node(self.names)?;
        let other_field = field.element(&ends[1]);
        let other = other_field.node(self.names)?;
        if one == other {
            return Err(other_field.error(ScenarioErrorKind::LinkToItself {
                node: one.to_string(),
            }));
        }
        Ok((one, other))
    }
}
