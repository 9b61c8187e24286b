//! The one place where a link's own types ([`super::body`]) meet the engine's (`Scenario`, `Action`,
//! `RecordedAction`, the coordination options). When an engine type is reshaped, this file changes
//! and the link format does not: every version of link (v4, and v1–v3 through `legacy`) is read into
//! a [`LinkBody`] and converted here.

use super::body::{
    GroupSizeLimit, GroupsLimit, LinkAction, LinkBody, LinkByzantineMode, LinkIdempotency,
    LinkLesson, LinkLinkSettings, LinkLockOptions, LinkMalformedFault, LinkPaxos, LinkPaxosRemedy,
    LinkProtocol, LinkRaftOptions, LinkReadPath, LinkRecordedAction, LinkRequestKind,
    LinkSchedulerMode, LinkStep, LinkTarget, LinkTiming, LinkZookeeperRecipe,
};
use super::bounded::Bounded;
use super::registered::{self, WorldError};
use super::{ShareError, SharedLesson, SharedRun};
use quorumlab_sim::action::{Action, ByzantineMode, MalformedFault, NodeTarget, RequestKind};
use quorumlab_sim::config::{
    IdempotencyScope, LockServiceOptions, PaxosOptions, PaxosRemedy, PbftOptions, ProtocolConfig,
    QueueOptions, RaftOptions, ReadPath, SchedulerMode, SchedulerOptions, Timing, ZkRecipe,
};
use quorumlab_sim::history::RecordedAction;
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::link_settings::LinkSettings;
use quorumlab_sim::scenario::{Scenario, Step};
use quorumlab_sim::time::SimTime;

/// The body of `run`. Values are copied as they are (validation decides what may be shared).
pub fn from_run(run: &SharedRun) -> LinkBody {
    let scenario = &run.scenario;
    LinkBody {
        title: scenario.title.clone(),
        protocol: protocol_from(&scenario.protocol),
        nodes: scenario.node_count as u64,
        seed: scenario.seed,
        duration_ms: scenario.duration_ms,
        timing: timing_from(&scenario.timing),
        options: LinkRaftOptions {
            pre_vote: scenario.raft.pre_vote,
            check_quorum: scenario.raft.check_quorum,
            read_path: read_path_from(scenario.raft.read_path),
        },
        steps: Bounded::new(steps_from(&scenario.steps)),
        actions: Bounded::new(actions_from(&run.actions)),
        position_us: run.position.as_micros(),
        lesson: run.lesson.as_ref().map(|lesson| LinkLesson {
            id: lesson.id.clone(),
            step: lesson.step as u64,
            step_began_us: lesson.step_began.as_micros(),
        }),
    }
}

/// The run `body` describes. Fails only where a sum of time differences passes u64 (a damaged
/// link); everything else is for validation to judge.
pub fn into_run(body: LinkBody) -> Result<SharedRun, ShareError> {
    let scenario = Scenario {
        title: body.title,
        protocol: protocol_into(&body.protocol)?,
        node_count: saturating_usize(body.nodes),
        seed: body.seed,
        duration_ms: body.duration_ms,
        timing: timing_into(&body.timing),
        raft: RaftOptions {
            pre_vote: body.options.pre_vote,
            check_quorum: body.options.check_quorum,
            read_path: read_path_into(body.options.read_path),
            unsafe_commit_previous_term: false,
            // A v4 link cannot carry the unsafe direct mode (refused when sharing).
            membership: Default::default(),
        },
        steps: steps_into(body.steps.items)?,
    };
    Ok(SharedRun {
        scenario,
        actions: actions_into(body.actions.items)?,
        position: SimTime(body.position_us),
        lesson: body.lesson.map(|lesson| SharedLesson {
            id: lesson.id,
            step: saturating_usize(lesson.step),
            step_began: SimTime(lesson.step_began_us),
        }),
    })
}

/// Too large for this platform is out of every range anyway: validation names it.
fn saturating_usize(value: u64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

fn timing_from(timing: &Timing) -> LinkTiming {
    LinkTiming {
        election_timeout_min_ms: timing.election_timeout_ms.0,
        election_timeout_max_ms: timing.election_timeout_ms.1,
        heartbeat_ms: timing.heartbeat_ms,
        network_delay_min_ms: timing.network_delay_ms.0,
        network_delay_max_ms: timing.network_delay_ms.1,
        drop_ppm: timing.drop_ppm,
        duplicate_ppm: timing.duplicate_ppm,
        client_timeout_ms: timing.client_timeout_ms,
    }
}

fn timing_into(timing: &LinkTiming) -> Timing {
    Timing {
        election_timeout_ms: (
            timing.election_timeout_min_ms,
            timing.election_timeout_max_ms,
        ),
        heartbeat_ms: timing.heartbeat_ms,
        network_delay_ms: (timing.network_delay_min_ms, timing.network_delay_max_ms),
        drop_ppm: timing.drop_ppm,
        duplicate_ppm: timing.duplicate_ppm,
        client_timeout_ms: timing.client_timeout_ms,
        // A v4 link has no room for a disk's write time or timer jitter: `linkable` refuses a run
        // that sets either.
        persist_ms: (0, 0),
        timer_jitter_us: 0,
    }
}

/// The protocol as a link writes it: in the older variant that holds it wherever one does, so every
/// run a link could carry before keeps its bytes, and by its registry name otherwise.
fn protocol_from(protocol: &ProtocolConfig) -> LinkProtocol {
    old_code(protocol).unwrap_or_else(|| registered_from(protocol))
}

/// `protocol` by its registry name, whether or not an older variant holds it (tests force this to
/// read every world through the registered path).
pub(super) fn registered_from(protocol: &ProtocolConfig) -> LinkProtocol {
    let locks = protocol.lock_options().map(locks_from);
    LinkProtocol::Registered(registered::world_from(protocol, locks))
}

/// The older variant that holds `protocol` exactly, if one does: the mapping links used before
/// `Registered`, kept only where reading it back gives the same protocol.
fn old_code(protocol: &ProtocolConfig) -> Option<LinkProtocol> {
    let old = old_protocol_from(protocol)?;
    (old_protocol_into(&old).as_ref() == Some(protocol)).then_some(old)
}

/// The mapping onto the variants before `Registered`. Frozen: a world or option added since goes by
/// name, so neither is named here.
fn old_protocol_from(coordination: &ProtocolConfig) -> Option<LinkProtocol> {
    let Some(locks) = coordination.lock_options().map(locks_from) else {
        return matches!(coordination, ProtocolConfig::Raft).then_some(LinkProtocol::Raft);
    };
    let old = match coordination {
        ProtocolConfig::Raft => LinkProtocol::Raft,
        ProtocolConfig::LockService(options) if options.lock_delay_ms > 0 => {
            LinkProtocol::LockServiceWithDelay {
                locks,
                lock_delay_ms: options.lock_delay_ms,
            }
        }
        ProtocolConfig::LockService(_) => LinkProtocol::LockService(locks),
        ProtocolConfig::RedisLock(options) if options.set_nx_retries > 0 => {
            LinkProtocol::RedisLockWithRetries {
                locks,
                set_nx_retries: options.set_nx_retries,
            }
        }
        ProtocolConfig::RedisLock(_) => LinkProtocol::RedisLock(locks),
        ProtocolConfig::Redlock(_) => LinkProtocol::Redlock(locks),
        ProtocolConfig::Scheduler(_, scheduler) => LinkProtocol::Scheduler {
            locks,
            mode: match scheduler.mode {
                SchedulerMode::None => LinkSchedulerMode::None,
                SchedulerMode::LockEveryRun => LinkSchedulerMode::LockEveryRun,
                SchedulerMode::LeaderElection => LinkSchedulerMode::LeaderElection,
                SchedulerMode::LeaderFencing => LinkSchedulerMode::LeaderFencing,
            },
            minute_ms: scheduler.minute_ms,
        },
        ProtocolConfig::Zookeeper(_, recipe) => LinkProtocol::Zookeeper {
            locks,
            recipe: match recipe {
                ZkRecipe::Herd => LinkZookeeperRecipe::Herd,
                ZkRecipe::Sequential => LinkZookeeperRecipe::Sequential,
            },
        },
        ProtocolConfig::WorkQueue(_, queue) => LinkProtocol::WorkQueue {
            locks,
            partitioned: queue.partitioned,
            accounts: queue.accounts,
        },
        ProtocolConfig::Pbft(_, pbft) => LinkProtocol::Pbft {
            locks,
            quorum: pbft.quorum,
            request_interval_ms: pbft.request_interval_ms,
            view_timeout_ms: pbft.view_timeout_ms,
        },
        ProtocolConfig::Paxos(_, paxos) if paxos.learners > 0 => LinkProtocol::PaxosWithLearners {
            paxos: paxos_from(locks, paxos),
            learners: paxos.learners as u32,
        },
        ProtocolConfig::Paxos(_, paxos) => paxos_without_learners(paxos_from(locks, paxos)),
        // A world added after the frozen list (none yet) has no older variant.
        #[allow(unreachable_patterns)]
        _ => return None,
    };
    Some(old)
}

/// `LinkProtocol::Paxos`, which spells out the fields `LinkPaxos` holds.
fn paxos_without_learners(paxos: LinkPaxos) -> LinkProtocol {
    let LinkPaxos {
        locks,
        remedy,
        durable_acceptors,
        round_timeout_ms,
        backoff_ms,
        stagger_ms,
    } = paxos;
    LinkProtocol::Paxos {
        locks,
        remedy,
        durable_acceptors,
        round_timeout_ms,
        backoff_ms,
        stagger_ms,
    }
}

fn paxos_from(locks: LinkLockOptions, paxos: &PaxosOptions) -> LinkPaxos {
    LinkPaxos {
        locks,
        remedy: match paxos.remedy {
            PaxosRemedy::None => LinkPaxosRemedy::None,
            PaxosRemedy::Backoff => LinkPaxosRemedy::Backoff,
            PaxosRemedy::Leader => LinkPaxosRemedy::Leader,
        },
        durable_acceptors: paxos.durable_acceptors,
        round_timeout_ms: paxos.round_timeout_ms,
        backoff_ms: paxos.backoff_ms,
        stagger_ms: paxos.stagger_ms,
    }
}

fn paxos_into(paxos: &LinkPaxos, learners: usize) -> ProtocolConfig {
    let remedy = match paxos.remedy {
        LinkPaxosRemedy::None => PaxosRemedy::None,
        LinkPaxosRemedy::Backoff => PaxosRemedy::Backoff,
        LinkPaxosRemedy::Leader => PaxosRemedy::Leader,
    };
    let options = PaxosOptions {
        remedy,
        durable_acceptors: paxos.durable_acceptors,
        round_timeout_ms: paxos.round_timeout_ms,
        backoff_ms: paxos.backoff_ms,
        stagger_ms: paxos.stagger_ms,
        learners,
    };
    ProtocolConfig::Paxos(locks_into(&paxos.locks), options)
}

/// The protocol a link's variant describes. A registered world is checked key by key against its
/// entry, and refused where an older variant holds the same run (a run has one link).
fn protocol_into(protocol: &LinkProtocol) -> Result<ProtocolConfig, ShareError> {
    let LinkProtocol::Registered(world) = protocol else {
        return old_protocol_into(protocol).ok_or(ShareError::Undecodable {
            problem: "an unknown protocol code",
        });
    };
    let decoded = registered::world_into(world, locks_into)?;
    if old_code(&decoded).is_some() {
        return Err(WorldError::HasOwnCode {
            world: decoded.name(),
        }
        .into());
    }
    Ok(decoded)
}

/// The protocol one of the variants before `Registered` describes (`None` for `Registered`).
fn old_protocol_into(protocol: &LinkProtocol) -> Option<ProtocolConfig> {
    let old = match protocol {
        LinkProtocol::Registered(_) => return None,
        LinkProtocol::Raft => ProtocolConfig::Raft,
        LinkProtocol::LockService(locks) => ProtocolConfig::LockService(locks_into(locks)),
        LinkProtocol::LockServiceWithDelay {
            locks,
            lock_delay_ms,
        } => ProtocolConfig::LockService(LockServiceOptions {
            lock_delay_ms: *lock_delay_ms,
            ..locks_into(locks)
        }),
        LinkProtocol::RedisLock(locks) => ProtocolConfig::RedisLock(locks_into(locks)),
        LinkProtocol::RedisLockWithRetries {
            locks,
            set_nx_retries,
        } => ProtocolConfig::RedisLock(LockServiceOptions {
            set_nx_retries: *set_nx_retries,
            ..locks_into(locks)
        }),
        LinkProtocol::Redlock(locks) => ProtocolConfig::Redlock(locks_into(locks)),
        LinkProtocol::Scheduler {
            locks,
            mode,
            minute_ms,
        } => {
            let scheduler = SchedulerOptions {
                mode: scheduler_mode_into(*mode),
                minute_ms: *minute_ms,
            };
            ProtocolConfig::Scheduler(locks_into(locks), scheduler)
        }
        LinkProtocol::Zookeeper { locks, recipe } => {
            let recipe = match recipe {
                LinkZookeeperRecipe::Herd => ZkRecipe::Herd,
                LinkZookeeperRecipe::Sequential => ZkRecipe::Sequential,
            };
            ProtocolConfig::Zookeeper(locks_into(locks), recipe)
        }
        LinkProtocol::WorkQueue {
            locks,
            partitioned,
            accounts,
        } => {
            let queue = QueueOptions {
                partitioned: *partitioned,
                accounts: *accounts,
            };
            ProtocolConfig::WorkQueue(locks_into(locks), queue)
        }
        // The two consensus worlds, apart to keep this function short.
        consensus => return consensus_into(consensus),
    };
    Some(old)
}

/// `old_protocol_into` for PBFT and Paxos (`None` for any other variant).
fn consensus_into(protocol: &LinkProtocol) -> Option<ProtocolConfig> {
    let consensus = match protocol {
        LinkProtocol::Pbft {
            locks,
            quorum,
            request_interval_ms,
            view_timeout_ms,
        } => {
            let pbft = PbftOptions {
                quorum: *quorum,
                request_interval_ms: *request_interval_ms,
                view_timeout_ms: *view_timeout_ms,
            };
            ProtocolConfig::Pbft(locks_into(locks), pbft)
        }
        LinkProtocol::Paxos {
            locks,
            remedy,
            durable_acceptors,
            round_timeout_ms,
            backoff_ms,
            stagger_ms,
        } => {
            let paxos = LinkPaxos {
                locks: locks.clone(),
                remedy: *remedy,
                durable_acceptors: *durable_acceptors,
                round_timeout_ms: *round_timeout_ms,
                backoff_ms: *backoff_ms,
                stagger_ms: *stagger_ms,
            };
            paxos_into(&paxos, 0)
        }
        LinkProtocol::PaxosWithLearners { paxos, learners } => {
            paxos_into(paxos, *learners as usize)
        }
        _ => return None,
    };
    Some(consensus)
}

fn scheduler_mode_into(mode: LinkSchedulerMode) -> SchedulerMode {
    match mode {
        LinkSchedulerMode::None => SchedulerMode::None,
        LinkSchedulerMode::LockEveryRun => SchedulerMode::LockEveryRun,
        LinkSchedulerMode::LeaderElection => SchedulerMode::LeaderElection,
        LinkSchedulerMode::LeaderFencing => SchedulerMode::LeaderFencing,
    }
}

pub(super) fn locks_from(options: &LockServiceOptions) -> LinkLockOptions {
    LinkLockOptions {
        workers: options.workers as u64,
        lease_ttl_ms: options.lease_ttl_ms,
        renew_ms: options.renew_ms,
        think_ms: options.think_ms,
        work_ms: options.work_ms,
        op_timeout_ms: options.op_timeout_ms,
        initial_count: options.initial_count,
        drift_allowance_ms: options.drift_allowance_ms,
        fencing: options.fencing,
        check_lease_before_write: options.check_lease_before_write,
        idempotency: match (options.idempotency_key, options.idempotency_scope) {
            (false, _) => LinkIdempotency::Off,
            (true, IdempotencyScope::Message) => LinkIdempotency::PerMessage,
            (true, IdempotencyScope::Batch) => LinkIdempotency::PerBatch,
        },
        unchecked_release: options.unchecked_release,
    }
}

pub(super) fn locks_into(options: &LinkLockOptions) -> LockServiceOptions {
    LockServiceOptions {
        workers: saturating_usize(options.workers),
        lease_ttl_ms: options.lease_ttl_ms,
        renew_ms: options.renew_ms,
        fencing: options.fencing,
        check_lease_before_write: options.check_lease_before_write,
        idempotency_key: options.idempotency != LinkIdempotency::Off,
        idempotency_scope: match options.idempotency {
            LinkIdempotency::PerBatch => IdempotencyScope::Batch,
            LinkIdempotency::Off | LinkIdempotency::PerMessage => IdempotencyScope::Message,
        },
        think_ms: options.think_ms,
        work_ms: options.work_ms,
        op_timeout_ms: options.op_timeout_ms,
        initial_count: options.initial_count,
        unchecked_release: options.unchecked_release,
        drift_allowance_ms: options.drift_allowance_ms,
        lock_delay_ms: 0,
        set_nx_retries: 0,
    }
}

fn steps_from(steps: &[Step]) -> Vec<LinkStep> {
    let mut previous_ms = 0;
    steps
        .iter()
        .map(|step| {
            let since_previous_ms = step.at_ms.saturating_sub(previous_ms);
            previous_ms = step.at_ms;
            LinkStep {
                since_previous_ms,
                action: action_from(&step.action),
            }
        })
        .collect()
}

fn steps_into(steps: Vec<LinkStep>) -> Result<Vec<Step>, ShareError> {
    let mut at_ms: u64 = 0;
    let mut converted = Vec::with_capacity(steps.len());
    for (index, step) in steps.into_iter().enumerate() {
        at_ms = added(at_ms, step.since_previous_ms, || {
            format!("step {} at_ms", index + 1)
        })?;
        converted.push(Step {
            at_ms,
            action: action_into(step.action),
        });
    }
    Ok(converted)
}

fn actions_from(actions: &[RecordedAction]) -> Vec<LinkRecordedAction> {
    let (mut previous_us, mut previous_events) = (0, 0);
    actions
        .iter()
        .map(|recorded| {
            let link = LinkRecordedAction {
                since_previous_us: recorded.at.as_micros().saturating_sub(previous_us),
                events_since_previous: recorded.after_events.saturating_sub(previous_events),
                action: action_from(&recorded.action),
            };
            previous_us = recorded.at.as_micros();
            previous_events = recorded.after_events;
            link
        })
        .collect()
}

fn actions_into(actions: Vec<LinkRecordedAction>) -> Result<Vec<RecordedAction>, ShareError> {
    let (mut at_us, mut after_events) = (0u64, 0u64);
    let mut converted = Vec::with_capacity(actions.len());
    for (index, recorded) in actions.into_iter().enumerate() {
        let place = index + 1;
        at_us = added(at_us, recorded.since_previous_us, || {
            format!("action {place} time")
        })?;
        after_events = added(after_events, recorded.events_since_previous, || {
            format!("action {place} event count")
        })?;
        converted.push(RecordedAction {
            at: SimTime(at_us),
            after_events,
            action: action_into(recorded.action),
        });
    }
    Ok(converted)
}

/// A sum past u64 is a damaged link, not a wrap.
fn added(
    previous: u64,
    difference: u64,
    field: impl FnOnce() -> String,
) -> Result<u64, ShareError> {
    previous
        .checked_add(difference)
        .ok_or_else(|| ShareError::BadNumber { field: field() })
}

fn target_from(target: NodeTarget) -> LinkTarget {
    match target {
        NodeTarget::Leader => LinkTarget::Leader,
        NodeTarget::Node(node) => LinkTarget::Node(node.0),
    }
}

fn target_into(target: LinkTarget) -> NodeTarget {
    match target {
        LinkTarget::Leader => NodeTarget::Leader,
        LinkTarget::Node(index) => NodeTarget::Node(NodeId(index)),
    }
}

fn action_from(action: &Action) -> LinkAction {
    match action {
        Action::Crash { target } => LinkAction::Crash {
            target: target_from(*target),
        },
        Action::Restart { target } => LinkAction::Restart {
            target: target_from(*target),
        },
        Action::Pause {
            target,
            duration_ms,
        } => LinkAction::Pause {
            target: target_from(*target),
            duration_ms: *duration_ms,
        },
        Action::Resume { target } => LinkAction::Resume {
            target: target_from(*target),
        },
        Action::Partition { groups } => LinkAction::Partition {
            groups: groups_from(groups),
        },
        Action::Isolate { target } => LinkAction::Isolate {
            target: target_from(*target),
        },
        Action::Cut { from, to, both } => LinkAction::Cut {
            from: target_from(*from),
            to: target_from(*to),
            both: *both,
        },
        Action::Heal => LinkAction::Heal,
        Action::DropRate { ppm } => LinkAction::DropRate { ppm: *ppm },
        Action::ClockJump { target, by_ms } => LinkAction::ClockJump {
            target: target_from(*target),
            by_ms: *by_ms,
        },
        Action::ClockDrift { target, ppm } => LinkAction::ClockDrift {
            target: target_from(*target),
            ppm: *ppm,
        },
        Action::Request {
            count,
            target,
            kind,
        } => LinkAction::Request {
            count: *count,
            target: target_from(*target),
            kind: match kind {
                RequestKind::Put => LinkRequestKind::Put,
                RequestKind::Get => LinkRequestKind::Get,
            },
        },
        Action::SetLink { between, settings } => LinkAction::SetLink {
            between: (between.0 .0, between.1 .0),
            settings: LinkLinkSettings {
                delay_ms: settings.delay_ms,
                drop_ppm: settings.drop_ppm,
                duplicate_ppm: settings.duplicate_ppm,
            },
        },
        Action::ClearLink { between } => LinkAction::ClearLink {
            between: between.map(|(one, other)| (one.0, other.0)),
        },
        Action::Regions { groups } => LinkAction::Regions {
            groups: groups_from(groups),
        },
        Action::DropMessage { message, from, to } => LinkAction::DropMessage {
            message: *message,
            from: from.0,
            to: to.0,
        },
        Action::DuplicateMessage { message, from, to } => LinkAction::DuplicateMessage {
            message: *message,
            from: from.0,
            to: to.0,
        },
        Action::HoldMessage {
            message,
            from,
            to,
            by_ms,
        } => LinkAction::HoldMessage {
            message: *message,
            from: from.0,
            to: to.0,
            by_ms: *by_ms,
        },
        Action::Byzantine { target, mode } => LinkAction::Byzantine {
            target: target_from(*target),
            mode: match mode {
                ByzantineMode::Honest => LinkByzantineMode::Honest,
                ByzantineMode::Equivocate => LinkByzantineMode::Equivocate,
                ByzantineMode::Lie => LinkByzantineMode::Lie,
                ByzantineMode::Silent => LinkByzantineMode::Silent,
                ByzantineMode::Selective => LinkByzantineMode::Selective,
            },
        },
        Action::AddServer { id } => LinkAction::AddServer {
            id: id.map(|id| id.0),
        },
        Action::RemoveServer { target } => LinkAction::RemoveServer {
            target: target_from(*target),
        },
        Action::MalformedWrite { target, fault } => LinkAction::MalformedWrite {
            target: target_from(*target),
            fault: match fault {
                MalformedFault::MissingToken => LinkMalformedFault::MissingToken,
                MalformedFault::TokenTooLarge => LinkMalformedFault::TokenTooLarge,
                MalformedFault::NegativeCount => LinkMalformedFault::NegativeCount,
            },
        },
        Action::SlowDisk { target, persist_ms } => LinkAction::SlowDisk {
            target: target_from(*target),
            persist_ms: *persist_ms,
        },
    }
}

fn groups_from(groups: &[Vec<NodeId>]) -> Bounded<Bounded<u16, GroupSizeLimit>, GroupsLimit> {
    Bounded::new(
        groups
            .iter()
            .map(|group| Bounded::new(group.iter().map(|node| node.0).collect()))
            .collect(),
    )
}

fn groups_into(groups: Bounded<Bounded<u16, GroupSizeLimit>, GroupsLimit>) -> Vec<Vec<NodeId>> {
    groups
        .items
        .into_iter()
        .map(|group| group.items.into_iter().map(NodeId).collect())
        .collect()
}

fn action_into(action: LinkAction) -> Action {
    match action {
        LinkAction::Crash { target } => Action::Crash {
            target: target_into(target),
        },
        LinkAction::Restart { target } => Action::Restart {
            target: target_into(target),
        },
        LinkAction::Pause {
            target,
            duration_ms,
        } => Action::Pause {
            target: target_into(target),
            duration_ms,
        },
        LinkAction::Resume { target } => Action::Resume {
            target: target_into(target),
        },
        LinkAction::Partition { groups } => Action::Partition {
            groups: groups_into(groups),
        },
        LinkAction::Isolate { target } => Action::Isolate {
            target: target_into(target),
        },
        LinkAction::Cut { from, to, both } => Action::Cut {
            from: target_into(from),
            to: target_into(to),
            both,
        },
        LinkAction::Heal => Action::Heal,
        LinkAction::DropRate { ppm } => Action::DropRate { ppm },
        LinkAction::ClockJump { target, by_ms } => Action::ClockJump {
            target: target_into(target),
            by_ms,
        },
        LinkAction::ClockDrift { target, ppm } => Action::ClockDrift {
            target: target_into(target),
            ppm,
        },
        LinkAction::Request {
            count,
            target,
            kind,
        } => Action::Request {
            count,
            target: target_into(target),
            kind: match kind {
                LinkRequestKind::Put => RequestKind::Put,
                LinkRequestKind::Get => RequestKind::Get,
            },
        },
        LinkAction::SetLink { between, settings } => Action::SetLink {
            between: (NodeId(between.0), NodeId(between.1)),
            settings: LinkSettings {
                delay_ms: settings.delay_ms,
                drop_ppm: settings.drop_ppm,
                duplicate_ppm: settings.duplicate_ppm,
            },
        },
        LinkAction::ClearLink { between } => Action::ClearLink {
            between: between.map(|(one, other)| (NodeId(one), NodeId(other))),
        },
        LinkAction::Regions { groups } => Action::Regions {
            groups: groups_into(groups),
        },
        LinkAction::DropMessage { message, from, to } => Action::DropMessage {
            message,
            from: NodeId(from),
            to: NodeId(to),
        },
        LinkAction::HoldMessage {
            message,
            from,
            to,
            by_ms,
        } => Action::HoldMessage {
            message,
            from: NodeId(from),
            to: NodeId(to),
            by_ms,
        },
        LinkAction::Byzantine { target, mode } => Action::Byzantine {
            target: target_into(target),
            mode: match mode {
                LinkByzantineMode::Honest => ByzantineMode::Honest,
                LinkByzantineMode::Equivocate => ByzantineMode::Equivocate,
                LinkByzantineMode::Lie => ByzantineMode::Lie,
                LinkByzantineMode::Silent => ByzantineMode::Silent,
                LinkByzantineMode::Selective => ByzantineMode::Selective,
            },
        },
        LinkAction::AddServer { id } => Action::AddServer { id: id.map(NodeId) },
        LinkAction::RemoveServer { target } => Action::RemoveServer {
            target: target_into(target),
        },
        LinkAction::MalformedWrite { target, fault } => Action::MalformedWrite {
            target: target_into(target),
            fault: match fault {
                LinkMalformedFault::MissingToken => MalformedFault::MissingToken,
                LinkMalformedFault::TokenTooLarge => MalformedFault::TokenTooLarge,
                LinkMalformedFault::NegativeCount => MalformedFault::NegativeCount,
            },
        },
        LinkAction::SlowDisk { target, persist_ms } => Action::SlowDisk {
            target: target_into(target),
            persist_ms,
        },
        LinkAction::DuplicateMessage { message, from, to } => Action::DuplicateMessage {
            message,
            from: NodeId(from),
            to: NodeId(to),
        },
    }
}

fn read_path_from(path: ReadPath) -> LinkReadPath {
    match path {
        ReadPath::Log => LinkReadPath::Log,
        ReadPath::Lease => LinkReadPath::Lease,
        ReadPath::ReadIndex => LinkReadPath::ReadIndex,
        ReadPath::Follower => LinkReadPath::Follower,
    }
}

fn read_path_into(path: LinkReadPath) -> ReadPath {
    match path {
        LinkReadPath::Log => ReadPath::Log,
        LinkReadPath::Lease => ReadPath::Lease,
        LinkReadPath::ReadIndex => ReadPath::ReadIndex,
        LinkReadPath::Follower => ReadPath::Follower,
    }
}
