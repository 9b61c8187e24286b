//! Handing a learner's roles to the actors that play them (`contract::roles`).
//!
//! The lab builds a world as anyone does, then gives it the roles before the first event: the store
//! gets the write rule, every Redis-style server the release rule, every scheduler instance the guard.
//! A role an actor does not play is ignored, so one bundle fits every world. Nothing else changes:
//! the roles are asked only at the moments they replace (an access, a `DEL`, the top of a minute),
//! none of which happens at a world's start.

use super::World;
use crate::contract::roles::{RoleSlot, Roles};
use crate::worlds::actor::Actor;

impl World {
    /// Gives each actor the role it plays in `roles`; returns how many actors took one.
    pub fn install_roles(&mut self, roles: &Roles) -> usize {
        let mut taken = 0;
        for slot in &mut self.nodes {
            let took = match &mut slot.actor {
                Actor::Resource(store) => put(&mut store.write_rule, &roles.store_write),
                Actor::KvServer(server) => put(&mut server.release_rule, &roles.release),
                Actor::Scheduler(instance) => put(&mut instance.job_guard, &roles.job_guard),
                _ => false,
            };
            taken += usize::from(took);
        }
        taken
    }
}

fn put<T: ?Sized>(slot: &mut RoleSlot<T>, role: &Option<std::sync::Arc<T>>) -> bool {
    match role {
        Some(role) => {
            slot.0 = Some(role.clone());
            true
        }
        None => false,
    }
}
