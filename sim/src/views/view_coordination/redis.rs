//! The Redis-style servers' part of a frame: each server's keys and its own clock.

use super::*;
use crate::base::time::SimTime;
use crate::worlds::coordination::Layout;

impl World {
    pub(super) fn kv_server_views(&self, layout: &Layout, now: SimTime) -> Vec<KvServerView> {
        (0..layout.servers)
            .filter_map(|index| {
                let slot = &self.nodes()[index];
                let server = slot.actor.as_kv_server()?;
                Some(KvServerView {
                    id: NodeId(index as u16),
                    local_clock_us: slot.clock.local_signed_us(now),
                    keys: server
                        .entries
                        .iter()
                        .map(|(key, entry)| (*key, *entry))
                        .collect(),
                })
            })
            .collect()
    }
}
