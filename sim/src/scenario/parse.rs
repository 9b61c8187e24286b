//! Reading a scenario file: the top-level keys and the `[timing]` table. Steps live in `steps.rs`.

use super::errors::ScenarioErrorKind;
use super::fields::{Field, NodeNames, Place, Result, Source, TableReader};
use super::limits::*;
use super::steps::parse_steps;
use super::{Scenario, ScenarioError, ScenarioProtocol};
use crate::config::{Coordination, LockServiceOptions, RaftOptions, Timing};
use crate::coordination::{Layout, MAX_WORKERS};
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
    "step",
];

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
    read_scenario(&top)
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
    let (protocol, coordination_name) = read_protocol(top.required("protocol")?)?;
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
    let locks_field = top.optional("locks");
    raft.coordination = match (coordination_name, locks_field) {
        (Some(_), Some(field)) => Some(read_locks(&TableReader::table(
            field, "locks.", "[locks]",
        )?)?),
        (Some(_), None) => Some(Coordination::LockService(LockServiceOptions::default())),
        (None, Some(field)) => {
            let protocol = "lock-service";
            return Err(field.error(ScenarioErrorKind::NeedsProtocol { protocol }));
        }
        (None, None) => None,
    };
    let names = match &raft.coordination {
        Some(coordination) => {
            let layout = Layout::new(node_count, coordination);
            if layout.total() > MAX_NODES {
                let field = top.required("nodes")?;
                let expected = format!(
                    "at most {} servers beside {} other actors",
                    MAX_NODES - (layout.total() - node_count),
                    layout.total() - node_count
                );
                return Err(field.error(ScenarioErrorKind::OutOfRange {
                    value: node_count.to_string(),
                    expected,
                }));
            }
            NodeNames {
                servers: node_count,
                extra: layout.extra_names(),
            }
        }
        None => NodeNames::servers_only(node_count),
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

/// The protocol, and the coordination workload's name when the file names one.
fn read_protocol(field: Field<'_>) -> Result<(ScenarioProtocol, Option<&'static str>)> {
    let name = field.string()?;
    if let Some(known) = super::COORDINATION_PROTOCOLS
        .iter()
        .find(|known| **known == name)
    {
        return Ok((ScenarioProtocol::Raft, Some(*known)));
    }
    let protocol = ScenarioProtocol::from_name(name).ok_or_else(|| {
        field.error(ScenarioErrorKind::UnknownProtocol {
            protocol: name.to_string(),
        })
    })?;
    Ok((protocol, None))
}

fn read_locks(table: &TableReader<'_>) -> Result<Coordination> {
    table.check_keys(LOCK_KEYS)?;
    let mut options = LockServiceOptions::default();
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
                1_000_000_000
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
    Ok(Coordination::LockService(options))
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
