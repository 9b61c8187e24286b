//! Reading a scenario file: the top-level keys and the `[timing]` table. Steps live in `steps.rs`.

use super::errors::ScenarioErrorKind;
use super::fields::{Field, NodeNames, Place, Result, Source, TableReader};
use super::limits::*;
use super::steps::parse_steps;
use super::validate::Invalid;
use super::{Scenario, ScenarioError};
use crate::config::{
    LockServiceOptions, ProtocolConfig, ProtocolKind, QueueOptions, RaftOptions, SchedulerMode,
    SchedulerOptions, Timing, ZkRecipe,
};
use crate::coordination::{servers_fit, Layout, MAX_WORKERS};
use crate::ids::MAX_NODES;
use toml::de::DeTable;

const TOP_LEVEL_KEYS: &[&str] = &[
    "title",
    "protocol",
    "nodes",
    "seed",
    "duration_ms",
    "timing",
    "locks",
    "scheduler",
    "zookeeper",
    "queue",
    "step",
];

const SCHEDULER_KEYS: &[&str] = &["mode", "minute_ms"];

const LOCK_KEYS: &[&str] = &[
    "workers",
    "lease_ttl_ms",
    "renew_ms",
    "fencing",
    "check_lease_before_write",
    "idempotency_key",
    "think_ms",
    "work_ms",
    "op_timeout_ms",
    "initial_count",
    "unchecked_release",
    "drift_allowance_ms",
];

const TIMING_KEYS: &[&str] = &[
    "election_timeout_ms",
    "heartbeat_ms",
    "network_delay_ms",
    "drop_rate",
    "duplicate_rate",
    "client_timeout_ms",
    "pre_vote",
    "check_quorum",
    "lease_reads",
];

/// Parses and validates scenario `text`; `file` is only used to name the source in errors.
pub fn parse_scenario(text: &str, file: &str) -> std::result::Result<Scenario, ScenarioError> {
    let source = Source { text, file };
    let document = DeTable::parse(text).map_err(|error| malformed(&source, &error))?;
    let place = Place {
        source: &source,
        step: None,
        key_prefix: "",
    };
    let top = TableReader {
        place,
        table: document.get_ref(),
        span: 0..0,
        needed_by: "the scenario".to_string(),
    };
    top.check_keys(TOP_LEVEL_KEYS)?;
    let scenario = read_scenario(&top)?;
    // The key-by-key checks above already hold the file to the format; this is the format's one
    // written rule set, so a gap between the two is an error here rather than a world that misbehaves.
    scenario.validate().map_err(|invalid| {
        source.error(
            0..0,
            None,
            None,
            ScenarioErrorKind::Invalid {
                problem: invalid.to_string(),
            },
        )
    })?;
    Ok(scenario)
}

fn malformed(source: &Source<'_>, error: &toml::de::Error) -> ScenarioError {
    let span = error.span().unwrap_or(0..0);
    let message = error.message().to_string();
    source.error(
        span,
        None,
        None,
        ScenarioErrorKind::MalformedToml { message },
    )
}

fn read_scenario(top: &TableReader<'_>) -> Result<Scenario> {
    let title = match top.optional("title") {
        Some(field) => field.string()?.to_string(),
        None => DEFAULT_TITLE.to_string(),
    };
    let kind = read_protocol(top.required("protocol")?)?;
    let node_count = top.required("nodes")?.unsigned_in(1, MAX_NODES as u64)? as usize;
    let seed = match top.optional("seed") {
        Some(field) => field.unsigned()?,
        None => DEFAULT_SEED,
    };
    let duration_ms = top
        .required("duration_ms")?
        .unsigned_in(1, MAX_DURATION_MS)?;
    let (timing, raft) = match top.optional("timing") {
        Some(field) => read_timing(&TableReader::table(field, "timing.", "[timing]")?)?,
        None => (Timing::default(), RaftOptions::default()),
    };
    let protocol = read_protocol_tables(top, kind)?;
    if let Err(Invalid::OutOfRange {
        value, expected, ..
    }) = servers_fit(node_count, &protocol)
    {
        let field = top.required("nodes")?;
        return Err(field.error(ScenarioErrorKind::OutOfRange { value, expected }));
    }
    let names = match protocol.is_coordination() {
        true => {
            let layout = Layout::new(node_count, &protocol);
            NodeNames {
                servers: node_count,
                extra: layout.extra_names(),
            }
        }
        false => NodeNames::servers_only(node_count),
    };
    let steps = match top.optional("step") {
        Some(field) => parse_steps(field, &names, duration_ms)?,
        None => Vec::new(),
    };
    Ok(Scenario {
        title,
        protocol,
        node_count,
        seed,
        duration_ms,
        timing,
        raft,
        steps,
    })
}

/// The world the file names, looked up in the registry.
fn read_protocol(field: Field<'_>) -> Result<ProtocolKind> {
    let name = field.string()?;
    let entry = crate::registry::by_name(name).ok_or_else(|| {
        field.error(ScenarioErrorKind::UnknownProtocol {
            protocol: name.to_string(),
        })
    })?;
    Ok(entry.kind)
}

/// The world's own tables (`[locks]`, `[scheduler]`, `[queue]`, `[zookeeper]`); a table another world
/// owns is an error that names the world it belongs to.
fn read_protocol_tables(top: &TableReader<'_>, kind: ProtocolKind) -> Result<ProtocolConfig> {
    let protocol = match (kind, top.optional("locks")) {
        (ProtocolKind::Raft, Some(field)) => {
            let protocol = "lock-service";
            return Err(field.error(ScenarioErrorKind::NeedsProtocol { protocol }));
        }
        (ProtocolKind::Raft, None) => ProtocolConfig::Raft,
        (kind, Some(field)) => read_locks(&TableReader::table(field, "locks.", "[locks]")?, kind)?,
        (kind, None) => protocol_with(kind, lock_defaults(kind)),
    };
    let protocol = match (protocol, top.optional("scheduler")) {
        (ProtocolConfig::Scheduler(locks, _), Some(field)) => {
            let table = TableReader::table(field, "scheduler.", "[scheduler]")?;
            ProtocolConfig::Scheduler(locks, read_scheduler(&table)?)
        }
        (_, Some(field)) => return Err(needs(field, ProtocolKind::Scheduler)),
        (protocol, None) => protocol,
    };
    let protocol = match (protocol, top.optional("queue")) {
        (ProtocolConfig::WorkQueue(locks, _), Some(field)) => {
            let table = TableReader::table(field, "queue.", "[queue]")?;
            ProtocolConfig::WorkQueue(locks, read_queue(&table)?)
        }
        (_, Some(field)) => return Err(needs(field, ProtocolKind::WorkQueue)),
        (protocol, None) => protocol,
    };
    match (protocol, top.optional("zookeeper")) {
        (ProtocolConfig::Zookeeper(locks, _), Some(field)) => {
            let table = TableReader::table(field, "zookeeper.", "[zookeeper]")?;
            Ok(ProtocolConfig::Zookeeper(locks, read_recipe(&table)?))
        }
        (_, Some(field)) => Err(needs(field, ProtocolKind::Zookeeper)),
        (protocol, None) => Ok(protocol),
    }
}

fn needs(field: Field<'_>, kind: ProtocolKind) -> ScenarioError {
    let protocol = kind.name();
    field.error(ScenarioErrorKind::NeedsProtocol { protocol })
}

/// Defaults per lock protocol: Redis-style locks have no fencing tokens, so their store cannot fence.
fn lock_defaults(kind: ProtocolKind) -> LockServiceOptions {
    LockServiceOptions {
        fencing: matches!(kind, ProtocolKind::LockService | ProtocolKind::WorkQueue),
        workers: match kind {
            ProtocolKind::Scheduler => 3,
            ProtocolKind::Zookeeper => 5,
            ProtocolKind::WorkQueue => 4,
            _ => 2,
        },
        ..LockServiceOptions::default()
    }
}

fn read_queue(table: &TableReader<'_>) -> Result<QueueOptions> {
    table.check_keys(&["partitioned", "accounts"])?;
    let mut options = QueueOptions::default();
    read_flag(table, "partitioned", &mut options.partitioned)?;
    if let Some(field) = table.optional("accounts") {
        options.accounts = field.unsigned_in(1, MAX_ACCOUNTS)? as u32;
    }
    Ok(options)
}

fn read_recipe(table: &TableReader<'_>) -> Result<ZkRecipe> {
    table.check_keys(&["recipe"])?;
    let Some(field) = table.optional("recipe") else {
        return Ok(ZkRecipe::Sequential);
    };
    match field.string()? {
        "herd" => Ok(ZkRecipe::Herd),
        "sequential" => Ok(ZkRecipe::Sequential),
        other => Err(field.error(ScenarioErrorKind::OutOfRange {
            value: format!("`{other}`"),
            expected: "`herd` or `sequential`".into(),
        })),
    }
}

fn read_scheduler(table: &TableReader<'_>) -> Result<SchedulerOptions> {
    table.check_keys(SCHEDULER_KEYS)?;
    let mut options = SchedulerOptions::default();
    if let Some(field) = table.optional("mode") {
        let name = field.string()?;
        options.mode = SchedulerMode::from_name(name).ok_or_else(|| {
            let expected = SchedulerMode::NAMES
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ");
            field.error(ScenarioErrorKind::OutOfRange {
                value: format!("`{name}`"),
                expected: format!("one of {expected}"),
            })
        })?;
    }
    if let Some(field) = table.optional("minute_ms") {
        options.minute_ms = field.unsigned_in(1, MAX_TIMING_MS)?;
    }
    Ok(options)
}

/// A coordination world of `kind` with these lock options and its other tables' defaults.
fn protocol_with(kind: ProtocolKind, options: LockServiceOptions) -> ProtocolConfig {
    match kind {
        ProtocolKind::RedisLock => ProtocolConfig::RedisLock(options),
        ProtocolKind::Redlock => ProtocolConfig::Redlock(options),
        ProtocolKind::Scheduler => ProtocolConfig::Scheduler(options, SchedulerOptions::default()),
        ProtocolKind::Zookeeper => ProtocolConfig::Zookeeper(options, ZkRecipe::Sequential),
        ProtocolKind::WorkQueue => ProtocolConfig::WorkQueue(options, QueueOptions::default()),
        ProtocolKind::Raft | ProtocolKind::LockService => ProtocolConfig::LockService(options),
    }
}

/// A `[locks]` key that only one lock protocol understands.
fn only_for(
    table: &TableReader<'_>,
    key: &'static str,
    protocol: &'static str,
    name: &str,
) -> Result<()> {
    match table.optional(key) {
        Some(field) if name != protocol => {
            Err(field.error(ScenarioErrorKind::NeedsProtocol { protocol }))
        }
        _ => Ok(()),
    }
}

fn read_locks(table: &TableReader<'_>, kind: ProtocolKind) -> Result<ProtocolConfig> {
    table.check_keys(LOCK_KEYS)?;
    let protocol = kind.name();
    if protocol != "work-queue" {
        only_for(table, "fencing", "lock-service", protocol)?;
    }
    if !matches!(protocol, "scheduler" | "zookeeper" | "work-queue") {
        only_for(table, "renew_ms", "lock-service", protocol)?;
    }
    only_for(table, "unchecked_release", "redis-lock", protocol)?;
    only_for(table, "drift_allowance_ms", "redlock", protocol)?;
    let mut options = lock_defaults(kind);
    if let Some(field) = table.optional("workers") {
        options.workers = field.unsigned_in(1, MAX_WORKERS as u64)? as usize;
    }
    let times: [(&str, &mut u64, u64); 6] = [
        ("lease_ttl_ms", &mut options.lease_ttl_ms, 1),
        ("renew_ms", &mut options.renew_ms, 1),
        ("op_timeout_ms", &mut options.op_timeout_ms, 1),
        ("think_ms", &mut options.think_ms, 0),
        ("work_ms", &mut options.work_ms, 0),
        ("initial_count", &mut options.initial_count, 0),
    ];
    for (key, slot, low) in times {
        if let Some(field) = table.optional(key) {
            let high = if key == "initial_count" {
                MAX_INITIAL_COUNT
            } else {
                MAX_TIMING_MS
            };
            *slot = field.unsigned_in(low, high)?;
        }
    }
    read_flag(table, "fencing", &mut options.fencing)?;
    read_flag(
        table,
        "check_lease_before_write",
        &mut options.check_lease_before_write,
    )?;
    read_flag(table, "idempotency_key", &mut options.idempotency_key)?;
    read_flag(table, "unchecked_release", &mut options.unchecked_release)?;
    if let Some(field) = table.optional("drift_allowance_ms") {
        options.drift_allowance_ms = field.unsigned_in(0, MAX_TIMING_MS)?;
    }
    Ok(protocol_with(kind, options))
}

fn read_timing(table: &TableReader<'_>) -> Result<(Timing, RaftOptions)> {
    table.check_keys(TIMING_KEYS)?;
    let mut timing = Timing::default();
    let mut raft = RaftOptions::default();
    if let Some(field) = table.optional("election_timeout_ms") {
        timing.election_timeout_ms = field.range_ms(1, MAX_TIMING_MS)?;
    }
    if let Some(field) = table.optional("heartbeat_ms") {
        timing.heartbeat_ms = field.unsigned_in(1, MAX_TIMING_MS)?;
    }
    if let Some(field) = table.optional("network_delay_ms") {
        timing.network_delay_ms = field.range_ms(0, MAX_TIMING_MS)?;
    }
    if let Some(field) = table.optional("drop_rate") {
        timing.drop_ppm = field.rate_ppm()?;
    }
    if let Some(field) = table.optional("duplicate_rate") {
        timing.duplicate_ppm = field.rate_ppm()?;
    }
    if let Some(field) = table.optional("client_timeout_ms") {
        timing.client_timeout_ms = field.unsigned_in(1, MAX_TIMING_MS)?;
    }
    read_flag(table, "pre_vote", &mut raft.pre_vote)?;
    read_flag(table, "check_quorum", &mut raft.check_quorum)?;
    read_flag(table, "lease_reads", &mut raft.lease_reads)?;
    Ok((timing, raft))
}

fn read_flag(table: &TableReader<'_>, key: &'static str, flag: &mut bool) -> Result<()> {
    if let Some(field) = table.optional(key) {
        *flag = field.boolean()?;
    }
    Ok(())
}
