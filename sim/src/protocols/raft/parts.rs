//! What the plain Raft world owns beyond its servers, for its registry entry: what its price of
//! agreement counts. (Raft's five properties are judged by the engine's own checker, since every
//! world whose servers run Raft shares it.)

use crate::contract::entry::parts::WorldParts;
use crate::contract::world_read::WorldRead;

#[derive(Debug)]
pub struct RaftParts;

impl WorldParts for RaftParts {
    /// A client write counts once the cluster commits it.
    fn committed_requests(&self, world: &dyn WorldRead) -> Option<(&'static str, u64)> {
        Some(("raft", world.requests_committed()))
    }
}
