//! What the Redlock world owns beyond its servers and clients, for its registry entry: the variation
//! that trades it for the fenced lock service.

use crate::contract::entry::parts::{VariationHook, WorldParts};

#[derive(Debug)]
pub struct RedlockParts;

impl WorldParts for RedlockParts {
    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::REDLOCK]
    }
}
