//! The ZooKeeper-style election's part of a frame: each candidate's session, its znode and the znode it
//! watches, on its own clock. The znode tree and the watches themselves are the lock service's, shown
//! with the service.

use super::{CandidatePhase, ZPath, ZkCandidate};
use crate::base::ids::NodeId;
use crate::contract::world_read::{actors_of, WorldRead};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CandidateView {
    pub id: NodeId,
    pub phase: CandidatePhase,
    pub session: Option<u64>,
    pub znode: Option<ZPath>,
    pub watching: Option<ZPath>,
    pub session_until_local_us: u64,
    pub local_clock_us: i64,
    pub notifications: u64,
}

/// Every candidate of the frame, in node order.
pub fn view(world: &dyn WorldRead) -> Vec<CandidateView> {
    let now = world.now();
    actors_of::<ZkCandidate>(world)
        .filter_map(|(id, candidate)| {
            Some(CandidateView {
                id,
                phase: candidate.phase,
                session: candidate.session,
                znode: candidate.znode,
                watching: candidate.watching,
                session_until_local_us: candidate.session_until_local_us,
                local_clock_us: world.clock(id)?.local_signed_us(now),
                notifications: candidate.notifications,
            })
        })
        .collect()
}
