//! The settings of a v1–v3 body: title, protocol, cluster, timing, Raft options and (v2, v3) the
//! coordination block, read into the link's own [`LinkProtocol`] and friends. Codes are the ones the
//! old writer used; a code it never wrote is refused by name.

use super::reader::Reader;
use crate::share::body::{
    LinkIdempotency, LinkLockOptions, LinkProtocol, LinkRaftOptions, LinkReadPath,
    LinkSchedulerMode, LinkTiming, LinkZookeeperRecipe,
};
use crate::share::validate::MAX_TITLE_BYTES;
use crate::share::ShareError;
use quorumlab_sim::coordination::MAX_WORKERS;
use quorumlab_sim::ids::MAX_NODES;

const PROTOCOL_RAFT: u64 = 0;
const OPTION_PRE_VOTE: u64 = 1;
const OPTION_CHECK_QUORUM: u64 = 2;
const OPTION_LEASE_READS: u64 = 4;
const ALL_OPTIONS: u64 = OPTION_PRE_VOTE | OPTION_CHECK_QUORUM | OPTION_LEASE_READS;

/// Coordination workload codes (v2).
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

/// Scheduler modes by code.
const SCHEDULER_MODES: [LinkSchedulerMode; 4] = [
    LinkSchedulerMode::None,
    LinkSchedulerMode::LockEveryRun,
    LinkSchedulerMode::LeaderElection,
    LinkSchedulerMode::LeaderFencing,
];

/// Everything before the coordination block.
pub struct Settings {
    pub title: String,
    pub nodes: u64,
    pub seed: u64,
    pub duration_ms: u64,
    pub timing: LinkTiming,
    pub options: LinkRaftOptions,
}

pub fn read_settings(reader: &mut Reader<'_>) -> Result<Settings, ShareError> {
    let title = reader.text("title", MAX_TITLE_BYTES)?;
    match reader.unsigned("protocol")? {
        PROTOCOL_RAFT => {}
        code => {
            return Err(ShareError::UnknownCode {
                field: "protocol".into(),
                code,
            })
        }
    }
    let nodes = reader.unsigned_at_most("nodes", MAX_NODES as u64)?;
    let seed = reader.unsigned("seed")?;
    let duration_ms = reader.unsigned("duration_ms")?;
    let timing = LinkTiming {
        election_timeout_min_ms: reader.unsigned("election_timeout_ms min")?,
        election_timeout_max_ms: reader.unsigned("election_timeout_ms max")?,
        heartbeat_ms: reader.unsigned("heartbeat_ms")?,
        network_delay_min_ms: reader.unsigned("network_delay_ms min")?,
        network_delay_max_ms: reader.unsigned("network_delay_ms max")?,
        drop_ppm: reader.unsigned_at_most("drop rate", u64::from(u32::MAX))? as u32,
        duplicate_ppm: reader.unsigned_at_most("duplicate rate", u64::from(u32::MAX))? as u32,
        client_timeout_ms: reader.unsigned("client_timeout_ms")?,
    };
    let options = read_options(reader)?;
    Ok(Settings {
        title,
        nodes,
        seed,
        duration_ms,
        timing,
        options,
    })
}

fn read_options(reader: &mut Reader<'_>) -> Result<LinkRaftOptions, ShareError> {
    let bits = reader.unsigned("options")?;
    if bits & !ALL_OPTIONS != 0 {
        return Err(ShareError::UnknownCode {
            field: "options".into(),
            code: bits,
        });
    }
    Ok(LinkRaftOptions {
        pre_vote: bits & OPTION_PRE_VOTE != 0,
        check_quorum: bits & OPTION_CHECK_QUORUM != 0,
        read_path: if bits & OPTION_LEASE_READS != 0 {
            LinkReadPath::Lease
        } else {
            LinkReadPath::Log
        },
    })
}

pub fn read_coordination(reader: &mut Reader<'_>) -> Result<LinkProtocol, ShareError> {
    let code = reader.unsigned("protocol (coordination)")?;
    if code == COORDINATION_NONE {
        return Ok(LinkProtocol::Raft);
    }
    if code > WORK_QUEUE {
        return Err(ShareError::UnknownCode {
            field: "protocol (coordination)".into(),
            code,
        });
    }
    let locks = read_lock_options(reader)?;
    let protocol = match code {
        LOCK_SERVICE => LinkProtocol::LockService(locks),
        REDIS_LOCK => LinkProtocol::RedisLock(locks),
        REDLOCK => LinkProtocol::Redlock(locks),
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
            LinkProtocol::Scheduler {
                locks,
                mode,
                minute_ms,
            }
        }
        ZOOKEEPER => {
            let recipe = match reader.unsigned("zookeeper.recipe")? {
                0 => LinkZookeeperRecipe::Herd,
                1 => LinkZookeeperRecipe::Sequential,
                code => {
                    return Err(ShareError::UnknownCode {
                        field: "zookeeper.recipe".into(),
                        code,
                    })
                }
            };
            LinkProtocol::Zookeeper { locks, recipe }
        }
        _ => LinkProtocol::WorkQueue {
            locks,
            partitioned: reader.flag("queue.partitioned")?,
            accounts: reader.unsigned_at_most("queue.accounts", u64::from(u32::MAX))? as u32,
        },
    };
    Ok(protocol)
}

fn read_lock_options(reader: &mut Reader<'_>) -> Result<LinkLockOptions, ShareError> {
    // Workers are capped here already: their number sets how many nodes actions may name.
    let workers = reader.unsigned_at_most("locks.workers", MAX_WORKERS as u64)?;
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
    Ok(LinkLockOptions {
        workers,
        lease_ttl_ms,
        renew_ms,
        think_ms,
        work_ms,
        op_timeout_ms,
        initial_count,
        drift_allowance_ms,
        fencing: bits & LOCK_FENCING != 0,
        check_lease_before_write: bits & LOCK_CHECK_LEASE != 0,
        idempotency: if bits & LOCK_IDEMPOTENCY_KEY != 0 {
            LinkIdempotency::PerMessage
        } else {
            LinkIdempotency::Off
        },
        unchecked_release: bits & LOCK_UNCHECKED_RELEASE != 0,
    })
}
