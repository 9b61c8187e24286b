//! What the Paxos world owns beyond its actors, for its registry entry: the checker of Agreement,
//! Validity and Stability, and its lesson checkpoints (`checkpoints.rs`). (Its aimed chaos, `chaos.rs`, is listed apart: `registry::chaos`.)

use super::checker::PaxosChecker;
use crate::contract::checkpoint::CheckpointSpec;
use crate::contract::config::ProtocolConfig;
use crate::contract::entry::parts::{Arming, Population, WorldParts};
use crate::contract::verdicts::WorldChecker;

#[derive(Debug)]
pub struct PaxosParts;

impl WorldParts for PaxosParts {
    /// The proposers, and the learner actors the options ask for.
    fn population(&self, protocol: &ProtocolConfig) -> Population {
        let learners = match protocol {
            ProtocolConfig::Paxos(_, options) => options.learners,
            _ => 0,
        };
        Population {
            learners,
            ..Population::lettered(protocol)
        }
    }

    fn checker(&self, arming: &Arming) -> Option<Box<dyn WorldChecker>> {
        Some(Box::new(PaxosChecker::armed(arming)))
    }

    fn checkpoints(&self) -> &'static [CheckpointSpec] {
        super::checkpoints::CHECKPOINTS
    }
}
