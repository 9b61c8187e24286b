//! The coordination part of a frame: names of the actors, each worker's belief, the lock service's truth
//! on its leader's clock, and the resource's ledger.

use crate::config::{ProtocolConfig, ProtocolKind, SchedulerMode};
use crate::ids::NodeId;
use crate::lockservice::{Hold, Lease, ZNode, ZPath};
use crate::redlock::KvEntry;
use crate::resource::LedgerEntry;
use crate::scheduler::LockState;
use crate::worker::{Belief, Phase};
use crate::world::World;
use crate::zookeeper::CandidatePhase;
use serde::Serialize;

/// Newest ledger entries shown.
pub const MAX_VIEW_LEDGER: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CoordinationView {
    /// Which world this is: ask the registry (`kind.entry()`) what it can do and what it is called.
    pub kind: ProtocolKind,
    /// The name of every node, indexed by node: `n1`.., `A`.., `store`.
    pub labels: Vec<String>,
    pub workers: Vec<WorkerView>,
    /// The lock service as its current leader sees it (`None` while no server leads).
    pub service: Option<ServiceView>,
    pub resource: Option<ResourceView>,
    /// Redis-style servers (one for a single Redis lock, N for Redlock): their clocks and keys.
    pub kv_servers: Vec<KvServerView>,
    /// The invoice scheduler: instances and the per-minute strip.
    pub scheduler: Option<SchedulerView>,
    /// ZooKeeper-style election candidates (the znode tree and watches are in `service`).
    pub candidates: Vec<CandidateView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SchedulerView {
    pub mode: SchedulerMode,
    pub minute_ms: u64,
    pub instances: Vec<InstanceView>,
    /// The newest `MAX_VIEW_MINUTES` invoiced minutes and who generated each (two or more = duplicates).
    pub minutes: Vec<(u64, Vec<NodeId>)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InstanceView {
    pub id: NodeId,
    pub lock: LockState,
    pub token: u64,
    /// Leader modes: it holds the lease and its lease has not run out on its clock.
    pub believes_it_leads: bool,
    pub lease_until_local_us: u64,
    pub local_clock_us: i64,
    pub runs: u64,
}

/// Minutes shown in the scheduler strip.
pub const MAX_VIEW_MINUTES: usize = 120;

/// One Redis-style server: its own clock and the keys it holds (expiry on that clock).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KvServerView {
    pub id: NodeId,
    pub local_clock_us: i64,
    pub keys: Vec<(u32, KvEntry)>,
}

/// What a worker believes, on its own clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorkerView {
    pub id: NodeId,
    pub phase: Phase,
    /// "I hold the lock, token 34, lease until t (local)".
    pub belief: Option<Belief>,
    pub local_clock_us: i64,
    pub jobs_done: u64,
    pub jobs_abandoned: u64,
    pub fenced_off: u64,
}

/// The truth, on the leader's clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServiceView {
    pub leader: NodeId,
    pub leader_clock_us: u64,
    pub revision: u64,
    pub leases: Vec<LeaseView>,
    /// Per key: holder and queue.
    pub locks: Vec<LockView>,
    /// ZooKeeper-style znodes (each ephemeral, owned by a session lease).
    pub znodes: Vec<ZNode>,
    /// One-shot watches the leader holds: znode and watchers.
    pub watches: Vec<(ZPath, Vec<NodeId>)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaseView {
    pub lease: Lease,
    /// The leader's deadline for it, on the leader's clock.
    pub deadline_us: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LockView {
    pub key: u32,
    pub holder: Option<Hold>,
    pub waiters: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceView {
    pub id: NodeId,
    pub fencing: bool,
    pub value: u64,
    pub highest_seen: u64,
    pub accepted: u64,
    pub rejected: u64,
    pub duplicates: u64,
    /// Newest last, at most `MAX_VIEW_LEDGER`.
    pub ledger: Vec<LedgerEntry>,
}

impl World {
    /// `None` for a plain Raft cluster.
    pub fn coordination_view(&self) -> Option<CoordinationView> {
        let layout = self.layout()?;
        let kind = self.config().protocol.kind();
        let now = self.now();
        let labels = (0..self.node_count())
            .map(|index| layout.label(NodeId(index as u16)))
            .collect();
        let workers = (0..layout.workers)
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
            .collect();
        let service = self.current_leader().and_then(|leader| {
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
            Some(ServiceView {
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
        });
        let store = layout.store();
        let resource = self
            .nodes()
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
                    ledger: resource.ledger.iter().skip(skip).copied().collect(),
                }
            });
        let kv_servers = (0..layout.servers)
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
            .collect();
        let scheduler = match &self.config().protocol {
            ProtocolConfig::Scheduler(_, options) => {
                let instances = (0..layout.workers)
                    .filter_map(|index| {
                        let node = layout.worker(index);
                        let slot = &self.nodes()[node.index()];
                        let instance = slot.actor.as_scheduler()?;
                        let local_us = slot.clock.local_us(now);
                        Some(InstanceView {
                            id: node,
                            lock: instance.lock,
                            token: instance.token,
                            believes_it_leads: instance.believes_it_leads(local_us),
                            lease_until_local_us: instance.client.lease_until_local_us,
                            local_clock_us: slot.clock.local_signed_us(now),
                            runs: instance.runs,
                        })
                    })
                    .collect();
                let store = self
                    .nodes()
                    .get(layout.store().index())
                    .and_then(|slot| slot.actor.as_resource());
                let minutes = store.map_or_else(Vec::new, |store| {
                    let skip = store.invoices.len().saturating_sub(MAX_VIEW_MINUTES);
                    store
                        .invoices
                        .iter()
                        .skip(skip)
                        .map(|(minute, by)| (*minute, by.clone()))
                        .collect()
                });
                Some(SchedulerView {
                    mode: options.mode,
                    minute_ms: options.minute_ms,
                    instances,
                    minutes,
                })
            }
            _ => None,
        };
        let candidates = (0..layout.workers)
            .filter_map(|index| {
                let node = layout.worker(index);
                let slot = &self.nodes()[node.index()];
                let candidate = slot.actor.as_candidate()?;
                Some(CandidateView {
                    id: node,
                    phase: candidate.phase,
                    session: candidate.session,
                    znode: candidate.znode,
                    watching: candidate.watching,
                    session_until_local_us: candidate.session_until_local_us,
                    local_clock_us: slot.clock.local_signed_us(now),
                    notifications: candidate.notifications,
                })
            })
            .collect();
        Some(CoordinationView {
            candidates,
            scheduler,
            kind,
            labels,
            workers,
            service,
            resource,
            kv_servers,
        })
    }
}
