//! The lock service's part of a frame: each worker's belief, the service's truth on its leader's clock,
//! and the store's ledger (the work queue and the Redis-style worlds share the workers and the store).

use super::*;
use crate::base::time::SimTime;
use crate::worlds::coordination::Layout;

impl World {
    pub(super) fn worker_views(&self, layout: &Layout, now: SimTime) -> Vec<WorkerView> {
        (0..layout.workers)
            .filter_map(|index| {
                let node = layout.worker(index);
                let slot = &self.nodes()[node.index()];
                let worker = slot.actor.as_worker()?;
                Some(WorkerView {
                    id: node,
                    phase: worker.phase,
                    belief: worker.belief,
                    local_clock_us: slot.clock.local_signed_us(now),
                    jobs_done: worker.jobs_done,
                    jobs_abandoned: worker.jobs_abandoned,
                    fenced_off: worker.fenced_off,
                })
            })
            .collect()
    }

    pub(super) fn service_view(&self, now: SimTime) -> Option<ServiceView> {
        self.current_leader().and_then(|leader| {
            let slot = &self.nodes()[leader.index()];
            let server = slot.actor.as_lock_server()?;
            let leases = server
                .table
                .leases
                .values()
                .map(|lease| LeaseView {
                    lease: *lease,
                    deadline_us: server.deadlines.get(&lease.id).copied(),
                })
                .collect();
            let locks = server
                .table
                .keys
                .iter()
                .map(|(key, state)| LockView {
                    key: *key,
                    holder: state.holder,
                    waiters: state.waiters.iter().copied().collect(),
                })
                .collect();
            let lock_delays = server
                .table
                .delayed_keys
                .keys()
                .map(|key| LockDelayView {
                    key: *key,
                    until_us: server.delays.end_us(*key),
                })
                .collect();
            Some(ServiceView {
                lock_delays,
                znodes: server.table.znodes.values().copied().collect(),
                watches: server
                    .watches
                    .iter()
                    .map(|(path, watchers)| (*path, watchers.iter().copied().collect()))
                    .collect(),
                leader,
                leader_clock_us: slot.clock.local_us(now),
                revision: server.table.revision,
                leases,
                locks,
            })
        })
    }

    pub(super) fn resource_view(&self, layout: &Layout) -> Option<ResourceView> {
        let store = layout.store();
        self.nodes()
            .get(store.index())
            .and_then(|slot| slot.actor.as_resource())
            .map(|resource| {
                let skip = resource.ledger.len().saturating_sub(MAX_VIEW_LEDGER);
                ResourceView {
                    id: store,
                    fencing: resource.fencing,
                    value: resource.value,
                    highest_seen: resource.highest_seen,
                    accepted: resource.accepted,
                    rejected: resource.rejected,
                    duplicates: resource.duplicates,
                    malformed: resource.malformed,
                    ledger: resource.ledger.iter().skip(skip).copied().collect(),
                }
            })
    }
}
