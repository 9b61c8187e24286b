//! The binary layout of a [`SharedRun`] (documented in the module above). Decoding checks only what it
//! must to build values safely — counts against their caps, node numbers that fit — and leaves the
//! meaning of each value to `validate`.

use super::validate::{MAX_SHARED_ACTIONS, MAX_TITLE_BYTES};
use super::wire::{Reader, Writer};
use super::{ShareError, SharedRun};
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};
use quorumlab_sim::config::{
    LockServiceOptions, ProtocolConfig, QueueOptions, RaftOptions, SchedulerMode, SchedulerOptions,
    Timing, ZkRecipe,
};
use quorumlab_sim::coordination::MAX_WORKERS;
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::ids::{NodeId, MAX_NODES};
use quorumlab_sim::scenario::{Scenario, Step, MAX_STEPS};
use quorumlab_sim::time::SimTime;

const PROTOCOL_RAFT: u64 = 0;
const OPTION_PRE_VOTE: u64 = 1;
const OPTION_CHECK_QUORUM: u64 = 2;
const OPTION_LEASE_READS: u64 = 4;
const ALL_OPTIONS: u64 = OPTION_PRE_VOTE | OPTION_CHECK_QUORUM | OPTION_LEASE_READS;

/// Which layout a payload has: v1 (no coordination block), v2 (a coordination block after the Raft
/// options) or v3 (v2 plus the lesson block after the position). All are read; v2 is written for a
/// plain run, v3 for a run inside a lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
    V3,
}

impl Version {
    pub fn from_name(name: &str) -> Option<Version> {
        match name {
            "v1" => Some(Version::V1),
            "v2" => Some(Version::V2),
            "v3" => Some(Version::V3),
            _ => None,
        }
    }
}

/// Coordination workload codes (v2). Never renumber: links depend on it.
const COORDINATION_NONE: u64 = 0;
const LOCK_SERVICE: u64 = 1;
const REDIS_LOCK: u64 = 2;
const REDLOCK: u64 = 3;
const SCHEDULER: u64 = 4;
const ZOOKEEPER: u64 = 5;
const WORK_QUEUE: u64 = 6;

/// Lock option bits (v2).
const LOCK_FENCING: u64 = 1;
const LOCK_CHECK_LEASE: u64 = 2;
const LOCK_IDEMPOTENCY_KEY: u64 = 4;
const LOCK_UNCHECKED_RELEASE: u64 = 8;
const ALL_LOCK_FLAGS: u64 =
    LOCK_FENCING | LOCK_CHECK_LEASE | LOCK_IDEMPOTENCY_KEY | LOCK_UNCHECKED_RELEASE;

/// Scheduler modes, in `SchedulerMode::NAMES` order.
const SCHEDULER_MODES: [SchedulerMode; 4] = [
    SchedulerMode::None,
    SchedulerMode::LockEveryRun,
    SchedulerMode::LeaderElection,
    SchedulerMode::LeaderFencing,
];

/// Action codes, in the order the scenario format lists the actions. Never renumber: links depend on it.
const CRASH: u64 = 0;
const RESTART: u64 = 1;
const PAUSE: u64 = 2;
const RESUME: u64 = 3;
const PARTITION: u64 = 4;
const ISOLATE: u64 = 5;
const CUT: u64 = 6;
const HEAL: u64 = 7;
const DROP_RATE: u64 = 8;
const CLOCK_JUMP: u64 = 9;
const CLOCK_DRIFT: u64 = 10;
const REQUEST: u64 = 11;

/// The version `run` is written in: v3 when it carries a lesson, v2 otherwise (so a plain link stays
/// readable by builds that predate lessons).
pub fn version_for(run: &SharedRun) -> Version {
    if run.lesson.is_some() {
        Version::V3
    } else {
        Version::V2
    }
}

/// The current body of `run`, in [`version_for`]'s layout.
pub fn encode(run: &SharedRun) -> Vec<u8> {
    encode_as(run, version_for(run))
}

/// The body of `run` in `version`'s layout. A v1 body has no room for a coordination workload (it
/// is left out), and only a v3 body has the lesson block; only tests write v1, to check that old
/// links still open.
pub fn encode_as(run: &SharedRun, version: Version) -> Vec<u8> {
    let mut writer = Writer::default();
    write_settings(&mut writer, &run.scenario);
    if version != Version::V1 {
        let protocol = &run.scenario.protocol;
        write_coordination(&mut writer, protocol.is_coordination().then_some(protocol));
    }
    write_steps(&mut writer, &run.scenario.steps);
    write_actions(&mut writer, &run.actions);
    writer.unsigned(run.position.as_micros());
    if version == Version::V3 {
        super::lesson_block::write(&mut writer, run.lesson.as_ref());
    }
    writer.sealed()
}

pub fn decode(bytes: &[u8], version: Version) -> Result<SharedRun, ShareError> {
    let mut reader = Reader::unsealed(bytes)?;
    let mut scenario = read_settings(&mut reader)?;
    if version != Version::V1 {
        if let Some(protocol) = read_coordination(&mut reader)? {
            scenario.protocol = protocol;
        }
    }
    // Actions may name every actor: in a coordination world the workers and the store follow the
    // servers (validation then checks the total against the node limit).
    let actor_count = actor_count(&scenario);
    scenario.steps = read_steps(&mut reader, actor_count)?;
    let actions = read_actions(&mut reader, actor_count)?;
    reader.place.clear();
    let position = SimTime(reader.unsigned("position")?);
    let lesson = match version {
        Version::V3 => super::lesson_block::read(&mut reader)?,
        Version::V1 | Version::V2 => None,
    };
    reader.finish()?;
    Ok(SharedRun {
        scenario,
        actions,
        position,
        lesson,
    })
}

fn write_settings(writer: &mut Writer, scenario: &Scenario) {
    let timing = &scenario.timing;
    writer.text(&scenario.title);
    // Every world is written as Raft here: a coordination world adds its block after the settings.
    writer.unsigned(PROTOCOL_RAFT);
    writer.unsigned(scenario.node_count as u64);
    writer.unsigned(scenario.seed);
    writer.unsigned(scenario.duration_ms);
    writer.unsigned(timing.election_timeout_ms.0);
    writer.unsigned(timing.election_timeout_ms.1);
    writer.unsigned(timing.heartbeat_ms);
    writer.unsigned(timing.network_delay_ms.0);
    writer.unsigned(timing.network_delay_ms.1);
    writer.unsigned(u64::from(timing.drop_ppm));
    writer.unsigned(u64::from(timing.duplicate_ppm));
    writer.unsigned(timing.client_timeout_ms);
    writer.unsigned(option_bits(&scenario.raft));
}

fn option_bits(raft: &RaftOptions) -> u64 {
    let bit = |on: bool, value: u64| if on { value } else { 0 };
    bit(raft.pre_vote, OPTION_PRE_VOTE)
        | bit(raft.check_quorum, OPTION_CHECK_QUORUM)
        | bit(raft.lease_reads, OPTION_LEASE_READS)
}

fn read_settings(reader: &mut Reader<'_>) -> Result<Scenario, ShareError> {
    let title = reader.text("title", MAX_TITLE_BYTES)?;
    let protocol = match reader.unsigned("protocol")? {
        PROTOCOL_RAFT => ProtocolConfig::Raft,
        code => {
            return Err(ShareError::UnknownCode {
                field: "protocol".into(),
                code,
            })
        }
    };
    let node_count = reader.unsigned_at_most("nodes", MAX_NODES as u64)? as usize;
    let seed = reader.unsigned("seed")?;
    let duration_ms = reader.unsigned("duration_ms")?;
    let timing = Timing {
        election_timeout_ms: (
            reader.unsigned("election_timeout_ms min")?,
            reader.unsigned("election_timeout_ms max")?,
        ),
        heartbeat_ms: reader.unsigned("heartbeat_ms")?,
        network_delay_ms: (
            reader.unsigned("network_delay_ms min")?,
            reader.unsigned("network_delay_ms max")?,
        ),
        drop_ppm: reader.unsigned_at_most("drop rate", u64::from(u32::MAX))? as u32,
        duplicate_ppm: reader.unsigned_at_most("duplicate rate", u64::from(u32::MAX))? as u32,
        client_timeout_ms: reader.unsigned("client_timeout_ms")?,
    };
    let raft = read_options(reader)?;
    Ok(Scenario {
        title,
        protocol,
        node_count,
        seed,
        duration_ms,
        timing,
        raft,
        steps: Vec::new(),
    })
}

fn read_options(reader: &mut Reader<'_>) -> Result<RaftOptions, ShareError> {
    let bits = reader.unsigned("options")?;
    if bits & !ALL_OPTIONS != 0 {
        return Err(ShareError::UnknownCode {
            field: "options".into(),
            code: bits,
        });
    }
    Ok(RaftOptions {
        pre_vote: bits & OPTION_PRE_VOTE != 0,
        check_quorum: bits & OPTION_CHECK_QUORUM != 0,
        lease_reads: bits & OPTION_LEASE_READS != 0,
        ..RaftOptions::default()
    })
}

/// How many nodes actions of `scenario` may name: the servers, then any workers and the store.
pub fn actor_count(scenario: &Scenario) -> usize {
    match scenario.layout() {
        Some(layout) => layout.total(),
        None => scenario.node_count,
    }
}

fn write_coordination(writer: &mut Writer, coordination: Option<&ProtocolConfig>) {
    let Some(coordination) = coordination else {
        writer.unsigned(COORDINATION_NONE);
        return;
    };
    writer.unsigned(match coordination {
        ProtocolConfig::Raft | ProtocolConfig::LockService(_) => LOCK_SERVICE,
        ProtocolConfig::RedisLock(_) => REDIS_LOCK,
        ProtocolConfig::Redlock(_) => REDLOCK,
        ProtocolConfig::Scheduler(..) => SCHEDULER,
        ProtocolConfig::Zookeeper(..) => ZOOKEEPER,
        ProtocolConfig::WorkQueue(..) => WORK_QUEUE,
    });
    if let Some(options) = coordination.lock_options() {
        write_lock_options(writer, options);
    }
    match coordination {
        ProtocolConfig::Scheduler(_, scheduler) => {
            let mode = SCHEDULER_MODES
                .iter()
                .position(|&mode| mode == scheduler.mode)
                .unwrap_or(0);
            writer.unsigned(mode as u64);
            writer.unsigned(scheduler.minute_ms);
        }
        ProtocolConfig::Zookeeper(_, recipe) => writer.unsigned(match recipe {
            ZkRecipe::Herd => 0,
            ZkRecipe::Sequential => 1,
        }),
        ProtocolConfig::WorkQueue(_, queue) => {
            writer.flag(queue.partitioned);
            writer.unsigned(u64::from(queue.accounts));
        }
        ProtocolConfig::Raft
        | ProtocolConfig::LockService(_)
        | ProtocolConfig::RedisLock(_)
        | ProtocolConfig::Redlock(_) => {}
    }
}

fn write_lock_options(writer: &mut Writer, options: &LockServiceOptions) {
    writer.unsigned(options.workers as u64);
    writer.unsigned(options.lease_ttl_ms);
    writer.unsigned(options.renew_ms);
    writer.unsigned(options.think_ms);
    writer.unsigned(options.work_ms);
    writer.unsigned(options.op_timeout_ms);
    writer.unsigned(options.initial_count);
    writer.unsigned(options.drift_allowance_ms);
    let bit = |on: bool, value: u64| if on { value } else { 0 };
    writer.unsigned(
        bit(options.fencing, LOCK_FENCING)
            | bit(options.check_lease_before_write, LOCK_CHECK_LEASE)
            | bit(options.idempotency_key, LOCK_IDEMPOTENCY_KEY)
            | bit(options.unchecked_release, LOCK_UNCHECKED_RELEASE),
    );
}

fn read_coordination(reader: &mut Reader<'_>) -> Result<Option<ProtocolConfig>, ShareError> {
    let code = reader.unsigned("protocol (coordination)")?;
    if code == COORDINATION_NONE {
        return Ok(None);
    }
    if code > WORK_QUEUE {
        return Err(ShareError::UnknownCode {
            field: "protocol (coordination)".into(),
            code,
        });
    }
    let locks = read_lock_options(reader)?;
    let coordination = match code {
        LOCK_SERVICE => ProtocolConfig::LockService(locks),
        REDIS_LOCK => ProtocolConfig::RedisLock(locks),
        REDLOCK => ProtocolConfig::Redlock(locks),
        SCHEDULER => {
            let mode_code = reader.unsigned("scheduler.mode")?;
            let mode = usize::try_from(mode_code)
                .ok()
                .and_then(|index| SCHEDULER_MODES.get(index).copied())
                .ok_or(ShareError::UnknownCode {
                    field: "scheduler.mode".into(),
                    code: mode_code,
                })?;
            let minute_ms = reader.unsigned("scheduler.minute_ms")?;
            ProtocolConfig::Scheduler(locks, SchedulerOptions { mode, minute_ms })
        }
        ZOOKEEPER => {
            let recipe = match reader.unsigned("zookeeper.recipe")? {
                0 => ZkRecipe::Herd,
                1 => ZkRecipe::Sequential,
                code => {
                    return Err(ShareError::UnknownCode {
                        field: "zookeeper.recipe".into(),
                        code,
                    })
                }
            };
            ProtocolConfig::Zookeeper(locks, recipe)
        }
        _ => {
            let partitioned = reader.flag("queue.partitioned")?;
            let accounts = reader.unsigned_at_most("queue.accounts", u64::from(u32::MAX))? as u32;
            ProtocolConfig::WorkQueue(
                locks,
                QueueOptions {
                    partitioned,
                    accounts,
                },
            )
        }
    };
    Ok(Some(coordination))
}

fn read_lock_options(reader: &mut Reader<'_>) -> Result<LockServiceOptions, ShareError> {
    // Workers are capped here already: their number sets how many nodes actions may name.
    let workers = reader.unsigned_at_most("locks.workers", MAX_WORKERS as u64)? as usize;
    let lease_ttl_ms = reader.unsigned("locks.lease_ttl_ms")?;
    let renew_ms = reader.unsigned("locks.renew_ms")?;
    let think_ms = reader.unsigned("locks.think_ms")?;
    let work_ms = reader.unsigned("locks.work_ms")?;
    let op_timeout_ms = reader.unsigned("locks.op_timeout_ms")?;
    let initial_count = reader.unsigned("locks.initial_count")?;
    let drift_allowance_ms = reader.unsigned("locks.drift_allowance_ms")?;
    let bits = reader.unsigned("locks options")?;
    if bits & !ALL_LOCK_FLAGS != 0 {
        return Err(ShareError::UnknownCode {
            field: "locks options".into(),
            code: bits,
        });
    }
    Ok(LockServiceOptions {
        workers,
        lease_ttl_ms,
        renew_ms,
        fencing: bits & LOCK_FENCING != 0,
        check_lease_before_write: bits & LOCK_CHECK_LEASE != 0,
        idempotency_key: bits & LOCK_IDEMPOTENCY_KEY != 0,
        think_ms,
        work_ms,
        op_timeout_ms,
        initial_count,
        unchecked_release: bits & LOCK_UNCHECKED_RELEASE != 0,
        drift_allowance_ms,
    })
}

fn write_steps(writer: &mut Writer, steps: &[Step]) {
    writer.unsigned(steps.len() as u64);
    let mut previous_ms = 0;
    for step in steps {
        writer.unsigned(step.at_ms.saturating_sub(previous_ms));
        write_action(writer, &step.action);
        previous_ms = step.at_ms;
    }
}

fn read_steps(reader: &mut Reader<'_>, node_count: usize) -> Result<Vec<Step>, ShareError> {
    let count = reader.count("steps", MAX_STEPS)?;
    let mut steps = Vec::with_capacity(count);
    let mut at_ms: u64 = 0;
    for index in 0..count {
        reader.place = format!("step {} ", index + 1);
        at_ms = add_checked(reader, at_ms, "at_ms")?;
        let action = read_action(reader, node_count)?;
        steps.push(Step { at_ms, action });
    }
    Ok(steps)
}

fn write_actions(writer: &mut Writer, actions: &[RecordedAction]) {
    writer.unsigned(actions.len() as u64);
    let (mut previous_us, mut previous_events) = (0, 0);
    for recorded in actions {
        writer.unsigned(recorded.at.as_micros().saturating_sub(previous_us));
        writer.unsigned(recorded.after_events.saturating_sub(previous_events));
        write_action(writer, &recorded.action);
        previous_us = recorded.at.as_micros();
        previous_events = recorded.after_events;
    }
}

fn read_actions(
    reader: &mut Reader<'_>,
    node_count: usize,
) -> Result<Vec<RecordedAction>, ShareError> {
    reader.place.clear();
    let count = reader.count("recorded actions", MAX_SHARED_ACTIONS)?;
    let mut actions = Vec::with_capacity(count);
    let (mut at_us, mut after_events) = (0u64, 0u64);
    for index in 0..count {
        reader.place = format!("action {} ", index + 1);
        at_us = add_checked(reader, at_us, "time")?;
        after_events = add_checked(reader, after_events, "event count")?;
        let action = read_action(reader, node_count)?;
        actions.push(RecordedAction {
            at: SimTime(at_us),
            after_events,
            action,
        });
    }
    Ok(actions)
}

/// Reads a difference and adds it to `previous`; a sum past u64 is a damaged link, not a wrap.
fn add_checked(reader: &mut Reader<'_>, previous: u64, field: &str) -> Result<u64, ShareError> {
    let difference = reader.unsigned(field)?;
    previous
        .checked_add(difference)
        .ok_or_else(|| ShareError::BadNumber {
            field: reader.field_name(field),
        })
}

fn write_action(writer: &mut Writer, action: &Action) {
    match action {
        Action::Crash { target } => write_targeted(writer, CRASH, *target),
        Action::Restart { target } => write_targeted(writer, RESTART, *target),
        Action::Pause {
            target,
            duration_ms,
        } => {
            write_targeted(writer, PAUSE, *target);
            writer.unsigned(duration_ms.unwrap_or(0));
        }
        Action::Resume { target } => write_targeted(writer, RESUME, *target),
        Action::Partition { groups } => {
            writer.unsigned(PARTITION);
            writer.unsigned(groups.len() as u64);
            for group in groups {
                writer.unsigned(group.len() as u64);
                for node in group {
                    writer.unsigned(node.0.into());
                }
            }
        }
        Action::Isolate { target } => write_targeted(writer, ISOLATE, *target),
        Action::Cut { from, to, both } => {
            write_targeted(writer, CUT, *from);
            write_target(writer, *to);
            writer.flag(*both);
        }
        Action::Heal => writer.unsigned(HEAL),
        Action::DropRate { ppm } => {
            writer.unsigned(DROP_RATE);
            writer.unsigned(u64::from(*ppm));
        }
        Action::ClockJump { target, by_ms } => {
            write_targeted(writer, CLOCK_JUMP, *target);
            writer.signed(*by_ms);
        }
        Action::ClockDrift { target, ppm } => {
            write_targeted(writer, CLOCK_DRIFT, *target);
            writer.signed(*ppm);
        }
        Action::Request {
            count,
            target,
            kind,
        } => {
            write_targeted(writer, REQUEST, *target);
            writer.unsigned(u64::from(*count));
            writer.unsigned(match kind {
                RequestKind::Put => 0,
                RequestKind::Get => 1,
            });
        }
    }
}

fn write_targeted(writer: &mut Writer, code: u64, target: NodeTarget) {
    writer.unsigned(code);
    write_target(writer, target);
}

/// 0 is "the leader"; k is node k (one-based).
fn write_target(writer: &mut Writer, target: NodeTarget) {
    writer.unsigned(match target {
        NodeTarget::Leader => 0,
        NodeTarget::Node(node) => u64::from(node.0) + 1,
    });
}

fn read_action(reader: &mut Reader<'_>, node_count: usize) -> Result<Action, ShareError> {
    let code = reader.unsigned("kind")?;
    let mut target = |field: &str| read_target(reader, field, node_count);
    let action = match code {
        CRASH => Action::Crash {
            target: target("target")?,
        },
        RESTART => Action::Restart {
            target: target("target")?,
        },
        PAUSE => {
            let target = target("target")?;
            let duration_ms = Some(reader.unsigned("duration_ms")?).filter(|&ms| ms > 0);
            Action::Pause {
                target,
                duration_ms,
            }
        }
        RESUME => Action::Resume {
            target: target("target")?,
        },
        PARTITION => Action::Partition {
            groups: read_groups(reader, node_count)?,
        },
        ISOLATE => Action::Isolate {
            target: target("target")?,
        },
        CUT => Action::Cut {
            from: target("from")?,
            to: target("to")?,
            both: reader.flag("both")?,
        },
        HEAL => Action::Heal,
        DROP_RATE => Action::DropRate {
            ppm: reader.unsigned_at_most("rate", u64::from(u32::MAX))? as u32,
        },
        CLOCK_JUMP => Action::ClockJump {
            target: target("target")?,
            by_ms: reader.signed("by_ms")?,
        },
        CLOCK_DRIFT => Action::ClockDrift {
            target: target("target")?,
            ppm: reader.signed("ppm")?,
        },
        REQUEST => read_request(reader, node_count)?,
        code => {
            return Err(ShareError::UnknownCode {
                field: reader.field_name("kind"),
                code,
            })
        }
    };
    Ok(action)
}

fn read_request(reader: &mut Reader<'_>, node_count: usize) -> Result<Action, ShareError> {
    let target = read_target(reader, "target", node_count)?;
    let count = reader.unsigned_at_most("count", u64::from(u32::MAX))? as u32;
    let kind = match reader.unsigned("request kind")? {
        0 => RequestKind::Put,
        1 => RequestKind::Get,
        code => {
            return Err(ShareError::UnknownCode {
                field: reader.field_name("request kind"),
                code,
            })
        }
    };
    Ok(Action::Request {
        count,
        target,
        kind,
    })
}

fn read_target(
    reader: &mut Reader<'_>,
    field: &str,
    node_count: usize,
) -> Result<NodeTarget, ShareError> {
    match reader.unsigned(field)? {
        0 => Ok(NodeTarget::Leader),
        number => Ok(NodeTarget::Node(read_node_number(
            reader, field, number, node_count,
        )?)),
    }
}

fn read_node_number(
    reader: &Reader<'_>,
    field: &str,
    number: u64,
    node_count: usize,
) -> Result<NodeId, ShareError> {
    if number == 0 || number > node_count as u64 {
        return Err(ShareError::NodeOutOfRange {
            field: reader.field_name(field),
            node: number,
            node_count,
        });
    }
    Ok(NodeId((number - 1) as u16))
}

fn read_groups(reader: &mut Reader<'_>, node_count: usize) -> Result<Vec<Vec<NodeId>>, ShareError> {
    let group_count = reader.count("groups", node_count)?;
    let mut groups = Vec::with_capacity(group_count);
    for _ in 0..group_count {
        let member_count = reader.count("group size", node_count)?;
        let mut group = Vec::with_capacity(member_count);
        for _ in 0..member_count {
            let index = reader.unsigned("group member")?;
            group.push(read_node_number(
                reader,
                "group member",
                index.saturating_add(1),
                node_count,
            )?);
        }
        groups.push(group);
    }
    Ok(groups)
}
