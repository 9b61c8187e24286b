//! A history from outside: a Jepsen-style operation log read into ops the checker judges.
//!
//! The format is the one `docs/history-format.md` documents and [`super::export`] writes: one event
//! per line, an EDN map (`{:process 0, :type :invoke, :f :write, :value [1 17]}`) or the same fields
//! in JSON. An `:invoke` opens an op for its process; the next `:ok`, `:fail` or `:info` of that
//! process closes it. `:ok` is an answer, `:fail` an op known not to have happened, `:info` one whose
//! outcome is unknown; an op still open at the end is unknown too. Lines whose `:process` is a keyword
//! (Jepsen's `:nemesis`) and blank lines are skipped.
//!
//! Bad input is refused whole, with the first error's line and column, and changes nothing. Input is
//! bounded before anything is read: at most [`MAX_IMPORT_BYTES`] bytes, [`MAX_IMPORT_LINES`] lines
//! and [`MAX_LINE_CHARS`] characters a line; each line is read in one pass (`edn_lines`), so an import
//! takes time linear in its size and the check after it runs within its own budget.

use super::edn_lines::{read_map, short, LineError, Value};
use crate::base::ids::{NodeId, MAX_NODES};
use crate::contract::client_history::{LogInstant, Op, OpCall, OpEnd, OpReturn, Unknown, Who};
use crate::contract::protocol::ClientCommand;
use std::collections::BTreeMap;

/// Largest file read: 8 MiB, room for a 10,000-op history several times over.
pub const MAX_IMPORT_BYTES: usize = 8 * 1024 * 1024;
/// Most lines read: 100,000 events, that is up to 50,000 ops.
pub const MAX_IMPORT_LINES: usize = 100_000;
/// Longest line read, in characters.
pub const MAX_LINE_CHARS: usize = 4_096;

/// The reason a failed op gives when it came from a file.
pub const IMPORTED_FAILURE: &str = "refused, as the file says";

/// Why a file could not be imported, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// What the file said one event was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Invoke,
    Ok,
    Fail,
    Info,
}

/// One event line, read.
struct Event {
    process: u64,
    kind: Kind,
    write: bool,
    key: u32,
    value: Option<u64>,
    time_ns: Option<u64>,
    node: Option<NodeId>,
}

/// An op opened by an invoke and not yet closed.
struct Open {
    op: usize,
    write: bool,
    key: u32,
    line: usize,
}

/// The ops of `text`, numbered in invocation order, ready for `linearizable::check`.
pub fn import_history(text: &str) -> Result<Vec<Op>, ImportError> {
    let at = |line: usize, column: usize, message: String| ImportError {
        line,
        column,
        message,
    };
    if text.len() > MAX_IMPORT_BYTES {
        return Err(at(
            1,
            1,
            format!(
                "the file is {} bytes; the most read is {MAX_IMPORT_BYTES}",
                text.len()
            ),
        ));
    }
    let mut builder = Builder::default();
    for (place, line) in text.lines().enumerate() {
        let number = place + 1;
        if number > MAX_IMPORT_LINES {
            return Err(at(number, 1, format!("more than {MAX_IMPORT_LINES} lines")));
        }
        if line.chars().count() > MAX_LINE_CHARS {
            return Err(at(
                number,
                MAX_LINE_CHARS + 1,
                format!("the line is longer than {MAX_LINE_CHARS} characters"),
            ));
        }
        if line.trim().is_empty() || line.trim_start().starts_with(';') {
            continue;
        }
        let fields = read_map(line).map_err(|found| at(number, found.column, found.message))?;
        let Some(event) =
            event_of(&fields).map_err(|found| at(number, found.column, found.message))?
        else {
            continue;
        };
        builder
            .add(event, number)
            .map_err(|message| at(number, 1, message))?;
    }
    Ok(builder.finish())
}

#[derive(Default)]
struct Builder {
    ops: Vec<Op>,
    open: BTreeMap<u64, Open>,
    position: u64,
    last_time_ns: Option<u64>,
    timed: Option<bool>,
}

impl Builder {
    fn add(&mut self, event: Event, line: usize) -> Result<(), String> {
        let instant = self.instant(event.time_ns)?;
        match (event.kind, self.open.get(&event.process)) {
            (Kind::Invoke, Some(open)) => Err(format!(
                "process {} invokes again while its op from line {} is still open",
                event.process, open.line
            )),
            (Kind::Invoke, None) => {
                let call = match (event.write, event.value) {
                    (true, Some(value)) => ClientCommand::Put {
                        key: event.key,
                        value,
                    },
                    (true, None) => return Err("a write needs the value it writes".to_string()),
                    (false, _) => ClientCommand::Get { key: event.key },
                };
                self.open.insert(
                    event.process,
                    Open {
                        op: self.ops.len(),
                        write: event.write,
                        key: event.key,
                        line,
                    },
                );
                self.ops.push(Op {
                    index: self.ops.len() as u32,
                    who: Who::Request,
                    call: OpCall::Kv(call),
                    invoked: instant,
                    completed: None,
                    end: OpEnd::Unknown(Unknown::NotYet),
                    served_by: None,
                });
                Ok(())
            }
            (_, None) => Err(format!(
                "process {} completes an op it never invoked",
                event.process
            )),
            (kind, Some(open)) => {
                if open.write != event.write || open.key != event.key {
                    return Err(format!(
                        "this completion's :f or key differs from the invoke on line {}",
                        open.line
                    ));
                }
                let end = match (kind, event.write) {
                    (Kind::Ok, true) => OpEnd::Ok(OpReturn::Written),
                    (Kind::Ok, false) => OpEnd::Ok(OpReturn::Read(event.value)),
                    (Kind::Fail, _) => OpEnd::Failed(IMPORTED_FAILURE),
                    _ => OpEnd::Unknown(Unknown::Timeout),
                };
                let op = &mut self.ops[open.op];
                op.completed = Some(instant);
                op.end = end;
                op.served_by = event.node;
                self.open.remove(&event.process);
                Ok(())
            }
        }
    }

    /// The next log position, at the line's time (or a millisecond per event when the file has none).
    fn instant(&mut self, time_ns: Option<u64>) -> Result<LogInstant, String> {
        let timed = *self.timed.get_or_insert(time_ns.is_some());
        let at_us = match (timed, time_ns) {
            (true, Some(time_ns)) => {
                if self.last_time_ns.is_some_and(|last| time_ns < last) {
                    return Err("its :time is earlier than the line before's".to_string());
                }
                self.last_time_ns = Some(time_ns);
                time_ns / 1_000
            }
            (false, None) => self.position.saturating_mul(1_000),
            (true, None) => {
                return Err("this line has no :time, but the first event had one".to_string())
            }
            (false, Some(_)) => {
                return Err("this line has a :time, but the first event had none".to_string())
            }
        };
        self.position += 1;
        Ok(LogInstant {
            at_us,
            position: self.position,
        })
    }

    fn finish(self) -> Vec<Op> {
        self.ops
    }
}

/// The event a line's fields describe; `None` for a line to skip (a nemesis's).
fn event_of(fields: &[(String, Value, usize)]) -> Result<Option<Event>, LineError> {
    let field = |name: &str| fields.iter().find(|(key, _, _)| key == name);
    let missing = |name: &str| LineError {
        column: 1,
        message: format!("the map has no :{name}"),
    };
    let wrong = |column: usize, message: &str| LineError {
        column,
        message: message.to_string(),
    };
    let (_, process, process_column) = field("process").ok_or_else(|| missing("process"))?;
    let process = match process {
        Value::Word(_) => return Ok(None),
        Value::Integer(number) => u64::try_from(*number)
            .map_err(|_| wrong(*process_column, ":process must be a whole number from 0"))?,
        _ => {
            return Err(wrong(
                *process_column,
                ":process must be a whole number or a keyword",
            ))
        }
    };
    let (_, kind, kind_column) = field("type").ok_or_else(|| missing("type"))?;
    let kind = match kind {
        Value::Word(word) if word == "invoke" => Kind::Invoke,
        Value::Word(word) if word == "ok" => Kind::Ok,
        Value::Word(word) if word == "fail" => Kind::Fail,
        Value::Word(word) if word == "info" => Kind::Info,
        _ => {
            return Err(wrong(
                *kind_column,
                ":type must be :invoke, :ok, :fail or :info",
            ))
        }
    };
    let (_, f, f_column) = field("f").ok_or_else(|| missing("f"))?;
    let write = match f {
        Value::Word(word) if word == "write" || word == "put" => true,
        Value::Word(word) if word == "read" || word == "get" => false,
        Value::Word(word) => {
            return Err(wrong(
                *f_column,
                &format!(
                    ":f :{} is not known here: a register has :read and :write",
                    short(word)
                ),
            ))
        }
        _ => return Err(wrong(*f_column, ":f must be :read or :write")),
    };
    let (key, value) = match field("value") {
        None => (0, None),
        Some((_, value, column)) => key_and_value(value, *column)?,
    };
    let time_ns = match field("time") {
        None => None,
        Some((_, Value::Integer(number), column)) => Some(
            u64::try_from(*number)
                .map_err(|_| wrong(*column, ":time must be whole nanoseconds from 0"))?,
        ),
        Some((_, _, column)) => {
            return Err(wrong(*column, ":time must be whole nanoseconds from 0"))
        }
    };
    let node = match field("node") {
        Some((_, Value::Word(name), _)) => NodeId::parse(name, MAX_NODES).ok(),
        _ => None,
    };
    Ok(Some(Event {
        process,
        kind,
        write,
        key,
        value,
        time_ns,
        node,
    }))
}

/// `[key value]` (Jepsen's independent keys) or a bare value for key 0.
fn key_and_value(value: &Value, column: usize) -> Result<(u32, Option<u64>), LineError> {
    let number = |value: &Value| -> Result<Option<u64>, LineError> {
        match value {
            Value::Nil => Ok(None),
            Value::Integer(number) => u64::try_from(*number).map(Some).map_err(|_| LineError {
                column,
                message: "a value must be a whole number from 0".to_string(),
            }),
            _ => Err(LineError {
                column,
                message: "a value must be a whole number or nil".to_string(),
            }),
        }
    };
    match value {
        Value::Vector(pair) if pair.len() == 2 => {
            let key = number(&pair[0])?
                .and_then(|key| u32::try_from(key).ok())
                .ok_or_else(|| LineError {
                    column,
                    message: "a key must be a whole number below 2^32".to_string(),
                })?;
            Ok((key, number(&pair[1])?))
        }
        Value::Vector(_) => Err(LineError {
            column,
            message: "a vector value must be a pair: [key value]".to_string(),
        }),
        single => Ok((0, number(single)?)),
    }
}
