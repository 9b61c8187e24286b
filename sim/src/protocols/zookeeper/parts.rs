//! What the ZooKeeper-style election world owns beyond its candidates, for its registry entry: the
//! option compare mode flips and its lesson checkpoints (`checkpoints.rs`).

use crate::contract::checkpoint::CheckpointSpec;
use crate::contract::entry::parts::{VariationHook, WorldParts};

#[derive(Debug)]
pub struct ZookeeperParts;

impl WorldParts for ZookeeperParts {
    fn variations(&self) -> &'static [VariationHook] {
        &[super::variations::RECIPE]
    }

    fn checkpoints(&self) -> &'static [CheckpointSpec] {
        super::checkpoints::CHECKPOINTS
    }
}
