//! The coordination part of a frame: names of the actors, each worker's belief, the lock service's truth
//! on its leader's clock, and the resource's ledger.

use crate::base::ids::NodeId;
use crate::base::time::SimTime;
use crate::base::units::FencingToken;
use crate::contract::config::ProtocolKind;
use crate::engine::world::World;
use crate::protocols::lockservice::{Hold, Lease, ZNode, ZPath};
use crate::protocols::resource::LedgerEntry;
use crate::protocols::worker::{Belief, Phase};
use crate::worlds::registry::world_view;
use serde::Serialize;

mod lock_service;

pub use crate::protocols::paxos::view::{AcceptorView, LearnerView, PaxosView, ProposerView};
pub use crate::protocols::pbft::view::{
    PbftClientView, PbftView, ReplicaView, SlotView, MAX_VIEW_SLOTS,
};
pub use crate::protocols::redlock::view::KvServerView;
pub use crate::protocols::scheduler::view::{InstanceView, SchedulerView, MAX_VIEW_MINUTES};
pub use crate::protocols::zookeeper::view::CandidateView;
pub use crate::worlds::actor::WorldView;

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
    /// The world's own part (its folder's view): Paxos' acceptors, PBFT's replicas, the scheduler's
    /// strip, ZooKeeper's candidates, Redis-style servers; `None` in the lock service and work queue.
    pub world: Option<WorldView>,
    /// Locks granted in the last second of simulated time, as the lock checker recorded them
    /// (`None` once its record is full, when the count would only fall).
    pub grants_last_second: Option<u64>,
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

impl CoordinationView {
    pub fn paxos(&self) -> Option<&PaxosView> {
        match &self.world {
            Some(WorldView::Paxos(paxos)) => Some(paxos),
            _ => None,
        }
    }

    pub fn pbft(&self) -> Option<&PbftView> {
        match &self.world {
            Some(WorldView::Pbft(pbft)) => Some(pbft),
            _ => None,
        }
    }

    pub fn scheduler(&self) -> Option<&SchedulerView> {
        match &self.world {
            Some(WorldView::Scheduler(scheduler)) => Some(scheduler),
            _ => None,
        }
    }

    /// ZooKeeper-style candidates (none in other worlds).
    pub fn candidates(&self) -> &[CandidateView] {
        match &self.world {
            Some(WorldView::Zookeeper(candidates)) => candidates,
            _ => &[],
        }
    }

    /// Redis-style servers (none in other worlds).
    pub fn kv_servers(&self) -> &[KvServerView] {
        match &self.world {
            Some(WorldView::KvServers(servers)) => servers,
            _ => &[],
        }
    }
}

impl World {
    /// `None` for a plain Raft cluster. The lock family's parts are built beside this file; a world's
    /// own part comes from its folder through the registry.
    pub fn coordination_view(&self) -> Option<CoordinationView> {
        let layout = self.layout()?;
        let now = self.now();
        let labels = (0..self.node_count())
            .map(|index| layout.label(NodeId(index as u16)))
            .collect();
        Some(CoordinationView {
            kind: self.config().protocol.kind(),
            labels,
            workers: self.worker_views(&layout, now),
            service: self.service_view(now),
            resource: self.resource_view(&layout),
            world: world_view(self),
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
