//! What the lock-service world owns beyond its servers and clients, for its registry entry: the
//! options compare mode flips and the models its clients' histories are judged by.

use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::{VariationHook, WorldParts};
use crate::contract::erased_model::DynModel;
use crate::protocols::lockservice::lock_model::LOCK_MODEL;
use crate::protocols::lockservice::store_model::FENCED_STORE_MODEL;

#[derive(Debug)]
pub struct LockServiceParts;

/// The store is judged as a fenced store whether or not it checks tokens: that is the promise the
/// lock is there to keep, and a store that takes any write is how a history comes to break it.
static MODELS: &[&dyn DynModel] = &[&FENCED_STORE_MODEL, &LOCK_MODEL];

impl WorldParts for LockServiceParts {
    /// Its workers take the lock and work on the store.
    fn history_models(&self, _protocol: &ProtocolConfig) -> &'static [&'static dyn DynModel] {
        MODELS
    }

    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::FENCING, super::variations::LOCK_DELAY]
    }
}
