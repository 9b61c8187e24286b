//! The coordination part of a frame: names of the actors, each worker's belief, the lock service's truth
//! on its leader's clock, and the resource's ledger.

use crate::base::ids::{NodeId, NodeSet};
use crate::base::time::SimTime;
use crate::base::units::FencingToken;
use crate::contract::config::ProtocolConfig;
use crate::contract::config::{ProtocolKind, SchedulerMode};
use crate::engine::world::World;
use crate::protocols::lockservice::{Hold, Lease, ZNode, ZPath};
use crate::protocols::redlock::KvEntry;
use crate::protocols::resource::LedgerEntry;
use crate::protocols::scheduler::LockState;
use crate::protocols::worker::{Belief, Phase};
use crate::protocols::zookeeper::CandidatePhase;
use serde::Serialize;

mod lock_service;
mod paxos;
mod pbft;
mod redis;
mod scheduler;
mod zookeeper;

pub use paxos::{AcceptorView, LearnerView, PaxosView, ProposerView};
pub use pbft::{PbftClientView, PbftView, ReplicaView, SlotView, MAX_VIEW_SLOTS};

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
    /// Single-decree Paxos: acceptors, proposers and what was chosen (`None` in other worlds).
    pub paxos: Option<PaxosView>,
    /// PBFT: replicas' views and slots, clients' replies, the messages spent (`None` elsewhere).
    pub pbft: Option<PbftView>,
    /// Locks granted in the last second of simulated time, as the lock checker recorded them
    /// (`None` once its record is full, when the count would only fall).
    pub grants_last_second: Option<u64>,
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
    pub token: FencingToken,
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
    /// Keys the service holds back under lock-delay (empty without one).
    pub lock_delays: Vec<LockDelayView>,
}

/// One key under lock-delay: granted to no one until `until_us` on the leader's clock (`None` until
/// the leader has timed it, which it does on its next check).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LockDelayView {
    pub key: u32,
    pub until_us: Option<u64>,
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
    pub highest_seen: FencingToken,
    pub accepted: u64,
    pub rejected: u64,
    pub duplicates: u64,
    /// Writes refused because they could not be read (not among `rejected`, which is fencing's).
    pub malformed: u64,
    /// Newest last, at most `MAX_VIEW_LEDGER`.
    pub ledger: Vec<LedgerEntry>,
}

impl World {
    /// `None` for a plain Raft cluster. Each world's part is built in its own file beside this one.
    pub fn coordination_view(&self) -> Option<CoordinationView> {
        let layout = self.layout()?;
        let now = self.now();
        let labels = (0..self.node_count())
            .map(|index| layout.label(NodeId(index as u16)))
            .collect();
        Some(CoordinationView {
            candidates: self.candidate_views(&layout, now),
            scheduler: self.scheduler_view(&layout, now),
            kind: self.config().protocol.kind(),
            labels,
            workers: self.worker_views(&layout, now),
            service: self.service_view(now),
            resource: self.resource_view(&layout),
            kv_servers: self.kv_server_views(&layout, now),
            paxos: self.paxos_view(&layout),
            pbft: self.pbft_view(&layout),
            grants_last_second: self.grants_last_second(now),
        })
    }

    fn grants_last_second(&self, now: SimTime) -> Option<u64> {
        let grants = &self.checkers().locks().grants;
        if grants.len() >= crate::engine::checker::locks::MAX_LOCK_RECORDS {
            return None;
        }
        let since_ms = now.as_ms().saturating_sub(1_000);
        // Grants are recorded in time order, so only the newest are read.
        let recent = grants
            .iter()
            .rev()
            .take_while(|grant| grant.at_ms > since_ms)
            .count();
        Some(recent as u64)
    }
}
