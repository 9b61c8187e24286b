//! How a link writes and reads a world's protocol options. Worlds that existed before the registry
//! keep their own positional variants (`Paxos`, `PaxosWithLearners`, `LockService`, …) so every link
//! made then still opens and every run those variants could carry is written with the same bytes;
//! every later world travels by its registry name (`Registered`) and needs no new variant here.

use super::super::body::{
    LinkIdempotency, LinkLockOptions, LinkPaxos, LinkPaxosRemedy, LinkProtocol, LinkReadPath,
    LinkSchedulerMode, LinkZookeeperRecipe,
};
use super::super::registered::{self, WorldError};
use super::super::ShareError;
use super::saturating_usize;
use quorumlab_sim::config::{
    IdempotencyScope, LockServiceOptions, PaxosOptions, PaxosRemedy, PbftOptions, ProtocolConfig,
    QueueOptions, ReadPath, SchedulerMode, SchedulerOptions, ZkRecipe,
};

/// The protocol as a link writes it: in the older variant that holds it wherever one does, so every
/// run a link could carry before keeps its bytes, and by its registry name otherwise.
pub(super) fn protocol_from(protocol: &ProtocolConfig) -> LinkProtocol {
    old_code(protocol).unwrap_or_else(|| registered_from(protocol))
}

/// `protocol` by its registry name, whether or not an older variant holds it (tests force this to
/// read every world through the registered path).
pub(in crate::share) fn registered_from(protocol: &ProtocolConfig) -> LinkProtocol {
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
pub(super) fn protocol_into(protocol: &LinkProtocol) -> Result<ProtocolConfig, ShareError> {
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

pub(in crate::share) fn locks_from(options: &LockServiceOptions) -> LinkLockOptions {
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

pub(in crate::share) fn locks_into(options: &LinkLockOptions) -> LockServiceOptions {
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

pub(super) fn read_path_from(path: ReadPath) -> LinkReadPath {
    match path {
        ReadPath::Log => LinkReadPath::Log,
        ReadPath::Lease => LinkReadPath::Lease,
        ReadPath::ReadIndex => LinkReadPath::ReadIndex,
        ReadPath::Follower => LinkReadPath::Follower,
    }
}

pub(super) fn read_path_into(path: LinkReadPath) -> ReadPath {
    match path {
        LinkReadPath::Log => ReadPath::Log,
        LinkReadPath::Lease => ReadPath::Lease,
        LinkReadPath::ReadIndex => ReadPath::ReadIndex,
        LinkReadPath::Follower => ReadPath::Follower,
    }
}
