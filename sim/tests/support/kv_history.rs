//! Hand-written key-value client histories for the linearizability tests: a compact way to say
//! "put k1=1 invoked at 10, answered at 20" and get the `Op`s the checker reads.
#![allow(dead_code)]

use quorumlab_sim::client_history::{
    LogInstant, Op, OpCall, OpEnd, OpIndex, OpReturn, Unknown, Who,
};
use quorumlab_sim::protocol::ClientCommand;

/// How one op ends: answered at a position, failed at one, or unknown (timed out at one).
pub enum Ends {
    Ok(OpReturn, u64),
    Failed(u64),
    Unknown(u64),
}

pub fn put(key: u32, value: u64) -> OpCall {
    OpCall::Kv(ClientCommand::Put { key, value })
}

pub fn get(key: u32) -> OpCall {
    OpCall::Kv(ClientCommand::Get { key })
}

pub fn wrote(at: u64) -> Ends {
    Ends::Ok(OpReturn::Written, at)
}

pub fn read(value: Option<u64>, at: u64) -> Ends {
    Ends::Ok(OpReturn::Read(value), at)
}

/// Ops numbered by place from (call, invoke position, ending); a position is also the microsecond.
pub fn history(specs: Vec<(OpCall, u64, Ends)>) -> Vec<Op> {
    let instant = |position: u64| LogInstant {
        at_us: position,
        position,
    };
    specs
        .into_iter()
        .enumerate()
        .map(|(place, (call, invoked, ends))| {
            let (completed, end) = match ends {
                Ends::Ok(returned, at) => (at, OpEnd::Ok(returned)),
                Ends::Failed(at) => (at, OpEnd::Failed("not the leader")),
                Ends::Unknown(at) => (at, OpEnd::Unknown(Unknown::Timeout)),
            };
            Op {
                index: place as OpIndex,
                who: Who::Request,
                call,
                invoked: instant(invoked),
                completed: Some(instant(completed)),
                end,
                served_by: None,
            }
        })
        .collect()
}
