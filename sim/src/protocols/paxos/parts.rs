//! What the Paxos world owns beyond its actors, for its registry entry: the checker of Agreement,
//! Validity and Stability, and the chaos plan aimed at the acceptors holding the chosen value.

use super::checker::PaxosChecker;
use crate::contract::entry::parts::{AimedChaos, Arming, WorldParts};
use crate::contract::verdicts::WorldChecker;

#[derive(Debug)]
pub struct PaxosParts;

impl WorldParts for PaxosParts {
    fn checker(&self, arming: &Arming) -> Option<Box<dyn WorldChecker>> {
        Some(Box::new(PaxosChecker::armed(arming)))
    }

    fn aimed_chaos(&self) -> Option<AimedChaos> {
        Some(super::chaos::AIMED)
    }
}
