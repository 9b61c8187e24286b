//! Trace files: one run written as JSON lines, complete enough to replay it exactly and plain enough to
//! read, grep or diff. The app exports and imports them; `quorumlab replay FILE` replays one headless.
//!
//! A share link and a trace file carry the same thing — the scenario, every recorded action at the exact
//! point it was applied, and the instant being looked at — but the file also carries what happened (the
//! trace records) and the run's fingerprint, so an import can prove it reproduced the same run. The
//! layout, version 3 (documented for people in `sim/TRACE_FILES.md`):
//!
//! ```text
//! {"kind":"header","format":"quorumlab-trace","version":3,"scenario":"<scenario TOML>"}
//! {"kind":"action","at_us":800600,"after_events":1234,"action":{"do":"crash","target":"leader"}}
//! {"kind":"event","record":{"at_us":0,"type":"...",...}}
//! {"kind":"end","position_us":1500000,"events":5678,"trace_hash":"0123456789abcdef"}
//! ```
//!
//! Action lines spell actions exactly as a scenario's `[[step]]` does (`do` plus its arguments, node
//! names such as `"n2"`, `"A"` or `"store"`), and are read by the same parser, so the two formats cannot
//! drift apart. Version 2 nests them in `action`: version 1 wrote them beside the line's own keys, where
//! a request's `kind = "put"` collided with the line's `kind` (such files never read back); version 1
//! files are still read, flat. Version 3 changed only the end line's fingerprint (from FNV-1a over JSON
//! lines to the compact one, see [`crate::engine::fingerprint`]); older files are checked with the
//! fingerprint they were made with. Event lines are informative: a replay regenerates them, and the end
//! line's hash covers them. Reading is strict: every line is checked in order and the first problem is reported with its
//! line number and field; nothing is half-read.

use crate::base::time::SimTime;
use crate::engine::fingerprint::FingerprintKind;
use crate::engine::history::RecordedAction;
use crate::engine::trace::TRACE_CAP;
use crate::engine::world::World;
use crate::tooling::replay::{replay_with_fingerprint, MAX_REPLAY_EVENTS};
use crate::tooling::scenario::errors::shown;
use crate::tooling::scenario::export::action_fields;
use crate::tooling::scenario::fields::{NodeNames, Place, Source, TableReader};
use crate::tooling::scenario::steps::parse_action;
use crate::tooling::scenario::{parse_scenario, to_toml_string, Scenario, MAX_DURATION_MS};
use crate::tooling::suggest::did_you_mean;
use serde_json::{Map, Value};
use std::fmt;
use std::fmt::Write;
use toml::de::DeTable;

/// The `format` every header names, and the only `version` this code reads and writes.
pub const TRACE_FILE_FORMAT: &str = "quorumlab-trace";
pub const TRACE_FILE_VERSION: u64 = 3;
/// The first version: action fields beside the line's keys (read, never written).
const FLAT_ACTIONS_VERSION: u64 = 1;
/// The last version whose end line carries the JSON FNV-1a fingerprint (read, never written).
const JSON_FINGERPRINT_VERSION: u64 = 2;
/// Largest file read: a full in-memory trace of 100 000 records is about 15 MB.
pub const MAX_TRACE_FILE_BYTES: usize = 32 * 1024 * 1024;
/// Most recorded actions a file may hold (as many as a share link carries).
pub const MAX_TRACE_FILE_ACTIONS: usize = 5_000;
/// Latest instant a file may record an action at or point to: the longest scenario.
const MAX_TIME_US: u64 = MAX_DURATION_MS * 1_000;

const HEADER_KEYS: &[&str] = &["kind", "format", "version", "scenario"];
const ACTION_TIME_KEYS: &[&str] = &["kind", "at_us", "after_events"];
const ACTION_KEYS: &[&str] = &["kind", "at_us", "after_events", "action"];
const EVENT_KEYS: &[&str] = &["kind", "record"];
const END_KEYS: &[&str] = &["kind", "position_us", "events", "trace_hash"];

/// One run as a trace file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFile {
    pub scenario: Scenario,
    /// Every recorded action, in the order applied (including any recorded future past `position`).
    pub actions: Vec<RecordedAction>,
    /// The instant the run was exported at; replaying stops there.
    pub position: SimTime,
    /// Events processed by `position`, and the trace hash there: what a faithful replay must reproduce.
    pub events: u64,
    pub trace_hash: u64,
    /// How `trace_hash` was computed (by the file's version).
    pub fingerprint: FingerprintKind,
}

/// What is wrong with a trace file: the 1-based line (0 for the file as a whole), the field if one is
/// to blame, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFileError {
    pub line: usize,
    pub field: Option<String>,
    pub problem: String,
}

impl fmt::Display for TraceFileError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, &self.field) {
            (0, _) => write!(formatter, "{}", self.problem),
            (line, Some(field)) => write!(
                formatter,
                "line {line}, `{}`: {}",
                shown(field),
                self.problem
            ),
            (line, None) => write!(formatter, "line {line}: {}", self.problem),
        }
    }
}

impl std::error::Error for TraceFileError {}

/// The file for a run: its scenario, its recorded actions, and `world` as it stands at the instant
/// being exported (its kept trace records, event count and hash).
pub fn write_trace_file(scenario: &Scenario, actions: &[RecordedAction], world: &World) -> String {
    let mut out = String::new();
    let scenario_text = Value::String(to_toml_string(scenario));
    // A world replayed with the old fingerprint can only be described by the last version that had it.
    let version = match world.trace().fingerprint_kind() {
        FingerprintKind::Compact => TRACE_FILE_VERSION,
        FingerprintKind::JsonFnv => JSON_FINGERPRINT_VERSION,
    };
    let _ = writeln!(
        out,
        "{{\"kind\":\"header\",\"format\":\"{TRACE_FILE_FORMAT}\",\"version\":{version},\"scenario\":{scenario_text}}}"
    );
    for recorded in actions {
        let _ = write!(
            out,
            "{{\"kind\":\"action\",\"at_us\":{},\"after_events\":{},\"action\":{{",
            recorded.at.as_micros(),
            recorded.after_events
        );
        for (index, (key, value)) in action_fields(scenario, &recorded.action).iter().enumerate() {
            let separator = if index == 0 { "" } else { "," };
            let _ = write!(out, "{separator}\"{key}\":{value}");
        }
        out.push_str("}}\n");
    }
    let mut records = Vec::new();
    if world.write_trace_jsonl(&mut records).is_ok() {
        for record in String::from_utf8_lossy(&records).lines() {
            let _ = writeln!(out, "{{\"kind\":\"event\",\"record\":{record}}}");
        }
    }
    let _ = writeln!(
        out,
        "{{\"kind\":\"end\",\"position_us\":{},\"events\":{},\"trace_hash\":\"{:016x}\"}}",
        world.now().as_micros(),
        world.events_processed(),
        world.trace_hash()
    );
    out
}

/// Reads and checks a trace file. The first problem found is the error.
pub fn parse_trace_file(text: &str) -> Result<TraceFile, TraceFileError> {
    if text.len() > MAX_TRACE_FILE_BYTES {
        return Err(TraceFileError {
            line: 0,
            field: None,
            problem: format!(
                "the file is {} bytes; a trace file may be at most {MAX_TRACE_FILE_BYTES} bytes",
                text.len()
            ),
        });
    }
    let mut reader = Reader::default();
    let lines: Vec<&str> = text.split('\n').collect();
    for (index, raw) in lines.iter().enumerate() {
        let line = index + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.trim().is_empty() {
            if index + 1 == lines.len() {
                break; // the newline that ends the last line
            }
            return Err(problem(
                line,
                None,
                "a blank line; expected one JSON object per line",
            ));
        }
        reader.line(line, raw)?;
    }
    reader.finish(lines.len())
}

/// A replay of `file` on a fresh world, stopped at the file's position (within the replay budget of
/// [`crate::tooling::replay`]). Compare its `trace_hash` with the file's to know whether it reproduced
/// the run, or ask [`replay_checked`].
pub fn replay(file: &TraceFile) -> Result<World, String> {
    replay_with_fingerprint(
        &file.scenario,
        &file.actions,
        file.position,
        MAX_REPLAY_EVENTS,
        file.fingerprint,
    )
    .map(|replayed| replayed.world)
    .map_err(|error| error.to_string())
}

/// What replaying a trace file came to. `quorumlab replay` prints it; the app's import reaches the
/// same answer through the same replay (`crate::tooling::replay::replay_to`), plus the share-link
/// limits it alone applies.
#[derive(Debug)]
pub enum ReplayCheck {
    /// The replay reached the fingerprint the file recorded.
    Reproduced(World),
    /// The replay ran, to another run.
    Diverged {
        world: World,
        recorded: u64,
        replayed: u64,
    },
    /// The replay could not be done (a refused setting, an action that does not fit, the budget).
    Failed(String),
}

pub fn replay_checked(file: &TraceFile) -> ReplayCheck {
    match replay(file) {
        Ok(world) if world.trace_hash() == file.trace_hash => ReplayCheck::Reproduced(world),
        Ok(world) => ReplayCheck::Diverged {
            replayed: world.trace_hash(),
            recorded: file.trace_hash,
            world,
        },
        Err(reason) => ReplayCheck::Failed(reason),
    }
}

fn problem(line: usize, field: Option<&str>, text: &str) -> TraceFileError {
    TraceFileError {
        line,
        field: field.map(str::to_string),
        problem: text.to_string(),
    }
}

/// What has been read so far; lines must come header, actions, events, end.
#[derive(Default)]
struct Reader {
    header: Option<(Scenario, NodeNames)>,
    /// The header's version: how action lines spell their action.
    version: u64,
    actions: Vec<RecordedAction>,
    event_lines: usize,
    end: Option<(SimTime, u64, u64)>,
}

impl Reader {
    fn line(&mut self, line: usize, raw: &str) -> Result<(), TraceFileError> {
        if self.end.is_some() {
            return Err(problem(line, None, "nothing may follow the end line"));
        }
        let object: Map<String, Value> =
            serde_json::from_str(raw).map_err(|error| problem(line, None, &not_json(&error)))?;
        let kind = match object.get("kind") {
            Some(Value::String(kind)) => kind.as_str(),
            Some(other) => {
                let found = format!("expected a string, found {}", shown(&other.to_string()));
                return Err(problem(line, Some("kind"), &found));
            }
            None => {
                return Err(problem(
                    line,
                    Some("kind"),
                    "missing; every line names its kind",
                ))
            }
        };
        match (&self.header, kind) {
            (None, "header") => {
                let (scenario, names, version) = read_header(line, &object)?;
                self.header = Some((scenario, names));
                self.version = version;
            }
            (None, _) => {
                let found = format!(
                    "expected \"header\" on the first line, found \"{}\"",
                    shown(kind)
                );
                return Err(problem(line, Some("kind"), &found));
            }
            (Some(_), "header") => {
                return Err(problem(
                    line,
                    Some("kind"),
                    "a second header; a file holds one run",
                ))
            }
            (Some(_), "action") => self.action(line, &object)?,
            (Some(_), "event") => self.event(line, &object)?,
            (Some(_), "end") => self.end = Some(read_end(line, &object)?),
            (Some(_), _) => {
                let found = format!(
                    "expected \"action\", \"event\" or \"end\", found \"{}\"",
                    shown(kind)
                );
                return Err(problem(line, Some("kind"), &found));
            }
        }
        Ok(())
    }

    fn action(&mut self, line: usize, object: &Map<String, Value>) -> Result<(), TraceFileError> {
        if self.event_lines > 0 {
            return Err(problem(
                line,
                Some("kind"),
                "action lines come before event lines",
            ));
        }
        if self.actions.len() >= MAX_TRACE_FILE_ACTIONS {
            let text = format!(
                "more than {MAX_TRACE_FILE_ACTIONS} actions; a file may hold at most that many"
            );
            return Err(problem(line, None, &text));
        }
        let Some((_, names)) = &mut self.header else {
            return Err(problem(line, Some("kind"), "expected the header first"));
        };
        let at_us = time_us(line, object, "at_us")?;
        let after_events = whole_number(line, object, "after_events")?;
        if let Some(previous) = self.actions.last() {
            if at_us < previous.at.as_micros() {
                let text = format!(
                    "{at_us} is earlier than the previous action's {}; actions are in time order",
                    previous.at.as_micros()
                );
                return Err(problem(line, Some("at_us"), &text));
            }
            if after_events < previous.after_events {
                let text = format!(
                    "{after_events} is less than the previous action's {}; event counts only grow",
                    previous.after_events
                );
                return Err(problem(line, Some("after_events"), &text));
            }
        }
        let action = if self.version == FLAT_ACTIONS_VERSION {
            let fields = object
                .iter()
                .filter(|(key, _)| !ACTION_TIME_KEYS.contains(&key.as_str()));
            read_action(line, fields, names)?
        } else {
            check_keys(line, object, ACTION_KEYS)?;
            match object.get("action") {
                Some(Value::Object(fields)) => read_action(line, fields.iter(), names)?,
                Some(other) => {
                    let found = format!(
                        "expected the action as an object, found {}",
                        type_name(other)
                    );
                    return Err(problem(line, Some("action"), &found));
                }
                None => {
                    return Err(problem(
                        line,
                        Some("action"),
                        "missing; an action line holds its action",
                    ))
                }
            }
        };
        // Later lines may name a server this action brought in.
        names.servers = crate::tooling::scenario::nodes_after(&action, names.servers);
        self.actions.push(RecordedAction {
            at: SimTime(at_us),
            after_events,
            action,
        });
        Ok(())
    }

    fn event(&mut self, line: usize, object: &Map<String, Value>) -> Result<(), TraceFileError> {
        check_keys(line, object, EVENT_KEYS)?;
        if self.event_lines >= TRACE_CAP {
            let text = format!("more than {TRACE_CAP} event lines; a run keeps at most that many");
            return Err(problem(line, None, &text));
        }
        match object.get("record") {
            Some(Value::Object(_)) => {}
            Some(other) => {
                let found = format!("expected a trace record object, found {}", type_name(other));
                return Err(problem(line, Some("record"), &found));
            }
            None => {
                return Err(problem(
                    line,
                    Some("record"),
                    "missing; an event line holds one trace record",
                ))
            }
        }
        self.event_lines += 1;
        Ok(())
    }

    fn finish(self, line_count: usize) -> Result<TraceFile, TraceFileError> {
        let Some((scenario, _)) = self.header else {
            return Err(problem(
                1,
                None,
                "the file is empty; expected the header line",
            ));
        };
        let Some((position, events, trace_hash)) = self.end else {
            let text = "the file ends without its end line (was it cut short?)";
            return Err(problem(line_count, None, text));
        };
        Ok(TraceFile {
            scenario,
            actions: self.actions,
            position,
            events,
            trace_hash,
            fingerprint: if self.version <= JSON_FINGERPRINT_VERSION {
                FingerprintKind::JsonFnv
            } else {
                FingerprintKind::Compact
            },
        })
    }
}

fn read_header(
    line: usize,
    object: &Map<String, Value>,
) -> Result<(Scenario, NodeNames, u64), TraceFileError> {
    check_keys(line, object, HEADER_KEYS)?;
    match object.get("format") {
        Some(Value::String(format)) if format == TRACE_FILE_FORMAT => {}
        Some(other) => {
            let found = format!(
                "expected \"{TRACE_FILE_FORMAT}\", found {}",
                shown(&other.to_string())
            );
            return Err(problem(line, Some("format"), &found));
        }
        None => {
            return Err(problem(
                line,
                Some("format"),
                "missing; expected \"quorumlab-trace\"",
            ))
        }
    }
    let version = whole_number(line, object, "version")?;
    if !(FLAT_ACTIONS_VERSION..=TRACE_FILE_VERSION).contains(&version) {
        let text = format!("this file is version {version}; this version of Quorum Lab reads versions {FLAT_ACTIONS_VERSION} to {TRACE_FILE_VERSION}");
        return Err(problem(line, Some("version"), &text));
    }
    let text = match object.get("scenario") {
        Some(Value::String(text)) => text,
        Some(other) => {
            let found = format!(
                "expected the scenario as a TOML string, found {}",
                type_name(other)
            );
            return Err(problem(line, Some("scenario"), &found));
        }
        None => {
            return Err(problem(
                line,
                Some("scenario"),
                "missing; the header carries the scenario",
            ))
        }
    };
    let scenario = parse_scenario(text, "scenario")
        .map_err(|error| problem(line, Some("scenario"), &error.to_string()))?;
    let names = node_names(&scenario);
    Ok((scenario, names, version))
}

fn read_end(
    line: usize,
    object: &Map<String, Value>,
) -> Result<(SimTime, u64, u64), TraceFileError> {
    check_keys(line, object, END_KEYS)?;
    let position_us = time_us(line, object, "position_us")?;
    let events = whole_number(line, object, "events")?;
    let expected = "expected 16 lower-case hex digits";
    let hash = match object.get("trace_hash") {
        Some(Value::String(text))
            if text.len() == 16
                && text
                    .bytes()
                    .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f')) =>
        {
            u64::from_str_radix(text, 16)
                .map_err(|_| problem(line, Some("trace_hash"), expected))?
        }
        Some(other) => {
            let found = format!("{expected}, found {}", shown(&other.to_string()));
            return Err(problem(line, Some("trace_hash"), &found));
        }
        None => {
            return Err(problem(
                line,
                Some("trace_hash"),
                &format!("missing; {expected}"),
            ))
        }
    };
    Ok((SimTime(position_us), events, hash))
}

/// The action of an action line from its fields, read as a scenario step's table would be.
fn read_action<'a>(
    line: usize,
    fields: impl Iterator<Item = (&'a String, &'a Value)>,
    names: &NodeNames,
) -> Result<crate::contract::action::Action, TraceFileError> {
    let mut toml_text = String::new();
    for (key, value) in fields {
        if matches!(value, Value::Null | Value::Object(_)) {
            let found = format!(
                "expected a string, number, boolean or list, found {}",
                type_name(value)
            );
            return Err(problem(line, Some(key), &found));
        }
        // JSON strings, numbers, booleans and arrays of them are also TOML values.
        let _ = writeln!(toml_text, "{} = {value}", Value::String(key.clone()));
    }
    let source = Source {
        text: &toml_text,
        file: "action",
    };
    let document = DeTable::parse(&toml_text)
        .map_err(|error| problem(line, None, &format!("not an action ({})", error.message())))?;
    let table = TableReader {
        place: Place {
            source: &source,
            step: None,
            key_prefix: "",
        },
        table: document.get_ref(),
        span: 0..0,
        needed_by: "an action line".to_string(),
    };
    parse_action(&table, names, &[]).map_err(|error| TraceFileError {
        line,
        field: error.key.clone(),
        problem: error.kind.to_string(),
    })
}

fn node_names(scenario: &Scenario) -> NodeNames {
    NodeNames::of_scenario(scenario)
}

fn check_keys(
    line: usize,
    object: &Map<String, Value>,
    allowed: &[&str],
) -> Result<(), TraceFileError> {
    match object.keys().find(|key| !allowed.contains(&key.as_str())) {
        None => Ok(()),
        Some(unknown) => {
            let text = format!(
                "not a key of this line; {}",
                did_you_mean(
                    unknown,
                    allowed.iter().copied(),
                    "key",
                    "sim/TRACE_FILES.md"
                )
            );
            Err(problem(line, Some(unknown), &text))
        }
    }
}

fn whole_number(
    line: usize,
    object: &Map<String, Value>,
    key: &str,
) -> Result<u64, TraceFileError> {
    match object.get(key) {
        Some(Value::Number(number)) if number.as_u64().is_some() => number
            .as_u64()
            .ok_or_else(|| problem(line, Some(key), "expected a whole number")),
        Some(other) => {
            let found = format!(
                "expected a whole number (0 or more), found {}",
                shown(&other.to_string())
            );
            Err(problem(line, Some(key), &found))
        }
        None => Err(problem(line, Some(key), "missing; expected a whole number")),
    }
}

fn time_us(line: usize, object: &Map<String, Value>, key: &str) -> Result<u64, TraceFileError> {
    let micros = whole_number(line, object, key)?;
    if micros > MAX_TIME_US {
        let text = format!("{micros} µs is past the longest run ({MAX_TIME_US} µs, one hour)");
        return Err(problem(line, Some(key), &text));
    }
    Ok(micros)
}

/// serde_json's words for a line that is not JSON, which can quote a whole string of the input, cut
/// as every error quotes the input.
fn not_json(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(message, _)| message);
    format!(
        "not a JSON object ({} at column {})",
        shown(message),
        error.column()
    )
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests;
