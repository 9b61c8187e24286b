//! The lock-taking workers `A`, `B`, ... as the lock-family worlds build them, after the servers and
//! in node order, drawing nothing from the world's generator. Generic over the world's actor type,
//! which the registry line picks; `A: From<Worker>` wraps each in its variant.

use super::{Backend, Worker};
use crate::contract::config::LockServiceOptions;
use crate::contract::layout::Layout;

/// One worker per lettered node, on `backend`.
pub fn workers<A: From<Worker>>(
    layout: &Layout,
    options: &LockServiceOptions,
    backend: Backend,
) -> Vec<A> {
    (0..layout.workers)
        .map(|index| {
            let (id, store_node) = (layout.worker(index), layout.store());
            let worker =
                Worker::new(id, layout.servers, store_node, *options).with_backend(backend);
            A::from(worker)
        })
        .collect()
}
