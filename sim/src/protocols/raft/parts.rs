//! What the plain Raft world owns beyond its servers, for its registry entry: what its price of
//! agreement counts and the model its clients' histories are judged by. (Raft's five properties are judged by the engine's own checker, since every
//! world whose servers run Raft shares it.)

use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::WorldParts;
use crate::contract::erased_model::DynModel;
use crate::contract::world_read::WorldRead;
use crate::protocols::raft::kv_model::KV_MODEL;

#[derive(Debug)]
pub struct RaftParts;

static MODELS: &[&dyn DynModel] = &[&KV_MODEL];

impl WorldParts for RaftParts {
    /// A client write counts once the cluster commits it.
    fn committed_requests(&self, world: &dyn WorldRead) -> Option<(&'static str, u64)> {
        Some(("raft", world.requests_committed()))
    }

    /// Its clients read and write a key-value store.
    fn history_models(&self, _protocol: &ProtocolConfig) -> &'static [&'static dyn DynModel] {
        MODELS
    }
}
