//! What the lock-service world owns beyond its servers and clients, for its registry entry: the
//! options compare mode flips.

use crate::contract::entry::parts::{VariationHook, WorldParts};

#[derive(Debug)]
pub struct LockServiceParts;

impl WorldParts for LockServiceParts {
    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::FENCING, super::variations::LOCK_DELAY]
    }
}
