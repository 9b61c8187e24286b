//! Reading a scenario file: the top-level keys, the `[timing]` table, the shared `[locks]` table and
//! each world's own tables, which the parser reads through the world's registry entry (its defaults,
//! the `[locks]` keys it takes and its tables' descriptions) rather than knowing any world. Steps live
//! in `steps.rs`.

use super::errors::{shown, ScenarioErrorKind};
use super::fields::{Field, NodeNames, Place, Result, Source, TableReader};
use super::limits::*;
use super::steps::parse_steps;
use super::validate::Invalid;
use super::{Scenario, ScenarioError};
use crate::base::ids::MAX_NODES;
use crate::contract::config::{
    IdempotencyScope, LockServiceOptions, MembershipMode, ProtocolConfig, RaftOptions, ReadPath,
    Timing, MAX_SET_NX_RETRIES,
};
use crate::contract::entry::{OptionSetting, OptionTable, OptionValue};
use crate::worlds::coordination::{servers_fit, Layout, MAX_WORKERS};
use crate::worlds::registry::{self, Entry};
use toml::de::DeTable;

/// The format's own top-level keys; each world's tables follow in registry order, then `step`.
const BASE_KEYS: &[&str] = &[
    "title",
    "protocol",
    "nodes",
    "seed",
    "duration_ms",
    "timing",
    "locks",
    "raft",
];

/// Every key a `[raft]` table may hold.
pub const RAFT_KEYS: &[&str] = &["membership", "read_path"];

/// Every key a `[locks]` table may hold (which of them a world takes, its registry entry says).
pub const LOCK_KEYS: &[&str] = &[
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
    "idempotency_scope",
    "set_nx_retries",
];

/// Every key a `[timing]` table may hold.
pub const TIMING_KEYS: &[&str] = &[
    "election_timeout_ms",
    "heartbeat_ms",
    "network_delay_ms",
    "drop_rate",
    "duplicate_rate",
    "client_timeout_ms",
    "persist_ms",
    "timer_jitter_us",
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
    top.check_keys(&top_level_keys())?;
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
    let entry = read_protocol(top.required("protocol")?)?;
    let node_count = top.required("nodes")?.unsigned_in(1, MAX_NODES as u64)? as usize;
    let seed = match top.optional("seed") {
        Some(field) => field.unsigned()?,
        None => DEFAULT_SEED,
    };
    let duration_ms = top
        .required("duration_ms")?
        .unsigned_in(1, MAX_DURATION_MS)?;
    let (timing, mut raft) = match top.optional("timing") {
        Some(field) => read_timing(&TableReader::table(field, "timing.", "[timing]")?)?,
        None => (Timing::default(), RaftOptions::default()),
    };
    if let Some(field) = top.optional("raft") {
        read_raft(&TableReader::table(field, "raft.", "[raft]")?, &mut raft)?;
    }
    let protocol = read_protocol_tables(top, entry)?;
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

/// Every top-level key a file may hold: the format's own, each world's tables, the steps.
fn top_level_keys() -> Vec<&'static str> {
    let tables = registry::ENTRIES
        .iter()
        .flat_map(|entry| entry.tables)
        .map(|table| table.name);
    BASE_KEYS
        .iter()
        .copied()
        .chain(tables)
        .chain(["step"])
        .collect()
}

/// The world the file names, looked up in the registry.
fn read_protocol(field: Field<'_>) -> Result<&'static Entry> {
    let name = field.string()?;
    registry::by_name(name).ok_or_else(|| {
        field.error(ScenarioErrorKind::UnknownProtocol {
            protocol: name.to_string(),
        })
    })
}

/// The world's `[locks]` and own tables (`[scheduler]`, ...) over its entry's defaults; a table another
/// world owns is an error that names the world it belongs to.
fn read_protocol_tables(top: &TableReader<'_>, entry: &Entry) -> Result<ProtocolConfig> {
    let mut protocol = (entry.defaults)();
    // `[locks] workers` as the file wrote it, for a world's own word for the same number to agree with.
    let mut workers_in_locks = None;
    if let Some(field) = top.optional("locks") {
        let Some(options) = protocol.lock_options_mut() else {
            let protocol = first_lock_world();
            return Err(field.error(ScenarioErrorKind::NeedsProtocol { protocol }));
        };
        let locks = TableReader::table(field, "locks.", "[locks]")?;
        read_locks(&locks, entry, options)?;
        workers_in_locks = locks.optional("workers").map(|_| options.workers);
    }
    for owner in registry::ENTRIES {
        for table in owner.tables {
            let Some(field) = top.optional(table.name) else {
                continue;
            };
            if owner.kind != entry.kind {
                let protocol = owner.name;
                return Err(field.error(ScenarioErrorKind::NeedsProtocol { protocol }));
            }
            let heading = format!("[{}]", table.name);
            let reader = TableReader::table(field, table.key_prefix, &heading)?;
            read_table(&reader, table, &mut protocol)?;
            read_population(&reader, table, workers_in_locks, &mut protocol)?;
        }
    }
    Ok(protocol)
}

/// The world a `[locks]` table in a world without locks is sent to: the first that has them.
fn first_lock_world() -> &'static str {
    registry::ENTRIES
        .iter()
        .find(|entry| (entry.defaults)().is_coordination())
        .map_or("lock-service", |entry| entry.name)
}

/// A world's own table, read by its folder's description: keys in order, each against its limits.
fn read_table(
    reader: &TableReader<'_>,
    table: &OptionTable,
    protocol: &mut ProtocolConfig,
) -> Result<()> {
    let mut names: Vec<&'static str> = table.keys.iter().map(|key| key.name).collect();
    names.extend(table.population);
    reader.check_keys(&names)?;
    for key in table.keys {
        let Some(field) = reader.optional(key.name) else {
            continue;
        };
        let setting = match key.value {
            OptionValue::Flag => OptionSetting::Flag(field.boolean()?),
            OptionValue::Unsigned { low, high } => {
                OptionSetting::Unsigned(field.unsigned_in(low, high)?)
            }
            OptionValue::Choice { names, expected } => {
                let name = field.string()?;
                let Some(found) = names.iter().find(|known| **known == name) else {
                    return Err(field.error(ScenarioErrorKind::OutOfRange {
                        value: format!("`{name}`"),
                        expected: expected.to_string(),
                    }));
                };
                OptionSetting::Choice(found)
            }
        };
        (key.write)(protocol, setting);
    }
    Ok(())
}

/// A world's own word for its lettered actors (`[paxos] proposers`), stored as `[locks] workers`; the
/// two must agree where a file writes both.
fn read_population(
    reader: &TableReader<'_>,
    table: &OptionTable,
    workers_in_locks: Option<usize>,
    protocol: &mut ProtocolConfig,
) -> Result<()> {
    let Some(name) = table.population else {
        return Ok(());
    };
    let Some(field) = reader.optional(name) else {
        return Ok(());
    };
    let count = field.unsigned_in(1, MAX_WORKERS as u64)? as usize;
    if let Some(workers) = workers_in_locks.filter(|workers| *workers != count) {
        let problem = format!(
            "`{name} = {count}` and `[locks] workers = {workers}` disagree: they are one number, set it once"
        );
        return Err(field.error(ScenarioErrorKind::Invalid { problem }));
    }
    if let Some(options) = protocol.lock_options_mut() {
        options.workers = count;
    }
    Ok(())
}

/// The `[locks]` keys only some worlds take (each entry's `lock_keys`), in the order they are checked.
const WORLD_LOCK_KEYS: &[&str] = &[
    "fencing",
    "renew_ms",
    "unchecked_release",
    "drift_allowance_ms",
    "idempotency_scope",
    "set_nx_retries",
];

/// A `[locks]` key this world does not take names the first world that does.
fn check_world_lock_keys(table: &TableReader<'_>, entry: &Entry) -> Result<()> {
    for key in WORLD_LOCK_KEYS {
        let Some(field) = table.optional(key) else {
            continue;
        };
        if entry.lock_keys.contains(key) {
            continue;
        }
        let owner = registry::ENTRIES
            .iter()
            .find(|owner| owner.lock_keys.contains(key));
        let protocol = owner.map_or("lock-service", |owner| owner.name);
        return Err(field.error(ScenarioErrorKind::NeedsProtocol { protocol }));
    }
    Ok(())
}

fn read_locks(
    table: &TableReader<'_>,
    entry: &Entry,
    options: &mut LockServiceOptions,
) -> Result<()> {
    table.check_keys(LOCK_KEYS)?;
    check_world_lock_keys(table, entry)?;
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
    if let Some(field) = table.optional("set_nx_retries") {
        options.set_nx_retries = field.unsigned_in(0, u64::from(MAX_SET_NX_RETRIES))? as u32;
    }
    if let Some(field) = table.optional("idempotency_scope") {
        let name = field.string()?;
        let Some(scope) = IdempotencyScope::from_name(name) else {
            return Err(field.error(ScenarioErrorKind::OutOfRange {
                value: format!("`{}`", shown(name)),
                expected: "\"message\" or \"batch\"".to_string(),
            }));
        };
        options.idempotency_scope = scope;
    }
    Ok(())
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
    if let Some(field) = table.optional("persist_ms") {
        timing.persist_ms = field.range_ms(0, MAX_PERSIST_MS)?;
    }
    if let Some(field) = table.optional("timer_jitter_us") {
        timing.timer_jitter_us = field.unsigned_in(0, MAX_TIMER_JITTER_US)?;
    }
    read_flag(table, "pre_vote", &mut raft.pre_vote)?;
    read_flag(table, "check_quorum", &mut raft.check_quorum)?;
    let mut lease_reads = false;
    read_flag(table, "lease_reads", &mut lease_reads)?;
    if lease_reads {
        raft.read_path = ReadPath::Lease;
    }
    Ok((timing, raft))
}

/// `[raft]`: how servers join and leave (`membership = "log"`, or the unsafe `"direct"`), and how
/// reads are answered (`read_path`; `[timing] lease_reads = true` is the older spelling of `"lease"`,
/// and a file may not say both with different meanings).
fn read_raft(table: &TableReader<'_>, raft: &mut RaftOptions) -> Result<()> {
    table.check_keys(RAFT_KEYS)?;
    if let Some(field) = table.optional("membership") {
        let name = field.string()?;
        raft.membership = MembershipMode::from_name(name).ok_or_else(|| {
            field.error(ScenarioErrorKind::OutOfRange {
                value: format!("`{name}`"),
                expected: "`log` or `direct`".into(),
            })
        })?;
    }
    if let Some(field) = table.optional("read_path") {
        let name = field.string()?;
        let path = ReadPath::from_name(name).ok_or_else(|| {
            field.error(ScenarioErrorKind::OutOfRange {
                value: format!("`{}`", shown(name)),
                expected: "`log`, `read_index`, `lease` or `follower`".into(),
            })
        })?;
        if raft.lease_reads() && path != ReadPath::Lease {
            return Err(field.error(ScenarioErrorKind::Invalid {
                problem: format!(
                    "`[timing] lease_reads = true` already chooses the lease path; drop it to read by `{name}`"
                ),
            }));
        }
        raft.read_path = path;
    }
    Ok(())
}

fn read_flag(table: &TableReader<'_>, key: &'static str, flag: &mut bool) -> Result<()> {
    if let Some(field) = table.optional(key) {
        *flag = field.boolean()?;
    }
    Ok(())
}
