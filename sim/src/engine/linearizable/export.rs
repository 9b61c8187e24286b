//! A key-value history written as a Jepsen-style operation log, for other checkers to read.
//!
//! One EDN map per event, in the order things happened (`docs/history-format.md`):
//!
//! ```text
//! {:process 0, :type :invoke, :f :write, :value [1 17], :time 800000000}
//! {:process 0, :type :ok, :f :write, :value [1 17], :time 812000000, :node "n5"}
//! ```
//!
//! Knossos and Jepsen's `independent` checker read `[key value]` pairs this way, and Porcupine's
//! key-value tests take the same events once split into invoke/return pairs. Jepsen asks that a
//! process have at most one op open and that a process whose op ended `:info` never be used again,
//! since it may still be waiting; processes are handed out that way here: the lowest free one at each
//! invoke, freed again only by an answer (`:ok`) or a refusal (`:fail`). `:time` is the true simulated
//! time in nanoseconds, `:node` the server whose answer completed the op. Only key-value ops are
//! written (a lock service's calls have no such format here).
//!
//! [`super::import::import_history`] reads this back to the same ops, which the round-trip test holds.

use crate::base::ids::NodeId;
use crate::contract::client_history::{Op, OpCall, OpEnd, OpReturn};
use crate::contract::protocol::ClientCommand;
use std::collections::BTreeSet;
use std::fmt::Write;

/// The history's key-value ops as event lines, each ending in a newline; `name` gives a node's name.
pub fn export_history(ops: &[Op], name: &dyn Fn(NodeId) -> String) -> String {
    let mut events: Vec<(u64, &Op, bool)> = Vec::new();
    for op in ops.iter().filter(|op| matches!(op.call, OpCall::Kv(_))) {
        events.push((op.invoked.position, op, true));
        if let Some(done) = op.completed {
            events.push((done.position, op, false));
        }
    }
    events.sort_by_key(|(position, _, _)| *position);
    let mut process_of = vec![0u64; ops.len()];
    let mut free: BTreeSet<u64> = BTreeSet::new();
    let mut next_process = 0u64;
    let mut text = String::new();
    for (_, op, is_invoke) in events {
        let process = if is_invoke {
            let process = free.pop_first().unwrap_or_else(|| {
                next_process += 1;
                next_process - 1
            });
            process_of[op.index as usize] = process;
            process
        } else {
            let process = process_of[op.index as usize];
            if !matches!(op.end, OpEnd::Unknown(_)) {
                free.insert(process);
            }
            process
        };
        line(&mut text, op, process, is_invoke, name);
    }
    text
}

fn line(
    text: &mut String,
    op: &Op,
    process: u64,
    is_invoke: bool,
    name: &dyn Fn(NodeId) -> String,
) {
    let OpCall::Kv(command) = op.call else {
        return;
    };
    let (f, key, written) = match command {
        ClientCommand::Put { key, value } => ("write", key, Some(value)),
        ClientCommand::Get { key } => ("read", key, None),
    };
    let kind = match (is_invoke, op.end) {
        (true, _) => "invoke",
        (false, OpEnd::Ok(_)) => "ok",
        (false, OpEnd::Failed(_)) => "fail",
        (false, OpEnd::Unknown(_)) => "info",
    };
    let value = match (is_invoke, op.end) {
        (false, OpEnd::Ok(OpReturn::Read(seen))) => seen,
        _ => written,
    };
    let value = value.map_or("nil".to_string(), |value| value.to_string());
    let instant = if is_invoke {
        Some(op.invoked)
    } else {
        op.completed
    };
    let time_ns = instant.map_or(0, |instant| instant.at_us.saturating_mul(1_000));
    let _ = write!(
        text,
        "{{:process {process}, :type :{kind}, :f :{f}, :value [{key} {value}], :time {time_ns}"
    );
    if let (false, Some(node)) = (is_invoke, op.served_by) {
        let _ = write!(text, ", :node \"{}\"", name(node));
    }
    text.push_str("}\n");
}
