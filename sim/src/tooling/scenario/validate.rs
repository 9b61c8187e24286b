//! What a valid scenario is, written once. The scenario parser checks a file key by key (so its errors
//! can point at a line and column) and then asks [`Scenario::validate`] as a last word; a scenario built
//! in code (a sweep, a test, the app's settings form) and one read from a share link or a trace file are
//! held to the same rules here, so no path can start a world a scenario file could not describe.
//!
//! Errors are values naming the field (`locks.workers is 30; expected 1..=26`), in the words the share
//! link and trace file readers show.

use super::{
    Scenario, Step, MAX_CLOCK_DRIFT_PPM, MAX_CLOCK_JUMP_MS, MAX_DURATION_MS, MAX_INITIAL_COUNT,
    MAX_PERSIST_MS, MAX_REQUEST_COUNT, MAX_STEPS, MAX_TIMER_JITTER_US, MAX_TIMING_MS,
    MIN_CLOCK_DRIFT_PPM,
};
use crate::base::ids::{NodeId, MAX_NODES};
use crate::contract::action::{Action, NodeTarget, PPM_ONE};
use crate::contract::config::{
    IdempotencyScope, LockServiceOptions, ProtocolConfig, MAX_SET_NX_RETRIES,
};
use crate::contract::entry::OptionValue;
pub use crate::contract::invalid::Invalid;
use crate::contract::link_settings::{
    LinkSettings, MAX_HOLD_MS, MAX_LINK_DELAY_MS, MAX_REGIONS, MIN_REGIONS,
};
use crate::worlds::coordination::{servers_fit, MAX_WORKERS};

impl Scenario {
    /// Whether the scenario keeps every rule of the format: ranges, a coordination world's options and
    /// size, steps in order inside the run, and every action's nodes and values.
    pub fn validate(&self) -> Result<(), Invalid> {
        scenario(self)
    }
}

pub(super) fn scenario(scenario: &Scenario) -> Result<(), Invalid> {
    in_range("nodes", scenario.node_count as u64, 1, MAX_NODES as u64)?;
    in_range("duration_ms", scenario.duration_ms, 1, MAX_DURATION_MS)?;
    timing(scenario)?;
    if scenario.protocol.is_coordination() {
        self::coordination(scenario.node_count, &scenario.protocol)?;
    }
    let plain_raft = !scenario.protocol.is_coordination();
    steps(
        &scenario.steps,
        (scenario.actor_count(), plain_raft),
        scenario.duration_ms,
    )
}

/// A coordination workload, against the limits of the scenario keys that set it (`[locks]`,
/// `[scheduler]`, `[zookeeper]`, `[queue]` in `sim/SCENARIOS.md`). A key a scenario file may not set
/// for this protocol must hold the value such a file gets.
fn coordination(servers: usize, coordination: &ProtocolConfig) -> Result<(), Invalid> {
    let protocol = coordination.name();
    let Some(locks) = coordination.lock_options() else {
        return Ok(());
    };
    lock_options(locks)?;
    servers_fit(servers, coordination)?;
    let defaults = LockServiceOptions::default();
    let settable = |key: &str| coordination.entry().lock_keys.contains(&key);
    if !settable("fencing") {
        fixed("locks.fencing", protocol, locks.fencing, false)?;
    }
    if !settable("renew_ms") {
        fixed(
            "locks.renew_ms",
            protocol,
            locks.renew_ms,
            defaults.renew_ms,
        )?;
    }
    if !settable("unchecked_release") {
        fixed(
            "locks.unchecked_release",
            protocol,
            locks.unchecked_release,
            false,
        )?;
    }
    if !settable("drift_allowance_ms") {
        fixed(
            "locks.drift_allowance_ms",
            protocol,
            locks.drift_allowance_ms,
            defaults.drift_allowance_ms,
        )?;
    }
    if !settable("set_nx_retries") {
        fixed(
            "locks.set_nx_retries",
            protocol,
            locks.set_nx_retries,
            defaults.set_nx_retries,
        )?;
    }
    if !settable("idempotency_scope") {
        fixed(
            "locks.idempotency_scope",
            protocol,
            locks.idempotency_scope.name(),
            defaults.idempotency_scope.name(),
        )?;
    }
    let delay_table = &crate::protocols::lockservice::options::TABLE;
    if !coordination
        .entry()
        .tables
        .iter()
        .any(|table| table.name == delay_table.name)
    {
        fixed(
            "lock_service.lock_delay_ms",
            protocol,
            locks.lock_delay_ms,
            defaults.lock_delay_ms,
        )?;
    }
    if locks.set_nx_retries > MAX_SET_NX_RETRIES {
        // A link or a trace file can carry any number; the parser's bound holds for them too.
        return Err(Invalid::OutOfRange {
            field: "locks.set_nx_retries".into(),
            value: locks.set_nx_retries.to_string(),
            expected: format!("0 to {MAX_SET_NX_RETRIES}"),
        });
    }
    if locks.idempotency_scope == IdempotencyScope::Batch && !locks.idempotency_key {
        // A key that names the batch needs a key at all; a link could not carry the pair either.
        return Err(Invalid::OutOfRange {
            field: "locks.idempotency_scope".into(),
            value: "\"batch\"".into(),
            expected: "\"message\" when idempotency_key is false".into(),
        });
    }
    world_tables(coordination)
}

/// The world's own tables, against the limits its folder declares for each number.
fn world_tables(coordination: &ProtocolConfig) -> Result<(), Invalid> {
    for table in coordination.entry().tables {
        for key in table.keys {
            if let OptionValue::Unsigned { low, high } = key.value {
                let value = (key.read)(coordination).unsigned();
                in_range(
                    &format!("{}{}", table.key_prefix, key.name),
                    value,
                    low,
                    high,
                )?;
            }
        }
    }
    Ok(())
}

fn lock_options(locks: &LockServiceOptions) -> Result<(), Invalid> {
    in_range("locks.workers", locks.workers as u64, 1, MAX_WORKERS as u64)?;
    in_range("locks.lease_ttl_ms", locks.lease_ttl_ms, 1, MAX_TIMING_MS)?;
    in_range("locks.renew_ms", locks.renew_ms, 1, MAX_TIMING_MS)?;
    in_range("locks.op_timeout_ms", locks.op_timeout_ms, 1, MAX_TIMING_MS)?;
    in_range("locks.think_ms", locks.think_ms, 0, MAX_TIMING_MS)?;
    in_range("locks.work_ms", locks.work_ms, 0, MAX_TIMING_MS)?;
    in_range(
        "locks.initial_count",
        locks.initial_count,
        0,
        MAX_INITIAL_COUNT,
    )?;
    in_range(
        "locks.drift_allowance_ms",
        locks.drift_allowance_ms,
        0,
        MAX_TIMING_MS,
    )
}

/// A setting `protocol` does not let a scenario file change.
fn fixed<T: PartialEq + ToString>(
    field: &str,
    protocol: &str,
    value: T,
    expected: T,
) -> Result<(), Invalid> {
    if value != expected {
        return Err(Invalid::OutOfRange {
            field: field.into(),
            value: value.to_string(),
            expected: format!(
                "{} (protocol \"{protocol}\" does not set it)",
                expected.to_string()
            ),
        });
    }
    Ok(())
}

fn timing(scenario: &Scenario) -> Result<(), Invalid> {
    let timing = &scenario.timing;
    let (election_min, election_max) = timing.election_timeout_ms;
    ordered_range("election_timeout_ms", election_min, election_max, 1)?;
    in_range("heartbeat_ms", timing.heartbeat_ms, 1, MAX_TIMING_MS)?;
    let (delay_min, delay_max) = timing.network_delay_ms;
    ordered_range("network_delay_ms", delay_min, delay_max, 0)?;
    in_range("drop rate (ppm)", timing.drop_ppm, 0, PPM_ONE)?;
    in_range("duplicate rate (ppm)", timing.duplicate_ppm, 0, PPM_ONE)?;
    let (persist_min, persist_max) = timing.persist_ms;
    ordered_range_within("persist_ms", (persist_min, persist_max), 0, MAX_PERSIST_MS)?;
    in_range(
        "timer_jitter_us",
        timing.timer_jitter_us,
        0,
        MAX_TIMER_JITTER_US,
    )?;
    in_range(
        "client_timeout_ms",
        timing.client_timeout_ms,
        1,
        MAX_TIMING_MS,
    )
}

fn ordered_range(field: &str, min: u64, max: u64, lowest: u64) -> Result<(), Invalid> {
    ordered_range_within(field, (min, max), lowest, MAX_TIMING_MS)
}

/// `[min, max]` with both ends in `lowest..=highest` and min not above max.
pub(super) fn ordered_range_within(
    field: &str,
    (min, max): (u64, u64),
    lowest: u64,
    highest: u64,
) -> Result<(), Invalid> {
    in_range(&format!("{field} min"), min, lowest, highest)?;
    in_range(&format!("{field} max"), max, lowest, highest)?;
    if min > max {
        return Err(Invalid::InvertedRange {
            field: field.into(),
            min,
            max,
        });
    }
    Ok(())
}

/// `cluster` is the node count at the start and whether the world is a plain Raft cluster, the only
/// kind servers can join: each `add-server` of a new server lets later steps name one more node.
fn steps(
    steps: &[Step],
    (mut node_count, plain_raft): (usize, bool),
    duration_ms: u64,
) -> Result<(), Invalid> {
    at_most_count("steps", steps.len(), MAX_STEPS)?;
    let mut previous_ms = 0;
    for (index, step) in steps.iter().enumerate() {
        let place = format!("step {}", index + 1);
        if step.at_ms < previous_ms {
            return Err(Invalid::OutOfOrder {
                field: format!("{place} at_ms"),
                previous: previous_ms,
                found: step.at_ms,
            });
        }
        in_range(&format!("{place} at_ms"), step.at_ms, 0, duration_ms)?;
        action(&place, &step.action, node_count)?;
        node_count = membership(&place, &step.action, node_count, plain_raft)?;
        previous_ms = step.at_ms;
    }
    Ok(())
}

/// One action, against the same bounds a scenario step has.
pub fn action(place: &str, action: &Action, node_count: usize) -> Result<(), Invalid> {
    for (field, target) in action.targets() {
        if let NodeTarget::Node(node) = target {
            node_exists(&format!("{place} {field}"), node, node_count)?;
        }
    }
    let field = |name: &str| format!("{place} {name}");
    match action {
        Action::Pause {
            duration_ms: Some(duration_ms),
            ..
        } => in_range(&field("duration_ms"), *duration_ms, 1, MAX_DURATION_MS),
        Action::Partition { groups } => partition(&field("groups"), groups, node_count),
        Action::Cut {
            from: NodeTarget::Node(from),
            to: NodeTarget::Node(to),
            ..
        } if from == to => Err(Invalid::CutToItself {
            field: field("to"),
            node: u64::from(from.0) + 1,
        }),
        Action::DropRate { ppm } => in_range(&field("rate (ppm)"), *ppm, 0, PPM_ONE),
        Action::ClockJump { by_ms, .. } => in_range(
            &field("by_ms"),
            *by_ms,
            -MAX_CLOCK_JUMP_MS,
            MAX_CLOCK_JUMP_MS,
        ),
        Action::ClockDrift { ppm, .. } => in_range(
            &field("ppm"),
            *ppm,
            MIN_CLOCK_DRIFT_PPM,
            MAX_CLOCK_DRIFT_PPM,
        ),
        Action::Request { count, .. } => in_range(&field("count"), *count, 1, MAX_REQUEST_COUNT),
        Action::SlowDisk {
            persist_ms: Some(range),
            ..
        } => ordered_range_within(&field("persist_ms"), *range, 0, MAX_PERSIST_MS),
        // The next new server, or one already in the world coming back.
        Action::AddServer { id: Some(node) } => node_exists(&field("id"), *node, node_count + 1),
        Action::SetLink { between, settings } => {
            link_ends(&field("between"), *between, node_count)?;
            link_settings(place, settings)
        }
        Action::ClearLink {
            between: Some(between),
        } => link_ends(&field("between"), *between, node_count),
        Action::Regions { groups } => {
            in_range(
                &field("groups count"),
                groups.len(),
                MIN_REGIONS,
                MAX_REGIONS,
            )?;
            partition(&field("groups"), groups, node_count)
        }
        Action::DropMessage { message, from, to }
        | Action::DuplicateMessage { message, from, to } => {
            in_range(&field("message"), *message, 1, u64::MAX)?;
            link_ends(&field("to"), (*from, *to), node_count)
        }
        Action::HoldMessage {
            message,
            from,
            to,
            by_ms,
        } => {
            in_range(&field("message"), *message, 1, u64::MAX)?;
            link_ends(&field("to"), (*from, *to), node_count)?;
            in_range(&field("by_ms"), *by_ms, 1, MAX_HOLD_MS)
        }
        _ => Ok(()),
    }
}

/// The node count after a membership step: `add-server` of a new server adds one, up to `MAX_NODES`;
/// neither step runs outside a plain Raft cluster.
fn membership(
    place: &str,
    action: &Action,
    node_count: usize,
    plain_raft: bool,
) -> Result<usize, Invalid> {
    let name = match action {
        Action::AddServer { .. } => "add-server",
        Action::RemoveServer { .. } => "remove-server",
        _ => return Ok(node_count),
    };
    if !plain_raft {
        return Err(Invalid::OutOfRange {
            field: format!("{place} do"),
            value: format!("\"{name}\""),
            expected: "an action of this world: servers join and leave only a plain Raft cluster"
                .to_string(),
        });
    }
    let after = nodes_after(action, node_count);
    at_most_count(&format!("{place} servers"), after, MAX_NODES)?;
    Ok(after)
}

/// How many nodes the world has after `action`: one more after `add-server` of a new server.
pub fn nodes_after(action: &Action, node_count: usize) -> usize {
    match action {
        Action::AddServer { id: None } => node_count + 1,
        Action::AddServer { id: Some(node) } if node.index() == node_count => node_count + 1,
        _ => node_count,
    }
}

/// Two different nodes, both in the world.
fn link_ends(
    field: &str,
    (one, other): (NodeId, NodeId),
    node_count: usize,
) -> Result<(), Invalid> {
    node_exists(field, one, node_count)?;
    node_exists(field, other, node_count)?;
    if one == other {
        return Err(Invalid::LinkToItself {
            field: field.into(),
            node: u64::from(one.0) + 1,
        });
    }
    Ok(())
}

/// At least one value set, each within the limits of `link_settings`.
fn link_settings(place: &str, settings: &LinkSettings) -> Result<(), Invalid> {
    if settings.is_empty() {
        return Err(Invalid::OutOfRange {
            field: format!("{place} link"),
            value: "no setting".into(),
            expected: "at least one of delay_ms, drop_rate, duplicate_rate".into(),
        });
    }
    if let Some((min_ms, max_ms)) = settings.delay_ms {
        in_range(
            &format!("{place} delay_ms min"),
            min_ms,
            0,
            MAX_LINK_DELAY_MS,
        )?;
        in_range(
            &format!("{place} delay_ms max"),
            max_ms,
            0,
            MAX_LINK_DELAY_MS,
        )?;
        if min_ms > max_ms {
            return Err(Invalid::InvertedRange {
                field: format!("{place} delay_ms"),
                min: min_ms,
                max: max_ms,
            });
        }
    }
    if let Some(ppm) = settings.drop_ppm {
        in_range(&format!("{place} drop_rate (ppm)"), ppm, 0, PPM_ONE)?;
    }
    if let Some(ppm) = settings.duplicate_ppm {
        in_range(&format!("{place} duplicate_rate (ppm)"), ppm, 0, PPM_ONE)?;
    }
    Ok(())
}

/// At least one group, none empty, every node in range and in at most one group.
fn partition(field: &str, groups: &[Vec<NodeId>], node_count: usize) -> Result<(), Invalid> {
    in_range(
        &format!("{field} count"),
        groups.len() as u64,
        1,
        node_count as u64,
    )?;
    let mut seen = vec![false; node_count];
    for group in groups {
        in_range(
            &format!("{field} size"),
            group.len() as u64,
            1,
            node_count as u64,
        )?;
        for &node in group {
            node_exists(field, node, node_count)?;
            if std::mem::replace(&mut seen[node.index()], true) {
                return Err(Invalid::DuplicateNode {
                    field: field.into(),
                    node: u64::from(node.0) + 1,
                });
            }
        }
    }
    Ok(())
}

fn node_exists(field: &str, node: NodeId, node_count: usize) -> Result<(), Invalid> {
    if node.index() >= node_count {
        return Err(Invalid::NodeOutOfRange {
            field: field.into(),
            node: u64::from(node.0) + 1,
            node_count,
        });
    }
    Ok(())
}

fn at_most_count(field: &str, count: usize, max: usize) -> Result<(), Invalid> {
    if count > max {
        return Err(Invalid::TooMany {
            field: field.into(),
            count: count as u64,
            max: max as u64,
        });
    }
    Ok(())
}

/// `value` must lie in `min..=max` (unsigned counts and durations, or signed clock values alike).
fn in_range<T: PartialOrd + std::fmt::Display>(
    field: &str,
    value: T,
    min: T,
    max: T,
) -> Result<(), Invalid> {
    if value < min || value > max {
        return Err(Invalid::OutOfRange {
            field: field.into(),
            value: value.to_string(),
            expected: format!("{min}..={max}"),
        });
    }
    Ok(())
}
