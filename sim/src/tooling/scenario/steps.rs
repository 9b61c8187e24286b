//! Reading `[[step]]` entries: each one is a time, an action name and that action's arguments.

use super::errors::ScenarioErrorKind;
use super::fields::{Field, NodeNames, Place, Result, TableReader};
use super::limits::*;
use super::Step;
use crate::base::ids::NodeId;
use crate::contract::action::{Action, ByzantineMode, MalformedFault, NodeTarget, RequestKind};
use toml::de::DeValue;

/// Every action a step may name, in the spelling used in files.
pub const ACTION_NAMES: &[&str] = &[
    "crash",
    "restart",
    "pause",
    "resume",
    "partition",
    "isolate",
    "cut",
    "heal",
    "drop_rate",
    "clock_jump",
    "clock_drift",
    "request",
    "link",
    "clear_link",
    "regions",
    "drop_message",
    "hold_message",
    "byzantine",
    "add-server",
    "remove-server",
    "malformed_write",
    "slow_disk",
    "duplicate_message",
];

/// The keys an action accepts besides `at_ms` and `do`. `None` for an unknown action.
fn argument_keys(action: &str) -> Option<&'static [&'static str]> {
    let keys: &'static [&'static str] = match action {
        "crash" | "restart" | "resume" | "isolate" => &["target"],
        "pause" => &["target", "duration_ms"],
        "partition" => &["groups"],
        "cut" => &["from", "to", "both"],
        "heal" => &[],
        "drop_rate" => &["rate"],
        "clock_jump" => &["target", "by_ms"],
        "clock_drift" => &["target", "ppm"],
        "request" => &["count", "target", "kind"],
        "byzantine" => &["target", "mode"],
        "add-server" => &["id"],
        "remove-server" => &["target"],
        "malformed_write" => &["target", "fault"],
        "slow_disk" => &["target", "persist_ms"],
        other => return super::network_steps::argument_keys(other),
    };
    Some(keys)
}

/// Reads the `step` array: every entry valid, in time order, none after `duration_ms`.
pub(crate) fn parse_steps(
    field: Field<'_>,
    names: &NodeNames,
    duration_ms: u64,
) -> Result<Vec<Step>> {
    let entries = field.array().map_err(|_| {
        let found = field.value.get_ref().type_str();
        field.error(ScenarioErrorKind::WrongType {
            expected: "[[step]] tables",
            found,
        })
    })?;
    if entries.len() > MAX_STEPS {
        let expected = format!("at most {MAX_STEPS} steps");
        return Err(field.error(ScenarioErrorKind::WrongLength {
            expected,
            found: entries.len(),
        }));
    }
    let mut steps: Vec<Step> = Vec::with_capacity(entries.len());
    // Later steps may name a server an earlier `add-server` brought in.
    let mut names = NodeNames {
        servers: names.servers,
        extra: names.extra.clone(),
    };
    for (index, entry) in entries.iter().enumerate() {
        let place = Place {
            step: Some(index + 1),
            ..field.place
        };
        let entry_field = Field {
            place,
            ..field.element(entry)
        };
        let table = step_table(entry_field)?;
        let previous_at_ms = steps.last().map_or(0, |step| step.at_ms);
        let step = parse_step(&table, &names, duration_ms, previous_at_ms)?;
        if let Action::AddServer { id } = step.action {
            if id.is_none_or(|id| id.index() == names.servers) {
                names.servers += 1;
            }
        }
        steps.push(step);
    }
    Ok(steps)
}

fn step_table(entry: Field<'_>) -> Result<TableReader<'_>> {
    match entry.value.get_ref() {
        DeValue::Table(table) => Ok(TableReader {
            place: entry.place,
            table,
            span: entry.value.span(),
            needed_by: "every step".to_string(),
        }),
        other => {
            let found = other.type_str();
            Err(entry.error(ScenarioErrorKind::WrongType {
                expected: "a [[step]] table",
                found,
            }))
        }
    }
}

fn parse_step(
    table: &TableReader<'_>,
    names: &NodeNames,
    duration_ms: u64,
    previous_at_ms: u64,
) -> Result<Step> {
    let at_field = table.required("at_ms")?;
    let at_ms = at_field.unsigned()?;
    if at_ms > duration_ms {
        return Err(at_field.error(ScenarioErrorKind::StepAfterDuration { at_ms, duration_ms }));
    }
    if at_ms < previous_at_ms {
        return Err(at_field.error(ScenarioErrorKind::StepOutOfOrder {
            at_ms,
            previous_at_ms,
        }));
    }
    let do_field = table.required("do")?;
    let name = do_field.string()?;
    let arguments = argument_keys(name).ok_or_else(|| {
        do_field.error(ScenarioErrorKind::UnknownAction {
            action: name.to_string(),
        })
    })?;
    let allowed: Vec<&'static str> = ["at_ms", "do"].iter().chain(arguments).copied().collect();
    table.check_keys(&allowed)?;
    let arguments = ActionArguments {
        table: TableReader {
            needed_by: format!("action `{name}`"),
            ..table.clone()
        },
        names,
    };
    Ok(Step {
        at_ms,
        action: arguments.action(name)?,
    })
}

/// One action written as a table (`do` plus that action's arguments) outside a scenario's `[[step]]`
/// list; `extra_keys` are also allowed (lesson solutions add `after_ms`). Used by `crate::tooling::lesson`.
pub(crate) fn parse_action(
    table: &TableReader<'_>,
    names: &NodeNames,
    extra_keys: &[&'static str],
) -> Result<Action> {
    let do_field = table.required("do")?;
    let name = do_field.string()?;
    let arguments = argument_keys(name).ok_or_else(|| {
        do_field.error(ScenarioErrorKind::UnknownAction {
            action: name.to_string(),
        })
    })?;
    let allowed: Vec<&'static str> = extra_keys
        .iter()
        .chain(["do"].iter())
        .chain(arguments)
        .copied()
        .collect();
    table.check_keys(&allowed)?;
    let arguments = ActionArguments {
        table: TableReader {
            needed_by: format!("action `{name}`"),
            ..table.clone()
        },
        names,
    };
    arguments.action(name)
}

/// The keys of one step, read as the arguments of its action.
pub(super) struct ActionArguments<'a> {
    pub(super) table: TableReader<'a>,
    pub(super) names: &'a NodeNames,
}

impl ActionArguments<'_> {
    fn action(&self, name: &str) -> Result<Action> {
        let action = match name {
            "crash" => Action::Crash {
                target: self.target()?,
            },
            "restart" => Action::Restart {
                target: self.target()?,
            },
            "pause" => Action::Pause {
                target: self.target()?,
                duration_ms: self.pause_duration_ms()?,
            },
            "resume" => Action::Resume {
                target: self.target()?,
            },
            "partition" => Action::Partition {
                groups: self.groups()?,
            },
            "isolate" => Action::Isolate {
                target: self.target()?,
            },
            "cut" => self.cut()?,
            "heal" => Action::Heal,
            "drop_rate" => Action::DropRate {
                ppm: self.table.required("rate")?.rate_ppm()?,
            },
            "clock_jump" => Action::ClockJump {
                target: self.target()?,
                by_ms: self.clock_jump_ms()?,
            },
            "slow_disk" => Action::SlowDisk {
                target: self.target()?,
                persist_ms: match self.table.optional("persist_ms") {
                    Some(field) => Some(field.range_ms(0, MAX_PERSIST_MS)?),
                    None => None,
                },
            },
            "clock_drift" => Action::ClockDrift {
                target: self.target()?,
                ppm: self.clock_drift_ppm()?,
            },
            "request" => self.request()?,
            "byzantine" => Action::Byzantine {
                target: self.target()?,
                mode: byzantine_mode(self.table.required("mode")?)?,
            },
            "add-server" => Action::AddServer {
                id: self.joining_server()?,
            },
            "remove-server" => Action::RemoveServer {
                target: self.target()?,
            },
            "malformed_write" => Action::MalformedWrite {
                target: self.target()?,
                fault: match self.table.optional("fault") {
                    Some(field) => malformed_fault(field)?,
                    None => MalformedFault::MissingToken,
                },
            },
            other => self
                .network_action(other)
                .expect("action names are checked before their arguments")?,
        };
        Ok(action)
    }

    fn target(&self) -> Result<NodeTarget> {
        self.table.required("target")?.node_target(self.names)
    }

    /// `add-server`'s optional `id`: a server already in the world, or the next new one.
    fn joining_server(&self) -> Result<Option<NodeId>> {
        let Some(field) = self.table.optional("id") else {
            return Ok(None);
        };
        let names = NodeNames {
            servers: self.names.servers + 1,
            extra: self.names.extra.clone(),
        };
        field.node(&names).map(Some)
    }

    fn pause_duration_ms(&self) -> Result<Option<u64>> {
        match self.table.optional("duration_ms") {
            Some(field) => Ok(Some(field.unsigned_in(1, MAX_DURATION_MS)?)),
            None => Ok(None),
        }
    }

    fn clock_jump_ms(&self) -> Result<i64> {
        self.table
            .required("by_ms")?
            .signed_in(-MAX_CLOCK_JUMP_MS, MAX_CLOCK_JUMP_MS)
    }

    fn clock_drift_ppm(&self) -> Result<i64> {
        self.table
            .required("ppm")?
            .signed_in(MIN_CLOCK_DRIFT_PPM, MAX_CLOCK_DRIFT_PPM)
    }

    fn cut(&self) -> Result<Action> {
        let from = self.table.required("from")?.node_target(self.names)?;
        let to_field = self.table.required("to")?;
        let to = to_field.node_target(self.names)?;
        if let (NodeTarget::Node(from), NodeTarget::Node(to)) = (from, to) {
            if from == to {
                return Err(to_field.error(ScenarioErrorKind::CutToItself {
                    node: from.to_string(),
                }));
            }
        }
        let both = match self.table.optional("both") {
            Some(field) => field.boolean()?,
            None => false,
        };
        Ok(Action::Cut { from, to, both })
    }

    fn request(&self) -> Result<Action> {
        let count = self
            .table
            .required("count")?
            .unsigned_in(1, MAX_REQUEST_COUNT as u64)? as u32;
        let target = match self.table.optional("target") {
            Some(field) => field.node_target(self.names)?,
            None => NodeTarget::Leader,
        };
        let kind = match self.table.optional("kind") {
            Some(field) => request_kind(field)?,
            None => RequestKind::Put,
        };
        Ok(Action::Request {
            count,
            target,
            kind,
        })
    }

    /// Groups of concrete nodes; no node may appear twice. Nodes left out form one more group.
    pub(super) fn groups(&self) -> Result<Vec<Vec<NodeId>>> {
        let field = self.table.required("groups")?;
        let mut seen = vec![false; self.names.total()];
        let mut groups = Vec::new();
        for group_value in field.array()? {
            let group_field = field.element(group_value);
            let members = group_field.array()?;
            if members.is_empty() {
                let expected = "at least one node in each group".to_string();
                return Err(
                    group_field.error(ScenarioErrorKind::WrongLength { expected, found: 0 })
                );
            }
            let mut group = Vec::with_capacity(members.len());
            for member in members {
                let member_field = field.element(member);
                let node = member_field.node(self.names)?;
                if std::mem::replace(&mut seen[node.index()], true) {
                    return Err(member_field.error(ScenarioErrorKind::DuplicateNode {
                        node: node.to_string(),
                    }));
                }
                group.push(node);
            }
            groups.push(group);
        }
        if groups.is_empty() {
            let expected = "at least one group".to_string();
            return Err(field.error(ScenarioErrorKind::WrongLength { expected, found: 0 }));
        }
        Ok(groups)
    }
}

fn request_kind(field: Field<'_>) -> Result<RequestKind> {
    match field.string()? {
        "put" => Ok(RequestKind::Put),
        "get" => Ok(RequestKind::Get),
        other => Err(field.error(ScenarioErrorKind::OutOfRange {
            value: format!("`{other}`"),
            expected: "`put` or `get`".into(),
        })),
    }
}

fn malformed_fault(field: Field<'_>) -> Result<MalformedFault> {
    let name = field.string()?;
    MalformedFault::from_name(name).ok_or_else(|| {
        field.error(ScenarioErrorKind::OutOfRange {
            value: format!("`{}`", super::errors::shown(name)),
            expected: "`missing_token`, `token_too_large` or `negative_count`".into(),
        })
    })
}

fn byzantine_mode(field: Field<'_>) -> Result<ByzantineMode> {
    let name = field.string()?;
    ByzantineMode::from_name(name).ok_or_else(|| {
        field.error(ScenarioErrorKind::OutOfRange {
            value: format!("`{name}`"),
            expected: "`equivocate`, `lie`, `silent`, `selective` or `honest`".into(),
        })
    })
}
