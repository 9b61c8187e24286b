//! One sentence per way a history can fail, said from the clients' side.
//!
//! A witness ([`crate::engine::linearizable::witness`]) is a handful of ops that no order can explain;
//! its [`Pattern`] says which story they tell. Each story gets its own sentence naming the ops as the
//! clients saw them ("get key 1 → 1", "put key 1 = 17") and the real-time facts that make it
//! impossible, so a learner can check the claim on the history lanes without trusting the checker.
//! A witness of no known shape gets the general sentence, with the op the search could not place.

use crate::contract::client_history::{LockCall, Op, OpCall, OpEnd, OpIndex, OpReturn};
use crate::contract::protocol::ClientCommand;
use crate::engine::linearizable::witness::Pattern;

/// "put key 1 = 17", "get key 1 → 1", "get key 4 → nothing", "put key 2 = 5 (unknown)".
pub fn op_words(op: &Op) -> String {
    let call = match op.call {
        OpCall::Kv(ClientCommand::Put { key, value }) => format!("put key {key} = {value}"),
        OpCall::Kv(ClientCommand::Get { key }) => format!("get key {key}"),
        OpCall::Access {
            account,
            token,
            write,
            ..
        } => match write {
            Some(value) => format!("write account {account} = {value} with token {token}"),
            None => format!("read account {account} with token {token}"),
        },
        OpCall::Lock(LockCall::Acquire { lock, .. }) => format!("acquire lock {lock}"),
        OpCall::Lock(LockCall::Release { lock, .. }) => format!("release lock {lock}"),
        other => format!("{other:?}"),
    };
    match op.end {
        OpEnd::Ok(OpReturn::Read(Some(value)) | OpReturn::Value(value)) => {
            format!("{call} → {value}")
        }
        OpEnd::Ok(OpReturn::Granted(token)) => format!("{call} → token {token}"),
        OpEnd::Ok(OpReturn::Released(false)) => format!("{call} → not held"),
        OpEnd::Ok(OpReturn::Read(None)) => format!("{call} → nothing"),
        OpEnd::Ok(_) => call,
        OpEnd::Failed(reason) => format!("{call} (failed: {reason})"),
        OpEnd::Unknown(_) => format!("{call} (unknown)"),
    }
}

/// The sentence for `pattern`, whose indices are ops of `ops` (the whole history). `stuck` is the op
/// the search could not place, for the general sentence.
pub fn pattern_sentence(ops: &[Op], pattern: &Pattern, stuck: OpIndex) -> String {
    let words = |index: &OpIndex| format!("\"{}\"", op_words(&ops[*index as usize]));
    match pattern {
        Pattern::NeverWritten { read } => {
            let failed = failed_writer(ops, &ops[*read as usize]);
            match failed {
                Some(write) => format!(
                    "{} returned a value only {} wrote, and that put was refused, so it never happened.",
                    words(read),
                    words(&write)
                ),
                None => format!("{} returned a value no put ever wrote.", words(read)),
            }
        }
        Pattern::Future { read, write } => format!(
            "{} returned before {} began: it read a value from the future.",
            words(read),
            words(write)
        ),
        Pattern::Stale {
            read,
            newer,
            older: Some(older),
        } => format!(
            "{} began after {} had returned, yet returned the older value of {}.",
            words(read),
            words(newer),
            words(older)
        ),
        Pattern::Stale {
            read,
            newer,
            older: None,
        } => format!(
            "{} began after {} had returned, yet found no value at all.",
            words(read),
            words(newer)
        ),
        Pattern::NewThenOld {
            first,
            second,
            newer,
            older,
        } => {
            let back_to = older
                .as_ref()
                .map_or("no value at all".to_string(), |older| {
                    format!("the older value of {}", words(older))
                });
            format!(
                "{} began after {} had returned the value of {}, yet returned {back_to}.",
                words(second),
                words(first),
                words(newer)
            )
        }
        Pattern::Other { ops: members } => format!(
            "No order of these {} operations respects both their timing and the store's rules; \
             none lets {} take its turn.",
            members.len(),
            words(&stuck)
        ),
    }
}

/// A failed put of the value `read` returned, if there is one.
fn failed_writer(ops: &[Op], read: &Op) -> Option<OpIndex> {
    let OpEnd::Ok(OpReturn::Read(Some(seen))) = read.end else {
        return None;
    };
    ops.iter()
        .find(|op| {
            matches!(op.end, OpEnd::Failed(_))
                && matches!(op.call, OpCall::Kv(ClientCommand::Put { value, .. }) if value == seen)
        })
        .map(|op| op.index)
}
