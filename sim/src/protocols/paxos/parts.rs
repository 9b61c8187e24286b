//! What the Paxos world owns beyond its actors, for its registry entry: the checker of Agreement,
//! Validity and Stability, and its lesson checkpoints (`checkpoints.rs`). (Its aimed chaos, `chaos.rs`, is listed apart: `registry::chaos`.)

use super::checker::PaxosChecker;
use crate::contract::checkpoint::CheckpointSpec;
use crate::contract::entry::parts::{Arming, WorldParts};
use crate::contract::verdicts::WorldChecker;

#[derive(Debug)]
pub struct PaxosParts;

impl WorldParts for PaxosParts {
    fn checker(&self, arming: &Arming) -> Option<Box<dyn WorldChecker>> {
        Some(Box::new(PaxosChecker::armed(arming)))
    }

    fn checkpoints(&self) -> &'static [CheckpointSpec] {
        super::checkpoints::CHECKPOINTS
    }
}
