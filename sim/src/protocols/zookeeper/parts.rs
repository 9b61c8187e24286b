//! What the ZooKeeper-style election world owns beyond its candidates, for its registry entry: the
//! option compare mode flips.

use crate::contract::entry::parts::{VariationHook, WorldParts};

#[derive(Debug)]
pub struct ZookeeperParts;

impl WorldParts for ZookeeperParts {
    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::RECIPE]
    }
}
