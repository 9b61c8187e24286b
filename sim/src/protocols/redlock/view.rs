//! The Redis-style servers' part of a frame (one server for a single Redis lock, N for Redlock): each
//! server's keys, with their expiry on that server's own clock.

use super::{KvEntry, KvLockServer};
use crate::base::ids::NodeId;
use crate::contract::world_read::{actors_of, WorldRead};
use serde::Serialize;

/// One Redis-style server: its own clock and the keys it holds (expiry on that clock).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct KvServerView {
    pub id: NodeId,
    pub local_clock_us: i64,
    pub keys: Vec<(u32, KvEntry)>,
}

/// Every Redis-style server of the frame, in node order.
pub fn view(world: &dyn WorldRead) -> Vec<KvServerView> {
    let now = world.now();
    actors_of::<KvLockServer>(world)
        .filter_map(|(id, server)| {
            Some(KvServerView {
                id,
                local_clock_us: world.clock(id)?.local_signed_us(now),
                keys: server
                    .entries
                    .iter()
                    .map(|(key, entry)| (*key, *entry))
                    .collect(),
            })
        })
        .collect()
}
