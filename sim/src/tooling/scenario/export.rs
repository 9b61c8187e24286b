//! Writing a [`Scenario`] back out as scenario TOML. Parsing the output gives back an equal scenario
//! (tested in `tests/scenarios.rs`), which is what lets a sweep hand out a failing chaos run as a file.

use super::Scenario;
use crate::base::ids::NodeId;
use crate::contract::action::{Action, NodeTarget, RequestKind, PPM_ONE};
use crate::contract::config::{MembershipMode, ReadPath};
use crate::contract::entry::OptionSetting;
use crate::worlds::coordination::Layout;
use std::fmt::Write;

/// The scenario as TOML text in the documented format. Every `[timing]` key is written out, so the file
/// does not depend on today's defaults.
pub fn to_toml_string(scenario: &Scenario) -> String {
    let mut out = String::new();
    write_header(&mut out, scenario);
    write_timing(&mut out, scenario);
    write_coordination(&mut out, scenario);
    let layout = scenario.layout();
    let mut steps = String::new();
    for step in &scenario.steps {
        let _ = write!(steps, "\n[[step]]\nat_ms = {}\n", step.at_ms);
        write_action(&mut steps, &step.action);
    }
    match layout {
        Some(layout) => out.push_str(&rename_nodes(steps, &layout)),
        None => out.push_str(&steps),
    }
    out
}

/// One action as `(key, TOML value)` pairs, `do` first, with the scenario's own node names (`"A"`,
/// `"store"` in a coordination world). Every value is also valid JSON (strings, integers, exact
/// decimals, booleans, arrays of strings), which is how trace files write actions
/// (`crate::tooling::trace_file`).
pub(crate) fn action_fields(scenario: &Scenario, action: &Action) -> Vec<(&'static str, String)> {
    let (name, arguments) = action_parts(action);
    let layout = scenario.layout();
    let mut fields = vec![("do", quoted(name))];
    for (key, value) in arguments {
        let value = match &layout {
            Some(layout) => rename_nodes(value, layout),
            None => value,
        };
        fields.push((key, value));
    }
    fields
}

/// Writes a coordination world's `[locks]` table and its own tables, every key explicit.
fn write_coordination(out: &mut String, scenario: &Scenario) {
    let coordination = &scenario.protocol;
    let Some(options) = coordination.lock_options() else {
        return;
    };
    let entry = coordination.entry();
    let _ = writeln!(out, "\n[locks]");
    let _ = writeln!(out, "workers = {}", options.workers);
    let _ = writeln!(out, "lease_ttl_ms = {}", options.lease_ttl_ms);
    for key in entry.lock_keys {
        let value = match *key {
            "renew_ms" => options.renew_ms.to_string(),
            "fencing" => options.fencing.to_string(),
            "unchecked_release" => options.unchecked_release.to_string(),
            "drift_allowance_ms" => options.drift_allowance_ms.to_string(),
            "idempotency_scope" => quoted(options.idempotency_scope.name()),
            "set_nx_retries" => options.set_nx_retries.to_string(),
            other => unreachable!("`{other}` is not a [locks] key only some worlds take"),
        };
        let _ = writeln!(out, "{key} = {value}");
    }
    let _ = writeln!(
        out,
        "check_lease_before_write = {}",
        options.check_lease_before_write
    );
    let _ = writeln!(out, "idempotency_key = {}", options.idempotency_key);
    let _ = writeln!(out, "think_ms = {}", options.think_ms);
    let _ = writeln!(out, "work_ms = {}", options.work_ms);
    let _ = writeln!(out, "op_timeout_ms = {}", options.op_timeout_ms);
    let _ = writeln!(out, "initial_count = {}", options.initial_count);
    for table in entry.tables {
        let _ = writeln!(out, "\n[{}]", table.name);
        for key in table.keys {
            let value = match (key.read)(coordination) {
                OptionSetting::Flag(flag) => flag.to_string(),
                OptionSetting::Unsigned(number) => number.to_string(),
                OptionSetting::Choice(name) => quoted(name),
            };
            let _ = writeln!(out, "{} = {value}", key.name);
        }
    }
}

/// Node names past the servers are written as the actors' names (`"A"`, `"store"`), not `"n4"`.
fn rename_nodes(mut out: String, layout: &Layout) -> String {
    for (name, node) in layout.extra_names().into_iter().rev() {
        out = out.replace(&quoted(&node.to_string()), &quoted(&name));
    }
    out
}

fn write_header(out: &mut String, scenario: &Scenario) {
    let _ = writeln!(out, "title = {}", quoted(&scenario.title));
    let _ = writeln!(out, "protocol = {}", quoted(scenario.protocol_name()));
    let _ = writeln!(out, "nodes = {}", scenario.node_count);
    let _ = writeln!(out, "seed = {}", scenario.seed);
    let _ = writeln!(out, "duration_ms = {}", scenario.duration_ms);
}

fn write_timing(out: &mut String, scenario: &Scenario) {
    let timing = &scenario.timing;
    let raft = &scenario.raft;
    let (election_min, election_max) = timing.election_timeout_ms;
    let (delay_min, delay_max) = timing.network_delay_ms;
    let _ = writeln!(out, "\n[timing]");
    let _ = writeln!(
        out,
        "election_timeout_ms = [{election_min}, {election_max}]"
    );
    let _ = writeln!(out, "heartbeat_ms = {}", timing.heartbeat_ms);
    let _ = writeln!(out, "network_delay_ms = [{delay_min}, {delay_max}]");
    let _ = writeln!(out, "drop_rate = {}", rate_text(timing.drop_ppm));
    let _ = writeln!(out, "duplicate_rate = {}", rate_text(timing.duplicate_ppm));
    let _ = writeln!(out, "client_timeout_ms = {}", timing.client_timeout_ms);
    // Written only when set, so every file exported before disks existed reads the same.
    if timing.persist_ms != (0, 0) {
        let (persist_min, persist_max) = timing.persist_ms;
        let _ = writeln!(out, "persist_ms = [{persist_min}, {persist_max}]");
    }
    if timing.timer_jitter_us != 0 {
        let _ = writeln!(out, "timer_jitter_us = {}", timing.timer_jitter_us);
    }
    let _ = writeln!(out, "pre_vote = {}", raft.pre_vote);
    let _ = writeln!(out, "check_quorum = {}", raft.check_quorum);
    let _ = writeln!(out, "lease_reads = {}", raft.lease_reads());
    // Written only when set, so every file exported before the options existed reads the same; the
    // lease path keeps its old spelling above.
    let other_read_path = !matches!(raft.read_path, ReadPath::Log | ReadPath::Lease);
    if raft.membership != MembershipMode::Log || other_read_path {
        let _ = writeln!(out, "\n[raft]");
    }
    if raft.membership != MembershipMode::Log {
        let _ = writeln!(out, "membership = {}", quoted(raft.membership.name()));
    }
    if other_read_path {
        let _ = writeln!(out, "read_path = {}", quoted(raft.read_path.name()));
    }
}

fn write_action(out: &mut String, action: &Action) {
    let (name, arguments) = action_parts(action);
    let _ = writeln!(out, "do = {}", quoted(name));
    for (key, value) in arguments {
        let _ = writeln!(out, "{key} = {value}");
    }
}

/// The action's file name and its arguments as `(key, TOML value)` pairs, in documentation order.
fn action_parts(action: &Action) -> (&'static str, Vec<(&'static str, String)>) {
    match action {
        Action::Crash { target } => ("crash", vec![("target", target_text(*target))]),
        Action::Restart { target } => ("restart", vec![("target", target_text(*target))]),
        Action::Pause {
            target,
            duration_ms,
        } => {
            let mut arguments = vec![("target", target_text(*target))];
            if let Some(duration_ms) = duration_ms {
                arguments.push(("duration_ms", duration_ms.to_string()));
            }
            ("pause", arguments)
        }
        Action::Resume { target } => ("resume", vec![("target", target_text(*target))]),
        Action::Partition { groups } => ("partition", vec![("groups", groups_text(groups))]),
        Action::Isolate { target } => ("isolate", vec![("target", target_text(*target))]),
        Action::Cut { from, to, both } => (
            "cut",
            vec![
                ("from", target_text(*from)),
                ("to", target_text(*to)),
                ("both", both.to_string()),
            ],
        ),
        Action::Heal => ("heal", vec![]),
        Action::DropRate { ppm } => ("drop_rate", vec![("rate", rate_text(*ppm))]),
        Action::ClockJump { target, by_ms } => (
            "clock_jump",
            vec![
                ("target", target_text(*target)),
                ("by_ms", by_ms.to_string()),
            ],
        ),
        Action::ClockDrift { target, ppm } => (
            "clock_drift",
            vec![("target", target_text(*target)), ("ppm", ppm.to_string())],
        ),
        Action::Request {
            count,
            target,
            kind,
        } => {
            let kind = match kind {
                RequestKind::Put => "put",
                RequestKind::Get => "get",
            };
            let arguments = vec![
                ("count", count.to_string()),
                ("target", target_text(*target)),
                ("kind", quoted(kind)),
            ];
            ("request", arguments)
        }
        Action::AddServer { id } => (
            "add-server",
            id.map(|id| vec![("id", quoted(&id.to_string()))])
                .unwrap_or_default(),
        ),
        Action::RemoveServer { target } => {
            ("remove-server", vec![("target", target_text(*target))])
        }
        Action::SlowDisk { target, persist_ms } => {
            let mut arguments = vec![("target", target_text(*target))];
            if let Some((min_ms, max_ms)) = persist_ms {
                arguments.push(("persist_ms", format!("[{min_ms}, {max_ms}]")));
            }
            ("slow_disk", arguments)
        }
        Action::MalformedWrite { target, fault } => (
            "malformed_write",
            vec![
                ("target", target_text(*target)),
                ("fault", quoted(fault.name())),
            ],
        ),
        Action::Byzantine { target, mode } => (
            "byzantine",
            vec![
                ("target", target_text(*target)),
                ("mode", quoted(mode.name())),
            ],
        ),
        Action::SetLink { between, settings } => {
            let mut arguments = vec![("between", pair_text(*between))];
            if let Some((min_ms, max_ms)) = settings.delay_ms {
                arguments.push(("delay_ms", format!("[{min_ms}, {max_ms}]")));
            }
            if let Some(ppm) = settings.drop_ppm {
                arguments.push(("drop_rate", rate_text(ppm)));
            }
            if let Some(ppm) = settings.duplicate_ppm {
                arguments.push(("duplicate_rate", rate_text(ppm)));
            }
            ("link", arguments)
        }
        Action::ClearLink { between } => (
            "clear_link",
            between
                .map(|between| vec![("between", pair_text(between))])
                .unwrap_or_default(),
        ),
        Action::Regions { groups } => ("regions", vec![("groups", groups_text(groups))]),
        Action::DropMessage { message, from, to } => (
            "drop_message",
            vec![
                ("message", message.to_string()),
                ("from", quoted(&from.to_string())),
                ("to", quoted(&to.to_string())),
            ],
        ),
        Action::DuplicateMessage { message, from, to } => (
            "duplicate_message",
            vec![
                ("message", message.to_string()),
                ("from", quoted(&from.to_string())),
                ("to", quoted(&to.to_string())),
            ],
        ),
        Action::HoldMessage {
            message,
            from,
            to,
            by_ms,
        } => (
            "hold_message",
            vec![
                ("message", message.to_string()),
                ("from", quoted(&from.to_string())),
                ("to", quoted(&to.to_string())),
                ("by_ms", by_ms.to_string()),
            ],
        ),
    }
}

fn pair_text((one, other): (NodeId, NodeId)) -> String {
    format!(
        "[{}, {}]",
        quoted(&one.to_string()),
        quoted(&other.to_string())
    )
}

fn target_text(target: NodeTarget) -> String {
    match target {
        NodeTarget::Node(node) => quoted(&node.to_string()),
        NodeTarget::Leader => quoted("leader"),
    }
}

fn groups_text(groups: &[Vec<NodeId>]) -> String {
    let groups: Vec<String> = groups
        .iter()
        .map(|group| {
            let members: Vec<String> = group.iter().map(|node| quoted(&node.to_string())).collect();
            format!("[{}]", members.join(", "))
        })
        .collect();
    format!("[{}]", groups.join(", "))
}

/// Parts per million as an exact decimal (`50000` -> `0.05`), so reading it back gives the same ppm.
fn rate_text(ppm: u32) -> String {
    let whole = ppm / PPM_ONE;
    let fraction = format!("{:06}", ppm % PPM_ONE);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        format!("{whole}.0")
    } else {
        format!("{whole}.{fraction}")
    }
}

/// A TOML basic string.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            control if control.is_control() => {
                let _ = write!(out, "\\u{:04X}", control as u32);
            }
            other => out.push(other),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_written_as_exact_decimals() {
        assert_eq!(rate_text(0), "0.0");
        assert_eq!(rate_text(50_000), "0.05");
        assert_eq!(rate_text(1), "0.000001");
        assert_eq!(rate_text(PPM_ONE), "1.0");
    }

    #[test]
    fn strings_escape_quotes_backslashes_and_controls() {
        assert_eq!(
            quoted("a \"b\" \\ c\n\u{7}"),
            "\"a \\\"b\\\" \\\\ c\\n\\u0007\""
        );
    }
}
