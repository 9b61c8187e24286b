//! One actor builder per world, each named by that world's registry line
//! (`crate::worlds::registry::ENTRIES`): the world asks its entry rather than deciding by kind. Every
//! builder lays its actors out in node order — servers `n1..nN`, then the lettered actors, then the
//! `store` where the world has one — and draws nothing from the world's generator, so construction
//! leaves every seeded run as it was.
//!
//! The builders live here, a layer above the protocol folders, because they name the world's closed
//! `Actor` enum, which the folders never see (`sim/ENGINE.md`, "Layers").

use super::Layout;
use crate::base::ids::NodeId;
use crate::contract::config::{LockServiceOptions, ProtocolConfig, SchedulerMode, WorldConfig};
use crate::protocols::lockservice::LockServer;
use crate::protocols::paxos::{Acceptor, LearnerNode, Proposer};
use crate::protocols::pbft::{quorum_size, PbftClient, Replica};
use crate::protocols::raft::RaftTiming;
use crate::protocols::redlock::KvLockServer;
use crate::protocols::resource::Resource;
use crate::protocols::scheduler::SchedulerInstance;
use crate::protocols::worker::{Backend, Worker};
use crate::protocols::zookeeper::ZkCandidate;
use crate::worlds::actor::{Actor, ClusterRaft};

/// How a registry entry builds its world's actors from the run's configuration and layout.
pub type BuildActors = fn(&WorldConfig, &Layout) -> Vec<Actor>;

/// A plain Raft cluster: every node is a Raft server.
pub fn raft(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    (0..layout.servers)
        .map(|index| Actor::Raft(cluster_raft(config, layout, index)))
        .collect()
}

pub fn lock_service(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let options = lock_options(config);
    let mut actors = lock_servers(config, layout);
    actors.extend(workers(layout, options, Backend::Service));
    actors.push(store(options.fencing, options));
    actors
}

/// Redis-style locks have no fencing tokens: their store cannot fence.
pub fn redis_lock(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let options = lock_options(config);
    let backend = Backend::Redis {
        unchecked_release: options.unchecked_release,
    };
    let mut actors = kv_servers(layout, true);
    actors.extend(workers(layout, options, backend));
    actors.push(store(false, options));
    actors
}

pub fn redlock(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let options = lock_options(config);
    let mut actors = kv_servers(layout, false);
    actors.extend(workers(layout, options, Backend::Redlock));
    actors.push(store(false, options));
    actors
}

/// The invoice store fences only in the mode that hands it the leader's token.
pub fn scheduler(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let ProtocolConfig::Scheduler(options, scheduler) = &config.protocol else {
        unreachable!("the scheduler's builder runs only for a scheduler world");
    };
    let mut actors = lock_servers(config, layout);
    for index in 0..layout.workers {
        let (id, store_node) = (layout.worker(index), layout.store());
        let instance = SchedulerInstance::new(id, layout.servers, store_node, *options, *scheduler);
        actors.push(Actor::Scheduler(Box::new(instance)));
    }
    actors.push(store(
        scheduler.mode == SchedulerMode::LeaderFencing,
        options,
    ));
    actors
}

/// The candidates elect through the service alone: no store.
pub fn zookeeper(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let ProtocolConfig::Zookeeper(options, recipe) = &config.protocol else {
        unreachable!("the ZooKeeper builder runs only for a ZooKeeper world");
    };
    let mut actors = lock_servers(config, layout);
    for index in 0..layout.workers {
        let candidate = ZkCandidate::new(layout.worker(index), layout.servers, *options, *recipe);
        actors.push(Actor::Candidate(Box::new(candidate)));
    }
    actors
}

pub fn work_queue(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let ProtocolConfig::WorkQueue(options, queue) = &config.protocol else {
        unreachable!("the work queue's builder runs only for a work-queue world");
    };
    let mut actors = lock_servers(config, layout);
    for index in 0..layout.workers {
        let (id, store_node) = (layout.worker(index), layout.store());
        let worker = Worker::new(id, layout.servers, store_node, *options).with_queue(*queue);
        actors.push(Actor::Worker(Box::new(worker)));
    }
    actors.push(store(options.fencing, options));
    actors
}

/// Replicas `n1..nN`, then the clients. No store.
pub fn pbft(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let ProtocolConfig::Pbft(_, options) = &config.protocol else {
        unreachable!("the PBFT builder runs only for a PBFT world");
    };
    let quorum = quorum_size(layout.servers, options.quorum);
    let mut actors: Vec<Actor> = (0..layout.servers)
        .map(|index| {
            let replica = Replica::new(NodeId(index as u16), layout.servers, *options);
            Actor::Replica(Box::new(replica))
        })
        .collect();
    for index in 0..layout.workers {
        let client = PbftClient::new(
            layout.worker(index),
            index,
            layout.servers,
            quorum,
            *options,
        );
        actors.push(Actor::PbftClient(Box::new(client)));
    }
    actors
}

/// Acceptors `n1..nN`, then the proposers, then the learner actors `L1..` if any. Every acceptor tells
/// the proposers (which learn too) and then the learner actors what it accepts. No store.
pub fn paxos(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let ProtocolConfig::Paxos(_, options) = &config.protocol else {
        unreachable!("the Paxos builder runs only for a Paxos world");
    };
    let proposers: Vec<NodeId> = (0..layout.workers)
        .map(|index| layout.worker(index))
        .collect();
    let told: Vec<NodeId> = proposers
        .iter()
        .copied()
        .chain((0..layout.learners).map(|index| layout.learner(index)))
        .collect();
    let mut actors: Vec<Actor> = (0..layout.servers)
        .map(|_| {
            Actor::Acceptor(Box::new(Acceptor::new(
                options.durable_acceptors,
                told.clone(),
            )))
        })
        .collect();
    for (index, id) in proposers.iter().enumerate() {
        let proposer = Proposer::new(*id, index, layout.servers, *options);
        actors.push(Actor::Proposer(Box::new(proposer)));
    }
    for _ in 0..layout.learners {
        let learner = LearnerNode::new(layout.servers, proposers.clone(), *options);
        actors.push(Actor::PaxosLearner(Box::new(learner)));
    }
    actors
}

fn lock_options(config: &WorldConfig) -> &LockServiceOptions {
    config
        .protocol
        .lock_options()
        .expect("a coordination world's builder runs only with lock options")
}

fn cluster_raft(config: &WorldConfig, layout: &Layout, index: usize) -> ClusterRaft {
    let timing = RaftTiming::from_timing(&config.timing);
    ClusterRaft::new(
        NodeId(index as u16),
        layout.servers,
        config.raft.clone(),
        timing,
    )
}

/// The lock service's servers: Raft with the lock state machine on top.
fn lock_servers(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let lock_delay_ms = lock_options(config).lock_delay_ms;
    (0..layout.servers)
        .map(|index| {
            let raft = cluster_raft(config, layout, index);
            let server = LockServer::new(raft).with_lock_delay_ms(lock_delay_ms);
            Actor::LockServer(Box::new(server))
        })
        .collect()
}

/// Redis-style servers; only a single Redis server reports its grants to the checkers as the truth.
fn kv_servers(layout: &Layout, report_facts: bool) -> Vec<Actor> {
    (0..layout.servers)
        .map(|_| Actor::KvServer(Box::new(KvLockServer::new(report_facts))))
        .collect()
}

/// Lock-taking workers `A`, `B`, ... on `backend`.
fn workers(layout: &Layout, options: &LockServiceOptions, backend: Backend) -> Vec<Actor> {
    (0..layout.workers)
        .map(|index| {
            let (id, store_node) = (layout.worker(index), layout.store());
            let worker =
                Worker::new(id, layout.servers, store_node, *options).with_backend(backend);
            Actor::Worker(Box::new(worker))
        })
        .collect()
}

fn store(fencing: bool, options: &LockServiceOptions) -> Actor {
    let resource = Resource::new(fencing, options.initial_count)
        .with_idempotency_scope(options.idempotency_scope);
    Actor::Resource(Box::new(resource))
}
