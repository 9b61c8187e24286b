//! The lock service's servers, as every world on a lock service builds them (the lock service itself,
//! the scheduler, ZooKeeper and the work queue): Raft with the lock state machine on top, in node
//! order, drawing nothing from the world's generator. Generic over the world's actor type `A` and
//! message type `M`, which the registry line picks; `A: From<…>` wraps each server in its variant.

use super::LockServer;
use crate::contract::config::{LockServiceOptions, WorldConfig};
use crate::contract::layout::Layout;

/// The lock options every world on a lock service carries.
pub fn lock_options(config: &WorldConfig) -> &LockServiceOptions {
    config
        .protocol
        .lock_options()
        .expect("a coordination world's builder runs only with lock options")
}

/// Servers `n1..nN`: Raft with the lock state machine and the world's lock-delay.
pub fn servers<A: From<LockServer<M>>, M>(config: &WorldConfig, layout: &Layout) -> Vec<A> {
    let lock_delay_ms = lock_options(config).lock_delay_ms;
    (0..layout.servers)
        .map(|index| {
            let raft = crate::protocols::raft::build::server(config, layout, index);
            A::from(LockServer::new(raft).with_lock_delay_ms(lock_delay_ms))
        })
        .collect()
}
