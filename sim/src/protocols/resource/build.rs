//! The protected store as the lock-family worlds build it: the last node, fencing or not as the world
//! says, with the world's starting count and idempotency scope. Generic over the world's actor type,
//! which the registry line picks; `A: From<Resource>` wraps it in its variant.

use crate::contract::config::LockServiceOptions;
use crate::protocols::resource::Resource;

/// The store, fencing when `fencing`.
pub fn store<A: From<Resource>>(fencing: bool, options: &LockServiceOptions) -> A {
    let resource = Resource::new(fencing, options.initial_count)
        .with_idempotency_scope(options.idempotency_scope);
    A::from(resource)
}
