//! What a shared run may hold. The same checks run before a link is made and after one is read, with
//! the scenario format's own limits (`quorumlab_sim::scenario`), so a link can never carry a run a
//! scenario file could not — plus a cap on the recorded actions and on how far the run has gone.

use super::{ShareError, SharedLesson, SharedRun};
use quorumlab_sim::action::{Action, NodeTarget, PPM_ONE};
use quorumlab_sim::config::{LockServiceOptions, ProtocolConfig};
use quorumlab_sim::coordination::{Layout, MAX_WORKERS};
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::ids::{NodeId, MAX_NODES};
use quorumlab_sim::scenario::{
    Scenario, Step, MAX_CLOCK_DRIFT_PPM, MAX_CLOCK_JUMP_MS, MAX_DURATION_MS, MAX_REQUEST_COUNT,
    MAX_STEPS, MAX_TIMING_MS, MIN_CLOCK_DRIFT_PPM,
};
use quorumlab_sim::time::SimTime;

/// Most recorded actions one link may carry.
pub const MAX_SHARED_ACTIONS: usize = 5_000;
/// Longest title, in UTF-8 bytes.
pub const MAX_TITLE_BYTES: usize = 200;
/// Furthest simulated instant a link may point at or record an action at: the longest scenario.
pub const MAX_SHARED_TIME: SimTime = SimTime(MAX_DURATION_MS * 1_000);

/// Largest `initial_count` a scenario file accepts (`[locks]`).
pub const MAX_INITIAL_COUNT: u64 = 1_000_000_000;
/// Most accounts a work queue may have (`[queue] accounts`).
pub const MAX_ACCOUNTS: u64 = 10_000;
/// Longest lesson id, in bytes.
pub const MAX_LESSON_ID_BYTES: usize = 64;
/// Highest step number a link may name (no lesson comes near it).
pub const MAX_LESSON_STEP: u64 = 64;

pub fn run(run: &SharedRun) -> Result<(), ShareError> {
    scenario(&run.scenario)?;
    recorded_actions(&run.actions, actor_count(&run.scenario))?;
    at_most_time("position", run.position)?;
    match &run.lesson {
        Some(lesson) => self::lesson(lesson, run.position),
        None => Ok(()),
    }
}

/// How many nodes actions of `scenario` may name: the servers, then any workers and the store.
pub fn actor_count(scenario: &Scenario) -> usize {
    scenario.actor_count()
}

/// The id is a lesson id's shape, the step in range, and the step began no later than the instant
/// shown. Whether the lesson exists here is not the link's business: a link from a build with more
/// lessons still opens its run, and the page says the lesson is not known.
fn lesson(lesson: &SharedLesson, position: SimTime) -> Result<(), ShareError> {
    let well_formed = !lesson.id.is_empty()
        && lesson.id.len() <= MAX_LESSON_ID_BYTES
        && lesson.id.chars().all(|character| {
            character.is_ascii_lowercase() || character.is_ascii_digit() || character == '-'
        });
    if !well_formed {
        return Err(ShareError::OutOfRange {
            field: "lesson id".into(),
            value: format!("`{}`", lesson.id.chars().take(40).collect::<String>()),
            expected: format!("1 to {MAX_LESSON_ID_BYTES} lowercase letters, digits and dashes"),
        });
    }
    if lesson.step as u64 > MAX_LESSON_STEP {
        return Err(ShareError::OutOfRange {
            field: "lesson step".into(),
            value: lesson.step.to_string(),
            expected: format!("0..={MAX_LESSON_STEP}"),
        });
    }
    if lesson.step_began > position || lesson.step_began > MAX_SHARED_TIME {
        return Err(ShareError::OutOfRange {
            field: "lesson step began".into(),
            value: lesson.step_began.to_string(),
            expected: format!("no later than the position shown ({position})"),
        });
    }
    Ok(())
}

fn scenario(scenario: &Scenario) -> Result<(), ShareError> {
    if scenario.title.len() > MAX_TITLE_BYTES {
        return Err(ShareError::TooMany {
            field: "title".into(),
            count: scenario.title.len() as u64,
            max: MAX_TITLE_BYTES as u64,
        });
    }
    in_range("nodes", scenario.node_count as u64, 1, MAX_NODES as u64)?;
    in_range("duration_ms", scenario.duration_ms, 1, MAX_DURATION_MS)?;
    timing(scenario)?;
    if scenario.raft.unsafe_commit_previous_term {
        return Err(ShareError::NotShareable {
            setting: "unsafe_commit_previous_term",
        });
    }
    if scenario.protocol.is_coordination() {
        self::coordination(scenario.node_count, &scenario.protocol)?;
    }
    steps(&scenario.steps, actor_count(scenario), scenario.duration_ms)
}

/// A coordination workload, against the limits of the scenario keys that set it (`[locks]`,
/// `[scheduler]`, `[zookeeper]`, `[queue]` in `sim/SCENARIOS.md`). A key a scenario file may not set
/// for this protocol must hold the value such a file gets.
fn coordination(servers: usize, coordination: &ProtocolConfig) -> Result<(), ShareError> {
    let protocol = coordination.name();
    let Some(locks) = coordination.lock_options() else {
        return Ok(());
    };
    lock_options(locks)?;
    if matches!(coordination, ProtocolConfig::RedisLock(_)) && servers != 1 {
        return Err(ShareError::OutOfRange {
            field: "nodes".into(),
            value: servers.to_string(),
            expected: "1 (a single Redis server)".into(),
        });
    }
    let layout = Layout::new(servers, coordination);
    if layout.total() > MAX_NODES {
        let others = layout.total() - servers;
        return Err(ShareError::OutOfRange {
            field: "nodes".into(),
            value: servers.to_string(),
            expected: format!(
                "at most {} servers beside {others} other actors",
                MAX_NODES - others
            ),
        });
    }
    let defaults = LockServiceOptions::default();
    let fencing_settable = matches!(
        coordination,
        ProtocolConfig::LockService(_) | ProtocolConfig::WorkQueue(..)
    );
    if !fencing_settable {
        fixed("locks.fencing", protocol, locks.fencing, false)?;
    }
    if matches!(
        coordination,
        ProtocolConfig::RedisLock(_) | ProtocolConfig::Redlock(_)
    ) {
        fixed(
            "locks.renew_ms",
            protocol,
            locks.renew_ms,
            defaults.renew_ms,
        )?;
    }
    if !matches!(coordination, ProtocolConfig::RedisLock(_)) {
        fixed(
            "locks.unchecked_release",
            protocol,
            locks.unchecked_release,
            false,
        )?;
    }
    if !matches!(coordination, ProtocolConfig::Redlock(_)) {
        fixed(
            "locks.drift_allowance_ms",
            protocol,
            locks.drift_allowance_ms,
            defaults.drift_allowance_ms,
        )?;
    }
    match coordination {
        ProtocolConfig::Scheduler(_, scheduler) => {
            in_range("scheduler.minute_ms", scheduler.minute_ms, 1, MAX_TIMING_MS)
        }
        ProtocolConfig::WorkQueue(_, queue) => {
            in_range("queue.accounts", queue.accounts.into(), 1, MAX_ACCOUNTS)
        }
        _ => Ok(()),
    }
}

fn lock_options(locks: &LockServiceOptions) -> Result<(), ShareError> {
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
) -> Result<(), ShareError> {
    if value != expected {
        return Err(ShareError::OutOfRange {
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

fn timing(scenario: &Scenario) -> Result<(), ShareError> {
    let timing = &scenario.timing;
    let (election_min, election_max) = timing.election_timeout_ms;
    ordered_range("election_timeout_ms", election_min, election_max, 1)?;
    in_range("heartbeat_ms", timing.heartbeat_ms, 1, MAX_TIMING_MS)?;
    let (delay_min, delay_max) = timing.network_delay_ms;
    ordered_range("network_delay_ms", delay_min, delay_max, 0)?;
    in_range("drop rate (ppm)", timing.drop_ppm.into(), 0, PPM_ONE.into())?;
    in_range(
        "duplicate rate (ppm)",
        timing.duplicate_ppm.into(),
        0,
        PPM_ONE.into(),
    )?;
    in_range(
        "client_timeout_ms",
        timing.client_timeout_ms,
        1,
        MAX_TIMING_MS,
    )
}

fn ordered_range(field: &str, min: u64, max: u64, lowest: u64) -> Result<(), ShareError> {
    in_range(&format!("{field} min"), min, lowest, MAX_TIMING_MS)?;
    in_range(&format!("{field} max"), max, lowest, MAX_TIMING_MS)?;
    if min > max {
        return Err(ShareError::InvertedRange {
            field: field.into(),
            min,
            max,
        });
    }
    Ok(())
}

fn steps(steps: &[Step], node_count: usize, duration_ms: u64) -> Result<(), ShareError> {
    at_most_count("steps", steps.len(), MAX_STEPS)?;
    let mut previous_ms = 0;
    for (index, step) in steps.iter().enumerate() {
        let place = format!("step {}", index + 1);
        if step.at_ms < previous_ms {
            return Err(ShareError::OutOfOrder {
                field: format!("{place} at_ms"),
                previous: previous_ms,
                found: step.at_ms,
            });
        }
        in_range(&format!("{place} at_ms"), step.at_ms, 0, duration_ms)?;
        action(&place, &step.action, node_count)?;
        previous_ms = step.at_ms;
    }
    Ok(())
}

fn recorded_actions(actions: &[RecordedAction], node_count: usize) -> Result<(), ShareError> {
    at_most_count("recorded actions", actions.len(), MAX_SHARED_ACTIONS)?;
    let mut previous: Option<&RecordedAction> = None;
    for (index, recorded) in actions.iter().enumerate() {
        let place = format!("action {}", index + 1);
        if let Some(previous) = previous {
            nondecreasing(&place, "time (µs)", previous.at.0, recorded.at.0)?;
            nondecreasing(
                &place,
                "event count",
                previous.after_events,
                recorded.after_events,
            )?;
        }
        at_most_time(&format!("{place} time"), recorded.at)?;
        action(&place, &recorded.action, node_count)?;
        previous = Some(recorded);
    }
    Ok(())
}

fn nondecreasing(place: &str, field: &str, previous: u64, found: u64) -> Result<(), ShareError> {
    if found < previous {
        return Err(ShareError::OutOfOrder {
            field: format!("{place} {field}"),
            previous,
            found,
        });
    }
    Ok(())
}

/// One action, against the same bounds a scenario step has.
pub(crate) fn action(place: &str, action: &Action, node_count: usize) -> Result<(), ShareError> {
    for (field, target) in targets(action) {
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
        } if from == to => Err(ShareError::CutToItself {
            field: field("to"),
            node: u64::from(from.0) + 1,
        }),
        Action::DropRate { ppm } => {
            in_range(&field("rate (ppm)"), (*ppm).into(), 0, PPM_ONE.into())
        }
        Action::ClockJump { by_ms, .. } => signed_in_range(
            &field("by_ms"),
            *by_ms,
            -MAX_CLOCK_JUMP_MS,
            MAX_CLOCK_JUMP_MS,
        ),
        Action::ClockDrift { ppm, .. } => signed_in_range(
            &field("ppm"),
            *ppm,
            MIN_CLOCK_DRIFT_PPM,
            MAX_CLOCK_DRIFT_PPM,
        ),
        Action::Request { count, .. } => in_range(
            &field("count"),
            (*count).into(),
            1,
            MAX_REQUEST_COUNT.into(),
        ),
        _ => Ok(()),
    }
}

fn targets(action: &Action) -> Vec<(&'static str, NodeTarget)> {
    match action {
        Action::Crash { target }
        | Action::Restart { target }
        | Action::Pause { target, .. }
        | Action::Resume { target }
        | Action::Isolate { target }
        | Action::ClockJump { target, .. }
        | Action::ClockDrift { target, .. }
        | Action::Request { target, .. } => vec![("target", *target)],
        Action::Cut { from, to, .. } => vec![("from", *from), ("to", *to)],
        Action::Partition { .. } | Action::Heal | Action::DropRate { .. } => Vec::new(),
    }
}

/// At least one group, none empty, every node in range and in at most one group.
fn partition(field: &str, groups: &[Vec<NodeId>], node_count: usize) -> Result<(), ShareError> {
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
                return Err(ShareError::DuplicateNode {
                    field: field.into(),
                    node: u64::from(node.0) + 1,
                });
            }
        }
    }
    Ok(())
}

fn node_exists(field: &str, node: NodeId, node_count: usize) -> Result<(), ShareError> {
    if node.index() >= node_count {
        return Err(ShareError::NodeOutOfRange {
            field: field.into(),
            node: u64::from(node.0) + 1,
            node_count,
        });
    }
    Ok(())
}

fn at_most_time(field: &str, time: SimTime) -> Result<(), ShareError> {
    if time > MAX_SHARED_TIME {
        return Err(ShareError::OutOfRange {
            field: field.into(),
            value: time.to_string(),
            expected: format!("at most {MAX_SHARED_TIME} (one simulated hour)"),
        });
    }
    Ok(())
}

fn at_most_count(field: &str, count: usize, max: usize) -> Result<(), ShareError> {
    if count > max {
        return Err(ShareError::TooMany {
            field: field.into(),
            count: count as u64,
            max: max as u64,
        });
    }
    Ok(())
}

fn in_range(field: &str, value: u64, min: u64, max: u64) -> Result<(), ShareError> {
    if value < min || value > max {
        return Err(ShareError::OutOfRange {
            field: field.into(),
            value: value.to_string(),
            expected: format!("{min}..={max}"),
        });
    }
    Ok(())
}

fn signed_in_range(field: &str, value: i64, min: i64, max: i64) -> Result<(), ShareError> {
    if value < min || value > max {
        return Err(ShareError::OutOfRange {
            field: field.into(),
            value: value.to_string(),
            expected: format!("{min}..={max}"),
        });
    }
    Ok(())
}
