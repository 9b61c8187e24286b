//! Raft's key-value store as its clients should see it: one register per key.
//!
//! The replicated store promises to behave like a single map handled one request at a time. Per key
//! that is a register: a put sets it and is acknowledged, a get returns the value of the latest put
//! (nothing before the first). The history checker splits a history by key, since linearizability is
//! local, so the state of one partition is just the value its key holds.
//!
//! Every put's value is its request id, so no two puts write the same value: a read names the one
//! write it must follow. That is what lets the checker drop unknown puts nobody read
//! ([`SequentialModel::register_role`]), and what makes a stale read easy to state: the read
//! returned the value of a write that an acknowledged later write had already replaced.

use crate::contract::client_history::{OpCall, OpReturn};
use crate::contract::protocol::ClientCommand;
use crate::contract::sequential::{RegisterRole, SequentialModel};

/// The sequential key-value store of Raft's clients.
#[derive(Clone, Copy, Debug, Hash, Default)]
pub struct KvModel;

/// The one instance the registry hands out.
pub static KV_MODEL: KvModel = KvModel;

impl SequentialModel for KvModel {
    /// The value the key holds; `None` before any put.
    type State = Option<u64>;

    fn name(&self) -> &'static str {
        "key-value store"
    }

    fn initial(&self) -> Option<u64> {
        None
    }

    fn judges(&self, call: &OpCall) -> bool {
        matches!(call, OpCall::Kv(_))
    }

    fn partition(&self, call: &OpCall) -> u64 {
        match call {
            OpCall::Kv(ClientCommand::Put { key, .. } | ClientCommand::Get { key }) => {
                u64::from(*key)
            }
            _ => 0,
        }
    }

    fn step(
        &self,
        state: &Option<u64>,
        call: &OpCall,
        returned: Option<&OpReturn>,
    ) -> Option<Option<u64>> {
        let OpCall::Kv(command) = call else {
            return None;
        };
        match (command, returned) {
            (ClientCommand::Put { value, .. }, None | Some(OpReturn::Written)) => {
                Some(Some(*value))
            }
            (ClientCommand::Get { .. }, None) => Some(*state),
            (ClientCommand::Get { .. }, Some(OpReturn::Read(value))) => {
                (value == state).then_some(*state)
            }
            _ => None,
        }
    }

    fn register_role(&self, call: &OpCall, returned: Option<&OpReturn>) -> Option<RegisterRole> {
        match call {
            OpCall::Kv(ClientCommand::Put { value, .. }) => {
                Some(RegisterRole::Write { value: *value })
            }
            OpCall::Kv(ClientCommand::Get { .. }) => {
                let saw = match returned {
                    Some(OpReturn::Read(value)) => *value,
                    _ => None,
                };
                Some(RegisterRole::Read { saw })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_get_must_return_what_the_last_put_wrote() {
        let put = OpCall::Kv(ClientCommand::Put { key: 3, value: 7 });
        let get = OpCall::Kv(ClientCommand::Get { key: 3 });
        let written = KV_MODEL.step(&None, &put, Some(&OpReturn::Written));
        assert_eq!(written, Some(Some(7)));
        let fresh = OpReturn::Read(Some(7));
        assert_eq!(KV_MODEL.step(&Some(7), &get, Some(&fresh)), Some(Some(7)));
        assert_eq!(KV_MODEL.step(&Some(8), &get, Some(&fresh)), None);
        assert_eq!(
            KV_MODEL.step(&None, &get, Some(&OpReturn::Read(None))),
            Some(None)
        );
        assert_eq!(KV_MODEL.step(&Some(8), &get, None), Some(Some(8)));
        assert_eq!(
            KV_MODEL.step(&None, &put, Some(&fresh)),
            None,
            "a put reads nothing"
        );
        assert_eq!(KV_MODEL.partition(&get), 3);
        assert!(!KV_MODEL.judges(&OpCall::Job { account: 1 }));
    }
}
