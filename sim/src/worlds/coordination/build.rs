//! The actor builders of the lock-family worlds, whose folders cannot hold them yet: the lock service,
//! the single Redis lock, Redlock, the invoice scheduler, ZooKeeper and the work queue. Plain Raft,
//! Paxos and PBFT build their actors in their own folders (`protocols/<world>/build.rs`), generic over
//! the actor type, and their registry lines pick this crate's `Actor`.
//!
//! The lock family stays a layer up for two reasons. Four of its folders would close module cycles:
//! each needs the lock-taking workers (`protocols::worker`) or the store (`protocols::resource`), and the
//! worker module imports the lock service's and Redis's messages while the store speaks the scheduler's
//! invoices. And a builder in the ZooKeeper or work-queue folder would be one more file there naming the
//! lock service (for its servers), which `sim/tests/protocol_names.rs` counts. They share the pieces the
//! folders export (`lockservice::build::servers`, `worker::build::workers`, `resource::build::store`). Like every builder they lay the actors out in node order — servers
//! `n1..nN`, then the lettered actors, then the `store` — and draw nothing from the world's generator,
//! so construction leaves every seeded run as it was.

use super::Layout;
use crate::contract::config::{SchedulerMode, WorldConfig};
use crate::protocols::lockservice::build::{lock_options, servers};
use crate::protocols::redlock::KvLockServer;
use crate::protocols::resource::build::store;
use crate::protocols::scheduler::SchedulerInstance;
use crate::protocols::worker::build::workers;
use crate::protocols::worker::{Backend, Worker};
use crate::protocols::zookeeper::ZkCandidate;
use crate::worlds::actor::{Actor, Message};

pub fn lock_service(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let options = lock_options(config);
    let mut actors = servers::<Actor, Message>(config, layout);
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
    let Some((options, scheduler)) = config.protocol.scheduler() else {
        unreachable!("the scheduler's builder runs only for a scheduler world");
    };
    let mut actors = servers::<Actor, Message>(config, layout);
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
    let Some((options, recipe)) = config.protocol.zookeeper() else {
        unreachable!("the ZooKeeper builder runs only for a ZooKeeper world");
    };
    let mut actors = servers::<Actor, Message>(config, layout);
    for index in 0..layout.workers {
        let candidate = ZkCandidate::new(layout.worker(index), layout.servers, *options, *recipe);
        actors.push(Actor::Candidate(Box::new(candidate)));
    }
    actors
}

pub fn work_queue(config: &WorldConfig, layout: &Layout) -> Vec<Actor> {
    let Some((options, queue)) = config.protocol.work_queue() else {
        unreachable!("the work queue's builder runs only for a work-queue world");
    };
    let mut actors = servers::<Actor, Message>(config, layout);
    for index in 0..layout.workers {
        let (id, store_node) = (layout.worker(index), layout.store());
        let worker = Worker::new(id, layout.servers, store_node, *options).with_queue(*queue);
        actors.push(Actor::Worker(Box::new(worker)));
    }
    actors.push(store(options.fencing, options));
    actors
}

/// Redis-style servers; only a single Redis server reports its grants to the checkers as the truth.
fn kv_servers(layout: &Layout, report_facts: bool) -> Vec<Actor> {
    (0..layout.servers)
        .map(|_| Actor::KvServer(Box::new(KvLockServer::new(report_facts))))
        .collect()
}
